// INTEGRATION-CHECK: cublas-alignment
// EXPECT-DIAG: cublas-alignment @ 42
// EXPECT-DIAG: cublas-alignment @ 62 (note)
// EXPECT-DIAG: cublas-alignment @ 76 (note)
// PREDICT: status CUBLAS_STATUS_NOT_SUPPORTED from cublasLtMatmul @ 42
// PREDICT: wrong-result
//
// An FP8 product in the TN layout cuBLASLt wants, on a packed block whose
// first 8 bytes hold its two float scales and whose E4M3 matrix follows:
// A is `block + 8`. The leading dimensions are multiples of 16, but the
// FP8 kernels also need A and B 16-byte aligned: cublasLtMatmul returns
// CUBLAS_STATUS_NOT_SUPPORTED and D keeps its old values. With the scales
// padded to 16 bytes (clean/lt_fp8_tn.cpp's A at an aligned start) it runs.
#include "sample.h"

#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>

static bool multiply(cublasLtHandle_t lt, const __nv_fp8_e4m3 *block,
                     const __nv_fp8_e4m3 *d_b, __nv_bfloat16 *d_d, int m,
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
  cublas_ok(cublasLtMatrixLayoutCreate(&a, CUDA_R_8F_E4M3, k, m, k), "A");
  cublas_ok(cublasLtMatrixLayoutCreate(&b, CUDA_R_8F_E4M3, k, n, k), "B");
  cublas_ok(cublasLtMatrixLayoutCreate(&d, CUDA_R_16BF, m, n, m), "D");
  const float alpha = 1.0f, beta = 0.0f;
  // The matrix follows the block's two float scales.
  const __nv_fp8_e4m3 *d_a = block + 2 * sizeof(float);
  const bool ok = cublas_ok(
      cublasLtMatmul(lt, op, &alpha, d_a, a, d_b, b, &beta, d_d, d, d_d, d,
                     nullptr, ws, ws_size, 0),
      "matmul");
  cublas_ok(cublasLtMatrixLayoutDestroy(d), "destroy layout");
  cublas_ok(cublasLtMatrixLayoutDestroy(b), "destroy layout");
  cublas_ok(cublasLtMatrixLayoutDestroy(a), "destroy layout");
  cublas_ok(cublasLtMatmulDescDestroy(op), "destroy descriptor");
  return ok;
}

int main() {
  const int m = 64, n = 64, k = 64;
  const size_t header = 2 * sizeof(float);
  std::vector<__nv_fp8_e4m3> a(header + k * m), b(k * n);
  std::vector<float> fa(k * m), fb(k * n);
  for (int i = 0; i < k * m; ++i)
    a[header + i] = __nv_fp8_e4m3(fa[i] = float(i % 3));
  for (int i = 0; i < k * n; ++i)
    b[i] = __nv_fp8_e4m3(fb[i] = float((i / 2) % 3));
  __nv_fp8_e4m3 *block = nullptr;
  if (!cuda_ok(cudaMalloc(&block, a.size()), "block") ||
      !cuda_ok(cudaMemcpy(block, a.data(), a.size(), cudaMemcpyHostToDevice),
               "block"))
    return 2;
  __nv_fp8_e4m3 *d_b = to_device(b, "B");
  std::vector<__nv_bfloat16> d(m * n, __float2bfloat16(-1.0f));
  __nv_bfloat16 *d_d = to_device(d, "D");
  const size_t ws_size = 32u << 20;
  void *ws = nullptr;
  if (!d_b || !d_d || !cuda_ok(cudaMalloc(&ws, ws_size), "workspace"))
    return 2;
  cublasLtHandle_t lt;
  if (cublasLtCreate(&lt) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const bool ran = multiply(lt, block, d_b, d_d, m, n, k, ws, ws_size) &&
                   device_ok("matmul");
  bool ok = to_host(d, d_d, "D");
  // D = A^T B: D(i, j) is column i of A (k x m) dotted with column j of B.
  for (int i = 0; ok && i < m; ++i)
    for (int j = 0; ok && j < n; ++j) {
      float want = 0.0f;
      for (int l = 0; l < k; ++l)
        want += fa[l + i * k] * fb[l + j * k];
      ok = __bfloat162float(d[i + j * m]) == want;
    }
  cublas_ok(cublasLtDestroy(lt), "destroy handle");
  cuda_ok(cudaFree(block), "cudaFree");
  free_device({d_b, d_d, ws});
  return report_result(ran && ok);
}
