//===- AlignmentCheck.h - cublas-alignment --------------------------------===//

#ifndef CUBLAS_TIDY_CHECKS_ALIGNMENTCHECK_H
#define CUBLAS_TIDY_CHECKS_ALIGNMENTCHECK_H

#include "CallerContexts.h"
#include "CublasCallCheck.h"
#include "facts/CallerFacts.h"
#include "model/ComputeTypes.h"

#include <vector>

namespace clang::tidy::cublas {

/// Finds the operands of matrix products whose memory breaks the alignment
/// the product needs: an A or B pointer known to start off a multiple of
/// the bytes it needs (a constant offset from an allocation known to be
/// aligned), or a leading dimension known not to be a multiple of what it
/// needs. cublasGemmEx with an integer compute type (4 bytes, 4 elements)
/// and cublasLtMatmul with FP8 inputs (16 bytes, 16 elements). The values
/// may come from the callers of the call's function.
///
/// For the user-facing documentation see:
/// docs/checks/cublas-alignment.md
class AlignmentCheck : public CublasCallCheck {
public:
  AlignmentCheck(StringRef Name, ClangTidyContext *Context)
      : CublasCallCheck(Name, Context, AtUnitEnd) {}

private:
  /// cublasGemmEx and its forms (a compute type and an lda), and
  /// cublasLtMatmul.
  bool wants(const cublas_tidy::FunctionInfo &F) const override;
  void checkCall(const CallExpr *Call, const cublas_tidy::FunctionInfo &F,
                 const Decl *Callable, ASTContext &Ctx) override;
  void beforeUnitCalls(ASTContext &Ctx) override {
    Callers.collectCallSites(callables());
  }
  void clearUnit() override {
    Callers.clear();
    Sink.clear();
  }

  cublas_tidy::CallerFacts Callers{8};
  FindingSink Sink;
};

} // namespace clang::tidy::cublas

#endif
