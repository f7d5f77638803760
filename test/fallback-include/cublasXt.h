/* Minimal stand-in for cublasXt.h; see README.md. */
#ifndef CUBLAS_TIDY_FALLBACK_CUBLASXT_H
#define CUBLAS_TIDY_FALLBACK_CUBLASXT_H
#include <stddef.h>
#include "cublas_api.h"
#ifdef __cplusplus
extern "C" {
#endif
struct cublasXtContext;
typedef struct cublasXtContext *cublasXtHandle_t;
cublasStatus_t CUBLASWINAPI cublasXtCreate(cublasXtHandle_t *handle);
cublasStatus_t CUBLASWINAPI cublasXtDestroy(cublasXtHandle_t handle);
cublasStatus_t CUBLASWINAPI cublasXtSgemm(cublasXtHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, size_t m, size_t n, size_t k, const float* alpha, const float* A, size_t lda, const float* B, size_t ldb, const float* beta, float* C, size_t ldc);
#ifdef __cplusplus
}
#endif
#endif
