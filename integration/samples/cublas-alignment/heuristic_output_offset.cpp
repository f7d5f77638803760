// INTEGRATION-CHECK: cublas-alignment
// EXPECT-DIAG: cublas-alignment @ 49
// EXPECT-DIAG: cublas-alignment @ 69 (note)
// EXPECT-DIAG: cublas-alignment @ 42 (note)
// EXPECT-DIAG: cublas-alignment @ 82 (note)
// PREDICT: status CUBLAS_STATUS_NOT_SUPPORTED from cublasLtMatmul @ 48
// PREDICT: wrong-result
//
// heuristic_offset.cpp with the misaligned operand on the output side: the
// product is written in place into C = D, the second half of a buffer
// that starts with one half of header, 2 bytes into its cudaMalloc
// allocation. The preference states nothing of the alignment, so the
// heuristic chose for 256-byte aligned C and D, and D's columns (ldd = 64
// halves) keep it that way: cublasLtMatmul returns
// CUBLAS_STATUS_NOT_SUPPORTED and D keeps its old values. Stating
// CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES and _D_BYTES = 2 lets cuBLASLt
// choose an algorithm that writes D where it is.
#include "sample.h"

#include <cublasLt.h>
#include <cuda_fp16.h>

static bool multiply(cublasLtHandle_t lt, const __half *d_a, const __half *d_b,
                     __half *d_d, int m, int n, int k, void *ws,
                     size_t ws_size) {
  cublasLtMatmulDesc_t op;
  if (!cublas_ok(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F),
                 "descriptor"))
    return false;
  cublasLtMatrixLayout_t a, b, d;
  cublas_ok(cublasLtMatrixLayoutCreate(&a, CUDA_R_16F, m, k, m), "A");
  cublas_ok(cublasLtMatrixLayoutCreate(&b, CUDA_R_16F, k, n, k), "B");
  cublas_ok(cublasLtMatrixLayoutCreate(&d, CUDA_R_16F, m, n, m), "D");
  cublasLtMatmulPreference_t pref;
  cublas_ok(cublasLtMatmulPreferenceCreate(&pref), "preference");
  cublas_ok(cublasLtMatmulPreferenceSetAttribute(
                pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws_size,
                sizeof(ws_size)),
            "workspace size");
  cublasLtMatmulHeuristicResult_t result;
  int found = 0;
  bool ok = cublas_ok(cublasLtMatmulAlgoGetHeuristic(lt, op, a, b, d, d, pref,
                                                     1, &result, &found),
                      "heuristic") &&
            found > 0;
  const float alpha = 1.0f, beta = 0.0f;
  if (ok)
    ok = cublas_ok(cublasLtMatmul(lt, op, &alpha, d_a, a, d_b, b, &beta,
                                  d_d + 1, d, d_d + 1, d, &result.algo, ws,
                                  ws_size, 0),
                   "matmul");
  cublas_ok(cublasLtMatmulPreferenceDestroy(pref), "destroy preference");
  cublas_ok(cublasLtMatrixLayoutDestroy(d), "destroy layout");
  cublas_ok(cublasLtMatrixLayoutDestroy(b), "destroy layout");
  cublas_ok(cublasLtMatrixLayoutDestroy(a), "destroy layout");
  cublas_ok(cublasLtMatmulDescDestroy(op), "destroy descriptor");
  return ok;
}

int main() {
  const int m = 64, n = 64, k = 64;
  std::vector<float> fa = ramp(m * k, 0.01f), fb = ramp(k * n, 0.02f);
  std::vector<__half> a = to_half(fa), b = to_half(fb);
  __half *d_a = to_device(a, "A"), *d_b = to_device(b, "B");
  // One half of header, then D (m x n, column-major).
  std::vector<__half> out(1 + m * n, __float2half(-1.0f));
  __half *buf = nullptr;
  if (!d_a || !d_b ||
      !cuda_ok(cudaMalloc(&buf, (1 + m * n) * sizeof(__half)), "D") ||
      !cuda_ok(cudaMemcpy(buf, out.data(), out.size() * sizeof(__half),
                          cudaMemcpyHostToDevice),
               "D"))
    return 2;
  const size_t ws_size = 32u << 20;
  void *ws = nullptr;
  if (!cuda_ok(cudaMalloc(&ws, ws_size), "workspace"))
    return 2;
  cublasLtHandle_t lt;
  if (cublasLtCreate(&lt) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const bool ran =
      multiply(lt, d_a, d_b, buf, m, n, k, ws, ws_size) && device_ok("matmul");
  bool ok = cuda_ok(cudaMemcpy(out.data(), buf, out.size() * sizeof(__half),
                               cudaMemcpyDeviceToHost),
                    "D back");
  // The product of the halves the device holds, within half's precision.
  const std::vector<float> ha = from_half(a), hb = from_half(b);
  const std::vector<float> want = host_gemm(m, n, k, ha, hb);
  const std::vector<float> got = from_half(out);
  for (std::size_t i = 0; ok && i < want.size(); ++i)
    ok = std::fabs(got[i + 1] - want[i]) <=
         1e-2f * (1.0f + std::fabs(want[i]));
  cublas_ok(cublasLtDestroy(lt), "destroy handle");
  cuda_ok(cudaFree(buf), "cudaFree");
  free_device({d_a, d_b, ws});
  return report_result(ran && ok);
}
