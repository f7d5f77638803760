//===- CublasCheck.h - What every cublas-* check does ---------------------===//

#ifndef CUBLAS_TIDY_CHECKS_CUBLASCHECK_H
#define CUBLAS_TIDY_CHECKS_CUBLASCHECK_H

#include "ClangTidyCheck.h"
#include "ast/CompileErrors.h"

namespace clang::tidy::cublas {

/// The base of every cublas-* check: it has the compiler's errors recorded
/// by location (lib/ast/CompileErrors.h), so that the analyses know which
/// functions did not compile. A check that registers PP callbacks of its own
/// calls this one too.
class CublasCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerPPCallbacks(const SourceManager &SM, Preprocessor *PP,
                           Preprocessor *ModuleExpanderPP) override {
    if (PP)
      cublas_tidy::watchCompileErrors(*PP);
  }
};

} // namespace clang::tidy::cublas

#endif
