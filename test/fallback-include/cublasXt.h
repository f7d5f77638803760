/* Minimal stand-in for cublasXt.h; see README.md. */
#ifndef CUBLAS_TIDY_FALLBACK_CUBLASXT_H
#define CUBLAS_TIDY_FALLBACK_CUBLASXT_H
#include "cublas_api.h"
#ifdef __cplusplus
extern "C" {
#endif
struct cublasXtContext;
typedef struct cublasXtContext *cublasXtHandle_t;
cublasStatus_t CUBLASWINAPI cublasXtCreate(cublasXtHandle_t *handle);
cublasStatus_t CUBLASWINAPI cublasXtDestroy(cublasXtHandle_t handle);
#ifdef __cplusplus
}
#endif
#endif
