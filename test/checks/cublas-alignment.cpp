// RUN: %check_clang_tidy %s cublas-alignment %t -- -- -std=c++17

// The alignment matrix products need of A and B: cublasGemmEx with an
// integer compute type (pointers 4-byte aligned, lda and ldb multiples of
// 4) and cublasLtMatmul with FP8 inputs (16 bytes, multiples of 16). Each
// reported case returned CUBLAS_STATUS_NOT_SUPPORTED on an H200. And the
// set-ups a naive rule would flag.

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdlib>

// --- Reported -------------------------------------------------------------

// An int8 GEMM over a matrix of 30 rows, packed: lda = 30.
void int8_odd_rows(cublasHandle_t h, const int8_t *A, const int8_t *B,
                   int32_t *C) {
  const int m = 30, n = 32, k = 64;
  const int32_t alpha = 1, beta = 0;
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, A, CUDA_R_8I, m,
               B, CUDA_R_8I, k, &beta, C, CUDA_R_32I, m, CUBLAS_COMPUTE_32I,
               CUBLAS_GEMM_DEFAULT);
  // CHECK-MESSAGES: :[[@LINE-3]]:76: warning: lda = m = 30 is not a multiple of 4: cublasGemmEx with CUBLAS_COMPUTE_32I needs lda and ldb multiples of 4 and returns CUBLAS_STATUS_NOT_SUPPORTED [cublas-alignment]
}

// The second half of a buffer, at an odd byte.
void int8_offset(cublasHandle_t h, int32_t *C, int n) {
  int8_t *buf;
  cudaMalloc(&buf, 2 * 64 * 64 + 2);
  const int32_t alpha = 1, beta = 0;
  cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, 64, 64, 64, &alpha, buf + 2,
               CUDA_R_8I, 64, buf + 64 * 64 + 2, CUDA_R_8I, 64, &beta, C,
               CUDA_R_32I, 64, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT);
  // CHECK-MESSAGES: :[[@LINE-3]]:65: warning: 'buf + 2' (A) is 2 bytes past the start of its cudaMalloc allocation, not a multiple of 4: cublasGemmEx with CUBLAS_COMPUTE_32I needs A and B 4-byte aligned and returns CUBLAS_STATUS_NOT_SUPPORTED [cublas-alignment]
  // CHECK-MESSAGES: :[[@LINE-3]]:31: warning: 'buf + 64 * 64 + 2' (B) is 4098 bytes past the start of its cudaMalloc allocation, not a multiple of 4: cublasGemmEx with CUBLAS_COMPUTE_32I needs A and B 4-byte aligned and returns CUBLAS_STATUS_NOT_SUPPORTED [cublas-alignment]
}

// FP8 in TN with k = 40: lda = ldb = 40.
void fp8_k40(cublasLtHandle_t lt, const __nv_fp8_e4m3 *A,
             const __nv_fp8_e4m3 *B, __nv_bfloat16 *D, cudaStream_t s) {
  const int m = 64, n = 64, k = 40;
  cublasLtMatmulDesc_t op;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasOperation_t t = CUBLAS_OP_T;
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &t,
                                 sizeof(t));
  cublasLtMatrixLayout_t a, b, d;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_8F_E4M3, k, m, k);
  cublasLtMatrixLayoutCreate(&b, CUDA_R_8F_E4M3, k, n, k);
  cublasLtMatrixLayoutCreate(&d, CUDA_R_16BF, m, n, m);
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, A, a, B, b, &beta, D, d, D, d, nullptr,
                 nullptr, 0, s);
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: the leading dimension of A's layout 'a' is 40, not a multiple of 16: cublasLtMatmul with FP8 inputs needs leading dimensions that are multiples of 16 and returns CUBLAS_STATUS_NOT_SUPPORTED [cublas-alignment]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: warning: the leading dimension of B's layout 'b' is 40, not a multiple of 16: cublasLtMatmul with FP8 inputs needs leading dimensions that are multiples of 16 and returns CUBLAS_STATUS_NOT_SUPPORTED [cublas-alignment]
}

// Rows 8 to 71 of a [72, 64] FP8 activation: 8 * 64 bytes are aligned, but
// a start 8 bytes in is not.
void fp8_rows(cublasLtHandle_t lt, const __nv_fp8_e4m3 *B,
              __nv_bfloat16 *D, cudaStream_t s) {
  __nv_fp8_e4m3 *act;
  cudaMalloc(&act, 72 * 64);
  cublasLtMatmulDesc_t op;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasOperation_t t = CUBLAS_OP_T;
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &t,
                                 sizeof(t));
  cublasLtMatrixLayout_t a, d;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_8F_E4M3, 64, 64, 64);
  cublasLtMatrixLayoutCreate(&d, CUDA_R_16BF, 64, 64, 64);
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, act + 8, a, B, a, &beta, D, d, D, d,
                 nullptr, nullptr, 0, s);
  // CHECK-MESSAGES: :[[@LINE-2]]:34: warning: 'act + 8' (A) is 8 bytes past the start of its cudaMalloc allocation, not a multiple of 16: cublasLtMatmul with FP8 inputs needs A and B 16-byte aligned and returns CUBLAS_STATUS_NOT_SUPPORTED [cublas-alignment]
}

// The pointer's allocation and offset known only in the caller.
static void gemm_int8(cublasHandle_t h, const int8_t *A, int32_t *C) {
  const int32_t alpha = 1, beta = 0;
  cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, 64, 64, 64, &alpha, A, CUDA_R_8I,
               64, A, CUDA_R_8I, 64, &beta, C, CUDA_R_32I, 64,
               CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT);
  // CHECK-MESSAGES: :[[@LINE-3]]:65: warning: 'A' is 6 bytes past the start of its cudaMalloc allocation, not a multiple of 4: cublasGemmEx with CUBLAS_COMPUTE_32I needs A and B 4-byte aligned and returns CUBLAS_STATUS_NOT_SUPPORTED [cublas-alignment]
  // CHECK-MESSAGES: :[[@LINE-3]]:20: warning: 'A' (B) is 6 bytes past the start of its cudaMalloc allocation, not a multiple of 4: cublasGemmEx with CUBLAS_COMPUTE_32I needs A and B 4-byte aligned and returns CUBLAS_STATUS_NOT_SUPPORTED [cublas-alignment]
}
void caller_offset(cublasHandle_t h, int32_t *C) {
  int8_t *buf;
  cudaMalloc(&buf, 64 * 64 + 8);
  gemm_int8(h, buf + 6, C);
}

// --- Not reported ----------------------------------------------------------

// The same helper from a caller that gives it an aligned pointer: only the
// other caller's context is reported (above).
void caller_aligned(cublasHandle_t h, int32_t *C) {
  int8_t *buf;
  cudaMalloc(&buf, 64 * 64 + 8);
  gemm_int8(h, buf + 8, C);
}

// lda, ldb multiples of 4; offsets multiples of 4.
void int8_aligned(cublasHandle_t h, int32_t *C) {
  int8_t *buf;
  cudaMalloc(&buf, 2 * 64 * 68);
  const int32_t alpha = 1, beta = 0;
  cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, 64, 64, 64, &alpha, buf + 4,
               CUDA_R_8I, 68, buf + 64 * 68, CUDA_R_8I, 68, &beta, C,
               CUDA_R_32I, 64, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT);
}

// Half with a float compute type: cuBLAS picks a kernel for any alignment
// (an odd lda and an offset of one element ran on an H200).
void half_any(cublasHandle_t h, float *C) {
  __half *buf;
  cudaMalloc(&buf, 2 * 65 * 64 * sizeof(__half));
  const float alpha = 1.0f, beta = 0.0f;
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 64, 64, 64, &alpha, buf + 1,
               CUDA_R_16F, 65, buf + 65 * 64 + 1, CUDA_R_16F, 65, &beta, C,
               CUDA_R_32F, 64, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

// An offset of a pointer whose alignment is unknown (a parameter), and an
// unknown offset: nothing known.
void int8_unknown(cublasHandle_t h, const int8_t *A, int32_t *C, int off,
                  int lda) {
  const int32_t alpha = 1, beta = 0;
  cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, 64, 64, 64, &alpha, A + 2,
               CUDA_R_8I, lda, A + off, CUDA_R_8I, 64, &beta, C, CUDA_R_32I,
               64, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT);
}

// malloc'd memory: its alignment is the C library's (and it is host
// memory: cublas-host-pointer's business).
void int8_host(cublasHandle_t h, int32_t *C) {
  int8_t *buf = static_cast<int8_t *>(malloc(64 * 64 + 16));
  const int32_t alpha = 1, beta = 0;
  cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, 64, 64, 64, &alpha, buf + 2,
               CUDA_R_8I, 64, buf, CUDA_R_8I, 64, &beta, C, CUDA_R_32I, 64,
               CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT);
}

// FP8 with leading dimensions and offsets multiples of 16.
void fp8_aligned(cublasLtHandle_t lt, __nv_bfloat16 *D, cudaStream_t s) {
  __nv_fp8_e4m3 *act;
  cudaMalloc(&act, 2 * 80 * 64);
  cublasLtMatmulDesc_t op;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasOperation_t t = CUBLAS_OP_T;
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &t,
                                 sizeof(t));
  cublasLtMatrixLayout_t a, d;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_8F_E4M3, 64, 64, 80);
  cublasLtMatrixLayoutCreate(&d, CUDA_R_16BF, 64, 64, 64);
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, act + 16, a, act + 80 * 64, a, &beta, D, d,
                 D, d, nullptr, nullptr, 0, s);
}

// bf16 in cuBLASLt: the heuristic's algorithms for misaligned pointers are
// another matter (see the check's page); an odd leading dimension of a
// half or bf16 layout is not reported.
void bf16_odd_ld(cublasLtHandle_t lt, const __nv_bfloat16 *A,
                 __nv_bfloat16 *D, cudaStream_t s) {
  cublasLtMatmulDesc_t op;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasLtMatrixLayout_t a, d;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_16BF, 64, 64, 65);
  cublasLtMatrixLayoutCreate(&d, CUDA_R_16BF, 64, 64, 64);
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, A, a, A, a, &beta, D, d, D, d, nullptr,
                 nullptr, 0, s);
}
