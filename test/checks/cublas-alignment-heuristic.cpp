// RUN: %check_clang_tidy %s cublas-alignment %t -- -- -std=c++17

// A half or bf16 cublasLtMatmul whose algorithm comes from
// cublasLtMatmulAlgoGetHeuristic: the heuristic chooses for the alignment
// its preference states for A, B, C and D (256 bytes by default). On an
// H200 an A or B that starts 2, 4 or 8 bytes into its allocation, with
// columns a multiple of 16 bytes long, returned CUBLAS_STATUS_NOT_SUPPORTED;
// with an odd leading dimension the heuristic chose algorithms that read
// any alignment. C and D are held to the preference's C and D alignment
// alike (integration/samples/cublas-alignment/heuristic_output_offset.cpp
// waits for a GPU to confirm it).

#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cstdint>

// Shared set-up: a column-major m x k A, k x n B, m x n D, all half.
struct Layouts {
  cublasLtMatrixLayout_t a, b, d;
};

// --- Reported -------------------------------------------------------------

// The second row of a packed [65, 64] half buffer as A: 2 bytes in.
void second_row(cublasLtHandle_t lt, cublasLtMatmulDesc_t op, const __half *B,
                __half *D, void *ws, size_t wsSize, cudaStream_t s) {
  __half *buf;
  cudaMalloc(&buf, 65 * 64 * sizeof(__half));
  cublasLtMatrixLayout_t a, b, d;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_16F, 64, 64, 64);
  cublasLtMatrixLayoutCreate(&b, CUDA_R_16F, 64, 64, 64);
  cublasLtMatrixLayoutCreate(&d, CUDA_R_16F, 64, 64, 64);
  cublasLtMatmulPreference_t pref;
  cublasLtMatmulPreferenceCreate(&pref);
  cublasLtMatmulPreferenceSetAttribute(
      pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wsSize, sizeof(wsSize));
  cublasLtMatmulHeuristicResult_t result;
  int found = 0;
  cublasLtMatmulAlgoGetHeuristic(lt, op, a, b, d, d, pref, 1, &result, &found);
  if (found == 0)
    return;
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, buf + 1, a, B, b, &beta, D, d, D, d,
                 &result.algo, ws, wsSize, s);
  // CHECK-NOTES: :[[@LINE-2]]:34: warning: 'buf + 1' (A) is 2 bytes past the start of its cudaMalloc allocation, but the algorithm comes from cublasLtMatmulAlgoGetHeuristic with a preference that states 256-byte aligned A (CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, the default): with A's columns 64 __half values apart, cublasLtMatmul returns CUBLAS_STATUS_NOT_SUPPORTED; state A's real alignment (2 bytes) in the preference [cublas-alignment]
  // CHECK-NOTES: :[[@LINE-18]]:3: note: allocated here
  // CHECK-NOTES: :[[@LINE-8]]:3: note: the heuristic chooses the algorithm here
}

// bf16 B 8 bytes in, with a preference that states 16 bytes.
void bf16_stated_too_much(cublasLtHandle_t lt, cublasLtMatmulDesc_t op,
                          const __nv_bfloat16 *A, __nv_bfloat16 *D,
                          cudaStream_t s) {
  __nv_bfloat16 *w;
  cudaMalloc(&w, 4 + 128 * 128 * sizeof(__nv_bfloat16));
  cublasLtMatrixLayout_t a, b, d;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_16BF, 128, 128, 128);
  cublasLtMatrixLayoutCreate(&b, CUDA_R_16BF, 128, 128, 128);
  cublasLtMatrixLayoutCreate(&d, CUDA_R_16BF, 128, 128, 128);
  cublasLtMatmulPreference_t pref;
  cublasLtMatmulPreferenceCreate(&pref);
  uint32_t align = 16;
  cublasLtMatmulPreferenceSetAttribute(
      pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, &align, sizeof(align));
  cublasLtMatmulHeuristicResult_t results[4];
  int found = 0;
  cublasLtMatmulAlgoGetHeuristic(lt, op, a, b, d, d, pref, 4, results,
                                 &found);
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, A, a, w + 4, b, &beta, D, d, D, d,
                 &results[0].algo, nullptr, 0, s);
  // CHECK-NOTES: :[[@LINE-2]]:40: warning: 'w + 4' (B) is 8 bytes past the start of its cudaMalloc allocation, but the algorithm comes from cublasLtMatmulAlgoGetHeuristic with a preference that states 16-byte aligned B (CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES): with B's columns 128 __nv_bfloat16 values apart, cublasLtMatmul returns CUBLAS_STATUS_NOT_SUPPORTED; state B's real alignment (8 bytes) in the preference [cublas-alignment]
  // CHECK-NOTES: :[[@LINE-18]]:3: note: allocated here
  // CHECK-NOTES: :[[@LINE-7]]:3: note: the heuristic chooses the algorithm here
}

// D, the output, after a header of one half: 2 bytes in. The heuristic
// chose for a 256-byte aligned D as well.
void output_after_header(cublasLtHandle_t lt, cublasLtMatmulDesc_t op,
                         const __half *A, const __half *B, const __half *C,
                         cudaStream_t s) {
  __half *out;
  cudaMalloc(&out, (1 + 64 * 64) * sizeof(__half));
  cublasLtMatrixLayout_t a, b, c;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_16F, 64, 64, 64);
  cublasLtMatrixLayoutCreate(&b, CUDA_R_16F, 64, 64, 64);
  cublasLtMatrixLayoutCreate(&c, CUDA_R_16F, 64, 64, 64);
  cublasLtMatmulPreference_t pref;
  cublasLtMatmulPreferenceCreate(&pref);
  cublasLtMatmulHeuristicResult_t result;
  int found = 0;
  cublasLtMatmulAlgoGetHeuristic(lt, op, a, b, c, c, pref, 1, &result, &found);
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, A, a, B, b, &beta, C, c, out + 1, c,
                 &result.algo, nullptr, 0, s);
  // CHECK-NOTES: :[[@LINE-2]]:59: warning: 'out + 1' (D) is 2 bytes past the start of its cudaMalloc allocation, but the algorithm comes from cublasLtMatmulAlgoGetHeuristic with a preference that states 256-byte aligned D (CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, the default): with D's columns 64 __half values apart, cublasLtMatmul returns CUBLAS_STATUS_NOT_SUPPORTED; state D's real alignment (2 bytes) in the preference [cublas-alignment]
  // CHECK-NOTES: :[[@LINE-14]]:3: note: allocated here
  // CHECK-NOTES: :[[@LINE-6]]:3: note: the heuristic chooses the algorithm here
}

// The product in place, C and D one buffer 8 bytes in: said once, as D.
void in_place(cublasLtHandle_t lt, cublasLtMatmulDesc_t op, const __half *A,
              const __half *B, cudaStream_t s) {
  __half *acc;
  cudaMalloc(&acc, 4 + 64 * 64 * sizeof(__half));
  cublasLtMatrixLayout_t a, b, c;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_16F, 64, 64, 64);
  cublasLtMatrixLayoutCreate(&b, CUDA_R_16F, 64, 64, 64);
  cublasLtMatrixLayoutCreate(&c, CUDA_R_16F, 64, 64, 64);
  cublasLtMatmulPreference_t pref;
  cublasLtMatmulPreferenceCreate(&pref);
  uint32_t sixteen = 16;
  cublasLtMatmulPreferenceSetAttribute(
      pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, &sixteen,
      sizeof(sixteen));
  cublasLtMatmulPreferenceSetAttribute(
      pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, &sixteen,
      sizeof(sixteen));
  cublasLtMatmulHeuristicResult_t result;
  int found = 0;
  cublasLtMatmulAlgoGetHeuristic(lt, op, a, b, c, c, pref, 1, &result, &found);
  const float alpha = 1.0f, beta = 1.0f;
  cublasLtMatmul(lt, op, &alpha, A, a, B, b, &beta, acc + 4, c, acc + 4, c,
                 &result.algo, nullptr, 0, s);
  // CHECK-NOTES: :[[@LINE-2]]:65: warning: 'acc + 4' (D) is 8 bytes past the start of its cudaMalloc allocation, but the algorithm comes from cublasLtMatmulAlgoGetHeuristic with a preference that states 16-byte aligned D (CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES): with D's columns 64 __half values apart, cublasLtMatmul returns CUBLAS_STATUS_NOT_SUPPORTED; state D's real alignment (8 bytes) in the preference [cublas-alignment]
  // CHECK-NOTES: :[[@LINE-21]]:3: note: allocated here
  // CHECK-NOTES: :[[@LINE-6]]:3: note: the heuristic chooses the algorithm here
}

// --- Not reported ---------------------------------------------------------

void correct(cublasLtHandle_t lt, cublasLtMatmulDesc_t op, const __half *B,
             __half *D, float *F, cudaStream_t s) {
  __half *buf;
  cudaMalloc(&buf, 66 * 64 * sizeof(__half));
  float *fbuf;
  cudaMalloc(&fbuf, 65 * 64 * sizeof(float));
  cublasLtMatrixLayout_t a, b, d, odd, fa, fd;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_16F, 64, 64, 64);
  cublasLtMatrixLayoutCreate(&b, CUDA_R_16F, 64, 64, 64);
  cublasLtMatrixLayoutCreate(&d, CUDA_R_16F, 64, 64, 64);
  cublasLtMatrixLayoutCreate(&odd, CUDA_R_16F, 63, 64, 65);
  cublasLtMatrixLayoutCreate(&fa, CUDA_R_32F, 64, 64, 64);
  cublasLtMatrixLayoutCreate(&fd, CUDA_R_32F, 64, 64, 64);
  cublasLtMatmulPreference_t pref, stated;
  cublasLtMatmulPreferenceCreate(&pref);
  cublasLtMatmulPreferenceCreate(&stated);
  uint32_t two = 2;
  cublasLtMatmulPreferenceSetAttribute(
      stated, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, &two, sizeof(two));
  cublasLtMatmulHeuristicResult_t r, rs, ro;
  int found = 0;
  cublasLtMatmulAlgoGetHeuristic(lt, op, a, b, d, d, pref, 1, &r, &found);
  cublasLtMatmulAlgoGetHeuristic(lt, op, a, b, d, d, stated, 1, &rs, &found);
  cublasLtMatmulAlgoGetHeuristic(lt, op, odd, b, d, d, pref, 1, &ro, &found);
  const float alpha = 1.0f, beta = 0.0f;
  // 16 bytes in: aligned enough.
  cublasLtMatmul(lt, op, &alpha, buf + 8, a, B, b, &beta, D, d, D, d, &r.algo,
                 nullptr, 0, s);
  // The preference states A's real alignment.
  cublasLtMatmul(lt, op, &alpha, buf + 1, a, B, b, &beta, D, d, D, d,
                 &rs.algo, nullptr, 0, s);
  // An odd leading dimension: the heuristic chose for unaligned columns.
  cublasLtMatmul(lt, op, &alpha, buf + 1, odd, B, b, &beta, D, d, D, d,
                 &ro.algo, nullptr, 0, s);
  // No algorithm given: cuBLASLt chooses one for the pointers it gets.
  cublasLtMatmul(lt, op, &alpha, buf + 1, a, B, b, &beta, D, d, D, d, nullptr,
                 nullptr, 0, s);
  // float: every offset ran.
  cublasLtMatmul(lt, op, &alpha, fbuf + 1, fa, fbuf, fa, &beta, F, fd, F, fd,
                 &r.algo, nullptr, 0, s);
}

// C and D 8 bytes in with a preference that states 8 bytes for both.
void output_stated(cublasLtHandle_t lt, cublasLtMatmulDesc_t op,
                   const __half *A, const __half *B, cudaStream_t s) {
  __half *acc;
  cudaMalloc(&acc, 8 + 64 * 64 * sizeof(__half));
  cublasLtMatrixLayout_t a, b, c;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_16F, 64, 64, 64);
  cublasLtMatrixLayoutCreate(&b, CUDA_R_16F, 64, 64, 64);
  cublasLtMatrixLayoutCreate(&c, CUDA_R_16F, 64, 64, 64);
  cublasLtMatmulPreference_t pref;
  cublasLtMatmulPreferenceCreate(&pref);
  uint32_t eight = 8;
  cublasLtMatmulPreferenceSetAttribute(
      pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, &eight, sizeof(eight));
  cublasLtMatmulPreferenceSetAttribute(
      pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, &eight, sizeof(eight));
  cublasLtMatmulHeuristicResult_t result;
  int found = 0;
  cublasLtMatmulAlgoGetHeuristic(lt, op, a, b, c, c, pref, 1, &result, &found);
  const float alpha = 1.0f, beta = 1.0f;
  cublasLtMatmul(lt, op, &alpha, A, a, B, b, &beta, acc + 4, c, acc + 4, c,
                 &result.algo, nullptr, 0, s);
}

// A pointer whose offset is unknown, and one from an allocation whose
// alignment is undocumented: not judged.
void unknown(cublasLtHandle_t lt, cublasLtMatmulDesc_t op, const __half *A,
             const __half *B, __half *D, int off, cudaStream_t s) {
  cublasLtMatrixLayout_t a, d;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_16F, 64, 64, 64);
  cublasLtMatrixLayoutCreate(&d, CUDA_R_16F, 64, 64, 64);
  cublasLtMatmulPreference_t pref;
  cublasLtMatmulPreferenceCreate(&pref);
  cublasLtMatmulHeuristicResult_t r;
  int found = 0;
  cublasLtMatmulAlgoGetHeuristic(lt, op, a, a, d, d, pref, 1, &r, &found);
  __half *pool;
  cudaMallocAsync(&pool, 65 * 64 * sizeof(__half), s);
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, A + off, a, B, a, &beta, D, d, D, d, &r.algo,
                 nullptr, 0, s);
  cublasLtMatmul(lt, op, &alpha, pool + 1, a, B, a, &beta, D, d, D, d,
                 &r.algo, nullptr, 0, s);
}
