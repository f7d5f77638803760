#include <cusolverDn.h>
cusolverStatus_t factor(float *A, int n, float *work, int lwork, int *info);
void all(float **As, int count, int n, float *work, int lwork, int *info) {
  for (int i = 0; i < count; ++i)
    if (factor(As[i], n, work, lwork, info) != CUSOLVER_STATUS_SUCCESS)
      return;
}
void discard(float *A, int n, float *work, int lwork, int *info) {
  factor(A, n, work, lwork, info);
}
void hostInfo(float *A, int n, float *work, int lwork) {
  int info = 0;
  if (factor(A, n, work, lwork, &info) != CUSOLVER_STATUS_SUCCESS)
    return;
}
void right(float *A, int n, float *work, int lwork, int *d_info) {
  if (factor(A, n, work, lwork, d_info) != CUSOLVER_STATUS_SUCCESS)
    return;
}
