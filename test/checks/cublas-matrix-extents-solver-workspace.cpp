// RUN: %check_clang_tidy %s cublas-matrix-extents %t -- -- -std=c++17

// cuSOLVER and cuSPARSE workspaces against their _bufferSize queries: the
// legacy cuSOLVER API counts the workspace in elements of the routine's
// type, the 64-bit API and cuSPARSE in bytes.

#include <cuda_runtime.h>
#include <cusolverDn.h>
#include <cusparse.h>

// --- Reported -------------------------------------------------------------

void getrf_elements_as_bytes(cusolverDnHandle_t h, float *A, int n,
                             int *ipiv, int *info) {
  int lwork = 0;
  cusolverDnSgetrf_bufferSize(h, n, n, A, n, &lwork);
  float *work = nullptr;
  cudaMalloc(&work, lwork);
  cusolverDnSgetrf(h, n, n, A, n, work, ipiv, info);
  // CHECK-NOTES: :[[@LINE-1]]:35: warning: 'work' holds lwork bytes (cudaMalloc of lwork bytes) but 'cusolverDnSgetrf' uses lwork float elements (lwork * 4 bytes): 'cusolverDnSgetrf_bufferSize' counts the workspace in elements, not bytes; cuSOLVER writes past its end; allocate lwork * sizeof(float) bytes [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-5]]:3: note: 'cusolverDnSgetrf_bufferSize' writes the size to 'lwork' here
  // CHECK-NOTES: :[[@LINE-4]]:3: note: allocated here
  cudaFree(work);
}

// A double routine given a buffer sized in floats.
void getrf_double_sized_as_float(cusolverDnHandle_t h, double *A, int n,
                                 int *ipiv, int *info) {
  int lwork = 0;
  cusolverDnDgetrf_bufferSize(h, n, n, A, n, &lwork);
  double *work = nullptr;
  cudaMalloc((void **)&work, sizeof(float) * lwork);
  cusolverDnDgetrf(h, n, n, A, n, work, ipiv, info);
  // CHECK-NOTES: :[[@LINE-1]]:35: warning: 'work' holds 4*lwork bytes (cudaMalloc of sizeof(float) * lwork bytes) but 'cusolverDnDgetrf' uses lwork double elements (lwork * 8 bytes): 'cusolverDnDgetrf_bufferSize' counts the workspace in elements, not bytes; cuSOLVER writes past its end; allocate lwork * sizeof(double) bytes [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-5]]:3: note: 'cusolverDnDgetrf_bufferSize' writes the size to 'lwork' here
  // CHECK-NOTES: :[[@LINE-4]]:3: note: allocated here
  cudaFree(work);
}

// A routine that takes the size: the size given is in elements too.
void potrf_size_given(cusolverDnHandle_t h, float *A, int n, int *info) {
  int lwork = 0;
  cusolverDnSpotrf_bufferSize(h, CUBLAS_FILL_MODE_LOWER, n, A, n, &lwork);
  float *work = nullptr;
  cudaMalloc(&work, lwork);
  cusolverDnSpotrf(h, CUBLAS_FILL_MODE_LOWER, n, A, n, work, lwork, info);
  // CHECK-NOTES: :[[@LINE-1]]:62: warning: 'Lwork' ('lwork' float elements, 4*lwork bytes) is larger than the workspace 'work' (cudaMalloc of lwork bytes); cuSOLVER may read and write past its end; Lwork counts float elements, not bytes [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: allocated here
  cudaFree(work);
}

// The 64-bit API's host size given for the device workspace.
void xgetrf_host_size_for_device(cusolverDnHandle_t h, cusolverDnParams_t p,
                                 float *A, int64_t n, int64_t *ipiv,
                                 int *info) {
  size_t dev = 0, host = 0;
  cusolverDnXgetrf_bufferSize(h, p, n, n, CUDA_R_32F, A, n, CUDA_R_32F, &dev,
                              &host);
  void *d_work = nullptr;
  cudaMalloc(&d_work, dev);
  void *h_work = malloc(host);
  cusolverDnXgetrf(h, p, n, n, CUDA_R_32F, A, n, ipiv, CUDA_R_32F, d_work,
                   host, h_work, host, info);
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: 'workspaceInBytesOnDevice' is 'host', the size 'cusolverDnXgetrf_bufferSize' wrote for the host workspace; the device workspace needs the size it wrote to 'dev' [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-8]]:3: note: 'cusolverDnXgetrf_bufferSize' writes the sizes to 'dev' and 'host' here
  cudaFree(d_work);
  free(h_work);
}

// A size queried for another routine.
void potrf_given_getrf_size(cusolverDnHandle_t h, float *A, int n, int *ipiv,
                            int *info) {
  int lwork_getrf = 0, lwork_potrf = 0;
  cusolverDnSgetrf_bufferSize(h, n, n, A, n, &lwork_getrf);
  cusolverDnSpotrf_bufferSize(h, CUBLAS_FILL_MODE_LOWER, n, A, n,
                              &lwork_potrf);
  int lwork = lwork_getrf > lwork_potrf ? lwork_getrf : lwork_potrf;
  float *work = nullptr;
  cudaMalloc(&work, sizeof(float) * lwork);
  cusolverDnSgetrf(h, n, n, A, n, work, ipiv, info);
  cusolverDnSpotrf(h, CUBLAS_FILL_MODE_LOWER, n, A, n, work, lwork_getrf,
                   info);
  // CHECK-NOTES: :[[@LINE-2]]:62: warning: 'Lwork' is 'lwork_getrf', the size 'cusolverDnSgetrf_bufferSize' wrote for 'cusolverDnSgetrf'; 'cusolverDnSpotrf' needs the size 'cusolverDnSpotrf_bufferSize' wrote to 'lwork_potrf' [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-10]]:3: note: 'cusolverDnSgetrf_bufferSize' writes 'lwork_getrf' here
  cudaFree(work);
}

// The size of one routine's query given to another that was never asked:
// the Householder reflectors applied with the factorization's workspace.
void ormqr_with_geqrf_size(cusolverDnHandle_t h, float *A, float *tau,
                           float *B, int m, int n, int *info) {
  int lwork = 0;
  cusolverDnSgeqrf_bufferSize(h, m, n, A, m, &lwork);
  float *work = nullptr;
  cudaMalloc(&work, sizeof(float) * lwork);
  cusolverDnSgeqrf(h, m, n, A, m, tau, work, lwork, info);
  cusolverDnSormqr(h, CUBLAS_SIDE_LEFT, CUBLAS_OP_T, m, n, n, A, m, tau, B, m,
                   work, lwork, info);
  // CHECK-NOTES: :[[@LINE-1]]:26: warning: 'lwork' is the size 'cusolverDnSgeqrf_bufferSize' wrote for 'cusolverDnSgeqrf'; 'cusolverDnSormqr' needs the size 'cusolverDnSormqr_bufferSize' returns, which this function does not ask [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-7]]:3: note: 'cusolverDnSgeqrf_bufferSize' writes 'lwork' here
  cudaFree(work);
}

// Less than the query said.
void potrf_less_than_queried(cusolverDnHandle_t h, float *A, int n,
                             int *info) {
  int lwork = 0;
  cusolverDnSpotrf_bufferSize(h, CUBLAS_FILL_MODE_LOWER, n, A, n, &lwork);
  float *work = nullptr;
  cudaMalloc(&work, sizeof(float) * lwork);
  cusolverDnSpotrf(h, CUBLAS_FILL_MODE_LOWER, n, A, n, work, lwork - 1, info);
  // CHECK-NOTES: :[[@LINE-1]]:62: warning: 'Lwork' is lwork - 1, less than the lwork float elements 'cusolverDnSpotrf_bufferSize' wrote to 'lwork'; cuSOLVER needs at least what the query returned [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-5]]:3: note: 'cusolverDnSpotrf_bufferSize' writes 'lwork' here
  cudaFree(work);
}

// An analysis step of cuSPARSE uses the buffer its routine's query sized;
// here the buffer was sized by another routine's query.
void spsv_buffer_sized_for_spmv(cusparseHandle_t h, cusparseSpMatDescr_t A,
                                cusparseDnVecDescr_t x, cusparseDnVecDescr_t y,
                                cusparseSpSVDescr_t d) {
  float alpha = 1.0f, beta = 0.0f;
  size_t spmv = 0, spsv = 0;
  cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, x,
                          &beta, y, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT,
                          &spmv);
  cusparseSpSV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, x, y,
                          CUDA_R_32F, CUSPARSE_SPSV_ALG_DEFAULT, d, &spsv);
  void *buffer = nullptr;
  cudaMalloc(&buffer, spmv);
  cusparseSpSV_analysis(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, x, y,
                        CUDA_R_32F, CUSPARSE_SPSV_ALG_DEFAULT, d, buffer);
  // CHECK-NOTES: :[[@LINE-1]]:67: warning: 'buffer' holds spmv bytes, the size 'cusparseSpMV_bufferSize' wrote for 'cusparseSpMV', but 'cusparseSpSV_analysis' uses the spsv bytes 'cusparseSpSV_bufferSize' wrote to 'spsv'; cuSPARSE writes past its end when that is more [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-10]]:3: note: 'cusparseSpMV_bufferSize' writes 'spmv' here
  // CHECK-NOTES: :[[@LINE-5]]:3: note: allocated here
  cudaFree(buffer);
}

// --- Not reported ---------------------------------------------------------

void getrf_right(cusolverDnHandle_t h, float *A, int n, int *ipiv,
                 int *info) {
  int lwork = 0;
  cusolverDnSgetrf_bufferSize(h, n, n, A, n, &lwork);
  float *work = nullptr;
  cudaMalloc(&work, sizeof(float) * lwork);
  cusolverDnSgetrf(h, n, n, A, n, work, ipiv, info);
  cudaFree(work);
}

void potrf_right(cusolverDnHandle_t h, float *A, int n, int *info) {
  int lwork = 0;
  cusolverDnSpotrf_bufferSize(h, CUBLAS_FILL_MODE_LOWER, n, A, n, &lwork);
  float *work = nullptr;
  cudaMalloc((void **)&work, lwork * sizeof(float));
  cusolverDnSpotrf(h, CUBLAS_FILL_MODE_LOWER, n, A, n, work, lwork, info);
  cudaFree(work);
}

// The 64-bit API counts bytes: a buffer of that many bytes is right.
void xgetrf_bytes(cusolverDnHandle_t h, cusolverDnParams_t p, float *A,
                  int64_t n, int64_t *ipiv, int *info) {
  size_t dev = 0, host = 0;
  cusolverDnXgetrf_bufferSize(h, p, n, n, CUDA_R_32F, A, n, CUDA_R_32F, &dev,
                              &host);
  void *d_work = nullptr;
  cudaMalloc(&d_work, dev);
  void *h_work = malloc(host);
  cusolverDnXgetrf(h, p, n, n, CUDA_R_32F, A, n, ipiv, CUDA_R_32F, d_work, dev,
                   h_work, host, info);
  cudaFree(d_work);
  free(h_work);
}

// cuSPARSE counts bytes too.
void spmv_bytes(cusparseHandle_t h, cusparseSpMatDescr_t A,
                cusparseDnVecDescr_t x, cusparseDnVecDescr_t y) {
  float alpha = 1.0f, beta = 0.0f;
  size_t size = 0;
  cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, x,
                          &beta, y, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT,
                          &size);
  void *buffer = nullptr;
  cudaMalloc(&buffer, size);
  cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, x, &beta, y,
               CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buffer);
  cudaFree(buffer);
}

// One buffer for two routines, sized for the larger query.
void two_routines(cusolverDnHandle_t h, float *A, int n, int *ipiv,
                  int *info) {
  int lwork1 = 0, lwork2 = 0;
  cusolverDnSgetrf_bufferSize(h, n, n, A, n, &lwork1);
  cusolverDnSpotrf_bufferSize(h, CUBLAS_FILL_MODE_LOWER, n, A, n, &lwork2);
  int lwork = lwork1 > lwork2 ? lwork1 : lwork2;
  float *work = nullptr;
  cudaMalloc(&work, sizeof(float) * lwork);
  cusolverDnSgetrf(h, n, n, A, n, work, ipiv, info);
  cusolverDnSpotrf(h, CUBLAS_FILL_MODE_LOWER, n, A, n, work, lwork, info);
  cudaFree(work);
}

// The size changed after the query (rounded up): not the query's any more.
void rounded(cusolverDnHandle_t h, float *A, int n, int *ipiv, int *info) {
  int lwork = 0;
  cusolverDnSgetrf_bufferSize(h, n, n, A, n, &lwork);
  lwork = (lwork + 255) / 256 * 256;
  float *work = nullptr;
  cudaMalloc(&work, lwork);
  cusolverDnSgetrf(h, n, n, A, n, work, ipiv, info);
  cudaFree(work);
}

// A workspace from elsewhere: its size is unknown.
void given_workspace(cusolverDnHandle_t h, float *A, int n, float *work,
                     int *ipiv, int *info) {
  int lwork = 0;
  cusolverDnSgetrf_bufferSize(h, n, n, A, n, &lwork);
  cusolverDnSgetrf(h, n, n, A, n, work, ipiv, info);
}

// The analysis and the solve of one routine share its query's buffer.
void spsv_steps(cusparseHandle_t h, cusparseSpMatDescr_t A,
                cusparseDnVecDescr_t x, cusparseDnVecDescr_t y,
                cusparseSpSVDescr_t d) {
  float alpha = 1.0f;
  size_t size = 0;
  cusparseSpSV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, x, y,
                          CUDA_R_32F, CUSPARSE_SPSV_ALG_DEFAULT, d, &size);
  void *buffer = nullptr;
  cudaMalloc(&buffer, size);
  cusparseSpSV_analysis(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, x, y,
                        CUDA_R_32F, CUSPARSE_SPSV_ALG_DEFAULT, d, buffer);
  cusparseSpSV_solve(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, x, y,
                     CUDA_R_32F, CUSPARSE_SPSV_ALG_DEFAULT, d);
  cudaFree(buffer);
}

// Two triangles, each with its own query and buffer: each step is given
// the size of the query for its own matrix, though another query of the
// same routine came last.
void two_triangles(cusparseHandle_t h, cusparseSpMatDescr_t L,
                   cusparseSpMatDescr_t U, cusparseDnVecDescr_t x,
                   cusparseDnVecDescr_t y, cusparseSpSVDescr_t dL,
                   cusparseSpSVDescr_t dU) {
  float alpha = 1.0f;
  size_t sizeL = 0, sizeU = 0;
  cusparseSpSV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, L, x, y,
                          CUDA_R_32F, CUSPARSE_SPSV_ALG_DEFAULT, dL, &sizeL);
  cusparseSpSV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, U, x, y,
                          CUDA_R_32F, CUSPARSE_SPSV_ALG_DEFAULT, dU, &sizeU);
  void *bufL = nullptr, *bufU = nullptr;
  cudaMalloc(&bufL, sizeL);
  cudaMalloc(&bufU, sizeU);
  cusparseSpSV_analysis(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, L, x, y,
                        CUDA_R_32F, CUSPARSE_SPSV_ALG_DEFAULT, dL, bufL);
  cusparseSpSV_analysis(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, U, x, y,
                        CUDA_R_32F, CUSPARSE_SPSV_ALG_DEFAULT, dU, bufU);
  cudaFree(bufL);
  cudaFree(bufU);
}

// The 64-bit API: each size where it belongs.
void xpotrf_sizes(cusolverDnHandle_t h, cusolverDnParams_t p, float *A,
                  int64_t n, int *info) {
  size_t dev = 0, host = 0;
  cusolverDnXpotrf_bufferSize(h, p, CUBLAS_FILL_MODE_LOWER, n, CUDA_R_32F, A,
                              n, CUDA_R_32F, &dev, &host);
  void *d_work = nullptr;
  cudaMalloc(&d_work, dev);
  void *h_work = malloc(host);
  cusolverDnXpotrf(h, p, CUBLAS_FILL_MODE_LOWER, n, CUDA_R_32F, A, n,
                   CUDA_R_32F, d_work, dev, h_work, host, info);
  cudaFree(d_work);
  free(h_work);
}

// One size for two routines: the larger of their queries.
void shared_size(cusolverDnHandle_t h, float *A, int n, int *info) {
  int l1 = 0, l2 = 0;
  cusolverDnSpotrf_bufferSize(h, CUBLAS_FILL_MODE_LOWER, n, A, n, &l1);
  cusolverDnSpotri_bufferSize(h, CUBLAS_FILL_MODE_LOWER, n, A, n, &l2);
  int lwork = l1 > l2 ? l1 : l2;
  float *work = nullptr;
  cudaMalloc(&work, sizeof(float) * lwork);
  cusolverDnSpotrf(h, CUBLAS_FILL_MODE_LOWER, n, A, n, work, lwork, info);
  cusolverDnSpotri(h, CUBLAS_FILL_MODE_LOWER, n, A, n, work, lwork, info);
  cudaFree(work);
}
