//===- StatusFunctions.h - What user functions do with cuBLAS statuses ----===//
//
// Projects put cuBLAS calls behind their own functions: checkers that look at
// a status and report or abort (`checkCublas(cublasSgemm(...))`), and thin
// wrappers that return the status of the call they make
// (`cublasStatus_t gemm(...) { return cublasSgemm(...); }`). Discarding a
// checker's result loses nothing: it has looked at the status. Discarding a
// wrapper's result loses the status of the call inside.
//
// Decided from the function's body in the same translation unit: a function
// inspects a status when its body compares a cublasStatus_t value, switches
// on it, negates it, tests it in a condition, or passes it to a function that
// does not itself return a status (a reporting function: fprintf,
// cublasGetStatusString, a logger). Returning it, or storing it, is not
// inspecting it. A declaration without a body is unknown, unless the
// project's summaries (facts/Summaries.h) know its definition in another
// unit.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_STATUSFUNCTIONS_H
#define CUBLAS_TIDY_LIB_FACTS_STATUSFUNCTIONS_H

#include "facts/SummaryStore.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"

#include <string>

namespace cublas_tidy {

struct StatusFunctionFacts {
  enum RoleT {
    Unknown, // no body in the translation unit, or a body with errors
    Checker, // inspects a status
    Wrapper, // returns a status it never inspected
  };
  RoleT Role = Unknown;
  /// For a wrapper: the cuBLAS function whose status it returns, when it is
  /// one function (as the user writes it: "cublasSgemm"); empty otherwise.
  std::string Wrapped;
  /// A call of Wrapped in the body; null when the facts come from another
  /// unit (facts/Summaries.h), which gives WrappedFile and WrappedLine.
  const clang::CallExpr *WrappedCall = nullptr;
  std::string WrappedFile;
  unsigned WrappedLine = 0;
  /// The facts come from the summary of a definition in another unit.
  bool FromProject = false;
  /// For a checker whose first parameter is a status and whose result a
  /// condition can test (`if (!ok(cublasCreate(&h))) return;`): what a
  /// true (non-zero) result says of the status. Read from a body of
  /// straight-line statements, ifs on the status against success, and
  /// returns of constants or of such a comparison.
  StatusPredicate Predicate = StatusPredicate::Unknown;
};

/// What `FD` (its definition in the translation unit, or else its summary
/// in the project) does with statuses. Cached per translation unit.
const StatusFunctionFacts &statusFunctionFacts(const clang::FunctionDecl *FD);

/// The local variables of `Callable` of a type other than cublasStatus_t (an
/// int, an enum) that hold nothing but cuBLAS statuses: every value stored
/// in them (initializer and assignments) is the status of a cuBLAS call (or
/// of a call of a function that returns cublasStatus_t, such as the
/// project's wrapper of one), and their address is never taken. Each maps to the first such call. A project
/// macro `{ int ret; if ((ret = (fun)) != 0) ... }` launders a status into
/// such a variable.
llvm::DenseMap<const clang::VarDecl *, const clang::CallExpr *>
statusHoldingVars(const clang::Decl *Callable);

/// The cuBLAS statuses that the calls of a translation unit hand to the
/// parameters of its functions (`report(cublasSgemm(...))`). Shown each call
/// of the unit (in any order), it tells which status a parameter receives,
/// for rules that follow a status into the function it is passed to.
class StatusArguments {
public:
  /// Records the cuBLAS statuses `Call` passes to a function of the unit.
  void noteCall(const clang::CallExpr *Call);
  /// The first cuBLAS call noted whose status is passed as `P`, or null.
  const clang::CallExpr *statusPassedTo(const clang::ParmVarDecl *P) const;
  void clear() { Args.clear(); }

private:
  llvm::DenseMap<std::pair<const clang::FunctionDecl *, unsigned>,
                 const clang::CallExpr *>
      Args;
};

} // namespace cublas_tidy

#endif
