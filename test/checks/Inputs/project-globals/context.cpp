#include "context.h"
#include <cstdio>

cublasHandle_t g_handle;
cublasHandle_t g_scratch;
cublasHandle_t g_once;
cublasHandle_t g_workspace;

// Create on every call, with no guard.
void openContext() { cublasCreate(&g_handle); }
void openScratch() { cublasCreate(&g_scratch); }
void openWorkspace() { cublasCreate(&g_workspace); }

// Create on the first call only.
void openOnce() {
  if (!g_once)
    cublasCreate(&g_once);
}

void shutdownContext() {
  if (cublasDestroy(g_handle) != CUBLAS_STATUS_SUCCESS)
    std::fprintf(stderr, "cublasDestroy failed\n");
}

void flushContext() { std::fflush(stderr); }
