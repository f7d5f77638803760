#include "project.h"

template <typename T> T *deviceArray(long long Count) {
  T *P = nullptr;
  cudaMalloc(reinterpret_cast<void **>(&P), Count * sizeof(T));
  return P;
}

// Every buffer exactly as big as the wrapper's call spans: right.
void exact(cublasHandle_t H) {
  float *A = nullptr, *B = nullptr, *C = nullptr;
  cudaMalloc(reinterpret_cast<void **>(&A), 64 * 32 * sizeof(float));
  cudaMalloc(reinterpret_cast<void **>(&B), 32 * 16 * sizeof(float));
  cudaMalloc(reinterpret_cast<void **>(&C), 64 * 16 * sizeof(float));
  gemm(H, 64, 16, 32, A, B, C);
  gemmBatched(H, 64, 16, 32, A, 0, B, 0, C, 64 * 16, 1);
  float X[15];
  scaleEveryOther(H, 8, X);
}

// A sized M x N, read as M x K by the wrapper: short by M elements.
void layer(cublasHandle_t H, int M, int N, const float *B, float *C) {
  float *A = nullptr;
  cudaMalloc(reinterpret_cast<void **>(&A), M * N * sizeof(float));
  gemm(H, M, N, N + 1, A, B, C);
}

// Constant sizes: A short by half; B holds three batches of four. C holds
// its four, and A is one matrix for every batch (stride 0).
void constants(cublasHandle_t H) {
  float *A = nullptr, *B = nullptr, *C = nullptr;
  cudaMalloc(reinterpret_cast<void **>(&A), 64 * 16 * sizeof(float));
  cudaMalloc(reinterpret_cast<void **>(&B), 3 * 32 * 16 * sizeof(float));
  cudaMalloc(reinterpret_cast<void **>(&C), 4 * 64 * 16 * sizeof(float));
  gemm(H, 64, 16, 32, A, B, C);
  gemmBatched(H, 64, 16, 16, A, 0, B, 32 * 16, C, 64 * 16, 4);
  float X[8];
  scaleEveryOther(H, 8, X);
}

// What the wrapper's call spans is not known here, or no memory is
// touched: nothing.
void unknown(cublasHandle_t H, int K) {
  float *A = nullptr, *B = nullptr, *C = nullptr;
  cudaMalloc(reinterpret_cast<void **>(&A), 16 * sizeof(float));
  cudaMalloc(reinterpret_cast<void **>(&B), 32 * 16 * sizeof(float));
  cudaMalloc(reinterpret_cast<void **>(&C), 64 * 16 * sizeof(float));
  gemmPadded(H, 64, 16, 32, A, B, C);     // its own leading dimension
  gemmOp(H, CUBLAS_OP_N, 4, 4, K, A, B, C);    // K unknown, whichever lda
  gemm(H, 64, 0, 32, A, B, C);            // N = 0: nothing is read
  gemm(H, 4, 4, K, A, B, C);              // K unknown
  float X[4];
  scaleHost(H, 4, X); // copies X into a buffer of its own
}

// The types the wrapper declares: __half for gemmHalf, the caller's for
// gemmTyped.
void types(cublasHandle_t H) {
  float *F = deviceArray<float>(64 * 64);
  __half *Half = deviceArray<__half>(64 * 64);
  gemmHalf(H, 64, 64, 64, Half, Half, Half);
  gemmHalf(H, 64, 64, 64, F, Half, Half);
  gemmTyped(H, 64, 64, 64, CUDA_R_32F, F, F, F);
}

// Flags the wrappers compare pick the leading dimensions: with CUBLAS_OP_T
// gemmOp's A is K x M at lda = K (2048 floats); the row-major wrapper with
// Trans for A reads it K x M at lda = M, with NoTrans M x K at lda = K.
void flags(cublasHandle_t H, Transpose T) {
  float *A = nullptr, *B = nullptr, *C = nullptr;
  cudaMalloc(reinterpret_cast<void **>(&A), 16 * 32 * sizeof(float));
  cudaMalloc(reinterpret_cast<void **>(&B), 32 * 16 * sizeof(float));
  cudaMalloc(reinterpret_cast<void **>(&C), 64 * 16 * sizeof(float));
  gemmOp(H, CUBLAS_OP_T, 64, 16, 32, A, B, C);
  gemmOp(H, CUBLAS_OP_N, 16, 16, 32, A, B, C);               // right
  gemmRowMajor(H, Trans, NoTrans, 64, 16, 32, A, B, C);
  gemmRowMajor(H, NoTrans, NoTrans, 16, 16, 32, A, B, C);    // right
  gemmRowMajor(H, T, NoTrans, 64, 16, 32, A, B, C);          // T unknown
}

// The packed batch's strides are M * K, K * N and M * N: C sized for one
// matrix holds one of eight; A and B are right.
void packed(cublasHandle_t H) {
  float *A = nullptr, *B = nullptr, *C = nullptr;
  cudaMalloc(reinterpret_cast<void **>(&A), 8 * 64 * 32 * sizeof(float));
  cudaMalloc(reinterpret_cast<void **>(&B), 8 * 32 * 16 * sizeof(float));
  cudaMalloc(reinterpret_cast<void **>(&C), 64 * 16 * sizeof(float));
  gemmPacked(H, 64, 16, 32, 8, A, B, C);
  gemmPacked(H, 64, 16, 32, 1, A, B, C); // one matrix: right
}

// A sized N x N for the M x N product (M = 64, N = 16): short; the
// square call is right.
void lapackStyle(cublasHandle_t H) {
  float *A = nullptr, *X = nullptr, *Y = nullptr;
  cudaMalloc(reinterpret_cast<void **>(&A), 16 * 16 * sizeof(float));
  cudaMalloc(reinterpret_cast<void **>(&X), 16 * sizeof(float));
  cudaMalloc(reinterpret_cast<void **>(&Y), 64 * sizeof(float));
  gemvLapack(H, 64, 16, A, X, Y);
  gemvLapack(H, 16, 16, A, X, Y); // right
}
