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
#define cublasSaxpy_64 cublasSaxpy_v2_64
#define cublasScopy cublasScopy_v2
#define cublasSnrm2 cublasSnrm2_v2
#define cublasSscal cublasSscal_v2
#define cublasSasum cublasSasum_v2
#define cublasIsamax cublasIsamax_v2
#define cublasSrot cublasSrot_v2
#define cublasSswap cublasSswap_v2
#define cublasSgemv cublasSgemv_v2
#define cublasSgbmv cublasSgbmv_v2
#define cublasStrsv cublasStrsv_v2
#define cublasStbmv cublasStbmv_v2
#define cublasStpmv cublasStpmv_v2
#define cublasSsymv cublasSsymv_v2
#define cublasSsbmv cublasSsbmv_v2
#define cublasSger cublasSger_v2
#define cublasSsyr cublasSsyr_v2
#define cublasSsymm cublasSsymm_v2
#define cublasSsyrk cublasSsyrk_v2
#define cublasSsyr2k cublasSsyr2k_v2
#define cublasStrmm cublasStrmm_v2
#define cublasStrsm cublasStrsm_v2
#endif
