//===- ValueBounds.cpp - Where the code bounds a value from above --------===//

#include "facts/ValueBounds.h"

#include "ast/AstUtils.h"
#include "ast/Callables.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace cublas_tidy {

namespace {

const Expr *bare(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
      E = EWC->getSubExpr();
    else if (const auto *CE = dyn_cast<ConstantExpr>(E))
      E = CE->getSubExpr();
    else if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E);
             Cast && Cast->getType()->isBooleanType())
      E = Cast->getSubExpr(); // static_cast<bool>(c), as assert() writes it
    else if (const auto *Call = dyn_cast<CallExpr>(E);
             Call && Call->getNumArgs() >= 1 && Call->getDirectCallee() &&
             Call->getDirectCallee()->getName().contains("expect"))
      E = Call->getArg(0); // __builtin_expect(c, 0), C10_UNLIKELY(c)
    else
      return E;
  }
  return E;
}

bool isNoReturnCall(const Expr *E) {
  return endsProcess(dyn_cast_or_null<CallExpr>(bare(E)));
}

/// Whether running `S` always leaves the enclosing code: a return, a
/// throw, a break or continue, a noreturn call, or a block holding one.
bool leaves(const Stmt *S, unsigned Depth = 0) {
  if (!S || Depth > 8)
    return false;
  if (isa<ReturnStmt, BreakStmt, ContinueStmt, GotoStmt, CXXThrowExpr>(S))
    return true;
  if (const auto *E = dyn_cast<Expr>(S))
    return isa<CXXThrowExpr>(bare(E)) || isNoReturnCall(E);
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *Child : CS->body())
      if (leaves(Child, Depth + 1))
        return true;
    return false;
  }
  if (const auto *Do = dyn_cast<DoStmt>(S))
    return leaves(Do->getBody(), Depth + 1);
  if (const auto *If = dyn_cast<IfStmt>(S))
    return leaves(If->getThen(), Depth + 1) &&
           leaves(If->getElse(), Depth + 1);
  return false;
}

bool isMinCall(const Expr *E) {
  const auto *Call = dyn_cast_or_null<CallExpr>(bare(E));
  if (!Call || !Call->getDirectCallee())
    return false;
  StringRef Name = Call->getDirectCallee()->getName();
  return Name == "min" || Name == "fmin" || Name == "imin";
}

} // namespace

llvm::SmallVector<const VarDecl *, 4> variablesIn(const Expr *E,
                                                  unsigned Limit) {
  llvm::SmallVector<const VarDecl *, 4> Vars;
  if (!E)
    return Vars;
  walkStmts(E, [&](const Stmt *N) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(N))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
        if (Vars.size() < Limit && !llvm::is_contained(Vars, V))
          Vars.push_back(V);
    return true;
  });
  return Vars;
}

bool compared(llvm::ArrayRef<const Decl *> Callables,
              llvm::ArrayRef<const VarDecl *> A,
              llvm::ArrayRef<const VarDecl *> B) {
  if (A.empty() || B.empty())
    return false;
  // Union-find over the variables the comparisons relate.
  llvm::DenseMap<const VarDecl *, const VarDecl *> Parent;
  auto Find = [&](const VarDecl *V) {
    while (true) {
      auto It = Parent.find(V);
      if (It == Parent.end() || It->second == V)
        return V;
      V = It->second;
    }
  };
  auto Union = [&](const VarDecl *X, const VarDecl *Y) {
    const VarDecl *RX = Find(X), *RY = Find(Y);
    Parent[RX] = RX;
    Parent[RY] = RX;
  };
  auto Relate = [&](const Expr *L, const Expr *R) {
    llvm::SmallVector<const VarDecl *, 4> Left = variablesIn(L),
                                          Right = variablesIn(R);
    if (Left.empty() || Right.empty())
      return;
    for (const VarDecl *V : Left)
      Union(Left.front(), V);
    for (const VarDecl *V : Right)
      Union(Left.front(), V);
  };
  for (const Decl *Callable : Callables) {
    if (!analysableBody(Callable))
      continue;
    for (const BodyStmt &N : stmtsIn(Callable)) {
      if (const auto *BO = dyn_cast<BinaryOperator>(N.S)) {
        if (BO->isComparisonOp())
          Relate(BO->getLHS(), BO->getRHS());
      } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(N.S)) {
        if (Op->isComparisonOp() && Op->getNumArgs() == 2)
          Relate(Op->getArg(0), Op->getArg(1));
      }
    }
  }
  for (const VarDecl *X : A)
    for (const VarDecl *Y : B)
      if (X == Y || (Parent.count(X) && Parent.count(Y) && Find(X) == Find(Y)))
        return true;
  return false;
}

std::optional<llvm::SmallVector<const VarDecl *, 4>>
symbolVariables(const SymExpr &V) {
  llvm::SmallVector<const VarDecl *, 4> Vars;
  for (const auto &[M, Coefficient] : V.terms())
    for (const Symbol *S : M.symbols()) {
      const auto *Var = llvm::dyn_cast_or_null<VarDecl>(S->Decl);
      if (!Var || S->Tag)
        return std::nullopt;
      if (!llvm::is_contained(Vars, Var))
        Vars.push_back(Var);
    }
  return Vars;
}

bool sizesCompared(const SymExpr &A, const Expr *WrittenA, const SymExpr &B,
                   const Expr *WrittenB, const Decl *Callable) {
  llvm::SmallVector<const VarDecl *, 8> VarsA, VarsB;
  llvm::SmallVector<const Decl *, 4> Functions{Callable};
  auto Gather = [&](const SymExpr &V, const Expr *Written,
                    llvm::SmallVectorImpl<const VarDecl *> &Vars) {
    if (std::optional<llvm::SmallVector<const VarDecl *, 4>> Of =
            symbolVariables(V))
      for (const VarDecl *Var : *Of) {
        Vars.push_back(Var);
        const Decl *Fn = dyn_cast_or_null<Decl>(
            Var->getParentFunctionOrMethod());
        if (Fn && !llvm::is_contained(Functions, Fn))
          Functions.push_back(Fn);
      }
    for (const VarDecl *Var : variablesIn(Written))
      Vars.push_back(Var);
  };
  Gather(A, WrittenA, VarsA);
  Gather(B, WrittenB, VarsB);
  return compared(Functions, VarsA, VarsB);
}

void UpperBounds::scan() const {
  if (Scanned)
    return;
  Scanned = true;
  const Stmt *Body = analysableBody(Callable);
  if (!Body)
    return;
  SM = &Callable->getASTContext().getSourceManager();
  walkStmts(Body, [&](const Stmt *S) {
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      const Expr *Cond = If->getCond();
      if (!Cond)
        return true;
      addCondition(Cond, /*Holds=*/true, If->getThen(), {});
      if (If->getElse())
        addCondition(Cond, /*Holds=*/false, If->getElse(), {});
      if (leaves(If->getThen()))
        addCondition(Cond, /*Holds=*/false, nullptr, If->getEndLoc());
      else if (If->getElse() && leaves(If->getElse()))
        addCondition(Cond, /*Holds=*/true, nullptr, If->getEndLoc());
    } else if (const auto *CO = dyn_cast<ConditionalOperator>(S)) {
      // assert(c) is `c ? (void)0 : __assert_fail(...)`.
      if (isNoReturnCall(CO->getFalseExpr()))
        addCondition(CO->getCond(), /*Holds=*/true, nullptr, CO->getEndLoc());
      else if (isNoReturnCall(CO->getTrueExpr()))
        addCondition(CO->getCond(), /*Holds=*/false, nullptr,
                     CO->getEndLoc());
      else {
        addCondition(CO->getCond(), /*Holds=*/true, CO->getTrueExpr(), {});
        addCondition(CO->getCond(), /*Holds=*/false, CO->getFalseExpr(), {});
      }
    } else if (const auto *For = dyn_cast<ForStmt>(S)) {
      if (For->getCond())
        addCondition(For->getCond(), /*Holds=*/true, For->getBody(), {});
    } else if (const auto *While = dyn_cast<WhileStmt>(S)) {
      if (While->getCond())
        addCondition(While->getCond(), /*Holds=*/true, While->getBody(), {});
    }
    return true;
  });
}

void UpperBounds::addCondition(const Expr *Cond, bool Holds,
                               const Stmt *Scope, SourceLocation After) const {
  Cond = bare(Cond);
  if (!Cond)
    return;
  if (const auto *U = dyn_cast<UnaryOperator>(Cond);
      U && U->getOpcode() == UO_LNot)
    return addCondition(U->getSubExpr(), !Holds, Scope, After);
  const auto *B = dyn_cast<BinaryOperator>(Cond);
  if (!B)
    return;
  // Both sides of `a && b` hold when it does; both fail when `a || b`
  // does.
  if ((B->getOpcode() == BO_LAnd && Holds) ||
      (B->getOpcode() == BO_LOr && !Holds)) {
    addCondition(B->getLHS(), Holds, Scope, After);
    addCondition(B->getRHS(), Holds, Scope, After);
    return;
  }
  const Expr *Smaller = nullptr;
  switch (B->getOpcode()) {
  case BO_LT:
  case BO_LE:
    Smaller = Holds ? B->getLHS() : B->getRHS();
    break;
  case BO_GT:
  case BO_GE:
    Smaller = Holds ? B->getRHS() : B->getLHS();
    break;
  default:
    return;
  }
  addSide(Smaller, B, Scope, After);
}

void UpperBounds::addSide(const Expr *Side, const Expr *Comparison,
                          const Stmt *Scope, SourceLocation After) const {
  for (const VarDecl *V : variablesIn(Side))
    Bounds[V].push_back({Comparison, Scope, After});
}

const Expr *UpperBounds::boundOf(const VarDecl *Var, const Stmt *At) const {
  scan();
  auto It = Bounds.find(Var);
  if (It == Bounds.end() || !At)
    return nullptr;
  for (const Bound &B : It->second) {
    SourceLocation Loc = SM->getExpansionLoc(At->getBeginLoc());
    if (B.Scope ? SM->isPointWithin(Loc,
                                    SM->getExpansionLoc(B.Scope->getBeginLoc()),
                                    SM->getExpansionLoc(B.Scope->getEndLoc()))
                : SM->isBeforeInTranslationUnit(SM->getExpansionLoc(B.After),
                                                Loc))
      return B.Comparison;
  }
  return nullptr;
}

bool UpperBounds::bounded(const VarDecl *Var, const Stmt *At) const {
  return boundOf(Var, At) != nullptr;
}

bool UpperBounds::boundedExpr(const Expr *E, const Stmt *At) const {
  if (isMinCall(E))
    return true;
  for (const VarDecl *V : variablesIn(E))
    if (bounded(V, At))
      return true;
  return false;
}

} // namespace cublas_tidy
