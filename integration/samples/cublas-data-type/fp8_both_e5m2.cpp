// INTEGRATION-CHECK: cublas-data-type
// EXPECT-DIAG: cublas-data-type @ 37
// EXPECT-DIAG: cublas-data-type @ 22 (note)
// PREDICT: status CUBLAS_STATUS_NOT_SUPPORTED from cublasLtMatmul @ 37
// PREDICT: wrong-result
//
// An FP8 product of gradients, both in E5M2 (the wider range the backward
// pass keeps them in), in the TN layout with a bf16 output. cuBLASLt's FP8
// table has E5M2 for one input only, with E4M3 for the other:
// cublasLtMatmul returns CUBLAS_STATUS_NOT_SUPPORTED and D keeps its old
// values. clean/lt_fp8_tn.cpp is the same product with E4M3 inputs.
#include "sample.h"

#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>

static bool multiply(cublasLtHandle_t lt, const __nv_fp8_e5m2 *d_a,
                     const __nv_fp8_e5m2 *d_b, __nv_bfloat16 *d_d, int m,
                     int n, int k, void *ws, size_t ws_size) {
  cublasLtMatmulDesc_t op;
  if (!cublas_ok(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F),
                 "descriptor"))
    return false;
  const cublasOperation_t t = CUBLAS_OP_T, nt = CUBLAS_OP_N;
  cublas_ok(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA,
                                           &t, sizeof(t)),
            "transa");
  cublas_ok(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB,
                                           &nt, sizeof(nt)),
            "transb");
  cublasLtMatrixLayout_t a, b, d;
  cublas_ok(cublasLtMatrixLayoutCreate(&a, CUDA_R_8F_E5M2, k, m, k), "A");
  cublas_ok(cublasLtMatrixLayoutCreate(&b, CUDA_R_8F_E5M2, k, n, k), "B");
  cublas_ok(cublasLtMatrixLayoutCreate(&d, CUDA_R_16BF, m, n, m), "D");
  const float alpha = 1.0f, beta = 0.0f;
  const bool ok = cublas_ok(cublasLtMatmul(lt, op, &alpha, d_a, a, d_b, b,
                                           &beta, d_d, d, d_d, d, nullptr, ws,
                                           ws_size, 0),
                            "matmul");
  cublas_ok(cublasLtMatrixLayoutDestroy(d), "destroy layout");
  cublas_ok(cublasLtMatrixLayoutDestroy(b), "destroy layout");
  cublas_ok(cublasLtMatrixLayoutDestroy(a), "destroy layout");
  cublas_ok(cublasLtMatmulDescDestroy(op), "destroy descriptor");
  return ok;
}

int main() {
  const int m = 64, n = 64, k = 64;
  std::vector<__nv_fp8_e5m2> a(k * m), b(k * n);
  std::vector<float> fa(k * m), fb(k * n);
  for (int i = 0; i < k * m; ++i)
    a[i] = __nv_fp8_e5m2(fa[i] = float(i % 3));
  for (int i = 0; i < k * n; ++i)
    b[i] = __nv_fp8_e5m2(fb[i] = float((i / 2) % 3));
  __nv_fp8_e5m2 *d_a = to_device(a, "A"), *d_b = to_device(b, "B");
  std::vector<__nv_bfloat16> d(m * n, __float2bfloat16(-1.0f));
  __nv_bfloat16 *d_d = to_device(d, "D");
  const size_t ws_size = 32u << 20;
  void *ws = nullptr;
  if (!d_a || !d_b || !d_d || !cuda_ok(cudaMalloc(&ws, ws_size), "workspace"))
    return 2;
  cublasLtHandle_t lt;
  if (cublasLtCreate(&lt) != CUBLAS_STATUS_SUCCESS)
    return 2;
  bool ok = multiply(lt, d_a, d_b, d_d, m, n, k, ws, ws_size) &&
            device_ok("matmul") &&
            to_host(d, d_d, "D");
  // D = A^T B: D(i, j) is column i of A (k x m) dotted with column j of B.
  for (int i = 0; ok && i < m; ++i)
    for (int j = 0; ok && j < n; ++j) {
      float want = 0.0f;
      for (int l = 0; l < k; ++l)
        want += fa[l + i * k] * fb[l + j * k];
      ok = __bfloat162float(d[i + j * m]) == want;
    }
  cublas_ok(cublasLtDestroy(lt), "destroy handle");
  free_device({d_a, d_b, d_d, ws});
  return report_result(ok);
}
