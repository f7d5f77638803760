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

} // namespace

std::vector<UntestedHeuristic> untestedHeuristics(const Decl *Callable) {
  std::vector<UntestedHeuristic> Out;
  if (!analysableBody(Callable))
    return Out;
  llvm::ArrayRef<BodyStmt> Stmts = stmtsIn(Callable);
  for (const auto &[Call, F, InSystemHeader] : describedCallsIn(Callable)) {
    if (!F || llvm::StringRef(F->Name) != "cublasLtMatmulAlgoGetHeuristic")
      continue;
    int CountArg = F->findParamNamed("returnAlgoCount");
    int ResultsArg = F->findParamNamed("heuristicResultsArray");
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
                       [&](const Expr *A) { return namesVar(A, Results); })) {
        Out.push_back({Call, Count, Results, Other});
        break;
      }
    }
  }
  return Out;
}

} // namespace cublas_tidy
