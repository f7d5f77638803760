//===- CublasCallCheck.h - The base of the checks that visit calls --------===//
//
// Most checks judge one cuBLAS call at a time: the types, the extents, the
// integer widths, the memory of its arguments. They share one visit of a
// callable's calls, written here once: the bodies worth visiting, the
// function's timer, the calls of user code (not expanded from a system
// header), the modelled cuBLAS function each calls, and the facts of the
// callable built once, when a call first needs them.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_CHECKS_CUBLASCALLCHECK_H
#define CUBLAS_TIDY_CHECKS_CUBLASCALLCHECK_H

#include "CublasCheck.h"
#include "ast/AstUtils.h"
#include "ast/Callables.h"
#include "ast/FunctionTimer.h"
#include "model/CublasApi.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <memory>
#include <optional>
#include <string>

namespace clang::tidy::cublas {

/// An operand argument for messages: "'d_A + 2' (A)", its role after the
/// argument as written when that is short and differs, else "'A'". Quoted
/// first: clangd capitalises the first letter of every message.
inline std::string operandText(StringRef Param, const Expr *Arg,
                               const ASTContext &Ctx) {
  std::string Written = cublas_tidy::writtenText(Arg, Ctx, 40);
  if (Written.empty() || Written == Param)
    return "'" + Param.str() + "'";
  return "'" + Written + "' (" + Param.str() + ")";
}

/// A fact of the callable being visited, built the first time a call asks
/// for it and dropped when the visit moves to another callable.
template <typename T> class PerCallable {
public:
  T &get(const Decl *Callable, llvm::function_ref<std::unique_ptr<T>()> Make) {
    if (!Value || For != Callable) {
      Value = Make();
      For = Callable;
    }
    return *Value;
  }
  /// Drops it (at the end of a unit: another unit's callable may reuse the
  /// address).
  void clear() {
    Value.reset();
    For = nullptr;
  }

private:
  const Decl *For = nullptr;
  std::unique_ptr<T> Value;
};

/// The base of the checks that visit the calls of every callable:
/// - a callable is visited when it has an analysable body (one that
///   compiled, lib/ast/Callables.h) and worthVisiting() says so, once,
///   under the check's FunctionTimer;
/// - its calls (callsToVisit(): by default every call of the body, in
///   source order) are taken in order; those expanded from a system header
///   are skipped (unless the check says SystemHeaderCalls), and so are
///   those of a template instantiation in a branch its arguments switch
///   off (`if (OUT == 32) ... else ...`, lib/ast/Callables.h);
/// - a call of a modelled cuBLAS function F goes to checkCall() when
///   wants(F); a call of any other function to checkOtherCall(), for the
///   checks that say OtherCalls (the project's own wrappers of cuBLAS).
/// The visit runs per callable (checkCallable()) or, with AtUnitEnd, once
/// every callable of the unit is known (checkUnit(), after
/// beforeUnitCalls()), for the checks whose facts come from callers.
class CublasCallCheck : public CublasCheck {
protected:
  /// How a check visits, as a set of flags; none is a per-callable visit
  /// of the cuBLAS calls of user code.
  enum VisitFlags : unsigned {
    AtUnitEnd = 1,
    OtherCalls = 2,
    SystemHeaderCalls = 4,
  };

  CublasCallCheck(StringRef Name, ClangTidyContext *Context,
                  unsigned How = 0)
      : CublasCheck(Name, Context), How(How) {}

  /// Whether calls of `F` are judged.
  virtual bool wants(const cublas_tidy::FunctionInfo &F) const {
    return true;
  }
  /// One call of the cuBLAS function `F` in `Callable`'s body.
  virtual void checkCall(const CallExpr *Call,
                         const cublas_tidy::FunctionInfo &F,
                         const Decl *Callable, ASTContext &Ctx) = 0;
  /// One call of a function that is not a modelled cuBLAS one (with
  /// Visit::OtherCalls).
  virtual void checkOtherCall(const CallExpr *Call, const Decl *Callable,
                              ASTContext &Ctx) {}
  /// Whether `Callable`, an analysable body, is worth the visit.
  virtual bool worthVisiting(const Decl *Callable, ASTContext &Ctx) {
    return true;
  }
  /// The calls of `Callable` to visit, in order; nullopt for every call
  /// of the body (described once for all the checks).
  virtual std::optional<llvm::ArrayRef<const CallExpr *>>
  callsToVisit(const Decl *Callable, ASTContext &Ctx) {
    return std::nullopt;
  }
  /// With AtUnitEnd: what the unit's visit needs first (its call sites).
  virtual void beforeUnitCalls(ASTContext &Ctx) {}

  void checkCallable(const Decl *Callable, ASTContext &Ctx) override {
    if (!(How & AtUnitEnd))
      visitCalls(Callable, Ctx);
  }
  void checkUnit(ASTContext &Ctx) override {
    if (!(How & AtUnitEnd))
      return;
    beforeUnitCalls(Ctx);
    for (const Decl *Callable : callables())
      visitCalls(Callable, Ctx);
  }

private:
  void visitCalls(const Decl *Callable, ASTContext &Ctx) {
    if (!cublas_tidy::analysableBody(Callable) ||
        !worthVisiting(Callable, Ctx))
      return;
    cublas_tidy::FunctionTimer Timer(getID(), Callable);
    const SourceManager &SM = Ctx.getSourceManager();
    const auto *FD = dyn_cast<FunctionDecl>(Callable);
    const bool Instantiation = FD && FD->isTemplateInstantiation();
    auto Visit = [&](const CallExpr *Call, const cublas_tidy::FunctionInfo *F,
                     llvm::function_ref<bool()> InSystemHeader) {
      if (F ? !wants(*F) : !(How & OtherCalls))
        return;
      if (!(How & SystemHeaderCalls) && InSystemHeader())
        return;
      if (Instantiation &&
          cublas_tidy::switchedOffByTemplateArguments(Callable, Call))
        return;
      if (F)
        checkCall(Call, *F, Callable, Ctx);
      else
        checkOtherCall(Call, Callable, Ctx);
    };
    if (std::optional<llvm::ArrayRef<const CallExpr *>> Some =
            callsToVisit(Callable, Ctx)) {
      for (const CallExpr *Call : *Some)
        Visit(Call, cublas_tidy::calledCublasFunction(Call), [&] {
          return cublas_tidy::expandedInSystemHeader(Call->getBeginLoc(), SM);
        });
      return;
    }
    for (const cublas_tidy::CallInBody &C :
         cublas_tidy::describedCallsIn(Callable))
      Visit(C.Call, C.Callee, [&] { return C.InSystemHeader; });
  }

  const unsigned How;
};

} // namespace clang::tidy::cublas

#endif
