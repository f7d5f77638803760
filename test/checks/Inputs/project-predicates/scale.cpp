#include "status.h"

// The second error return skips the destroy.
int scale(float *X, int N) {
  cublasHandle_t H;
  if (!cublasOk(cublasCreate(&H)))
    return 1;
  const float Two = 2.0f;
  if (!cublasOk(cublasSscal(H, N, &Two, X, 1)))
    return 2;
  cublasDestroy(H);
  return 0;
}

int axpy(const float *X, float *Y, int N) {
  cublasHandle_t H;
  if (cublasFailed(cublasCreate(&H)))
    return 1;
  const float One = 1.0f;
  if (cublasFailed(cublasSaxpy(H, N, &One, X, 1, Y, 1)))
    return 2;
  cublasDestroy(H);
  return 0;
}

// Right: the failed create returns, every other way out destroys.
int scaleRight(float *X, int N) {
  cublasHandle_t H;
  if (!cublasOk(cublasCreate(&H)))
    return 1;
  const float Two = 2.0f;
  bool Done = cublasOk(cublasSscal(H, N, &Two, X, 1));
  cublasDestroy(H);
  return Done ? 0 : 2;
}

// A test that says nothing of the status: either branch may be the failed
// create.
int scaleLogged(float *X, int N) {
  cublasHandle_t H;
  if (!cublasLogged(cublasCreate(&H)))
    return 1;
  const float Two = 2.0f;
  if (!cublasLogged(cublasSscal(H, N, &Two, X, 1)))
    return 2;
  cublasDestroy(H);
  return 0;
}
