//===- UncheckedStatusCheck.h - cublas-unchecked-status -------------------===//

#ifndef CUBLAS_TIDY_CHECKS_UNCHECKEDSTATUSCHECK_H
#define CUBLAS_TIDY_CHECKS_UNCHECKEDSTATUSCHECK_H

#include "CublasCheck.h"
#include "facts/StatusFunctions.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Regex.h"

#include <memory>
#include <optional>
#include <vector>

namespace clang::tidy::cublas {

/// Finds cublasStatus_t results that are discarded or stored and never read,
/// and statuses confused with cudaError_t.
///
/// For the user-facing documentation see:
/// docs/checks/cublas-unchecked-status.md
class UncheckedStatusCheck : public CublasCheck {
public:
  UncheckedStatusCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerPPCallbacks(const SourceManager &SM, Preprocessor *PP,
                           Preprocessor *ModuleExpanderPP) override;

private:
  /// Everything is decided per function body of user code: matching nodes
  /// across the whole translation unit would visit every cast and
  /// comparison of the CUDA and standard headers.
  void checkCallable(const Decl *Callable, ASTContext &Ctx) override;
  /// The conversions of parameters, once every call of the unit is known.
  void checkUnit(ASTContext &Ctx) override;
  void clearUnit() override {
    ParamCasts.clear();
    StatusArgs.clear();
    DiscardedAt.clear();
  }
  /// Where a discarded status was reported: a call of a template is
  /// reported once, not once per instantiation.
  llvm::DenseSet<SourceLocation> DiscardedAt;
  /// True when the result of `Call` is a status the check tracks: a
  /// cublasStatus_t, or the result of a CheckedFunctions function, and the
  /// callee is not in IgnoredFunctions.
  bool isTrackedCall(const CallExpr *Call, const SourceManager &SM,
                     const LangOptions &LangOpts) const;
  /// A status-returning call (cublasStatus_t, or CheckedFunctions).
  bool returnsStatus(const CallExpr *Call) const;
  void checkCudaErrorCast(
      const CastExpr *Cast, const Decl *Callable,
      std::optional<llvm::DenseMap<const VarDecl *, const CallExpr *>>
          &Laundered,
      ASTContext &Ctx);
  /// `Parents`: the parent of `Call` and of each of its ancestors.
  void checkDiscarded(const CallExpr *Call, const Decl *Callable,
                      const llvm::DenseMap<const Stmt *, const Stmt *> &Parents,
                      ASTContext &Ctx);
  /// For a wrapper defined in another unit, a note at the call whose
  /// status it returns.
  void noteWrappedCall(const cublas_tidy::StatusFunctionFacts *Facts,
                       StringRef Callee, ASTContext &Ctx);
  void checkDeadStores(const Decl *Callable, ASTContext &Ctx);
  /// A note at the macro that took the only read of a dead store's `Var`
  /// out of this build.
  void noteDroppedRead(const VarDecl *Var, const CallExpr *Call,
                       const Decl *Callable, const SourceManager &SM);
  /// cuBLASLt heuristics whose result count is never tested.
  void checkHeuristics(const Decl *Callable, ASTContext &Ctx);
  /// True when CheckMacro is defined at `Loc` as a macro that takes the
  /// call: wrapping the call in it then compiles.
  bool checkMacroDefinedAt(SourceLocation Loc) const;
  /// Why CheckMacro's expansion would not compile in `Callable` (a
  /// `return` with a value in a function that returns void, a `co_return`
  /// outside a coroutine, a `throw` with exceptions off); empty when it
  /// would, as far as its tokens tell.
  std::string checkMacroMisfit(SourceLocation Loc, const Decl *Callable,
                               const ASTContext &Ctx) const;
  void checkComparison(const BinaryOperator *Op, ASTContext &Ctx);
  void checkConversion(const CastExpr *Cast, ASTContext &Ctx);
  /// A cudaError_t made from an integer variable that holds a cuBLAS status.
  void checkLaunderedConversion(const CastExpr *Cast, const VarDecl *Var,
                                const CallExpr *From, ASTContext &Ctx);
  void checkCaseLabel(const CaseStmt *Case, const SwitchStmt *Switch,
                      ASTContext &Ctx);

  const bool AllowCastToVoid;
  /// Report the statuses of destroys at teardown too (lib/facts/Teardown.h).
  const bool CheckTeardown;
  const StringRef CheckedFunctionsText;
  const StringRef IgnoredFunctionsText;
  const StringRef CheckMacro;
  std::vector<llvm::Regex> CheckedFunctions;
  std::vector<llvm::Regex> IgnoredFunctions;
  /// Conversions to cudaError_t of an integer parameter, judged at the end
  /// of the translation unit against the statuses its calls pass
  /// (facts/StatusFunctions.h), when every call is known.
  struct ParamCast {
    const CastExpr *Cast;
    const ParmVarDecl *Param;
  };
  std::vector<ParamCast> ParamCasts;
  cublas_tidy::StatusArguments StatusArgs;
  Preprocessor *PP = nullptr;
};

} // namespace clang::tidy::cublas

#endif
