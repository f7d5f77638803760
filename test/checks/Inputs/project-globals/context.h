// The project's cuBLAS context: handles kept in globals, created in
// engine.cpp, destroyed in context.cpp.
#include <cublas_v2.h>

extern cublasHandle_t g_handle;   // destroyed by shutdownContext()
extern cublasHandle_t g_scratch;  // destroyed nowhere

void shutdownContext();           // context.cpp
void flushContext();              // context.cpp: destroys nothing
