// Macros that expand to cuBLAS calls with odd argument shapes, and function
// pointers to cuBLAS functions.
#include <cublas_v2.h>

#define CALL(f, ...) f(__VA_ARGS__)
#define GEMM_ARGS(h, n, A) h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, A, n, &one, A, n
#define EMPTY
#define PASTE(a, b) a##b
#define CHECKED(x) ((x) == CUBLAS_STATUS_SUCCESS ? 0 : 1)

typedef cublasStatus_t (*Destroy)(cublasHandle_t);
static const Destroy destroyers[] = {cublasDestroy, cublasDestroy_v2};

int f(cublasHandle_t h, float *A, int n) {
  const float one = 1.0f;
  int bad = CHECKED(CALL(cublasSgemm, GEMM_ARGS(h, n, A)));
  bad += CHECKED(PASTE(cublas, Sgemm)(GEMM_ARGS(h, n, A) EMPTY));
  cublasStatus_t (*fp)(cublasHandle_t, cublasOperation_t, cublasOperation_t,
                       int, int, int, const float *, const float *, int,
                       const float *, int, const float *, float *, int) =
      &cublasSgemm_v2;
  bad += CHECKED((*fp)(GEMM_ARGS(h, n, A)));
  bad += CHECKED(destroyers[n & 1](h));
  bad += CHECKED((n ? cublasDestroy : cublasDestroy_v2)(h));
  return bad;
}
