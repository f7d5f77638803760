#include "project.h"

#include <cuda_runtime.h>

cublasHandle_t g_blas;

// The handle given to shutdown(), which gives it to destroyHandle() of
// raw.cpp: destroyed, then used.
void usedAfterShutdown(float *x) {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    return;
  shutdown(h);
  const float a = 2.0f;
  ok(cublasSscal(h, 16, &a, x, 1));
}

// scale() only uses the handle (through scaleRaw): it leaks here; the one
// given to shutdown() afterwards does not.
void leaks(float *x) {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    return;
  ok(scale(h, 16, x));
}
void doesNotLeak(float *x) {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    return;
  ok(scale(h, 16, x));
  shutdown(h);
}

// The status scale() returns is cublasSscal's, two files down.
void discards(cublasHandle_t h, float *x) { scale(h, 16, x); }

// Buffers three files down: layer() reads W transposed (lda = rows) and
// writes Y, rows x rows each.
void shortOutput(cublasHandle_t h) {
  float *W, *X, *Y;
  cudaMalloc(&W, 64 * 64 * sizeof(float));
  cudaMalloc(&X, 64 * 64 * sizeof(float));
  cudaMalloc(&Y, 64 * 64);
  layer(h, 64, W, X, Y);
}
void rightSizes(cublasHandle_t h) {
  float *W, *X, *Y;
  cudaMalloc(&W, 64 * 64 * sizeof(float));
  cudaMalloc(&X, 64 * 64 * sizeof(float));
  cudaMalloc(&Y, 64 * 64 * sizeof(float));
  layer(h, 64, W, X, Y);
}
// gemm()'s flag picks A's leading dimension in raw.cpp: A is 32 x 64
// read transposed (lda = 32) and fits; not transposed it needs lda = 64.
void transposeFlag(cublasHandle_t h) {
  float *A, *B, *C;
  cudaMalloc(&A, 32 * 64 * sizeof(float));
  cudaMalloc(&B, 32 * 16 * sizeof(float));
  cudaMalloc(&C, 64 * 16 * sizeof(float));
  gemm(h, 1, 64, 16, 32, A, B, C);
  float *Small;
  cudaMalloc(&Small, 32 * 32 * sizeof(float));
  gemm(h, 0, 64, 16, 32, Small, B, C);
}

// step() makes a handle per call, through scratch() of raw.cpp.
void train(float *x) {
  for (int i = 0; i < 100; ++i)
    step(x);
}
void once(float *x) { step(x); }

// The global handle: teardown() destroys it, through destroyGlobal() of
// raw.cpp, in each iteration; not in the second loop.
void init() { ok(cublasCreate(&g_blas)); }
void epochs() {
  for (int e = 0; e < 10; ++e) {
    init();
    teardown();
  }
}
void restarts() {
  for (int e = 0; e < 10; ++e)
    init();
  teardown();
}

int main() { return 0; }

// teardown() leaves the global destroyed on every way out, through
// destroyGlobal(): a use after it is a use after destroy; not once init()
// made it again.
void afterTeardown(float *x) {
  teardown();
  const float a = 2.0f;
  ok(cublasSscal(g_blas, 16, &a, x, 1));
}
void restartThenUse(float *x) {
  teardown();
  init();
  const float a = 2.0f;
  ok(cublasSscal(g_blas, 16, &a, x, 1));
}
