// INTEGRATION-CHECK: cublas-host-pointer
// EXPECT-DIAG: cublas-host-pointer @ 40
// EXPECT-DIAG: cublas-host-pointer @ 37 (note)
// PREDICT: cuda-error cudaErrorIllegalAddress
// PREDICT: wrong-result
//
// An FP8 product that dequantizes A with a per-tensor scale: the scale is
// computed on the host and its host address given as
// CUBLASLT_MATMUL_DESC_A_SCALE_POINTER. cublasLtMatmul returns
// CUBLAS_STATUS_SUCCESS, but its kernel reads the scale on the GPU: the
// next synchronisation fails with cudaErrorIllegalAddress (an H200 with
// cuBLAS 13.0), and the context is lost. The scale belongs in device
// memory (cudaMalloc and a copy), as the FP8 sample of cuBLASLt keeps it.
#include "sample.h"

#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>

#include <cstdlib>

static bool multiply(cublasLtHandle_t lt, const __nv_fp8_e4m3 *d_a,
                     const __nv_fp8_e4m3 *d_b, __nv_bfloat16 *d_d, int m,
                     int n, int k, void *ws, size_t ws_size, float amax) {
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
  // A's values were scaled by 448 / amax to fill the E4M3 range.
  float *a_scale = static_cast<float *>(std::malloc(sizeof(float)));
  *a_scale = amax / 448.0f;
  cublas_ok(cublasLtMatmulDescSetAttribute(
                op, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &a_scale,
                sizeof(a_scale)),
            "A scale");
  cublasLtMatrixLayout_t a, b, d;
  cublas_ok(cublasLtMatrixLayoutCreate(&a, CUDA_R_8F_E4M3, k, m, k), "A");
  cublas_ok(cublasLtMatrixLayoutCreate(&b, CUDA_R_8F_E4M3, k, n, k), "B");
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
  std::free(a_scale);
  return ok;
}

int main() {
  const int m = 64, n = 64, k = 64;
  std::vector<__nv_fp8_e4m3> a(k * m), b(k * n);
  std::vector<float> fa(k * m), fb(k * n);
  for (int i = 0; i < k * m; ++i)
    a[i] = __nv_fp8_e4m3(fa[i] = float(i % 3));
  for (int i = 0; i < k * n; ++i)
    b[i] = __nv_fp8_e4m3(fb[i] = float((i / 2) % 3));
  __nv_fp8_e4m3 *d_a = to_device(a, "A"), *d_b = to_device(b, "B");
  std::vector<__nv_bfloat16> d(m * n, __float2bfloat16(-1.0f));
  __nv_bfloat16 *d_d = to_device(d, "D");
  const size_t ws_size = 32u << 20;
  void *ws = nullptr;
  if (!d_a || !d_b || !d_d || !cuda_ok(cudaMalloc(&ws, ws_size), "workspace"))
    return 2;
  cublasLtHandle_t lt;
  if (cublasLtCreate(&lt) != CUBLAS_STATUS_SUCCESS)
    return 2;
  bool ok = multiply(lt, d_a, d_b, d_d, m, n, k, ws, ws_size, 448.0f) &&
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
