// INTEGRATION-CHECK: cublas-data-type
// EXPECT-DIAG: cublas-data-type @ 33
// EXPECT-DIAG: cublas-data-type @ 24 (note)
// PREDICT: status CUBLAS_STATUS_NOT_SUPPORTED from cublasLtMatmul @ 33
// PREDICT: wrong-result
//
// An FP8 product written like its float and half ones: E4M3 inputs, bf16
// output, float compute and scale, a workspace, and no transpose set, so
// the descriptor keeps its default NN layout. On Ada and Hopper cuBLASLt
// runs FP8 only with A transposed and B not (TN): cublasLtMatmul returns
// CUBLAS_STATUS_NOT_SUPPORTED and D keeps its old values. The same types
// in TN run (clean/lt_fp8_tn.cpp); Blackwell (sm_100) accepts NN too.
#include "sample.h"

#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>

// D = A B, column-major: A is m x k (lda m), B is k x n (ldb k).
static bool multiply(cublasLtHandle_t lt, const __nv_fp8_e4m3 *d_a,
                     const __nv_fp8_e4m3 *d_b, __nv_bfloat16 *d_d, int m,
                     int n, int k, void *ws, size_t ws_size) {
  cublasLtMatmulDesc_t op;
  if (!cublas_ok(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F),
                 "descriptor"))
    return false;
  cublasLtMatrixLayout_t a, b, d;
  cublas_ok(cublasLtMatrixLayoutCreate(&a, CUDA_R_8F_E4M3, m, k, m), "A");
  cublas_ok(cublasLtMatrixLayoutCreate(&b, CUDA_R_8F_E4M3, k, n, k), "B");
  cublas_ok(cublasLtMatrixLayoutCreate(&d, CUDA_R_16BF, m, n, m), "D");
  const float alpha = 1.0f, beta = 0.0f;
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
  std::vector<__nv_fp8_e4m3> a(m * k), b(k * n);
  std::vector<float> fa(m * k), fb(k * n);
  for (int i = 0; i < m * k; ++i)
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
  const bool ran = multiply(lt, d_a, d_b, d_d, m, n, k, ws, ws_size) &&
                   device_ok("matmul");
  bool ok = to_host(d, d_d, "D");
  const std::vector<float> want = host_gemm(m, n, k, fa, fb);
  for (int i = 0; ok && i < m * n; ++i)
    ok = __bfloat162float(d[i]) == want[i];
  cublas_ok(cublasLtDestroy(lt), "destroy handle");
  free_device({d_a, d_b, d_d, ws});
  return report_result(ran && ok);
}
