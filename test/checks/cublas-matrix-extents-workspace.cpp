// RUN: %check_clang_tidy %s cublas-matrix-extents %t -- -- -std=c++17

// A workspace size larger than the workspace: cublasLtMatmul and
// cublasSetWorkspace may read and write past its end. And the workspaces a
// naive rule would flag.

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cstddef>
#include <cuda_runtime.h>

// --- Reported -------------------------------------------------------------

void lt_workspace_too_small(cublasLtHandle_t lt, cublasLtMatmulDesc_t op,
                            cublasLtMatrixLayout_t a, cublasLtMatrixLayout_t b,
                            cublasLtMatrixLayout_t c, const float *A,
                            const float *B, float *C, cudaStream_t stream) {
  const size_t ws_size = 32 << 20;
  void *workspace = nullptr;
  cudaMalloc(&workspace, 4 << 20);
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, A, a, B, b, &beta, C, c, C, c, nullptr,
                 workspace, ws_size, stream);
  // CHECK-NOTES: :[[@LINE-1]]:29: warning: 'workspaceSizeInBytes' (ws_size = 33554432) is larger than the workspace 'workspace' (cudaMalloc of 4194304 bytes); cuBLAS may read and write past its end [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-5]]:3: note: allocated here
}

void set_workspace_too_small(cublasHandle_t h) {
  const size_t bytes = 1 << 20;
  void *ws = nullptr;
  cudaMalloc(&ws, bytes);
  cublasSetWorkspace(h, ws, 2 * bytes);
  // CHECK-NOTES: :[[@LINE-1]]:29: warning: 'workspaceSizeInBytes' (2 * bytes = 2097152) is larger than the workspace 'ws' (cudaMalloc of 1048576 bytes); cuBLAS may read and write past its end [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: allocated here
}

// The preference lets the heuristic pick an algorithm for a workspace
// larger than the one the matmul gets.
void preference_larger(cublasLtHandle_t lt, cublasLtMatmulDesc_t op,
                       cublasLtMatrixLayout_t a, const float *A, float *C,
                       cudaStream_t stream) {
  const size_t allocated = 1 << 20;
  void *ws = nullptr;
  cudaMalloc(&ws, allocated);
  cublasLtMatmulPreference_t pref;
  cublasLtMatmulPreferenceCreate(&pref);
  size_t limit = 64 << 20;
  cublasLtMatmulPreferenceSetAttribute(
      pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &limit, sizeof(limit));
  cublasLtMatmulHeuristicResult_t heuristic[1];
  int found = 0;
  cublasLtMatmulAlgoGetHeuristic(lt, op, a, a, a, a, pref, 1, heuristic,
                                 &found);
  if (found == 0)
    return;
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, A, a, A, a, &beta, C, a, C, a,
                 &heuristic[0].algo, ws, allocated, stream);
  // CHECK-NOTES: :[[@LINE-1]]:38: warning: the preference 'pref' lets the heuristic choose an algorithm that needs up to 67108864 bytes of workspace (CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES) but 'ws' holds 1048576 bytes (cudaMalloc of 1048576 bytes); cublasLtMatmul fails with that algorithm when it needs more; set the limit to the workspace's size [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-12]]:3: note: the limit is set here
  // CHECK-NOTES: :[[@LINE-9]]:3: note: the algorithm is chosen here
  // CHECK-NOTES: :[[@LINE-18]]:3: note: allocated here
  cublasLtMatmulPreferenceDestroy(pref);
}

// --- Not reported ---------------------------------------------------------

// The preference's limit is the workspace's size.
void preference_matches(cublasLtHandle_t lt, cublasLtMatmulDesc_t op,
                        cublasLtMatrixLayout_t a, const float *A, float *C,
                        cudaStream_t stream) {
  size_t bytes = 4 << 20;
  void *ws = nullptr;
  cudaMalloc(&ws, bytes);
  cublasLtMatmulPreference_t pref;
  cublasLtMatmulPreferenceCreate(&pref);
  cublasLtMatmulPreferenceSetAttribute(
      pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &bytes, sizeof(bytes));
  cublasLtMatmulHeuristicResult_t result = {};
  int found = 0;
  cublasLtMatmulAlgoGetHeuristic(lt, op, a, a, a, a, pref, 1, &result,
                                 &found);
  if (found == 0)
    return;
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, A, a, A, a, &beta, C, a, C, a, &result.algo,
                 ws, bytes, stream);
  cublasLtMatmulPreferenceDestroy(pref);
}

void exact(cublasLtHandle_t lt, cublasLtMatmulDesc_t op,
           cublasLtMatrixLayout_t a, cublasLtMatrixLayout_t b,
           cublasLtMatrixLayout_t c, const float *A, const float *B, float *C,
           cudaStream_t stream, cublasHandle_t h) {
  const size_t ws_size = 32 << 20;
  void *workspace = nullptr;
  cudaMalloc(&workspace, ws_size);
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, A, a, B, b, &beta, C, c, C, c, nullptr,
                 workspace, ws_size, stream);
  // Smaller than the allocation is fine too.
  cublasLtMatmul(lt, op, &alpha, A, a, B, b, &beta, C, c, C, c, nullptr,
                 workspace, ws_size / 2, stream);
  cublasSetWorkspace(h, workspace, ws_size);
  // No workspace at all.
  cublasLtMatmul(lt, op, &alpha, A, a, B, b, &beta, C, c, C, c, nullptr,
                 nullptr, 0, stream);
}

// A workspace from elsewhere: its size is unknown. And sizes that may be
// equal (bytes may be 0).
void unknown(cublasHandle_t h, void *ws, size_t bytes) {
  cublasSetWorkspace(h, ws, bytes);
  void *own = nullptr;
  cudaMalloc(&own, bytes);
  cublasSetWorkspace(h, own, 2 * bytes);
}
