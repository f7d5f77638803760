// RUN: %check_clang_tidy %s cublas-matrix-extents %t -- -- -isystem %cuda_include/cccl
// REQUIRES: real-cuda-headers

// A .cu file: thrust vectors, stream-ordered allocations and a kernel launch
// next to the cuBLAS calls.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <thrust/device_vector.h>

__global__ void fill(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = 1.0f;
}

void run(cublasHandle_t h, cudaStream_t s, const float *alpha,
         const float *beta) {
  const int n = 256;
  thrust::device_vector<float> A(n * n), B(n * 128);
  float *dC;
  cudaMallocAsync(&dC, n * n * sizeof(float), s);
  fill<<<n, n, 0, s>>>(dC, n * n);
  // B holds n x 128: as an n x n operand it is read past its end.
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, alpha,
              thrust::raw_pointer_cast(A.data()), n,
              thrust::raw_pointer_cast(B.data()), n, beta, dC, n);
              // CHECK-NOTES: :[[@LINE-1]]:15: warning: 'B' needs 65536 elements at ldb=256 but 'thrust::raw_pointer_cast(B.data())' holds 32768 floats (thrust::device_vector of 32768 float values) [cublas-matrix-extents]
              // CHECK-NOTES: :[[@LINE-9]]:42: note: 'B' is allocated here
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, 128, n, alpha,
              thrust::raw_pointer_cast(A.data()), n,
              thrust::raw_pointer_cast(&B[0]), n, beta, dC, n);
  // The stream-ordered allocation is n x n floats.
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n + 1, n, alpha,
              thrust::raw_pointer_cast(A.data()), n,
              thrust::raw_pointer_cast(A.data()), n, beta, dC, n);
              // CHECK-NOTES: :[[@LINE-1]]:15: warning: 'B' needs 65792 elements at ldb=256 but 'thrust::raw_pointer_cast(A.data())' holds 65536 floats (thrust::device_vector of 65536 float values) [cublas-matrix-extents]
              // CHECK-NOTES: :[[@LINE-18]]:32: note: 'A' is allocated here
              // CHECK-NOTES: :[[@LINE-3]]:60: warning: 'C' needs 65792 elements at ldc=256 but 'dC' holds 65536 floats (cudaMallocAsync of 262144 bytes) [cublas-matrix-extents]
              // CHECK-NOTES: :[[@LINE-18]]:3: note: allocated here
  cudaFreeAsync(dC, s);
}
