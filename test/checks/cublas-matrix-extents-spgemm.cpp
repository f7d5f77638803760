// RUN: %check_clang_tidy %s cublas-matrix-extents %t -- -- -std=c++17

// cuSPARSE's SpGEMM has no _bufferSize query: each step sizes its own
// buffer. Called with a null buffer it writes the size it needs; called
// again with a buffer, it reads the size and uses that many bytes.

#include <cstddef>
#include <cuda_runtime.h>
#include <cusparse.h>

#define NT CUSPARSE_OPERATION_NON_TRANSPOSE

// --- Reported -------------------------------------------------------------

// The second buffer allocated with the first step's size (a copy of the
// lines above, one name left unchanged): the compute step needs size2.
void compute_buffer_sized_by_work_estimation(cusparseHandle_t h,
                                             cusparseSpMatDescr_t A,
                                             cusparseSpMatDescr_t B,
                                             cusparseSpMatDescr_t C,
                                             cusparseSpGEMMDescr_t d) {
  float alpha = 1.0f, beta = 0.0f;
  size_t size1 = 0, size2 = 0;
  void *buffer1 = nullptr, *buffer2 = nullptr;
  cusparseSpGEMM_workEstimation(h, NT, NT, &alpha, A, B, &beta, C, CUDA_R_32F,
                                CUSPARSE_SPGEMM_DEFAULT, d, &size1, nullptr);
  cudaMalloc(&buffer1, size1);
  cusparseSpGEMM_workEstimation(h, NT, NT, &alpha, A, B, &beta, C, CUDA_R_32F,
                                CUSPARSE_SPGEMM_DEFAULT, d, &size1, buffer1);
  cusparseSpGEMM_compute(h, NT, NT, &alpha, A, B, &beta, C, CUDA_R_32F,
                         CUSPARSE_SPGEMM_DEFAULT, d, &size2, nullptr);
  cudaMalloc(&buffer2, size1);
  cusparseSpGEMM_compute(h, NT, NT, &alpha, A, B, &beta, C, CUDA_R_32F,
                         CUSPARSE_SPGEMM_DEFAULT, d, &size2, buffer2);
  // CHECK-NOTES: :[[@LINE-1]]:62: warning: 'buffer2' holds size1 bytes, the size 'cusparseSpGEMM_workEstimation' wrote for its own buffer, but 'cusparseSpGEMM_compute' uses the size2 bytes 'cusparseSpGEMM_compute' wrote to 'size2'; cuSPARSE writes past its end when that is more [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-11]]:3: note: 'cusparseSpGEMM_workEstimation' writes 'size1' here
  // CHECK-NOTES: :[[@LINE-5]]:3: note: allocated here
  cudaFree(buffer1);
  cudaFree(buffer2);
}

// The first step's buffer given to the second step.
void compute_given_the_first_buffer(cusparseHandle_t h, cusparseSpMatDescr_t A,
                                    cusparseSpMatDescr_t B,
                                    cusparseSpMatDescr_t C,
                                    cusparseSpGEMMDescr_t d) {
  float alpha = 1.0f, beta = 0.0f;
  size_t size1 = 0, size2 = 0;
  void *buffer1 = nullptr;
  cusparseSpGEMM_workEstimation(h, NT, NT, &alpha, A, B, &beta, C, CUDA_R_32F,
                                CUSPARSE_SPGEMM_DEFAULT, d, &size1, NULL);
  cudaMalloc(&buffer1, size1);
  cusparseSpGEMM_workEstimation(h, NT, NT, &alpha, A, B, &beta, C, CUDA_R_32F,
                                CUSPARSE_SPGEMM_DEFAULT, d, &size1, buffer1);
  cusparseSpGEMM_compute(h, NT, NT, &alpha, A, B, &beta, C, CUDA_R_32F,
                         CUSPARSE_SPGEMM_DEFAULT, d, &size2, NULL);
  cusparseSpGEMM_compute(h, NT, NT, &alpha, A, B, &beta, C, CUDA_R_32F,
                         CUSPARSE_SPGEMM_DEFAULT, d, &size2, buffer1);
  // CHECK-NOTES: :[[@LINE-1]]:62: warning: 'buffer1' holds size1 bytes, the size 'cusparseSpGEMM_workEstimation' wrote for its own buffer, but 'cusparseSpGEMM_compute' uses the size2 bytes 'cusparseSpGEMM_compute' wrote to 'size2'; cuSPARSE writes past its end when that is more [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-10]]:3: note: 'cusparseSpGEMM_workEstimation' writes 'size1' here
  // CHECK-NOTES: :[[@LINE-9]]:3: note: allocated here
  cudaFree(buffer1);
}

// --- Not reported ---------------------------------------------------------

// Each buffer sized by its own step's first call.
void spgemm_right(cusparseHandle_t h, cusparseSpMatDescr_t A,
                  cusparseSpMatDescr_t B, cusparseSpMatDescr_t C,
                  cusparseSpGEMMDescr_t d) {
  float alpha = 1.0f, beta = 0.0f;
  size_t size1 = 0, size2 = 0;
  void *buffer1 = nullptr, *buffer2 = nullptr;
  cusparseSpGEMM_workEstimation(h, NT, NT, &alpha, A, B, &beta, C, CUDA_R_32F,
                                CUSPARSE_SPGEMM_DEFAULT, d, &size1, nullptr);
  cudaMalloc(&buffer1, size1);
  cusparseSpGEMM_workEstimation(h, NT, NT, &alpha, A, B, &beta, C, CUDA_R_32F,
                                CUSPARSE_SPGEMM_DEFAULT, d, &size1, buffer1);
  cusparseSpGEMM_compute(h, NT, NT, &alpha, A, B, &beta, C, CUDA_R_32F,
                         CUSPARSE_SPGEMM_DEFAULT, d, &size2, nullptr);
  cudaMalloc(&buffer2, size2);
  cusparseSpGEMM_compute(h, NT, NT, &alpha, A, B, &beta, C, CUDA_R_32F,
                         CUSPARSE_SPGEMM_DEFAULT, d, &size2, buffer2);
  cudaFree(buffer1);
  cudaFree(buffer2);
}

// One buffer for both steps, grown to the second size: the buffer given to
// the compute step was allocated after its size was asked.
void spgemm_one_buffer_grown(cusparseHandle_t h, cusparseSpMatDescr_t A,
                             cusparseSpMatDescr_t B, cusparseSpMatDescr_t C,
                             cusparseSpGEMMDescr_t d) {
  float alpha = 1.0f, beta = 0.0f;
  size_t size1 = 0, size2 = 0;
  void *buffer = nullptr;
  cusparseSpGEMM_workEstimation(h, NT, NT, &alpha, A, B, &beta, C, CUDA_R_32F,
                                CUSPARSE_SPGEMM_DEFAULT, d, &size1, nullptr);
  cudaMalloc(&buffer, size1);
  cusparseSpGEMM_workEstimation(h, NT, NT, &alpha, A, B, &beta, C, CUDA_R_32F,
                                CUSPARSE_SPGEMM_DEFAULT, d, &size1, buffer);
  cusparseSpGEMM_compute(h, NT, NT, &alpha, A, B, &beta, C, CUDA_R_32F,
                         CUSPARSE_SPGEMM_DEFAULT, d, &size2, nullptr);
  if (size2 > size1) {
    cudaFree(buffer);
    cudaMalloc(&buffer, size2);
  }
  cusparseSpGEMM_compute(h, NT, NT, &alpha, A, B, &beta, C, CUDA_R_32F,
                         CUSPARSE_SPGEMM_DEFAULT, d, &size2, buffer);
  cudaFree(buffer);
}

// One size variable for both steps: each use reads the size its step's own
// first call wrote.
void spgemm_one_size(cusparseHandle_t h, cusparseSpMatDescr_t A,
                     cusparseSpMatDescr_t B, cusparseSpMatDescr_t C,
                     cusparseSpGEMMDescr_t d) {
  float alpha = 1.0f, beta = 0.0f;
  size_t size = 0;
  void *buffer1 = nullptr, *buffer2 = nullptr;
  cusparseSpGEMM_workEstimation(h, NT, NT, &alpha, A, B, &beta, C, CUDA_R_32F,
                                CUSPARSE_SPGEMM_DEFAULT, d, &size, nullptr);
  cudaMalloc(&buffer1, size);
  cusparseSpGEMM_workEstimation(h, NT, NT, &alpha, A, B, &beta, C, CUDA_R_32F,
                                CUSPARSE_SPGEMM_DEFAULT, d, &size, buffer1);
  cusparseSpGEMM_compute(h, NT, NT, &alpha, A, B, &beta, C, CUDA_R_32F,
                         CUSPARSE_SPGEMM_DEFAULT, d, &size, nullptr);
  cudaMalloc(&buffer2, size);
  cusparseSpGEMM_compute(h, NT, NT, &alpha, A, B, &beta, C, CUDA_R_32F,
                         CUSPARSE_SPGEMM_DEFAULT, d, &size, buffer2);
  cudaFree(buffer1);
  cudaFree(buffer2);
}

// Each buffer allocated only when its step asks for one (a step may need
// none and keep the null buffer).
void spgemm_allocated_when_needed(cusparseHandle_t h, cusparseSpMatDescr_t A,
                                  cusparseSpMatDescr_t B,
                                  cusparseSpMatDescr_t C,
                                  cusparseSpGEMMDescr_t d) {
  float alpha = 1.0f, beta = 0.0f;
  size_t size1 = 0, size2 = 0;
  void *buffer1 = NULL, *buffer2 = NULL;
  cusparseSpGEMM_workEstimation(h, NT, NT, &alpha, A, B, &beta, C, CUDA_R_32F,
                                CUSPARSE_SPGEMM_DEFAULT, d, &size1, NULL);
  if (size1 > 0)
    cudaMalloc(&buffer1, size1);
  cusparseSpGEMM_workEstimation(h, NT, NT, &alpha, A, B, &beta, C, CUDA_R_32F,
                                CUSPARSE_SPGEMM_DEFAULT, d, &size1, buffer1);
  cusparseSpGEMM_compute(h, NT, NT, &alpha, A, B, &beta, C, CUDA_R_32F,
                         CUSPARSE_SPGEMM_DEFAULT, d, &size2, NULL);
  if (size2 > 0)
    cudaMalloc(&buffer2, size2);
  cusparseSpGEMM_compute(h, NT, NT, &alpha, A, B, &beta, C, CUDA_R_32F,
                         CUSPARSE_SPGEMM_DEFAULT, d, &size2, buffer2);
  cudaFree(buffer1);
  cudaFree(buffer2);
}

// A buffer of a size the caller knows is enough: no size was asked here.
void spgemm_caller_sized(cusparseHandle_t h, cusparseSpMatDescr_t A,
                         cusparseSpMatDescr_t B, cusparseSpMatDescr_t C,
                         cusparseSpGEMMDescr_t d, void *buffer,
                         size_t bytes) {
  float alpha = 1.0f, beta = 0.0f;
  cusparseSpGEMM_compute(h, NT, NT, &alpha, A, B, &beta, C, CUDA_R_32F,
                         CUSPARSE_SPGEMM_DEFAULT, d, &bytes, buffer);
}
