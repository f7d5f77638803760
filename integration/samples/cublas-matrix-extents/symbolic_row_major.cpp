// INTEGRATION-CHECK: cublas-matrix-extents
// EXPECT-DIAG: cublas-matrix-extents @ 35
// EXPECT-DIAG: cublas-matrix-extents @ 36
// EXPECT-DIAG: cublas-matrix-extents @ 37
// PREDICT: status CUBLAS_STATUS_INVALID_VALUE from cublasSgemm_v2 @ 34
// PREDICT: wrong-result
//
// The tutorial GEMM with its sizes from the command line, as a benchmark
// takes them: to the checks they are symbols, and no ld is provably below
// its rows. But each ld is the column count of its matrix (lda = k for the
// m x k A, ldb = n for B, ldc = n for C), as for row-major data. At the
// sizes it runs with (m = 96, n = 64, k = 32) lda = 32 < m: cuBLAS rejects
// the call with CUBLAS_STATUS_INVALID_VALUE, and there is no product.
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
                            d_a, k,
                            d_b, n,
                            &beta, d_c, n),
                "gemm") &&
      to_host(c, d_c, "C");
  cublas_ok(cublasDestroy(handle), "destroy");
  free_device({d_a, d_b, d_c});
  return report_product(ok, m, n, k, a, b, c);
}
