// RUN: %check_clang_tidy %s 'cublas-host-pointer,cublas-device-pointer' %t -- -- -std=c++17

// cuSPARSE reads alpha and beta, and writes cusparseSpVV's result, in host
// or device memory by its handle's own pointer mode (cusparseSetPointerMode,
// CUSPARSE_POINTER_MODE_HOST after cusparseCreate), apart from any cuBLAS
// handle's.

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusparse.h>

// --- Reported -------------------------------------------------------------

void device_alpha_in_host_mode(cusparseSpMatDescr_t A, cusparseDnVecDescr_t x,
                               cusparseDnVecDescr_t y, void *buffer) {
  cusparseHandle_t h;
  cusparseCreate(&h);
  float *dAlpha, *dBeta;
  cudaMalloc(&dAlpha, sizeof(float));
  cudaMalloc(&dBeta, sizeof(float));
  cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, dAlpha, A, x, dBeta, y,
               CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buffer);
  // CHECK-NOTES: :[[@LINE-2]]:53: warning: 'dAlpha' points to device memory from 'cudaMalloc', but 'alpha' of 'cusparseSpMV' is read from host memory: the pointer mode of 'h' is CUSPARSE_POINTER_MODE_HOST [cublas-device-pointer]
  // CHECK-NOTES: :[[@LINE-5]]:3: note: allocated by 'cudaMalloc' here
  // CHECK-NOTES: :[[@LINE-8]]:3: note: 'h' is created here in the default CUSPARSE_POINTER_MODE_HOST
  // CHECK-NOTES: :[[@LINE-5]]:67: warning: 'dBeta' points to device memory from 'cudaMalloc', but 'beta' of 'cusparseSpMV' is read from host memory: the pointer mode of 'h' is CUSPARSE_POINTER_MODE_HOST [cublas-device-pointer]
  // CHECK-NOTES: :[[@LINE-7]]:3: note: allocated by 'cudaMalloc' here
  // CHECK-NOTES: :[[@LINE-11]]:3: note: 'h' is created here in the default CUSPARSE_POINTER_MODE_HOST
  cusparseDestroy(h);
}

void host_alpha_in_device_mode(cusparseHandle_t h, cusparseSpMatDescr_t A,
                               cusparseDnMatDescr_t B, cusparseDnMatDescr_t C,
                               void *buffer) {
  float alpha = 1.0f, beta = 0.0f;
  cusparseSetPointerMode(h, CUSPARSE_POINTER_MODE_DEVICE);
  cusparseSpMM(h, CUSPARSE_OPERATION_NON_TRANSPOSE,
               CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, B, &beta, C,
               CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, buffer);
  // CHECK-NOTES: :[[@LINE-2]]:50: warning: '&alpha' points to a variable on the host stack, but 'alpha' of 'cusparseSpMM' is read from device memory: the pointer mode of 'h' is CUSPARSE_POINTER_MODE_DEVICE [cublas-host-pointer]
  // CHECK-NOTES: :[[@LINE-6]]:9: note: 'alpha' declared here
  // CHECK-NOTES: :[[@LINE-6]]:3: note: pointer mode of 'h' set to CUSPARSE_POINTER_MODE_DEVICE here
  // CHECK-NOTES: :[[@LINE-5]]:64: warning: '&beta' points to a variable on the host stack, but 'beta' of 'cusparseSpMM' is read from device memory: the pointer mode of 'h' is CUSPARSE_POINTER_MODE_DEVICE [cublas-host-pointer]
  // CHECK-NOTES: :[[@LINE-9]]:23: note: 'beta' declared here
  // CHECK-NOTES: :[[@LINE-9]]:3: note: pointer mode of 'h' set to CUSPARSE_POINTER_MODE_DEVICE here
}

// cusparseSpVV writes its result by the pointer mode too.
void device_result_in_host_mode(cusparseSpVecDescr_t x,
                                cusparseDnVecDescr_t y, void *buffer) {
  cusparseHandle_t h;
  cusparseCreate(&h);
  float *dResult;
  cudaMalloc(&dResult, sizeof(float));
  cusparseSpVV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, x, y, dResult, CUDA_R_32F,
               buffer);
  // CHECK-NOTES: :[[@LINE-2]]:59: warning: 'dResult' points to device memory from 'cudaMalloc', but 'result' of 'cusparseSpVV' is written to host memory: the pointer mode of 'h' is CUSPARSE_POINTER_MODE_HOST [cublas-device-pointer]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: allocated by 'cudaMalloc' here
  // CHECK-NOTES: :[[@LINE-7]]:3: note: 'h' is created here in the default CUSPARSE_POINTER_MODE_HOST
  cusparseDestroy(h);
}

// --- Not reported ---------------------------------------------------------

void host_scalars_in_host_mode(cusparseSpMatDescr_t A, cusparseDnVecDescr_t x,
                               cusparseDnVecDescr_t y, void *buffer) {
  cusparseHandle_t h;
  cusparseCreate(&h);
  float alpha = 1.0f, beta = 0.0f;
  cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, x, &beta, y,
               CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buffer);
  cusparseDestroy(h);
}

void device_scalars_in_device_mode(cusparseSpMatDescr_t A,
                                   cusparseDnVecDescr_t x,
                                   cusparseDnVecDescr_t y, void *buffer) {
  cusparseHandle_t h;
  cusparseCreate(&h);
  cusparseSetPointerMode(h, CUSPARSE_POINTER_MODE_DEVICE);
  float *dAlpha, *dBeta;
  cudaMalloc(&dAlpha, sizeof(float));
  cudaMalloc(&dBeta, sizeof(float));
  cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, dAlpha, A, x, dBeta, y,
               CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buffer);
  cusparseDestroy(h);
}

// A handle given by the caller: its mode is unknown.
void parameter_handle(cusparseHandle_t h, cusparseSpMatDescr_t A,
                      cusparseDnVecDescr_t x, cusparseDnVecDescr_t y,
                      void *buffer) {
  float *dAlpha, *dBeta;
  cudaMalloc(&dAlpha, sizeof(float));
  cudaMalloc(&dBeta, sizeof(float));
  cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, dAlpha, A, x, dBeta, y,
               CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buffer);
}

// A function of the user's may set the mode of the handle it is given.
void configure(cusparseHandle_t h);
void configured_elsewhere(cusparseSpMatDescr_t A, cusparseDnVecDescr_t x,
                          cusparseDnVecDescr_t y, void *buffer) {
  cusparseHandle_t h;
  cusparseCreate(&h);
  configure(h);
  float *dAlpha, *dBeta;
  cudaMalloc(&dAlpha, sizeof(float));
  cudaMalloc(&dBeta, sizeof(float));
  cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, dAlpha, A, x, dBeta, y,
               CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buffer);
  cusparseDestroy(h);
}

// The size query does not read the scalars.
void query_with_device_scalars(cusparseSpMatDescr_t A, cusparseDnVecDescr_t x,
                               cusparseDnVecDescr_t y) {
  cusparseHandle_t h;
  cusparseCreate(&h);
  float *dAlpha, *dBeta;
  cudaMalloc(&dAlpha, sizeof(float));
  cudaMalloc(&dBeta, sizeof(float));
  size_t size = 0;
  cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, dAlpha, A, x,
                          dBeta, y, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT,
                          &size);
  cusparseDestroy(h);
}

// The two libraries' modes are apart: a cuBLAS handle in device mode leaves
// the cuSPARSE handle in host mode, and the reverse.
void two_libraries(cublasHandle_t bh, cusparseSpMatDescr_t A,
                   cusparseDnVecDescr_t x, cusparseDnVecDescr_t y,
                   void *buffer, float *dX, int n) {
  cusparseHandle_t sh;
  cusparseCreate(&sh);
  cublasSetPointerMode(bh, CUBLAS_POINTER_MODE_DEVICE);
  float alpha = 1.0f, beta = 0.0f;
  cusparseSpMV(sh, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, x, &beta, y,
               CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buffer);
  cublasSetPointerMode(bh, CUBLAS_POINTER_MODE_HOST);
  cusparseSetPointerMode(sh, CUSPARSE_POINTER_MODE_DEVICE);
  cublasSscal(bh, n, &alpha, dX, 1);
  cusparseDestroy(sh);
}
