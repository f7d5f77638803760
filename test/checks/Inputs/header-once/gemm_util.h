// A header with a finding, included by two units under two spellings.
#pragma once
#include <cublas_v2.h>

inline void scaleAll(cublasHandle_t handle, float *x, int n) {
  const float alpha = 2.0f;
  cublasSscal(handle, n, &alpha, x, 1);
}
