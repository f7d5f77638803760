/* Minimal stand-in for cublas_v2.h; see README.md. */
#ifndef CUBLAS_TIDY_FALLBACK_CUBLAS_V2_H
#define CUBLAS_TIDY_FALLBACK_CUBLAS_V2_H
#include "cublas_api.h"
#define cublasCreate cublasCreate_v2
#define cublasDestroy cublasDestroy_v2
#define cublasSetStream cublasSetStream_v2
#define cublasSetWorkspace cublasSetWorkspace_v2
#define cublasGetPointerMode cublasGetPointerMode_v2
#define cublasSetPointerMode cublasSetPointerMode_v2
#define cublasSnrm2 cublasSnrm2_v2
#define cublasSscal cublasSscal_v2
#define cublasSaxpy cublasSaxpy_v2
#define cublasSdot cublasSdot_v2
#define cublasSgemm cublasSgemm_v2
#define cublasDgemm cublasDgemm_v2
#define cublasSgemm_64 cublasSgemm_v2_64
#endif
