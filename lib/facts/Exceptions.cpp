//===- Exceptions.cpp -----------------------------------------------------===//

#include "facts/Exceptions.h"

#include "ast/Callables.h"
#include "ast/TranslationUnitCache.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/Type.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace cublas_tidy {

namespace {

/// What is known of each function of one unit: 0 while it is being
/// decided (a cycle reads it as "cannot"), then 1 (cannot) or 2 (can).
struct ThrowFacts {
  llvm::DenseMap<const FunctionDecl *, char> State;
  /// Set when a decision read a function still being decided: a "cannot"
  /// reached that way is not remembered (the function on the cycle may
  /// throw after all), and is decided again when next asked.
  bool ReadUndecided = false;
  unsigned Depth = 0;
  /// Bodies read for the unit: past a bound (call graphs of many cycles,
  /// decided again and again) calls are taken not to throw.
  unsigned Reads = 0;
};
thread_local TranslationUnitCache<const void *, ThrowFacts> Facts;
thread_local TranslationUnitCache<const Decl *, bool> EndsProcess;

/// True when the statement at `Index` of `Stmts` is inside the try block
/// of a `try` statement among its ancestors.
bool inTryBlock(llvm::ArrayRef<BodyStmt> Stmts, int Index) {
  for (int Child = Index, Up = Stmts[Index].Parent; Up >= 0;
       Child = Up, Up = Stmts[Up].Parent)
    if (const auto *Try = dyn_cast<CXXTryStmt>(Stmts[Up].S))
      if (Stmts[Child].S == Try->getTryBlock())
        return true;
  return false;
}

bool decide(const FunctionDecl *Def, ThrowFacts &Known);

bool canThrow(const FunctionDecl *FD, ThrowFacts &Known) {
  if (!FD)
    return false;
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || !analysableBody(Def))
    return false;
  if (const auto *Proto = Def->getType()->getAs<FunctionProtoType>();
      Proto && Proto->isNothrow())
    return false;
  const SourceManager &SM = Def->getASTContext().getSourceManager();
  if (SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())))
    return false;
  const FunctionDecl *Key = Def->getCanonicalDecl();
  auto It = Known.State.find(Key);
  if (It != Known.State.end()) {
    if (It->second == 0)
      Known.ReadUndecided = true;
    return It->second == 2;
  }
  // Calls nested this deep are not followed.
  if (Known.Depth >= 32 || ++Known.Reads > 100000) {
    Known.ReadUndecided = true;
    return false;
  }
  Known.State[Key] = 0;
  bool Outer = Known.ReadUndecided;
  Known.ReadUndecided = false;
  ++Known.Depth;
  bool Can = decide(Def, Known);
  --Known.Depth;
  if (Can || !Known.ReadUndecided)
    Known.State[Key] = Can ? 2 : 1;
  else
    Known.State.erase(Key);
  Known.ReadUndecided |= Outer;
  return Can;
}

bool decide(const FunctionDecl *Def, ThrowFacts &Known) {
  llvm::ArrayRef<BodyStmt> Stmts = stmtsIn(Def);
  for (size_t I = 0; I < Stmts.size(); ++I) {
    const Stmt *S = Stmts[I].S;
    bool Throws = isa<CXXThrowExpr>(S);
    if (!Throws)
      if (const auto *Call = dyn_cast<CallExpr>(S))
        Throws = canThrow(Call->getDirectCallee(), Known);
    if (Throws && !inTryBlock(Stmts, static_cast<int>(I)))
      return true;
  }
  return false;
}

} // namespace

bool mayThrowOut(const FunctionDecl *FD) {
  if (!FD)
    return false;
  ThrowFacts *Known =
      Facts.get(FD->getASTContext(), nullptr,
                [] { return std::make_unique<ThrowFacts>(); });
  return canThrow(FD, *Known);
}

bool insideTryBlock(const Stmt *S, const Decl *Callable) {
  if (!S || !Callable)
    return false;
  llvm::ArrayRef<BodyStmt> Stmts = stmtsIn(Callable);
  const BodyIndex &Index = indexIn(Callable);
  auto It = Index.At.find(S);
  if (It != Index.At.end())
    return inTryBlock(Stmts, It->second);
  for (size_t I = 0; I < Stmts.size(); ++I)
    if (Stmts[I].S == S)
      return inTryBlock(Stmts, static_cast<int>(I));
  return false;
}

namespace {

/// The references to one function in a unit, and whether each is a direct
/// call inside `Main`'s body.
class References : public RecursiveASTVisitor<References> {
public:
  References(const FunctionDecl *Fn, const FunctionDecl *Main)
      : Fn(Fn->getCanonicalDecl()), Main(Main) {}

  bool TraverseFunctionDecl(FunctionDecl *FD) {
    const FunctionDecl *Outer = In;
    if (FD->doesThisDeclarationHaveABody())
      In = FD;
    bool R = RecursiveASTVisitor::TraverseFunctionDecl(FD);
    In = Outer;
    return R;
  }
  bool VisitCallExpr(CallExpr *C) {
    if (const FunctionDecl *Callee = C->getDirectCallee();
        Callee && Callee->getCanonicalDecl() == Fn && In == Main)
      Calls.insert(C->getCallee()->IgnoreParenImpCasts());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl());
        FD && FD->getCanonicalDecl() == Fn && !Calls.contains(DRE))
      Other = true;
    return !Other;
  }

  bool Other = false;

private:
  const FunctionDecl *Fn, *Main;
  const FunctionDecl *In = nullptr;
  llvm::SmallPtrSet<const Expr *, 4> Calls;
};

const FunctionDecl *mainOf(ASTContext &Ctx) {
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *FD = dyn_cast<FunctionDecl>(D))
      if (FD->isMain() && FD->doesThisDeclarationHaveABody())
        return FD;
  return nullptr;
}

} // namespace

bool exceptionEndsProcess(const FunctionDecl *Fn) {
  if (!Fn)
    return false;
  if (Fn->isMain())
    return true;
  if (Fn->isExternallyVisible())
    return false;
  ASTContext &Ctx = Fn->getASTContext();
  const FunctionDecl *Main = mainOf(Ctx);
  if (!Main || !analysableBody(Main) ||
      llvm::any_of(stmtsIn(Main), [](const BodyStmt &N) {
        return isa<CXXTryStmt>(N.S);
      }))
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  if (!SM.isInMainFile(SM.getExpansionLoc(Fn->getLocation())))
    return false;
  bool *Known = EndsProcess.get(Ctx, Fn->getCanonicalDecl(), [&] {
    // A function of the main file with internal linkage is referenced
    // there (headers come before it). A call in main visits the callee
    // expression before the reference in it: the call is recorded first.
    References Refs(Fn, Main);
    for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
      if (SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
        if (!Refs.TraverseDecl(D))
          break;
    return std::make_unique<bool>(!Refs.Other);
  });
  return *Known;
}

} // namespace cublas_tidy
