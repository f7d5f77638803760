// INTEGRATION-CHECK: cublas-integer-overflow
// EXPECT-DIAG: cublas-integer-overflow @ 26
// PREDICT: wrong-result
//
// y += x over a 65536 x 32769 matrix seen as one vector: 2147549184 floats
// (8 GiB each), a count the code computes as rows * cols in size_t and
// then narrows to the int n of the 32-bit cublasSaxpy. It becomes
// -2147418112; cuBLAS touches nothing for n <= 0, and y stays as it was.
// cublasSaxpy_64 takes the count as it is (clean/saxpy_64_large.cpp).
#include "sample.h"

#include <cstddef>

static bool first_and_last(const float *d_y, std::size_t count, float &first,
                           float &last) {
  return cuda_ok(cudaMemcpy(&first, d_y, sizeof(float), cudaMemcpyDeviceToHost),
                 "copy y[0]") &&
         cuda_ok(cudaMemcpy(&last, d_y + (count - 1), sizeof(float),
                            cudaMemcpyDeviceToHost),
                 "copy y[n-1]");
}

static bool add_all(cublasHandle_t handle, std::size_t rows, std::size_t cols,
                    const float *d_x, float *d_y) {
  const float alpha = 1.0f;
  return cublas_ok(cublasSaxpy(handle, rows * cols, &alpha, d_x, 1, d_y, 1),
                   "axpy") &&
         device_ok("axpy");
}

int main(int argc, char **) {
  const std::size_t rows = 65536 + (argc > 99), cols = 32769;
  const std::size_t count = rows * cols, bytes = count * sizeof(float);
  float *d_x = nullptr, *d_y = nullptr;
  // Every byte 0x3f: each float of x is 0.747..., y starts at 0.
  if (!cuda_ok(cudaMalloc(&d_x, bytes), "cudaMalloc x") ||
      !cuda_ok(cudaMalloc(&d_y, bytes), "cudaMalloc y") ||
      !cuda_ok(cudaMemset(d_x, 0x3f, bytes), "memset x") ||
      !cuda_ok(cudaMemset(d_y, 0, bytes), "memset y"))
    return 2;
  float x_value = 0;
  if (!cuda_ok(cudaMemcpy(&x_value, d_x, sizeof(float), cudaMemcpyDeviceToHost),
               "copy x[0]"))
    return 2;

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  float first = 0, last = 0;
  const bool ok = add_all(handle, rows, cols, d_x, d_y) &&
                  first_and_last(d_y, count, first, last);
  cublas_ok(cublasDestroy(handle), "destroy");
  cudaFree(d_x); // not in free_device: see sample.h
  cudaFree(d_y);
  return report_result(ok && first == x_value && last == x_value);
}
