//===- FailedOutputs.cpp --------------------------------------------------===//

#include "facts/FailedOutputs.h"

#include "ast/AstUtils.h"
#include "ast/Callables.h"
#include "ast/LocalUses.h"
#include "model/CublasApi.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

using namespace clang;

namespace cublas_tidy {

namespace {

/// The local `&v` names: not a parameter (its value comes from callers).
const VarDecl *addressedLocal(const Expr *E) {
  const VarDecl *VD = addressedVar(E);
  return VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) ? VD : nullptr;
}

/// Whether the first use of `Var` after `Call` (other than `Arg`, its
/// address given to the call) reads it.
bool readFirstAfter(const CallExpr *Call, const Expr *Arg, const VarDecl *Var,
                    const Decl *Callable) {
  const SourceManager &SM = Callable->getASTContext().getSourceManager();
  std::optional<LocalUseInfo> First;
  everyLocalUse(Callable, Var, [&](const LocalUseInfo &U) {
    if (U.Context && U.Context != Arg &&
        SM.isBeforeInTranslationUnit(Call->getEndLoc(),
                                     U.Context->getBeginLoc()) &&
        (!First || SM.isBeforeInTranslationUnit(U.Context->getBeginLoc(),
                                                First->Context->getBeginLoc())))
      First = U;
    return true;
  });
  return First && !useMayChange(*First);
}

bool isZero(const Expr *E, const ASTContext &Ctx) {
  Expr::EvalResult R;
  return E && !E->isValueDependent() && E->EvaluateAsInt(R, Ctx) &&
         R.Val.getInt() == 0;
}

} // namespace

const Expr *valueBeforeCall(const CallExpr *Call, const VarDecl *Var,
                            const Decl *Callable) {
  int CallAt = indexIn(Callable).indexOf(Call);
  if (CallAt < 0 || !Var)
    return nullptr;
  llvm::ArrayRef<BodyStmt> Stmts = stmtsIn(Callable);
  for (int Child = CallAt, Up = Stmts[CallAt].Parent; Up >= 0;
       Child = Up, Up = Stmts[Up].Parent) {
    if (isLoopStmt(Stmts[Up].S))
      return nullptr;
    const auto *Block = dyn_cast<CompoundStmt>(Stmts[Up].S);
    if (!Block)
      continue;
    auto At = llvm::find(Block->body(), Stmts[Child].S);
    for (const Stmt *S :
         llvm::reverse(llvm::make_range(Block->body_begin(), At))) {
      if (const auto *DS = dyn_cast<DeclStmt>(S))
        if (llvm::is_contained(DS->decls(), Var))
          return Var->getInit();
      if (!namesVar(S, Var))
        continue;
      const auto *SE = dyn_cast<Expr>(S);
      const auto *Set =
          SE ? dyn_cast<BinaryOperator>(SE->IgnoreImplicit()) : nullptr;
      return Set && Set->getOpcode() == BO_Assign &&
                     referencedVar(Set->getLHS()) == Var
                 ? Set->getRHS()
                 : nullptr;
    }
  }
  return nullptr;
}

bool failureShowsInCount(const CallExpr *Call, const Decl *Callable) {
  const FunctionInfo *F = calledCublasFunction(Call);
  if (!F || llvm::StringRef(F->Name) != "cublasLtMatmulAlgoGetHeuristic" ||
      !analysableBody(Callable))
    return false;
  int CountArg = F->findParamNamed("returnAlgoCount");
  if (CountArg < 0 || static_cast<unsigned>(CountArg) >= Call->getNumArgs())
    return false;
  const Expr *Addr = Call->getArg(CountArg)->IgnoreParenImpCasts();
  const VarDecl *Count = addressedLocal(Addr);
  if (!Count || !Count->getType()->isIntegerType())
    return false;
  return isZero(valueBeforeCall(Call, Count, Callable),
                Callable->getASTContext()) &&
         readFirstAfter(Call, Addr, Count, Callable);
}

bool failureKeepsFallback(const CallExpr *Call, const Decl *Callable) {
  const FunctionInfo *F = calledCublasFunction(Call);
  if (!F || !readsSetting(*F) || !analysableBody(Callable))
    return false;
  unsigned Outputs = 0;
  for (const Expr *Arg : Call->arguments()) {
    const Expr *Addr = Arg->IgnoreParenImpCasts();
    const auto *U = dyn_cast<UnaryOperator>(Addr);
    if (!U || U->getOpcode() != UO_AddrOf)
      continue;
    // An output the code does not hold in a local of its own is not known.
    const VarDecl *Out = addressedLocal(Addr);
    if (!Out || !valueBeforeCall(Call, Out, Callable) ||
        !readFirstAfter(Call, Addr, Out, Callable))
      return false;
    ++Outputs;
  }
  return Outputs > 0;
}

} // namespace cublas_tidy
