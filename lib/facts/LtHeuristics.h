//===- LtHeuristics.h - cuBLASLt heuristic results used untested ----------===//
//
// cublasLtMatmulAlgoGetHeuristic(lt, op, A, B, C, D, pref, N, results,
// &returned) writes `returned` results, which is zero when no algorithm fits
// (often because the preference's workspace limit is too small) even though
// the call itself returns CUBLAS_STATUS_SUCCESS. Code that hands
// results[0].algo to cublasLtMatmul without looking at `returned` runs an
// uninitialised algorithm or fails with CUBLAS_STATUS_NOT_SUPPORTED.
//
// The fact here: a heuristic call whose count variable (a local) is never
// read anywhere in the function, while its results variable reaches a
// cublasLtMatmul. Any other mention of the count (a test, a copy, a call
// that receives it) counts as a test.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_LTHEURISTICS_H
#define CUBLAS_TIDY_LIB_FACTS_LTHEURISTICS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <vector>

namespace cublas_tidy {

struct UntestedHeuristic {
  const clang::CallExpr *Heuristic; // cublasLtMatmulAlgoGetHeuristic
  const clang::VarDecl *Count;      // its returned-results count
  const clang::VarDecl *Results;    // its results array
  const clang::CallExpr *Use;       // a cublasLtMatmul given a result
};

/// The heuristic calls of `Callable` whose returned count is never read
/// while a result is used. Empty for a body with compile errors.
std::vector<UntestedHeuristic> untestedHeuristics(const clang::Decl *Callable);

} // namespace cublas_tidy

#endif
