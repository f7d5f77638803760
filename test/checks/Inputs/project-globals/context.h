// The project's cuBLAS context: handles kept in globals, created in
// engine.cpp, destroyed in context.cpp.
#include <cublas_v2.h>

extern cublasHandle_t g_handle;   // destroyed by shutdownContext()
extern cublasHandle_t g_scratch;  // destroyed nowhere
extern cublasHandle_t g_once;     // created once
extern cublasHandle_t g_workspace;

void shutdownContext();           // context.cpp
void flushContext();              // context.cpp: destroys nothing
void openContext();               // context.cpp: creates g_handle
void openScratch();               // context.cpp: creates g_scratch
void openOnce();                  // context.cpp: creates g_once, guarded
void openWorkspace();             // context.cpp: creates g_workspace
