//===- MemberHandles.cpp - Handles kept in class members ------------------===//

#include "facts/MemberHandles.h"

#include "ast/AstUtils.h"
#include "ast/Callables.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

namespace cublas_tidy {

namespace {

using namespace clang;

/// `this->f` (or `f` in a member function) for a data member f.
const FieldDecl *memberOfThis(const Expr *E) {
  const auto *ME = E ? dyn_cast<MemberExpr>(E->IgnoreParenImpCasts()) : nullptr;
  if (!ME || !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    return nullptr;
  return dyn_cast<FieldDecl>(ME->getMemberDecl());
}

/// `&this->f`.
const FieldDecl *addressedMember(const Expr *E) {
  const auto *U = E ? dyn_cast<UnaryOperator>(E->IgnoreParenImpCasts()) : nullptr;
  if (!U || U->getOpcode() != UO_AddrOf)
    return nullptr;
  return memberOfThis(U->getSubExpr());
}

/// Calls `Visit` on every statement of `S` (not nested lambdas); false
/// when the walk was cut short.
template <class Fn> bool walk(const Stmt *S, Fn &&Visit) {
  return walkStmts(S, [&](const Stmt *N) {
    Visit(N);
    return true;
  });
}

/// The statements of a callable: its body and, for a constructor, its
/// member initializers.
llvm::SmallVector<const Stmt *, 4> partsOf(const Decl *D) {
  llvm::SmallVector<const Stmt *, 4> Out;
  if (const Stmt *Body = analysableBody(D))
    Out.push_back(Body);
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(D))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init->isWritten() && Init->getInit())
        Out.push_back(Init->getInit());
  return Out;
}

struct Candidate {
  const CXXRecordDecl *Class;
  const FieldDecl *Field;
  const CallExpr *Create;
  unsigned KindId;
};

} // namespace

std::vector<LeakedMember>
leakedMembers(llvm::ArrayRef<const Decl *> Callables,
              const ResourceTable &Table) {
  std::vector<LeakedMember> Out;
  // 1. Creates into data members from constructors, or from member
  // functions of the same class that a constructor calls.
  std::vector<Candidate> Candidates;
  llvm::DenseSet<const FieldDecl *> Fields;
  for (const Decl *D : Callables) {
    const auto *Ctor = dyn_cast<CXXConstructorDecl>(D);
    if (!Ctor || Ctor->isCopyOrMoveConstructor() || !analysableBody(Ctor))
      continue;
    const CXXRecordDecl *Class = Ctor->getParent();
    if (!Class || Class->isLambda() || Class->isDependentContext())
      continue;
    llvm::SmallVector<const Stmt *, 4> Bodies{analysableBody(Ctor)};
    walk(Bodies[0], [&](const Stmt *S) {
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S))
        if (const CXXMethodDecl *M = MC->getMethodDecl())
          if (M->getParent() == Class && isa<CXXThisExpr>(
                  MC->getImplicitObjectArgument()->IgnoreParenImpCasts()))
            if (const Stmt *Body = analysableBody(M->getDefinition()))
              if (Bodies.size() < 8)
                Bodies.push_back(Body);
    });
    for (const Stmt *Body : Bodies)
      walk(Body, [&](const Stmt *S) {
        const auto *C = dyn_cast<CallExpr>(S);
        const ResourceTable::Entry *E = Table.lookup(C);
        if (!E || !E->IsCreate)
          return;
        for (unsigned I = 0; I < C->getNumArgs(); ++I) {
          if (E->ParamIndex >= 0 && static_cast<int>(I) != E->ParamIndex)
            continue;
          const FieldDecl *F = addressedMember(C->getArg(I));
          if (F && F->getParent() == Class && Fields.insert(F).second)
            Candidates.push_back({Class, F, C, E->KindId});
        }
      });
  }
  if (Candidates.empty())
    return Out;

  // 2. What the file does with those members: passing one to cuBLAS is
  // fine; a destroy, or anything else, means it may be released.
  llvm::DenseSet<const FieldDecl *> Unclear;
  llvm::DenseSet<const MemberExpr *> Allowed;
  for (const Decl *D : Callables)
    for (const Stmt *Part : partsOf(D)) {
      bool Whole = walk(Part, [&](const Stmt *S) {
        const auto *C = dyn_cast<CallExpr>(S);
        if (!C)
          return;
        const ResourceTable::Entry *E = Table.lookup(C);
        bool Model = calledCublasFunction(C) != nullptr;
        for (const Expr *Arg : C->arguments()) {
          const Expr *A = Arg->IgnoreParenImpCasts();
          if (const auto *U = dyn_cast<UnaryOperator>(A);
              U && U->getOpcode() == UO_AddrOf && E && E->IsCreate)
            A = U->getSubExpr()->IgnoreParenImpCasts();
          const auto *ME = dyn_cast<MemberExpr>(A);
          if (!ME)
            continue;
          if (E && !E->IsCreate) {
            if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl()))
              Unclear.insert(F); // destroyed here
          } else if (Model || (E && E->IsCreate)) {
            Allowed.insert(ME);
          }
        }
      });
      bool Other = false;
      Whole = walk(Part, [&](const Stmt *S) {
                const auto *ME = dyn_cast<MemberExpr>(S);
                const auto *F =
                    ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
                if (F && Fields.count(F) && !Allowed.count(ME))
                  Unclear.insert(F);
              }) &&
              Whole;
      if (!Whole)
        Other = true;
      if (Other)
        for (const Candidate &C : Candidates)
          Unclear.insert(C.Field);
    }

  // 3. An object of the class, not of static storage.
  for (const Candidate &C : Candidates) {
    if (Unclear.count(C.Field))
      continue;
    const Expr *Object = nullptr;
    for (const Decl *D : Callables) {
      for (const Stmt *Part : partsOf(D)) {
        llvm::DenseSet<const Stmt *> StaticInits;
        walk(Part, [&](const Stmt *S) {
          if (const auto *DS = dyn_cast<DeclStmt>(S))
            for (const Decl *VD : DS->decls())
              if (const auto *V = dyn_cast<VarDecl>(VD))
                if (V->hasGlobalStorage() && V->getInit())
                  StaticInits.insert(V->getInit()->IgnoreImplicit());
          const auto *CE = dyn_cast<CXXConstructExpr>(S);
          if (Object || !CE || StaticInits.count(CE))
            return;
          const CXXConstructorDecl *Ctor = CE->getConstructor();
          if (Ctor && Ctor->getParent() == C.Class &&
              !Ctor->isCopyOrMoveConstructor())
            Object = CE;
        });
        if (Object)
          break;
      }
      if (Object)
        break;
    }
    if (Object)
      Out.push_back({C.Class, C.Field, C.Create, C.KindId, Object});
  }
  return Out;
}

} // namespace cublas_tidy
