//===- CublasCheck.h - What every cublas-* check does ---------------------===//

#ifndef CUBLAS_TIDY_CHECKS_CUBLASCHECK_H
#define CUBLAS_TIDY_CHECKS_CUBLASCHECK_H

#include "CallableGroup.h"
#include "ClangTidyCheck.h"
#include "ast/AstUtils.h"
#include "ast/CompileErrors.h"
#include "facts/Summaries.h"
#include "facts/UnitSummaries.h"

namespace clang::tidy::cublas {

/// The base of every cublas-* check, and the one way checks are driven:
/// - the compiler's errors are recorded by location (lib/ast/CompileErrors.h),
///   so that the analyses know which functions did not compile (a check that
///   registers PP callbacks of its own calls this one too);
/// - the function definitions and lambdas of user code, matched once for
///   every check (CallableGroup.h), are each given once to
///   checkCallable() at the end of the translation unit; then checkUnit()
///   sees them all (callables()), for the rules whose facts come from
///   callers or other functions;
/// - clearUnit() drops what a check keeps for one translation unit, before
///   the unit and after it;
/// - the project's summaries (lib/facts/Summaries.h) are consulted: those the
///   front end sets, or the store the option FactsFile names; and the
///   summaries of the unit's own functions are made when a front end
///   collects them.
class CublasCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerPPCallbacks(const SourceManager &SM, Preprocessor *PP,
                           Preprocessor *ModuleExpanderPP) override {
    if (PP)
      cublas_tidy::watchCompileErrors(*PP);
  }
  ~CublasCheck() override {
    if (Group)
      Group->leave(this);
  }
  /// The callables are matched once for every check of `Finder`
  /// (CallableGroup.h); the check itself matches only the translation
  /// unit, for its context and for the calls at the unit's start and end.
  void registerMatchers(ast_matchers::MatchFinder *Finder) final {
    if (Group)
      Group->leave(this);
    Group = CallableGroup::join(Finder, this);
    Finder->addMatcher(ast_matchers::translationUnitDecl(), this);
  }
  void check(const ast_matchers::MatchFinder::MatchResult &Result) final {
    Context = Result.Context;
  }
  void onStartOfTranslationUnit() final {
    Context = nullptr;
    cublas_tidy::setThreadDefaultStore(nullptr);
    clearUnit();
  }
  void onEndOfTranslationUnit() final {
    if (Context && Group && !Group->callables().empty()) {
      useFactsFile(*Context);
      for (const Decl *Callable : callables())
        checkCallable(Callable, *Context);
      checkUnit(*Context);
      if (auto *Sink = cublas_tidy::summarySinkFor(*Context)) {
        auto *Files = cublas_tidy::fileSummarySink();
        // Summaries are made with the project's summaries the unit was
        // analysed with, and the questions they ask are the unit's: a
        // function that calls one of another file says what that one does,
        // from the round after it was summarised (cublas-tidy -p runs the
        // units again until the summaries settle).
        for (cublas_tidy::FunctionSummary &S :
             cublas_tidy::summarizeFunctions(callables(), *Context))
          Sink->push_back(std::move(S));
        if (Files)
          if (std::optional<cublas_tidy::FileSummary> F =
                  cublas_tidy::summarizeFile(callables(), *Context))
            Files->push_back(std::move(*F));
      }
    }
    clearUnit();
    Context = nullptr;
  }

protected:
  /// A function definition or lambda of user code, once.
  virtual void checkCallable(const Decl *Callable, ASTContext &Ctx) {}
  /// The end of a translation unit that has callables().
  virtual void checkUnit(ASTContext &Ctx) {}
  /// Drops what the check keeps for one translation unit.
  virtual void clearUnit() {}
  /// The callables of user code of this translation unit, each once, in the
  /// order matched.
  llvm::ArrayRef<const Decl *> callables() const {
    return Group ? Group->callables() : llvm::ArrayRef<const Decl *>();
  }

private:
  /// The store named by the option FactsFile (local or global), or else
  /// the one beside the compile database of the unit's main file
  /// (lib/facts/Summaries.h); FactsFile "none": no store. A front end's own
  /// summaries take precedence.
  void useFactsFile(const ASTContext &Ctx) {
    std::string Problem;
    std::string Path = cublas_tidy::useStoreForUnit(
        Ctx, Options.getLocalOrGlobal("FactsFile", ""), Problem);
    if (!Problem.empty())
      configurationDiag("ignoring the function summaries in '%0': %1",
                        DiagnosticIDs::Warning)
          << Path << Problem;
  }
  CallableGroup *Group = nullptr;
  ASTContext *Context = nullptr;
};

} // namespace clang::tidy::cublas

#endif
