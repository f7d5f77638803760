// INTEGRATION-CHECK: cublas-integer-overflow
// EXPECT-DIAG: cublas-integer-overflow @ 24
// PREDICT: out-of-bounds cublasSgemmStridedBatched A @ 23
// PREDICT: sanitizer "Invalid __global__ read"
//
// Two matrix-vector products in one strided batch, each A 46341 x 46341
// floats (8 GiB), both in one allocation. The stride between the two As,
// m * k, is computed in int: 2147488281 does not fit and wraps to
// -2147479015 before it becomes the long long strideA, so cuBLAS reads the
// second A 8 GiB before the first, outside the allocation. The fix is
// static_cast<long long>(m) * k.
#include "sample.h"

#include <cstddef>
#include <cstdlib>

// The sizes arrive at run time, from the command line (46341 when none is
// given), as a benchmark receives them.
static bool batched_products(cublasHandle_t handle, int m, int k,
                             const float *d_a, const float *d_x, float *d_y) {
  const float alpha = 1.0f, beta = 0.0f;
  return cublas_ok(
             cublasSgemmStridedBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, 1,
                                       k, &alpha, d_a, m, m * k, d_x, k, k,
                                       &beta, d_y, m, m, 2),
             "gemm") &&
         device_ok("gemm");
}

int main(int argc, char **argv) {
  const int m = argc > 1 ? std::atoi(argv[1]) : 46341, k = 46341;
  const std::size_t a_elems = 2 * static_cast<std::size_t>(m) * k;
  float *d_a = nullptr;
  if (!cuda_ok(cudaMalloc(&d_a, a_elems * sizeof(float)), "cudaMalloc A") ||
      !cuda_ok(cudaMemset(d_a, 0, a_elems * sizeof(float)), "memset A"))
    return 2;
  float *d_x = device_zeros(2 * static_cast<std::size_t>(k), "x");
  float *d_y = device_zeros(2 * static_cast<std::size_t>(m), "y");
  if (!d_x || !d_y)
    return 2;

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const bool ok = batched_products(handle, m, k, d_a, d_x, d_y);
  cublas_ok(cublasDestroy(handle), "destroy");
  free_device({d_x, d_y});
  cudaFree(d_a); // not in free_device: see sample.h
  return report_result(ok);
}
