//===- Teardown.cpp -------------------------------------------------------===//

#include "facts/Teardown.h"

#include "ast/AstUtils.h"
#include "model/CublasApi.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace cublas_tidy {

namespace {

/// The statements from `Root` down to `Target`, `Root` first; empty when
/// `Target` is not inside `Root`.
bool pathTo(const Stmt *Root, const Stmt *Target,
            llvm::SmallVectorImpl<const Stmt *> &Path) {
  Path.push_back(Root);
  if (Root == Target)
    return true;
  for (const Stmt *Child : Root->children())
    if (Child && !isa<LambdaExpr>(Child) && pathTo(Child, Target, Path))
      return true;
  Path.pop_back();
  return false;
}

/// Whether `S` calls a function of the cuBLAS family that is not a
/// destroy, or a function of the unit that does (two calls deep): work, or
/// a create, after which the program goes on.
bool callsLibraryWork(const Stmt *S, unsigned Depth = 0) {
  return anyStmt(
      S,
      [&](const Stmt *N) {
        const auto *Call = dyn_cast<CallExpr>(N);
        if (!Call)
          return false;
        if (const FunctionInfo *F = calledCublasFunction(Call))
          return F->Destroys == ResourceKind::None;
        const FunctionDecl *FD = Call->getDirectCallee();
        const FunctionDecl *Def = nullptr;
        return Depth < 2 && FD && FD->hasBody(Def) && Def &&
               callsLibraryWork(Def->getBody(), Depth + 1);
      },
      ~0u);
}

/// Whether `S` calls `Callee` (a canonical declaration).
bool calls(const Stmt *S, const FunctionDecl *Callee) {
  return anyStmt(
      S,
      [&](const Stmt *N) {
        const auto *Call = dyn_cast<CallExpr>(N);
        const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
        return FD && FD->getCanonicalDecl() == Callee;
      },
      ~0u);
}

/// Whether `Call` destroys a parameter of `FD`: a deleter's argument.
bool destroysParameter(const CallExpr *Call, const FunctionDecl *FD) {
  return llvm::any_of(Call->arguments(), [&](const Expr *A) {
    const auto *Ref = dyn_cast<DeclRefExpr>(A->IgnoreParenImpCasts());
    const auto *P = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
    return P && P->getDeclContext() == FD;
  });
}

/// Whether, from `Path.back()` in main's body, the way out of main holds
/// no loop around the call and no library work before a `return`.
bool endsMain(llvm::ArrayRef<const Stmt *> Path) {
  for (size_t I = Path.size() - 1; I > 0; --I) {
    const Stmt *Parent = Path[I - 1];
    const Stmt *Child = Path[I];
    // A loop that only destroys (`for (i...) cublasDestroy(handles[i]);`)
    // is on the way out; one that creates again is not. `do { ... } while
    // (0)` is a block, not a loop.
    const auto *Do = dyn_cast<DoStmt>(Parent);
    bool Once = Do && literalTruth(Do->getCond()) == false;
    if (isLoopStmt(Parent) && !Once && callsLibraryWork(Parent))
      return false;
    if (isa<SwitchStmt>(Parent))
      return false;
    const auto *Block = dyn_cast<CompoundStmt>(Parent);
    if (!Block)
      continue;
    const auto *It = llvm::find(Block->body(), Child);
    for (++It; It != Block->body_end(); ++It) {
      if (callsLibraryWork(*It))
        return false;
      if (isa<ReturnStmt>(*It))
        return true;
    }
  }
  return true;
}

} // namespace

bool destroysAtTeardown(const CallExpr *Call, const Decl *Callable) {
  const FunctionInfo *F = calledCublasFunction(Call);
  if (!F || F->Destroys == ResourceKind::None)
    return false;
  if (isa<CXXDestructorDecl>(Callable))
    return true;
  const Stmt *Body = Callable->getBody();
  if (!Body)
    return false;
  const auto *FD = dyn_cast<FunctionDecl>(Callable);
  if (FD && FD->isMain()) {
    llvm::SmallVector<const Stmt *, 16> Path;
    return pathTo(Body, Call, Path) && endsMain(Path);
  }
  // A function that returns nothing and only releases, where it runs at
  // teardown: a lambda that destroys its parameter (a deleter) or a method
  // its class's destructor calls (`~Context() { TearDown(); }`).
  if (!FD || !FD->getReturnType()->isVoidType() || callsLibraryWork(Body))
    return false;
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (!MD)
    return false;
  if (MD->getParent()->isLambda())
    return destroysParameter(Call, MD);
  const CXXDestructorDecl *Dtor = MD->getParent()->getDestructor();
  const FunctionDecl *DtorDef = nullptr;
  return Dtor && Dtor->hasBody(DtorDef) &&
         calls(DtorDef->getBody(), MD->getCanonicalDecl());
}

} // namespace cublas_tidy
