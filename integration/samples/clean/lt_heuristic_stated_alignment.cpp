// INTEGRATION-CHECK: none
// PREDICT: clean
//
// The product of cublas-alignment/heuristic_offset.cpp, A 2 bytes into its
// allocation, with the preference stating A's real alignment
// (CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES = 2): the heuristic chooses
// an algorithm that reads A where it is, and the product is right.
#include "sample.h"

#include <cublasLt.h>
#include <cuda_fp16.h>

#include <cstdint>

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
  const uint32_t a_alignment = 2; // A is d_a + 1: two bytes in
  cublas_ok(cublasLtMatmulPreferenceSetAttribute(
                pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, &a_alignment,
                sizeof(a_alignment)),
            "A's alignment");
  cublasLtMatmulHeuristicResult_t result;
  int found = 0;
  bool ok = cublas_ok(cublasLtMatmulAlgoGetHeuristic(lt, op, a, b, d, d, pref,
                                                     1, &result, &found),
                      "heuristic") &&
            found > 0;
  const float alpha = 1.0f, beta = 0.0f;
  if (ok)
    ok = cublas_ok(cublasLtMatmul(lt, op, &alpha, d_a + 1, a, d_b, b, &beta,
                                  d_d, d, d_d, d, &result.algo, ws, ws_size,
                                  0),
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
  // One half of header, then A (m x k, column-major).
  std::vector<float> fa = ramp(1 + m * k, 0.01f), fb = ramp(k * n, 0.02f);
  std::vector<__half> a = to_half(fa), b = to_half(fb);
  __half *buf = nullptr;
  if (!cuda_ok(cudaMalloc(&buf, (1 + m * k) * sizeof(__half)), "A") ||
      !cuda_ok(cudaMemcpy(buf, a.data(), a.size() * sizeof(__half),
                          cudaMemcpyHostToDevice),
               "A"))
    return 2;
  __half *d_b = to_device(b, "B");
  std::vector<__half> d(m * n, __float2half(-1.0f));
  __half *d_d = to_device(d, "D");
  const size_t ws_size = 32u << 20;
  void *ws = nullptr;
  if (!d_b || !d_d || !cuda_ok(cudaMalloc(&ws, ws_size), "workspace"))
    return 2;
  cublasLtHandle_t lt;
  if (cublasLtCreate(&lt) != CUBLAS_STATUS_SUCCESS)
    return 2;
  const bool ran =
      multiply(lt, buf, d_b, d_d, m, n, k, ws, ws_size) && device_ok("matmul");
  bool ok = to_host(d, d_d, "D");
  // The product of the halves the device holds, within half's precision.
  const std::vector<float> ha = from_half(a), hb = from_half(b);
  const std::vector<float> want =
      host_gemm(m, n, k, std::vector<float>(ha.begin() + 1, ha.end()), hb);
  const std::vector<float> got = from_half(d);
  for (std::size_t i = 0; ok && i < want.size(); ++i)
    ok = std::fabs(got[i] - want[i]) <= 1e-2f * (1.0f + std::fabs(want[i]));
  cublas_ok(cublasLtDestroy(lt), "destroy handle");
  cuda_ok(cudaFree(buf), "cudaFree");
  free_device({d_b, d_d, ws});
  return report_result(ran && ok);
}
