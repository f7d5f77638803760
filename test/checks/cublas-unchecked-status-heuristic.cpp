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

// The status is discarded, but the count it writes is set to 0 first and
// tested after: a failed call writes nothing, so the test that sees no
// algorithm sees the failure too.
void status_shows_in_count(const Gemm &g) {
  cublasLtMatmulHeuristicResult_t heur;
  int returned = 0;
  cublasLtMatmulAlgoGetHeuristic(g.lt, g.op, g.a, g.b, g.c, g.c, g.pref, 1,
                                 &heur, &returned);
  if (returned == 0)
    return;
  LT_CHECK(cublasLtMatmul(g.lt, g.op, g.alpha, g.A, g.a, g.B, g.b, g.beta,
                          g.C, g.c, g.C, g.c, &heur.algo, g.ws, g.wsSize,
                          g.stream));
}

// Not set first: a failed call leaves whatever the stack held.
void status_count_unset(const Gemm &g) {
  cublasLtMatmulHeuristicResult_t heur;
  int returned;
  cublasLtMatmulAlgoGetHeuristic(g.lt, g.op, g.a, g.b, g.c, g.c, g.pref, 1,
                                 &heur, &returned);
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: the cublasStatus_t returned by 'cublasLtMatmulAlgoGetHeuristic' is discarded; a failure here goes unnoticed [cublas-unchecked-status]
  if (returned == 0)
    return;
  LT_CHECK(cublasLtMatmul(g.lt, g.op, g.alpha, g.A, g.a, g.B, g.b, g.beta,
                          g.C, g.c, g.C, g.c, &heur.algo, g.ws, g.wsSize,
                          g.stream));
}

// Set to 0 once, before a loop: a call that fails in a later round leaves
// the count of the round before.
void status_count_stale(const Gemm &g, int rounds) {
  cublasLtMatmulHeuristicResult_t heur;
  int returned = 0;
  for (int r = 0; r < rounds; ++r) {
    cublasLtMatmulAlgoGetHeuristic(g.lt, g.op, g.a, g.b, g.c, g.c, g.pref, 1,
                                   &heur, &returned);
    // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: the cublasStatus_t returned by 'cublasLtMatmulAlgoGetHeuristic' is discarded
    if (returned == 0)
      continue;
    LT_CHECK(cublasLtMatmul(g.lt, g.op, g.alpha, g.A, g.a, g.B, g.b, g.beta,
                            g.C, g.c, g.C, g.c, &heur.algo, g.ws, g.wsSize,
                            g.stream));
  }
}

// Set to 0 inside the loop, before each call: each round's test sees it.
void status_count_each_round(const Gemm &g, int rounds) {
  cublasLtMatmulHeuristicResult_t heur;
  for (int r = 0; r < rounds; ++r) {
    int returned = 0;
    cublasLtMatmulAlgoGetHeuristic(g.lt, g.op, g.a, g.b, g.c, g.c, g.pref, 1,
                                   &heur, &returned);
    if (returned == 0)
      continue;
    LT_CHECK(cublasLtMatmul(g.lt, g.op, g.alpha, g.A, g.a, g.B, g.b, g.beta,
                            g.C, g.c, g.C, g.c, &heur.algo, g.ws, g.wsSize,
                            g.stream));
  }
}

// Written again between the call and the test: the test no longer sees
// what the call left.
void status_count_overwritten(const Gemm &g) {
  cublasLtMatmulHeuristicResult_t heur;
  int returned = 0;
  cublasLtMatmulAlgoGetHeuristic(g.lt, g.op, g.a, g.b, g.c, g.c, g.pref, 1,
                                 &heur, &returned);
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: the cublasStatus_t returned by 'cublasLtMatmulAlgoGetHeuristic' is discarded
  returned = 1;
  if (returned == 0)
    return;
  LT_CHECK(cublasLtMatmul(g.lt, g.op, g.alpha, g.A, g.a, g.B, g.b, g.beta,
                          g.C, g.c, g.C, g.c, &heur.algo, g.ws, g.wsSize,
                          g.stream));
}

// Stored and never read, with the count tested: the same.
void status_stored_count_tested(const Gemm &g) {
  cublasLtMatmulHeuristicResult_t heur;
  int returned = 0;
  cublasStatus_t st = cublasLtMatmulAlgoGetHeuristic(
      g.lt, g.op, g.a, g.b, g.c, g.c, g.pref, 1, &heur, &returned);
  if (returned == 0)
    return;
  LT_CHECK(cublasLtMatmul(g.lt, g.op, g.alpha, g.A, g.a, g.B, g.b, g.beta,
                          g.C, g.c, g.C, g.c, &heur.algo, g.ws, g.wsSize,
                          g.stream));
}

void status_stored_count_unset(const Gemm &g) {
  cublasLtMatmulHeuristicResult_t heur;
  int returned;
  cublasStatus_t st = cublasLtMatmulAlgoGetHeuristic(
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: the cublasStatus_t returned by 'cublasLtMatmulAlgoGetHeuristic' is stored in 'st' but never read [cublas-unchecked-status]
      g.lt, g.op, g.a, g.b, g.c, g.c, g.pref, 1, &heur, &returned);
  if (returned == 0)
    return;
  LT_CHECK(cublasLtMatmul(g.lt, g.op, g.alpha, g.A, g.a, g.B, g.b, g.beta,
                          g.C, g.c, g.C, g.c, &heur.algo, g.ws, g.wsSize,
                          g.stream));
}

// Set to 0 by an assignment just before, in a branch; the other branch's
// writes do not matter.
void status_count_reset(const Gemm &g, bool ids, int *out) {
  cublasLtMatmulHeuristicResult_t heur[8];
  int found = 0;
  if (ids) {
    found = 3;
  } else {
    found = 0;
    cublasLtMatmulAlgoGetHeuristic(g.lt, g.op, g.a, g.b, g.c, g.c, g.pref, 8,
                                   heur, &found);
    for (int i = 0; i < found; i++)
      LT_CHECK(cublasLtMatmul(g.lt, g.op, g.alpha, g.A, g.a, g.B, g.b,
                              g.beta, g.C, g.c, g.C, g.c, &heur[i].algo, g.ws,
                              g.wsSize, g.stream));
  }
  *out = found;
}

// Set to 0, then to something else, before the call: reported.
void status_count_set_between(const Gemm &g) {
  cublasLtMatmulHeuristicResult_t heur;
  int returned = 0;
  returned = 1;
  cublasLtMatmulAlgoGetHeuristic(g.lt, g.op, g.a, g.b, g.c, g.c, g.pref, 1,
                                 &heur, &returned);
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: the cublasStatus_t returned by 'cublasLtMatmulAlgoGetHeuristic' is discarded
  if (returned == 0)
    return;
  LT_CHECK(cublasLtMatmul(g.lt, g.op, g.alpha, g.A, g.a, g.B, g.b, g.beta,
                          g.C, g.c, g.C, g.c, &heur.algo, g.ws, g.wsSize,
                          g.stream));
}
