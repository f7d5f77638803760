//===- FailedOutputs.h - What a failed call leaves in its outputs ---------===//
//
// A cuBLAS call that fails writes nothing through its output pointers: a
// local given by address keeps the value it held before. Code that sets
// that value first and reads it after has chosen what a failure means:
// the heuristic's count set to 0 finds no algorithm, a math mode read into
// `CUBLAS_DEFAULT_MATH` reads the default. Its status may go unread.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_FAILEDOUTPUTS_H
#define CUBLAS_TIDY_LIB_FACTS_FAILEDOUTPUTS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace cublas_tidy {

/// The value `Var`, a local given by address to `Call`, holds when `Call`
/// runs: the nearest earlier statement that names it, in the blocks that
/// hold the call and inside any loop that does, is its declaration with an
/// initializer (`int count = 0;`) or an assignment (`count = 0;`); that
/// value, or null. A value set before a loop that holds the call is not
/// one: the loop's last round may have changed it.
const clang::Expr *valueBeforeCall(const clang::CallExpr *Call,
                                   const clang::VarDecl *Var,
                                   const clang::Decl *Callable);

/// Whether a failure of the heuristic call `Call` in `Callable` shows in
/// its count, so that the count's test is a test of the status: the count
/// is a local (`&count` given to the call) set to 0 before the call
/// (valueBeforeCall), and the first use after the call reads it. A failed
/// call writes no count, and the test that finds no algorithm finds the
/// failure.
bool failureShowsInCount(const clang::CallExpr *Call,
                         const clang::Decl *Callable);

/// Whether a failure of `Call`, a call that reads a setting or a property
/// into its outputs (model: readsSetting; `cublasGetMathMode(h, &mode)`),
/// leaves a value the code chose: each output is a local given by address
/// that holds a value set before the call (valueBeforeCall: `cublasMath_t
/// mode = CUBLAS_DEFAULT_MATH;`), and the first use after the call reads
/// it. An output declared without a value (`int version;`) reads garbage
/// after a failure.
bool failureKeepsFallback(const clang::CallExpr *Call,
                          const clang::Decl *Callable);

} // namespace cublas_tidy

#endif
