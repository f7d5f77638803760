// INTEGRATION-CHECK: none
// PREDICT: clean
//
// The control for symbolic_row_major.cpp: the same sizes from the command
// line, with column-major leading dimensions (each at least its matrix's
// rows). No check may report anything, and it computes the right product.
#include "sample.h"

#include <cstdlib>

int main(int argc, char **argv) {
  const int m = argc > 3 ? std::atoi(argv[1]) : 96;
  const int n = argc > 3 ? std::atoi(argv[2]) : 64;
  const int k = argc > 3 ? std::atoi(argv[3]) : 32;
  const std::vector<float> a = ramp(m * k, 1.0f), b = ramp(k * n, 0.5f);
  std::vector<float> c(m * n);
  float *d_a = to_device(a, "A"), *d_b = to_device(b, "B");
  float *d_c = device_zeros(c.size(), "C");
  if (!d_a || !d_b || !d_c)
    return 2;

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const float alpha = 1.0f, beta = 0.0f;
  const bool ok =
      cublas_ok(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha,
                            d_a, m, d_b, k, &beta, d_c, m),
                "gemm") &&
      to_host(c, d_c, "C");
  cublas_ok(cublasDestroy(handle), "destroy");
  free_device({d_a, d_b, d_c});
  return report_product(ok, m, n, k, a, b, c);
}
