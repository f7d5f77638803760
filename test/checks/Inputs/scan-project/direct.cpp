// Includes cuBLAS itself.
#include <cublas_v2.h>

void scale(cublasHandle_t handle, float *x, int n) {
  const float alpha = 2.0f;
  cublasSscal(handle, n, &alpha, x, 1);
}
