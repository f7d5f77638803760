#include "project.h"

void shutdown(cublasHandle_t h) { destroyHandle(h); }

cublasStatus_t scale(cublasHandle_t h, int n, float *x) {
  return scaleRaw(h, n, x);
}

void gemm(cublasHandle_t h, int transA, int m, int n, int k, const float *A,
          const float *B, float *C) {
  gemmRaw(h, transA, m, n, k, A, B, C);
}

void step(float *x) { scratch(x); }

void teardown() { destroyGlobal(); }
