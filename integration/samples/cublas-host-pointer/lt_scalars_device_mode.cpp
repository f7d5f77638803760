// INTEGRATION-CHECK: cublas-host-pointer
// EXPECT-DIAG: cublas-host-pointer @ 35
// EXPECT-DIAG: cublas-host-pointer @ 36
// PREDICT: host-pointer cublasLtMatmul alpha @ 34
//
// The matmul descriptor is switched to CUBLASLT_POINTER_MODE_DEVICE (the
// code was meant to take alpha from a device buffer the previous kernel
// wrote), but alpha and beta are still host locals. cuBLASLt dereferences
// them on the device: an illegal address, or on systems where the GPU can
// reach host memory, a read of the host stack from the GPU.
#include "sample.h"

#include <cublasLt.h>

static bool multiply(cublasLtHandle_t lt, const float *d_a, const float *d_b,
                     float *d_c, int n) {
  cublasLtMatmulDesc_t op;
  if (cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F) !=
      CUBLAS_STATUS_SUCCESS)
    return false;
  const cublasLtPointerMode_t mode = CUBLASLT_POINTER_MODE_DEVICE;
  cublasLtMatrixLayout_t layout;
  if (!cublas_ok(cublasLtMatmulDescSetAttribute(
                     op, CUBLASLT_MATMUL_DESC_POINTER_MODE, &mode,
                     sizeof(mode)),
                 "pointer mode") ||
      cublasLtMatrixLayoutCreate(&layout, CUDA_R_32F, n, n, n) !=
          CUBLAS_STATUS_SUCCESS) {
    cublas_ok(cublasLtMatmulDescDestroy(op), "destroy descriptor");
    return false;
  }
  const float alpha = 1.0f, beta = 0.0f;
  const bool ok =
      cublas_ok(cublasLtMatmul(lt, op,
                               &alpha, d_a, layout, d_b, layout,
                               &beta, d_c, layout, d_c, layout, nullptr,
                               nullptr, 0, 0),
                "matmul") &&
      device_ok("matmul");
  cublas_ok(cublasLtMatrixLayoutDestroy(layout), "destroy layout");
  cublas_ok(cublasLtMatmulDescDestroy(op), "destroy descriptor");
  return ok;
}

int main() {
  const int n = 64;
  const std::vector<float> a = ramp(n * n, 1.0f), b = ramp(n * n, 0.5f);
  std::vector<float> c(n * n);
  float *d_a = to_device(a, "A"), *d_b = to_device(b, "B");
  float *d_c = device_zeros(c.size(), "C");
  cublasLtHandle_t lt;
  if (cublasLtCreate(&lt) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const bool ok = d_a && d_b && d_c && multiply(lt, d_a, d_b, d_c, n) &&
                  to_host(c, d_c, "C");
  cublas_ok(cublasLtDestroy(lt), "destroy");
  free_device({d_a, d_b, d_c});
  return report_product(ok, n, n, n, a, b, c);
}
