//===- ObjectChanges.cpp --------------------------------------------------===//

#include "ast/ObjectChanges.h"

#include "ast/Callables.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace cublas_tidy {

namespace {

bool isLocalObject(const VarDecl *VD) {
  return VD && VD->hasLocalStorage() && !VD->getType()->isReferenceType() &&
         !VD->getType().isVolatileQualified() && VD->getType()->isRecordType();
}

/// Whether the argument `Arg` of `Call` binds to a parameter that may
/// change it: a non-const reference, or one the callee does not declare.
bool bindsMutable(const Expr *Call, const Expr *Arg) {
  const FunctionDecl *Callee = nullptr;
  llvm::ArrayRef<const Expr *> Args;
  unsigned Shift = 0;
  if (const auto *CE = dyn_cast<CallExpr>(Call)) {
    Callee = CE->getDirectCallee();
    Args = llvm::ArrayRef(CE->getArgs(), CE->getNumArgs());
    // A member operator's first argument is its object.
    if (isa<CXXOperatorCallExpr>(CE) &&
        isa_and_nonnull<CXXMethodDecl>(Callee)) {
      if (!Args.empty() && Args[0]->IgnoreParens() == Arg)
        return !cast<CXXMethodDecl>(Callee)->isConst();
      Shift = 1;
    }
  } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(Call)) {
    Callee = Construct->getConstructor();
    Args = llvm::ArrayRef(Construct->getArgs(), Construct->getNumArgs());
  }
  for (unsigned I = Shift; I < Args.size(); ++I) {
    if (Args[I]->IgnoreParens() != Arg)
      continue;
    if (!Callee || I - Shift >= Callee->getNumParams())
      return true;
    QualType T = Callee->getParamDecl(I - Shift)->getType();
    return T->isReferenceType() && !T.getNonReferenceType().isConstQualified();
  }
  return true;
}

/// What the use of the object at `Stmts[I]` (a reference to it) does, read
/// from its parents: nothing, a change at a statement, or an alias.
void judgeUse(llvm::ArrayRef<BodyStmt> Stmts, int I, ObjectChanges &Out) {
  const Expr *Child = cast<Expr>(Stmts[I].S);
  for (int P = Stmts[I].Parent; P >= 0; P = Stmts[P].Parent) {
    const Stmt *S = Stmts[P].S;
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(S)) {
      if (Cast->getCastKind() == CK_LValueToRValue)
        return; // a read
    } else if (const auto *ME = dyn_cast<MemberExpr>(S)) {
      if (ME->isArrow())
        return; // not through this object
      if (isa<CXXMethodDecl>(ME->getMemberDecl())) {
        // `opts.method()`: a const method reads.
        int Call = Stmts[P].Parent;
        if (!cast<CXXMethodDecl>(ME->getMemberDecl())->isConst())
          Out.ChangedAt.insert(Call >= 0 ? Stmts[Call].S : S);
        return;
      }
    } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->isAssignmentOp() && BO->getLHS()->IgnoreParens() == Child)
        Out.ChangedAt.insert(BO);
      return;
    } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
      if (UO->isIncrementDecrementOp()) {
        Out.ChangedAt.insert(UO);
        return;
      }
      if (UO->getOpcode() != UO_AddrOf)
        return;
      // `&opts` given to a call changes it there; kept anywhere else, it
      // aliases it.
      int Q = Stmts[P].Parent;
      while (Q >= 0 && isa<ParenExpr, ImplicitCastExpr>(Stmts[Q].S))
        Q = Stmts[Q].Parent;
      if (Q >= 0 && isa<CallExpr, CXXConstructExpr>(Stmts[Q].S))
        Out.ChangedAt.insert(Stmts[Q].S);
      else
        Out.Aliased = true;
      return;
    } else if (isa<CallExpr, CXXConstructExpr>(S)) {
      if (bindsMutable(cast<Expr>(S), Child))
        Out.ChangedAt.insert(S);
      return;
    } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D);
            VD && VD->getType()->isReferenceType() &&
            !VD->getType().getNonReferenceType().isConstQualified())
          Out.Aliased = true;
      return;
    } else if (isa<ReturnStmt, IfStmt, WhileStmt, DoStmt, ForStmt, SwitchStmt,
                   UnaryExprOrTypeTraitExpr>(S)) {
      return;
    } else if (!isa<ParenExpr, MaterializeTemporaryExpr>(S)) {
      Out.Aliased = true; // a lambda, an unknown context
      return;
    }
    Child = cast<Expr>(S);
  }
}

} // namespace

std::optional<std::pair<const VarDecl *, const FieldDecl *>>
fieldOfLocalObject(const Expr *E) {
  const auto *ME = E ? dyn_cast<MemberExpr>(E->IgnoreParenImpCasts()) : nullptr;
  const auto *Field = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  if (!Field || ME->isArrow())
    return std::nullopt;
  const auto *DRE = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!isLocalObject(VD) || DRE->refersToEnclosingVariableOrCapture())
    return std::nullopt;
  return std::make_pair(VD, Field);
}

const ObjectChanges &LocalObjectChanges::of(const VarDecl *Object) {
  auto [It, New] = Known.try_emplace(Object);
  if (!New)
    return It->second;
  ObjectChanges Out;
  llvm::ArrayRef<BodyStmt> Stmts = stmtsIn(Callable);
  const BodyIndex &Index = indexIn(Callable);
  auto Refs = Index.RefsTo.find(Object);
  for (int I : Refs == Index.RefsTo.end() ? llvm::ArrayRef<int>()
                                          : llvm::ArrayRef<int>(Refs->second)) {
    const auto *DRE = dyn_cast<DeclRefExpr>(Stmts[I].S);
    if (!DRE)
      continue;
    if (DRE->refersToEnclosingVariableOrCapture()) {
      Out.Aliased = true;
      break;
    }
    judgeUse(Stmts, I, Out);
    if (Out.Aliased)
      break;
  }
  It->second = std::move(Out);
  return It->second;
}

} // namespace cublas_tidy
