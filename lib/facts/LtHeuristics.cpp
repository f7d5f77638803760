//===- LtHeuristics.cpp ---------------------------------------------------===//

#include "facts/LtHeuristics.h"

#include "ast/AstUtils.h"
#include "ast/Callables.h"
#include "ast/LocalUses.h"
#include "model/CublasApi.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

using namespace clang;

namespace cublas_tidy {

namespace {

int paramNamed(const FunctionInfo &F, llvm::StringRef Name) {
  for (unsigned I = 0; I < F.NumParams; ++I)
    if (Name == F.ParamsBegin[I].Name)
      return static_cast<int>(I);
  return -1;
}

/// The local variable `E` names or takes the address of (`v`, `&v`, `&v[0]`).
const VarDecl *localOf(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf)
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    E = ASE->getBase()->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) ? VD : nullptr;
}

bool mentions(const Stmt *S, const VarDecl *VD) {
  return anyStmt(
      S,
      [&](const Stmt *Cur) {
        const auto *DRE = dyn_cast<DeclRefExpr>(Cur);
        return DRE && DRE->getDecl() == VD;
      },
      ~0u);
}

} // namespace

std::vector<UntestedHeuristic> untestedHeuristics(const Decl *Callable) {
  std::vector<UntestedHeuristic> Out;
  if (!analysableBody(Callable))
    return Out;
  llvm::ArrayRef<BodyStmt> Stmts = stmtsIn(Callable);
  for (const auto &[Call, F, InSystemHeader] : describedCallsIn(Callable)) {
    if (!F || llvm::StringRef(F->Name) != "cublasLtMatmulAlgoGetHeuristic")
      continue;
    int CountArg = paramNamed(*F, "returnAlgoCount");
    int ResultsArg = paramNamed(*F, "heuristicResultsArray");
    if (CountArg < 0 || ResultsArg < 0 ||
        static_cast<unsigned>(std::max(CountArg, ResultsArg)) >=
            Call->getNumArgs())
      continue;
    const Expr *CountExpr = Call->getArg(CountArg);
    const VarDecl *Count = localOf(CountExpr);
    const VarDecl *Results = localOf(Call->getArg(ResultsArg));
    if (!Count || !Results)
      continue;
    // Any mention of the count but the one in this call is a test.
    llvm::SmallPtrSet<const Stmt *, 4> InArg;
    walkStmts(
        CountExpr,
        [&](const Stmt *Cur) {
          InArg.insert(Cur);
          return true;
        },
        ~0u, /*IntoLambdas=*/true);
    bool Read = llvm::any_of(Stmts, [&](const BodyStmt &B) {
      if (const auto *L = dyn_cast<LambdaExpr>(B.S)) // may test it inside
        return llvm::any_of(L->captures(), [&](const LambdaCapture &C) {
          return C.capturesVariable() && C.getCapturedVar() == Count;
        });
      const auto *DRE = dyn_cast<DeclRefExpr>(B.S);
      return DRE && DRE->getDecl() == Count && !InArg.contains(DRE);
    });
    if (Read)
      continue;
    for (const auto &[Other, G, OtherInSystemHeader] :
         describedCallsIn(Callable)) {
      if (!G || llvm::StringRef(G->Name) != "cublasLtMatmul")
        continue;
      if (llvm::any_of(Other->arguments(),
                       [&](const Expr *A) { return mentions(A, Results); })) {
        Out.push_back({Call, Count, Results, Other});
        break;
      }
    }
  }
  return Out;
}

namespace {

bool isZero(const Expr *E, ASTContext &Ctx) {
  Expr::EvalResult R;
  return E && !E->isValueDependent() && E->EvaluateAsInt(R, Ctx) &&
         R.Val.getInt() == 0;
}

/// Whether `Count` is set to 0 on the way to `Stmts[CallAt]`: the nearest
/// earlier statement that names it, in the blocks that hold the call, is
/// its declaration `= 0` or `Count = 0;`. The walk stops at a loop that
/// holds the call: a count set before the loop keeps the round before's.
bool zeroedBefore(llvm::ArrayRef<BodyStmt> Stmts, size_t CallAt,
                  const VarDecl *Count, ASTContext &Ctx) {
  for (int Child = static_cast<int>(CallAt), Up = Stmts[CallAt].Parent;
       Up >= 0; Child = Up, Up = Stmts[Up].Parent) {
    if (isLoopStmt(Stmts[Up].S))
      return false;
    const auto *Block = dyn_cast<CompoundStmt>(Stmts[Up].S);
    if (!Block)
      continue;
    auto At = llvm::find(Block->body(), Stmts[Child].S);
    for (const Stmt *S : llvm::reverse(llvm::make_range(Block->body_begin(), At))) {
      if (const auto *DS = dyn_cast<DeclStmt>(S))
        if (llvm::is_contained(DS->decls(), Count))
          return isZero(Count->getInit(), Ctx);
      if (!mentions(S, Count))
        continue;
      const auto *SE = dyn_cast<Expr>(S);
      const auto *Set =
          SE ? dyn_cast<BinaryOperator>(SE->IgnoreImplicit()) : nullptr;
      return Set && Set->getOpcode() == BO_Assign &&
             referencedVar(Set->getLHS()) == Count && isZero(Set->getRHS(), Ctx);
    }
  }
  return false;
}

} // namespace

bool failureShowsInCount(const CallExpr *Call, const Decl *Callable) {
  const FunctionInfo *F = calledCublasFunction(Call);
  if (!F || llvm::StringRef(F->Name) != "cublasLtMatmulAlgoGetHeuristic" ||
      !analysableBody(Callable))
    return false;
  int CountArg = paramNamed(*F, "returnAlgoCount");
  if (CountArg < 0 || static_cast<unsigned>(CountArg) >= Call->getNumArgs())
    return false;
  const Expr *Addr = Call->getArg(CountArg)->IgnoreParenImpCasts();
  const VarDecl *Count = addressedVar(Addr);
  if (!Count || !Count->hasLocalStorage() || isa<ParmVarDecl>(Count) ||
      !Count->getType()->isIntegerType())
    return false;
  ASTContext &Ctx = Callable->getASTContext();
  int At = indexIn(Callable).indexOf(Call);
  if (At < 0 || !zeroedBefore(stmtsIn(Callable), At, Count, Ctx))
    return false;
  // The first use after the call reads it.
  const SourceManager &SM = Ctx.getSourceManager();
  std::optional<LocalUseInfo> First;
  everyLocalUse(Callable, Count, [&](const LocalUseInfo &U) {
    if (U.Context && U.Context != Addr &&
        SM.isBeforeInTranslationUnit(Call->getEndLoc(),
                                     U.Context->getBeginLoc()) &&
        (!First || SM.isBeforeInTranslationUnit(U.Context->getBeginLoc(),
                                                First->Context->getBeginLoc())))
      First = U;
    return true;
  });
  return First && !useMayChange(*First);
}

} // namespace cublas_tidy
