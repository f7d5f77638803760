//===- DataTypeCheck.h - cublas-data-type ---------------------------------===//

#ifndef CUBLAS_TIDY_CHECKS_DATATYPECHECK_H
#define CUBLAS_TIDY_CHECKS_DATATYPECHECK_H

#include "CallableMatchers.h"
#include "CublasCheck.h"
#include "facts/CallerFacts.h"
#include "model/CublasApi.h"

namespace clang::tidy::cublas {

/// Finds the element types of the Ex routines that contradict the source:
/// a pointer whose type is not the cudaDataType_t given for it, alpha and
/// beta of another type than the compute type's scale type, and type
/// combinations cublasGemmEx and its batched forms do not support.
///
/// For the user-facing documentation see:
/// docs/checks/cublas-data-type.md
class DataTypeCheck : public CublasCheck {
public:
  using CublasCheck::CublasCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;

private:
  void checkCall(const CallExpr *Call, const cublas_tidy::FunctionInfo &F,
                 const cublas_tidy::ValueFacts &Facts, ASTContext &Ctx);

  MatchedCallables Seen;
  cublas_tidy::CallerFacts Callers{0};
};

} // namespace clang::tidy::cublas

#endif
