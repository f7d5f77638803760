// RUN: %check_clang_tidy %s cublas-unchecked-status %t

// cublasLtMatmulAlgoGetHeuristic succeeds even when no algorithm fits; the
// number of results it wrote must be tested before a result is used.

#include <cublasLt.h>
#include <cstdio>
#include <cstdlib>

#define LT_CHECK(call)                                                         \
  do {                                                                         \
    if ((call) != CUBLAS_STATUS_SUCCESS)                                       \
      std::abort();                                                            \
  } while (0)

struct Gemm {
  cublasLtHandle_t lt;
  cublasLtMatmulDesc_t op;
  cublasLtMatrixLayout_t a, b, c;
  cublasLtMatmulPreference_t pref;
  const float *alpha, *beta;
  const void *A, *B;
  void *C, *ws;
  size_t wsSize;
  cudaStream_t stream;
};
void report(int);

void untested(const Gemm &g) {
  cublasLtMatmulHeuristicResult_t heur;
  int returned = 0;
  LT_CHECK(cublasLtMatmulAlgoGetHeuristic(g.lt, g.op, g.a, g.b, g.c, g.c,
                                          g.pref, 1, &heur, &returned));
  // CHECK-MESSAGES: :[[@LINE-2]]:12: warning: the number of results of 'cublasLtMatmulAlgoGetHeuristic' in 'returned' is never tested; when no algorithm fits (often a workspace limit too small) the call still succeeds, 'heur' holds no valid algorithm, and cublasLtMatmul fails with CUBLAS_STATUS_NOT_SUPPORTED or runs an uninitialised one [cublas-unchecked-status]
  LT_CHECK(cublasLtMatmul(g.lt, g.op, g.alpha, g.A, g.a, g.B, g.b, g.beta,
                          g.C, g.c, g.C, g.c, &heur.algo, g.ws, g.wsSize,
                          g.stream));
}

void untested_array(const Gemm &g) {
  cublasLtMatmulHeuristicResult_t heur[4];
  int n;
  if (cublasLtMatmulAlgoGetHeuristic(g.lt, g.op, g.a, g.b, g.c, g.c, g.pref, 4,
                                     heur, &n) != CUBLAS_STATUS_SUCCESS)
  // CHECK-MESSAGES: :[[@LINE-2]]:7: warning: the number of results of 'cublasLtMatmulAlgoGetHeuristic' in 'n' is never tested
    return;
  LT_CHECK(cublasLtMatmul(g.lt, g.op, g.alpha, g.A, g.a, g.B, g.b, g.beta,
                          g.C, g.c, g.C, g.c, &heur[0].algo, g.ws, g.wsSize,
                          g.stream));
}

// Tested in any way: fine.
void tested_eq(const Gemm &g) {
  cublasLtMatmulHeuristicResult_t heur;
  int returned = 0;
  LT_CHECK(cublasLtMatmulAlgoGetHeuristic(g.lt, g.op, g.a, g.b, g.c, g.c,
                                          g.pref, 1, &heur, &returned));
  if (returned == 0)
    std::exit(1);
  LT_CHECK(cublasLtMatmul(g.lt, g.op, g.alpha, g.A, g.a, g.B, g.b, g.beta,
                          g.C, g.c, g.C, g.c, &heur.algo, g.ws, g.wsSize,
                          g.stream));
}

void tested_lt(const Gemm &g) {
  cublasLtMatmulHeuristicResult_t heur[2];
  int returned;
  LT_CHECK(cublasLtMatmulAlgoGetHeuristic(g.lt, g.op, g.a, g.b, g.c, g.c,
                                          g.pref, 2, heur, &returned));
  if (returned < 1)
    return;
  LT_CHECK(cublasLtMatmul(g.lt, g.op, g.alpha, g.A, g.a, g.B, g.b, g.beta,
                          g.C, g.c, g.C, g.c, &heur[0].algo, g.ws, g.wsSize,
                          g.stream));
}

void tested_not(const Gemm &g) {
  cublasLtMatmulHeuristicResult_t heur;
  int returned;
  LT_CHECK(cublasLtMatmulAlgoGetHeuristic(g.lt, g.op, g.a, g.b, g.c, g.c,
                                          g.pref, 1, &heur, &returned));
  if (!returned)
    return;
  LT_CHECK(cublasLtMatmul(g.lt, g.op, g.alpha, g.A, g.a, g.B, g.b, g.beta,
                          g.C, g.c, g.C, g.c, &heur.algo, g.ws, g.wsSize,
                          g.stream));
}

void passed_on(const Gemm &g) {
  cublasLtMatmulHeuristicResult_t heur;
  int returned;
  LT_CHECK(cublasLtMatmulAlgoGetHeuristic(g.lt, g.op, g.a, g.b, g.c, g.c,
                                          g.pref, 1, &heur, &returned));
  report(returned);
  LT_CHECK(cublasLtMatmul(g.lt, g.op, g.alpha, g.A, g.a, g.B, g.b, g.beta,
                          g.C, g.c, g.C, g.c, &heur.algo, g.ws, g.wsSize,
                          g.stream));
}

void tested_in_lambda(const Gemm &g) {
  cublasLtMatmulHeuristicResult_t heur;
  int returned;
  LT_CHECK(cublasLtMatmulAlgoGetHeuristic(g.lt, g.op, g.a, g.b, g.c, g.c,
                                          g.pref, 1, &heur, &returned));
  auto none = [&] { return returned == 0; };
  if (none())
    return;
  LT_CHECK(cublasLtMatmul(g.lt, g.op, g.alpha, g.A, g.a, g.B, g.b, g.beta,
                          g.C, g.c, g.C, g.c, &heur.algo, g.ws, g.wsSize,
                          g.stream));
}

// The results never reach a matmul here: nothing to say.
void results_unused(const Gemm &g) {
  cublasLtMatmulHeuristicResult_t heur;
  int returned;
  LT_CHECK(cublasLtMatmulAlgoGetHeuristic(g.lt, g.op, g.a, g.b, g.c, g.c,
                                          g.pref, 1, &heur, &returned));
}
