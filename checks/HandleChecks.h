//===- HandleChecks.h - cublas-handle-leak, cublas-handle-use-after-destroy ===//

#ifndef CUBLAS_TIDY_CHECKS_HANDLECHECKS_H
#define CUBLAS_TIDY_CHECKS_HANDLECHECKS_H

#include "CublasCheck.h"
#include "RepeatReasons.h"
#include "facts/DestroyedMembers.h"
#include "facts/Exceptions.h"
#include "facts/HandleStates.h"
#include "facts/MemberHandles.h"
#include "facts/RepeatedHandles.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <vector>

#include <memory>

namespace clang::tidy::cublas {

/// The part both checks share: the resource table (the API model's pairs
/// and the `ResourcePairs` option), the matchers that find the functions
/// worth analysing, and the analysis itself.
class HandleCheckBase : public CublasCheck {
public:
  HandleCheckBase(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

protected:
  void checkCallable(const Decl *Callable, ASTContext &Ctx) override;
  void clearUnit() override;
  /// Words the findings of one analysed function, `Callable`.
  virtual void report(const cublas_tidy::HandleAnalysisResult &Result,
                      const Decl *Callable, ASTContext &Ctx) = 0;
  /// Which calls make a function worth analysing.
  virtual bool needsCreates() const = 0;
  /// Words what the function-wide analysis does not cover (statics).
  virtual void reportFunction(const Decl *Callable, ASTContext &Ctx) {}
  const cublas_tidy::ResourceTable &table() const { return Table; }
  /// Whether a function of this unit has compile errors: the rules that
  /// read the whole file then stay silent (a destructor being typed may
  /// hold the destroy they look for).
  bool anyCompileErrors() const;
  /// The members destroyed and used, for the unit (use-after-destroy),
  /// made at the first question and dropped with the unit.
  std::unique_ptr<cublas_tidy::MemberDestroyFacts> MemberFacts;

private:
  /// Whether `Callable` is analysed and its body calls a create (or, for
  /// use-after-destroy, a destroy) function, or a same-file helper that
  /// creates what it returns.
  bool isWorthAnalysing(const Decl *Callable);

  const StringRef ResourcePairs;
  cublas_tidy::ResourceTable Table;
  std::unique_ptr<cublas_tidy::HandleAnalyzer> Analyzer;
  llvm::DenseMap<const FunctionDecl *, bool> CreatesInBody;
  llvm::DenseMap<const FunctionDecl *, bool> DestroysInBody;
};

/// Finds handles and descriptors that are not destroyed on every path.
///
/// For the user-facing documentation see:
/// docs/checks/cublas-handle-leak.md
class HandleLeakCheck : public HandleCheckBase {
public:
  using HandleCheckBase::HandleCheckBase;

protected:
  void checkUnit(ASTContext &Ctx) override;
  void clearUnit() override;
  void report(const cublas_tidy::HandleAnalysisResult &Result,
              const Decl *Callable, ASTContext &Ctx) override;
  bool needsCreates() const override { return true; }
  void reportFunction(const Decl *Callable, ASTContext &Ctx) override;

private:
  /// Words one leak. Its ways out through a call that may throw are left
  /// out unless `Catch` says where a caller can catch the exception; a leak
  /// with no other way out is then not reported.
  void wordLeak(const cublas_tidy::LeakReport &L, ASTContext &Ctx,
                const cublas_tidy::ExceptionCatch *Catch);
  /// Says where the exception can be caught.
  void noteCatch(const cublas_tidy::ExceptionCatch &Catch, ASTContext &Ctx);
  /// Words a handle member that nothing destroys.
  void reportLeakedMember(const cublas_tidy::LeakedMember &M);

  /// Leaks through a call that may throw, in the function that leaks them:
  /// judged at the end of the unit, once every caller is known.
  std::vector<std::pair<cublas_tidy::LeakReport, const Decl *>> ThrowLeaks;

  /// Functions of other files that create a global on every call, called
  /// here in a loop or twice (their summaries, facts/Summaries.h).
  void checkProjectGlobalCreates();
  std::optional<RepeatReason> liveRepeat(const FunctionDecl *Fn,
                                         const VarDecl *Global);
  llvm::DenseMap<std::pair<const FunctionDecl *, const VarDecl *>, bool>
      GlobalDestroyers;

  /// Globals created unguarded in a function: a leak when the function is
  /// called in a loop and nothing in the file destroys them.
  std::vector<std::pair<cublas_tidy::RecreatedStatic, const FunctionDecl *>>
      GlobalCreates;
};

/// Finds handles and descriptors used or destroyed again after a destroy.
///
/// For the user-facing documentation see:
/// docs/checks/cublas-handle-use-after-destroy.md
class HandleUseAfterDestroyCheck : public HandleCheckBase {
public:
  using HandleCheckBase::HandleCheckBase;

protected:
  void checkUnit(ASTContext &Ctx) override;
  void report(const cublas_tidy::HandleAnalysisResult &Result,
              const Decl *Callable, ASTContext &Ctx) override;
  void reportFunction(const Decl *Callable, ASTContext &Ctx) override;
  bool needsCreates() const override { return false; }

private:
  std::string throughFunction(const Expr *E) const;
  /// Words a use (or a second destroy) of the handle `Name` after the
  /// destroy `Destroy`; `Inside`, the function of the unit the use is in;
  /// `EveryWayOn`, reached by every way on from a destroy that some paths
  /// to the use do not run.
  void reportUse(StringRef Name, const Expr *Use, const FunctionDecl *Inside,
                 bool IsDestroy, const CallExpr *Destroy, unsigned KindId,
                 const SourceManager &SM, bool EveryWayOn = false);
  /// Words a use or a second destroy in the destructor that runs at the
  /// end of a local object's scope.
  void reportScopeEnd(const cublas_tidy::MemberUseAfterDestroy &U,
                      const SourceManager &SM);
  /// The note at the destroy (or the call that destroyed) `Name`.
  void noteDestroyed(StringRef Name, const CallExpr *Destroy,
                     const SourceManager &SM, StringRef WayOn = "");
};

} // namespace clang::tidy::cublas

#endif
