// RUN: %check_clang_tidy %s cublas-matrix-extents %t -- -- -std=c++17

// cublasLtMatmul takes the shapes of A, B, C and D from their layouts: an
// allocation smaller than its layout's footprint, strided batches that run
// past it, and layouts whose shapes contradict the operation. And the
// set-ups a naive rule would flag.

#include <cublasLt.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

// --- Reported -------------------------------------------------------------

void c_too_small(cublasLtHandle_t lt, void *ws, size_t ws_size,
                 cudaStream_t stream) {
  const int m = 128, n = 64, k = 32;
  float *A, *B, *C;
  cudaMalloc(&A, sizeof(float) * m * k);
  cudaMalloc(&B, sizeof(float) * k * n);
  cudaMalloc(&C, sizeof(float) * m * 32);
  cublasLtMatmulDesc_t op;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasLtMatrixLayout_t a, b, c;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_32F, m, k, m);
  cublasLtMatrixLayoutCreate(&b, CUDA_R_32F, k, n, k);
  cublasLtMatrixLayoutCreate(&c, CUDA_R_32F, m, n, m);
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, A, a, B, b, &beta, C, c, C, c, nullptr, ws,
                 ws_size, stream);
  // CHECK-NOTES: :[[@LINE-2]]:53: warning: 'C' needs 8192 elements (its layout 'c': 128 x 64, ld=128) but 'C' holds 4096 floats (cudaMalloc of 16384 bytes) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-5]]:3: note: layout 'c' is created here
  // CHECK-NOTES: :[[@LINE-12]]:3: note: allocated here
}

void half_layout_strided(cublasLtHandle_t lt, void *ws, size_t ws_size,
                         cudaStream_t stream) {
  const int n = 64, batch = 8;
  __half *A, *C;
  cudaMalloc(&A, sizeof(__half) * n * n * batch);
  cudaMalloc(&C, sizeof(__half) * n * n * batch);
  cublasLtMatmulDesc_t op;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasLtMatrixLayout_t a, c;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_16F, n, n, n);
  cublasLtMatrixLayoutCreate(&c, CUDA_R_16F, n, n, n);
  int32_t count = batch;
  int64_t stride = 2 * n * n; // each batch member padded to twice its size
  cublasLtMatrixLayoutSetAttribute(a, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT,
                                   &count, sizeof(count));
  cublasLtMatrixLayoutSetAttribute(a, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
                                   &stride, sizeof(stride));
  cublasLtMatrixLayoutSetAttribute(c, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT,
                                   &count, sizeof(count));
  const int64_t c_stride = int64_t(n) * n;
  cublasLtMatrixLayoutSetAttribute(c, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
                                   &c_stride, sizeof(c_stride));
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, A, a, A, a, &beta, C, c, C, c, nullptr, ws,
                 ws_size, stream);
  // CHECK-NOTES: :[[@LINE-2]]:34: warning: 'A' needs 61440 elements (its layout 'a': 64 x 64, ld=64, 8 batches 8192 elements apart) but 'A' holds 32768 __half values (cudaMalloc of 65536 bytes) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-17]]:3: note: layout 'a' is created here
  // CHECK-NOTES: :[[@LINE-23]]:3: note: allocated here
}

void shapes_contradict(cublasLtHandle_t lt, const float *A, const float *B,
                       float *C, void *ws, size_t ws_size,
                       cudaStream_t stream) {
  const int m = 128, n = 64, k = 32;
  cublasLtMatmulDesc_t op;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasOperation_t transa = CUBLAS_OP_T;
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &transa,
                                 sizeof(transa));
  cublasLtMatrixLayout_t a, b, c;
  // A is stored m x k as for op(A) = N, but the descriptor transposes it.
  cublasLtMatrixLayoutCreate(&a, CUDA_R_32F, m, k, m);
  cublasLtMatrixLayoutCreate(&b, CUDA_R_32F, k, n, k);
  cublasLtMatrixLayoutCreate(&c, CUDA_R_32F, m, n, m);
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, A, a, B, b, &beta, C, c, C, c, nullptr, ws,
                 ws_size, stream);
  // CHECK-NOTES: :[[@LINE-2]]:3: warning: the layouts contradict the operation: op(A) = A^T has 32 rows (layout 'a') but C has 128 rows (layout 'c'); op(A) is m x k and C m x n; cuBLASLt rejects the call [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-7]]:3: note: layout 'a' is created here
  // CHECK-NOTES: :[[@LINE-6]]:3: note: layout 'c' is created here
}

// --- Not reported ---------------------------------------------------------

void right(cublasLtHandle_t lt, void *ws, size_t ws_size, cudaStream_t stream,
           cublasLtMatrixLayout_t given) {
  const int m = 128, n = 64, k = 32, lda = 160;
  float *A, *B, *C;
  // A padded: ld > rows with an allocation that matches.
  cudaMalloc(&A, sizeof(float) * lda * k);
  cudaMalloc(&B, sizeof(float) * k * n);
  cudaMalloc(&C, sizeof(float) * m * n);
  cublasLtMatmulDesc_t op;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasOperation_t transb = CUBLAS_OP_T;
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &transb,
                                 sizeof(transb));
  cublasLtMatrixLayout_t a, b, c;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_32F, m, k, lda);
  cublasLtMatrixLayoutCreate(&b, CUDA_R_32F, n, k, n); // op(B) = B^T: k x n
  cublasLtMatrixLayoutCreate(&c, CUDA_R_32F, m, n, m);
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, A, a, B, b, &beta, C, c, C, c, nullptr, ws,
                 ws_size, stream);
  // A layout from elsewhere: nothing known.
  cublasLtMatmul(lt, op, &alpha, A, given, B, given, &beta, C, given, C,
                 given, nullptr, ws, ws_size, stream);
}

// Row-major layouts are not modelled: silent.
void row_major(cublasLtHandle_t lt, void *ws, size_t ws_size,
               cudaStream_t stream) {
  const int m = 128, n = 64, k = 32;
  float *A, *B, *C;
  cudaMalloc(&A, sizeof(float) * m * k);
  cudaMalloc(&B, sizeof(float) * k * n);
  cudaMalloc(&C, sizeof(float) * m * n);
  cublasLtMatmulDesc_t op;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasLtMatrixLayout_t a, b, c;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_32F, m, k, k);
  cublasLtMatrixLayoutCreate(&b, CUDA_R_32F, k, n, n);
  cublasLtMatrixLayoutCreate(&c, CUDA_R_32F, m, n, n);
  cublasLtOrder_t rows = CUBLASLT_ORDER_ROW;
  cublasLtMatrixLayoutSetAttribute(a, CUBLASLT_MATRIX_LAYOUT_ORDER, &rows,
                                   sizeof(rows));
  cublasLtMatrixLayoutSetAttribute(b, CUBLASLT_MATRIX_LAYOUT_ORDER, &rows,
                                   sizeof(rows));
  cublasLtMatrixLayoutSetAttribute(c, CUBLASLT_MATRIX_LAYOUT_ORDER, &rows,
                                   sizeof(rows));
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, A, a, B, b, &beta, C, c, C, c, nullptr, ws,
                 ws_size, stream);
}

// A layout handed to code of the project's (which may set its order or
// batches): unknown from then on.
void configure(cublasLtMatrixLayout_t layout);
void configured_elsewhere(cublasLtHandle_t lt, void *ws, size_t ws_size,
                          cudaStream_t stream) {
  const int n = 64;
  float *A, *C;
  cudaMalloc(&A, sizeof(float) * n * n);
  cudaMalloc(&C, sizeof(float) * n * 32);
  cublasLtMatmulDesc_t op;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasLtMatrixLayout_t a, c;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_32F, n, n, n);
  cublasLtMatrixLayoutCreate(&c, CUDA_R_32F, n, n, n);
  configure(c);
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, A, a, A, a, &beta, C, c, C, c, nullptr, ws,
                 ws_size, stream);
}
