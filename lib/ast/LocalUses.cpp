//===- LocalUses.cpp ------------------------------------------------------===//

#include "ast/LocalUses.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"

using namespace clang;

namespace cublas_tidy {

namespace {

/// Whether a parameter of type `T` lets the callee change what it is given.
bool mutableBinding(QualType T) {
  return T->isRValueReferenceType() ||
         (T->isLValueReferenceType() &&
          !T.getNonReferenceType().isConstQualified()) ||
         (T->isPointerType() && !T->getPointeeType().isConstQualified());
}

LocalUseInfo use(LocalUse U, llvm::ArrayRef<BodyStmt> Stmts, int P) {
  return {U, P >= 0 ? Stmts[P].S : nullptr, P};
}

/// A call's argument `Child`: bound by the callee's parameter type.
LocalUseInfo callArgument(const CallExpr *Call, const Stmt *Child,
                          llvm::ArrayRef<BodyStmt> Stmts, int P) {
  const FunctionDecl *FD = Call->getDirectCallee();
  unsigned Shift = 0;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call)) {
    if (FD && isa<CXXMethodDecl>(FD)) {
      // A member operator's first operand is its object.
      if (Op->getNumArgs() > 0 && Op->getArg(0) == Child)
        return use(LocalUse::Member, Stmts, P);
      Shift = 1;
    } else if (Op->getOperator() == OO_Equal && Op->getNumArgs() > 0 &&
               Op->getArg(0) == Child) {
      return use(LocalUse::Assigned, Stmts, P);
    }
  }
  for (unsigned A = Shift; A < Call->getNumArgs(); ++A) {
    if (Call->getArg(A) != Child)
      continue;
    if (!FD || A - Shift >= FD->getNumParams())
      return use(LocalUse::BoundMutable, Stmts, P); // unknown or variadic
    return use(mutableBinding(FD->getParamDecl(A - Shift)->getType())
                   ? LocalUse::BoundMutable
                   : LocalUse::BoundConst,
               Stmts, P);
  }
  return use(LocalUse::Called, Stmts, P);
}

/// A constructor's argument `Child`.
LocalUseInfo constructorArgument(const CXXConstructExpr *CE,
                                 const Stmt *Child,
                                 llvm::ArrayRef<BodyStmt> Stmts, int P) {
  const CXXConstructorDecl *Ctor = CE->getConstructor();
  if (!Ctor)
    return use(LocalUse::Unknown, Stmts, P);
  if (Ctor->isCopyConstructor())
    return use(LocalUse::Read, Stmts, P);
  // `return t;` moves t into the result: nothing reads t after it.
  if (Ctor->isMoveConstructor()) {
    int Up = Stmts[P].Parent;
    while (Up >= 0 && isa<ExprWithCleanups, CXXBindTemporaryExpr,
                          MaterializeTemporaryExpr>(Stmts[Up].S))
      Up = Stmts[Up].Parent;
    if (Up >= 0 && isa<ReturnStmt>(Stmts[Up].S))
      return use(LocalUse::Returned, Stmts, Up);
  }
  for (unsigned A = 0; A < CE->getNumArgs() && A < Ctor->getNumParams(); ++A)
    if (CE->getArg(A) == Child) {
      QualType T = Ctor->getParamDecl(A)->getType();
      bool Mutable = T->isRValueReferenceType() ||
                     (T->isLValueReferenceType() &&
                      !T.getNonReferenceType().isConstQualified());
      return use(Mutable ? LocalUse::BoundMutable : LocalUse::BoundConst,
                 Stmts, P);
    }
  return use(LocalUse::Unknown, Stmts, P);
}

/// A variable initialised with `Child`.
LocalUseInfo initialiser(const DeclStmt *DS, const Stmt *Child,
                         llvm::ArrayRef<BodyStmt> Stmts, int P) {
  const auto *ChildExpr = dyn_cast<Expr>(Child);
  for (const Decl *D : DS->decls()) {
    const auto *V = dyn_cast<VarDecl>(D);
    if (!V || !V->getInit() || !ChildExpr ||
        V->getInit()->IgnoreParenImpCasts() != ChildExpr->IgnoreParenImpCasts())
      continue;
    QualType T = V->getType();
    if (!T->isReferenceType())
      return use(LocalUse::Read, Stmts, P);
    return use(T->isRValueReferenceType() ||
                       !T.getNonReferenceType().isConstQualified()
                   ? LocalUse::BoundMutable
                   : LocalUse::BoundConst,
               Stmts, P);
  }
  return use(LocalUse::Unknown, Stmts, P);
}

} // namespace

LocalUseInfo classifyLocalUse(llvm::ArrayRef<BodyStmt> Stmts, int I) {
  const Stmt *Child = Stmts[I].S;
  for (int P = Stmts[I].Parent; P >= 0; Child = Stmts[P].S,
           P = Stmts[P].Parent) {
    const Stmt *Parent = Stmts[P].S;
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(Parent)) {
      if (ICE->getCastKind() == CK_LValueToRValue)
        return use(LocalUse::Read, Stmts, P);
      if (ICE->getCastKind() == CK_ArrayToPointerDecay)
        return use(LocalUse::Decayed, Stmts, P);
      continue;
    }
    if (isa<ParenExpr>(Parent))
      continue;
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(Parent);
        Cast && Cast->getTypeAsWritten()->isVoidType())
      return use(LocalUse::Read, Stmts, P);
    if (const auto *BO = dyn_cast<BinaryOperator>(Parent))
      return use(BO->isAssignmentOp() && BO->getLHS() == Child
                     ? LocalUse::Assigned
                     : LocalUse::Operand,
                 Stmts, P);
    if (const auto *UO = dyn_cast<UnaryOperator>(Parent)) {
      if (UO->isIncrementDecrementOp())
        return use(LocalUse::Incremented, Stmts, P);
      if (UO->getOpcode() == UO_AddrOf)
        return use(LocalUse::AddressTaken, Stmts, P);
      return use(LocalUse::Operand, Stmts, P);
    }
    if (isa<ArraySubscriptExpr>(Parent))
      return use(LocalUse::Element, Stmts, P);
    if (isa<MemberExpr>(Parent))
      return use(LocalUse::Member, Stmts, P);
    if (const auto *Call = dyn_cast<CallExpr>(Parent))
      return callArgument(Call, Child, Stmts, P);
    if (const auto *CE = dyn_cast<CXXConstructExpr>(Parent))
      return constructorArgument(CE, Child, Stmts, P);
    if (const auto *DS = dyn_cast<DeclStmt>(Parent))
      return initialiser(DS, Child, Stmts, P);
    if (isa<ReturnStmt>(Parent))
      return use(LocalUse::Returned, Stmts, P);
    if (isa<UnaryExprOrTypeTraitExpr, CXXTypeidExpr, CXXNoexceptExpr>(Parent))
      return use(LocalUse::Unevaluated, Stmts, P);
    if (const auto *L = dyn_cast<LambdaExpr>(Parent)) {
      for (const LambdaCapture &C : L->captures())
        if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef)
          return use(LocalUse::Captured, Stmts, P);
      return use(LocalUse::CapturedByCopy, Stmts, P);
    }
    return use(LocalUse::Unknown, Stmts, P);
  }
  return {LocalUse::Unknown, nullptr, -1};
}

bool useMayChange(const LocalUseInfo &U,
                  llvm::function_ref<bool(const LocalUseInfo &)> MemberChanges) {
  switch (U.Use) {
  case LocalUse::Read:
  case LocalUse::Unevaluated:
  case LocalUse::Returned:
  case LocalUse::BoundConst:
  case LocalUse::Operand:
  case LocalUse::CapturedByCopy:
    return false;
  case LocalUse::Member:
    return MemberChanges ? MemberChanges(U) : true;
  case LocalUse::Assigned:
  case LocalUse::Incremented:
  case LocalUse::AddressTaken:
  case LocalUse::Decayed:
  case LocalUse::Element:
  case LocalUse::BoundMutable:
  case LocalUse::Captured:
  case LocalUse::Called:
  case LocalUse::Unknown:
    return true;
  }
  return true;
}

bool everyLocalUse(const Decl *Callable, const VarDecl *VD,
                   llvm::function_ref<bool(const LocalUseInfo &)> Accept) {
  if (!Callable)
    return false;
  llvm::ArrayRef<BodyStmt> Stmts = stmtsIn(Callable);
  const BodyIndex &Index = indexIn(Callable);
  auto Refs = Index.RefsTo.find(VD);
  if (Refs == Index.RefsTo.end())
    return true;
  for (int I : Refs->second)
    if (!Accept(classifyLocalUse(Stmts, I)))
      return false;
  return true;
}

bool anyUseMayChange(
    const Decl *Callable, const VarDecl *VD,
    llvm::function_ref<bool(const LocalUseInfo &)> MemberChanges) {
  return !everyLocalUse(Callable, VD, [&](const LocalUseInfo &U) {
    return !useMayChange(U, MemberChanges);
  });
}

bool UnchangedVariables::stable(const VarDecl *VD) {
  if (!VD || !VD->hasLocalStorage() || VD->getType()->isReferenceType())
    return false;
  auto [It, New] = Known.try_emplace(VD, true);
  if (!New)
    return It->second;
  bool Stable = !anyUseMayChange(Callable, VD);
  Known[VD] = Stable;
  return Stable;
}

} // namespace cublas_tidy
