// RUN: %check_clang_tidy %s cublas-host-pointer %t -- -- -isystem %cuda_include/cccl
// REQUIRES: real-cuda-headers

// A .cu file parsed host-only, with the real thrust headers: kernels and
// launches parse, only host code is analysed.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>

#include <vector>

__managed__ float managedTable[256];
__device__ float deviceTable[256];
float hostTable[256];

__global__ void fill(float *v, float s, int n) {
  float local[4] = {s, s, s, s};
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] = local[i % 4];
}

int run(cublasHandle_t h, int n, cudaStream_t stream) {
  std::vector<float> x(n, 1.0f);
  float *dY = nullptr;
  if (cudaMallocAsync(&dY, n * sizeof(float), stream) != cudaSuccess)
    return 1;
  fill<<<(n + 255) / 256, 256, 0, stream>>>(dY, 2.0f, n);
  const float alpha = 3.0f;
  if (cublasSaxpy(h, n, &alpha, x.data(), 1, dY, 1) != CUBLAS_STATUS_SUCCESS)
    return 1;
  // CHECK-MESSAGES: :[[@LINE-2]]:33: warning: 'x.data()' points to a std::vector's host storage, but argument 'x' of 'cublasSaxpy' must point to device memory [cublas-host-pointer]

  // Globals: managed memory is fine, a __device__ variable's address in host
  // code is not followed, a plain global array is host memory.
  cublasSaxpy(h, n, &alpha, managedTable, 1, dY, 1);
  cublasSaxpy(h, n, &alpha, deviceTable, 1, dY, 1);
  cublasSaxpy(h, n, &alpha, hostTable, 1, dY, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: 'hostTable' points to a host array, but argument 'x' of 'cublasSaxpy' must point to device memory

  // thrust: device_vector storage is device memory, host_vector's is not.
  thrust::device_vector<float> dx(n), dz(n);
  thrust::host_vector<float> hx(n);
  cublasSaxpy(h, n, &alpha, thrust::raw_pointer_cast(dx.data()), 1,
              thrust::raw_pointer_cast(&dz[0]), 1);
  cublasSaxpy(h, n, &alpha, thrust::raw_pointer_cast(hx.data()), 1,
              dz.data().get(), 1);
  // CHECK-MESSAGES: :[[@LINE-2]]:29: warning: 'thrust::raw_pointer_cast(hx.data())' points to a thrust::host_vector's host storage, but argument 'x' of 'cublasSaxpy' must point to device memory
  float *rawDevice = thrust::raw_pointer_cast(dx.data());
  cublasSaxpy(h, n, &alpha, rawDevice + 1, 1, dY, 1);
  return cudaFreeAsync(dY, stream) == cudaSuccess ? 0 : 1;
}
