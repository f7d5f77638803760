#include "project.h"

int paddedRows(int Rows);

cublasStatus_t gemm(cublasHandle_t H, int M, int N, int K, const float *A,
                    const float *B, float *C) {
  const float One = 1.0f, Zero = 0.0f;
  return cublasSgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &One, A, M, B, K,
                     &Zero, C, M);
}

cublasStatus_t gemmBatched(cublasHandle_t H, int M, int N, int K,
                           const float *A, long long StrideA, const float *B,
                           long long StrideB, float *C, long long StrideC,
                           int Count) {
  const float One = 1.0f, Zero = 0.0f;
  return cublasSgemmStridedBatched(H, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &One,
                                   A, M, StrideA, B, K, StrideB, &Zero, C, M,
                                   StrideC, Count);
}

cublasStatus_t gemmPadded(cublasHandle_t H, int M, int N, int K,
                          const float *A, const float *B, float *C) {
  const float One = 1.0f, Zero = 0.0f;
  int Ld = paddedRows(M);
  return cublasSgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &One, A, Ld, B, K,
                     &Zero, C, M);
}

cublasStatus_t gemmOp(cublasHandle_t H, cublasOperation_t OpA, int M, int N,
                      int K, const float *A, const float *B, float *C) {
  const float One = 1.0f, Zero = 0.0f;
  int Lda = OpA == CUBLAS_OP_N ? M : K;
  return cublasSgemm(H, OpA, CUBLAS_OP_N, M, N, K, &One, A, Lda, B, K, &Zero,
                     C, M);
}

cublasStatus_t gemmHalf(cublasHandle_t H, int M, int N, int K, const void *A,
                        const void *B, void *C) {
  const float One = 1.0f, Zero = 0.0f;
  return cublasGemmEx(H, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &One, A,
                      CUDA_R_16F, M, B, CUDA_R_16F, K, &Zero, C, CUDA_R_16F, M,
                      CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

cublasStatus_t gemmTyped(cublasHandle_t H, int M, int N, int K,
                         cudaDataType_t Type, const void *A, const void *B,
                         void *C) {
  const float One = 1.0f, Zero = 0.0f;
  return cublasGemmEx(H, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &One, A, Type, M,
                      B, Type, K, &Zero, C, Type, M, CUBLAS_COMPUTE_32F,
                      CUBLAS_GEMM_DEFAULT);
}

cublasStatus_t scaleEveryOther(cublasHandle_t H, int N, float *X) {
  const float Two = 2.0f;
  return cublasSscal(H, N, &Two, X, 2);
}

cublasStatus_t scaleHost(cublasHandle_t H, int N, const float *Host) {
  float *Device = nullptr;
  cudaMalloc(reinterpret_cast<void **>(&Device), 2 * N * sizeof(float));
  cudaMemcpy(Device, Host, N * sizeof(float), cudaMemcpyHostToDevice);
  const float Two = 2.0f;
  cublasStatus_t S = cublasSscal(H, N, &Two, Device, 2);
  cudaFree(Device);
  return S;
}

cublasStatus_t gemmRowMajor(cublasHandle_t H, Transpose TransA,
                            Transpose TransB, int M, int N, int K,
                            const float *A, const float *B, float *C) {
  const float One = 1.0f, Zero = 0.0f;
  int Lda = (TransA == NoTrans) ? K : M;
  int Ldb = (TransB == NoTrans) ? N : K;
  cublasOperation_t OpA = (TransA == NoTrans) ? CUBLAS_OP_N : CUBLAS_OP_T;
  cublasOperation_t OpB = (TransB == NoTrans) ? CUBLAS_OP_N : CUBLAS_OP_T;
  return cublasSgemm(H, OpB, OpA, N, M, K, &One, B, Ldb, A, Lda, &Zero, C, N);
}

cublasStatus_t gemmPacked(cublasHandle_t H, int M, int N, int K, int Count,
                          const float *A, const float *B, float *C) {
  const float One = 1.0f, Zero = 0.0f;
  long long StrideA = (long long)M * K, StrideB = (long long)K * N,
            StrideC = (long long)M * N;
  return cublasSgemmStridedBatched(H, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &One,
                                   A, M, StrideA, B, K, StrideB, &Zero, C, M,
                                   StrideC, Count);
}

cublasStatus_t gemvLapack(cublasHandle_t H, int M, int N, const float *A,
                          const float *X, float *Y) {
  const float One = 1.0f, Zero = 0.0f;
  int Lda = std::max(1, M);
  return cublasSgemv(H, CUBLAS_OP_N, M, N, &One, A, Lda, X, 1, &Zero, Y, 1);
}
