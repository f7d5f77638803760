#include "context.h"
#include <cstdio>

cublasHandle_t g_handle;
cublasHandle_t g_scratch;

void shutdownContext() {
  if (cublasDestroy(g_handle) != CUBLAS_STATUS_SUCCESS)
    std::fprintf(stderr, "cublasDestroy failed\n");
}

void flushContext() { std::fflush(stderr); }
