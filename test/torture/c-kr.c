/* K&R-style C, implicit conversions, and a handle in a struct and an array. */
#include <cublas_v2.h>

struct ctx {
  cublasHandle_t h[4];
  cublasHandle_t one;
};

int old_style(c, n, p)
struct ctx *c;
int n;
float *p;
{
  int i;
  for (i = 0; i < n && i < 4; ++i)
    if (cublasCreate(&c->h[i]) != CUBLAS_STATUS_SUCCESS)
      return 1;
  if (cublasCreate(&c->one))
    return 2;
  return cublasDestroy(c->h[0]) | (int)cublasSetStream(c->one, 0) | (p == 0);
}
