//===- MatrixExtentsCheck.h - cublas-matrix-extents -----------------------===//

#ifndef CUBLAS_TIDY_CHECKS_MATRIXEXTENTSCHECK_H
#define CUBLAS_TIDY_CHECKS_MATRIXEXTENTSCHECK_H

#include "CallerContexts.h"
#include "CublasCallCheck.h"
#include "facts/CallerFacts.h"
#include "facts/Summaries.h"
#include "model/CublasApi.h"
#include "llvm/ADT/DenseSet.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace clang::tidy::cublas {

/// Finds leading dimensions, increments and batch strides that contradict
/// the shapes of a cuBLAS call or the size of the memory it is given.
///
/// For the user-facing documentation see:
/// docs/checks/cublas-matrix-extents.md
class MatrixExtentsCheck : public CublasCallCheck {
public:
  MatrixExtentsCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

  using Finding = ContextFinding;

private:
  /// The routines whose extents the check knows.
  bool wants(const cublas_tidy::FunctionInfo &F) const override;
  /// The extents of one cuBLAS call in `Callable`'s body.
  void checkCall(const CallExpr *Call, const cublas_tidy::FunctionInfo &Info,
                 const Decl *Callable, ASTContext &Ctx) override;
  /// A call of a function defined in another file that gives the caller's
  /// buffers to cuBLAS (checkProjectCall).
  void checkOtherCall(const CallExpr *Call, const Decl *Callable,
                      ASTContext &Ctx) override;

  /// The buffers `Call` gives to a function defined in another file, whose
  /// summary says what its cuBLAS calls span through them.
  void checkProjectCall(const CallExpr *Call,
                        const cublas_tidy::FunctionSummary &S,
                        const Decl *Callable, ASTContext &Ctx);

  void emit(const Finding &F);

  const unsigned MaxCallSites;
  cublas_tidy::CallerFacts Callers;
  FindingSink Sink;

  /// The facts at a call may come from the callers of its function, which
  /// the matchers may not have reached yet: every callable is analysed at
  /// the end of the translation unit, once its call sites are collected.
  void beforeUnitCalls(ASTContext &Ctx) override;
  void clearUnit() override {
    Callers.clear();
    Sink.clear();
  }
};

} // namespace clang::tidy::cublas

#endif
