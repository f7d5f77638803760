#include <cusolverDn.h>
cusolverStatus_t factor(float *A, int n, float *work, int lwork, int *info) {
  cusolverDnHandle_t h;
  cusolverStatus_t st = cusolverDnCreate(&h);
  if (st != CUSOLVER_STATUS_SUCCESS)
    return st;
  st = cusolverDnSpotrf(h, CUBLAS_FILL_MODE_LOWER, n, A, n, work, lwork, info);
  cusolverStatus_t d = cusolverDnDestroy(h);
  return st != CUSOLVER_STATUS_SUCCESS ? st : d;
}
