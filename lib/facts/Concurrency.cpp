//===- Concurrency.cpp ----------------------------------------------------===//

#include "facts/Concurrency.h"

#include "facts/MemoryObjects.h"

#include "ast/AstUtils.h"
#include "ast/Callables.h"
#include "ast/TypeNames.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/OpenMPKinds.h"
#include "llvm/ADT/DenseMap.h"

using namespace clang;

namespace cublas_tidy {

namespace {

bool isThreadType(QualType T) {
  const CXXRecordDecl *RD = T.isNull() ? nullptr : T->getAsCXXRecordDecl();
  if (!RD || !RD->getIdentifier())
    return false;
  std::string Name = qualifiedName(RD);
  return Name == "std::thread" || Name == "std::jthread";
}

/// The callable a thread or async runs, from the argument that names it:
/// a lambda's call operator, a function, a member function.
const Decl *calleeOf(const Expr *E) {
  E = ignoreCopies(E);
  if (!E)
    return nullptr;
  if (const auto *L = dyn_cast<LambdaExpr>(E))
    return L->getCallOperator();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf)
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *FD = DRE ? dyn_cast<FunctionDecl>(DRE->getDecl()) : nullptr;
  if (!FD)
    return nullptr;
  const FunctionDecl *Def = nullptr;
  return FD->hasBody(Def) ? Def : nullptr;
}

/// The callable a statement starts on another thread, when it is one.
const Decl *threadStart(const Stmt *S, ConcurrentCode::Kind &How) {
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S)) {
    if (CE->getNumArgs() == 0 || !isThreadType(CE->getType()) ||
        isThreadType(CE->getArg(0)->getType()))
      return nullptr;
    How = ConcurrentCode::Thread;
    return calleeOf(CE->getArg(0));
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
    // A thread constructed in place at the back or at a position.
    const memory_api::ContainerMethod *M = calledContainerMethod(MC);
    if (!M || M->Kind != memory_api::MethodKind::Emplace ||
        M->At == memory_api::InsertAt::Front || MC->getNumArgs() == 0)
      return nullptr;
    const CXXMethodDecl *MD = MC->getMethodDecl();
    const auto *Spec =
        dyn_cast<ClassTemplateSpecializationDecl>(MD->getParent());
    if (!Spec || Spec->getTemplateArgs().size() == 0 ||
        Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type ||
        !isThreadType(Spec->getTemplateArgs()[0].getAsType()))
      return nullptr;
    How = ConcurrentCode::Thread;
    return calleeOf(MC->getArg(0));
  }
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD || !FD->getIdentifier() || FD->getName() != "async" ||
        qualifiedName(FD) != "std::async" || Call->getNumArgs() == 0)
      return nullptr;
    unsigned First = 0;
    const Expr *Policy = Call->getArg(0)->IgnoreParenImpCasts();
    if (const auto *ET = Policy->getType()->getAs<EnumType>())
      if (ET->getDecl()->getIdentifier() &&
          ET->getDecl()->getName() == "launch") {
        First = 1;
        // A deferred task runs on the thread that waits for it.
        const auto *DRE = dyn_cast<DeclRefExpr>(Policy);
        if (DRE && DRE->getDecl()->getIdentifier() &&
            DRE->getDecl()->getName() == "deferred")
          return nullptr;
      }
    if (First >= Call->getNumArgs())
      return nullptr;
    How = ConcurrentCode::Async;
    return calleeOf(Call->getArg(First));
  }
  return nullptr;
}

bool insideLoop(llvm::ArrayRef<BodyStmt> Stmts, int I) {
  for (int P = Stmts[I].Parent; P >= 0; P = Stmts[P].Parent)
    if (isLoopStmt(Stmts[P].S))
      return true;
  return false;
}

/// For a start at `I` inside a loop: true when the same iteration waits for
/// it, so that the iterations do not overlap: the thread or future is a
/// local of the loop body joined (`.join()`, `.get()`, `.wait()`) there,
/// or a std::async whose future is a temporary (its destructor waits at
/// the end of the statement).
bool waitedInSameIteration(llvm::ArrayRef<BodyStmt> Stmts,
                           const Decl *Callable, int I,
                           ConcurrentCode::Kind How) {
  int Loop = Stmts[I].Parent;
  while (Loop >= 0 &&
         !isLoopStmt(Stmts[Loop].S))
    Loop = Stmts[Loop].Parent;
  if (Loop < 0)
    return false;
  int P = Stmts[I].Parent;
  while (P >= 0 && isa<MaterializeTemporaryExpr, CXXBindTemporaryExpr,
                       ImplicitCastExpr, ExprWithCleanups, ParenExpr,
                       CXXConstructExpr>(Stmts[P].S))
    P = Stmts[P].Parent;
  if (P < 0)
    return false;
  if (How == ConcurrentCode::Async && !isa<Expr, DeclStmt>(Stmts[P].S))
    return true; // `std::async(...);`: the temporary future waits
  const auto *DS = dyn_cast<DeclStmt>(Stmts[P].S);
  const auto *V = DS && DS->isSingleDecl()
                      ? dyn_cast<VarDecl>(DS->getSingleDecl())
                      : nullptr;
  if (!V)
    return false;
  const BodyIndex &Index = indexIn(Callable);
  auto Refs = Index.RefsTo.find(V);
  if (Refs == Index.RefsTo.end())
    return false;
  for (int R : Refs->second) {
    int Up = Stmts[R].Parent;
    const auto *ME = Up >= 0 ? dyn_cast<MemberExpr>(Stmts[Up].S) : nullptr;
    const auto *MD =
        ME ? dyn_cast<CXXMethodDecl>(ME->getMemberDecl()) : nullptr;
    if (!MD || !MD->getIdentifier() ||
        (MD->getName() != "join" && MD->getName() != "get" &&
         MD->getName() != "wait"))
      continue;
    for (int A = Up; A >= 0; A = Stmts[A].Parent)
      if (A == Loop)
        return true;
  }
  return false;
}

bool isLockType(QualType T) {
  const CXXRecordDecl *RD = T.isNull() ? nullptr : T->getAsCXXRecordDecl();
  if (!RD || !RD->getIdentifier())
    return false;
  std::string Name = qualifiedName(RD);
  return Name == "std::lock_guard" || Name == "std::unique_lock" ||
         Name == "std::scoped_lock";
}

/// What a statement of a scope does to the locks held for the rest of the
/// scope: +1 takes one (a lock object declared, `m.lock()`), -1 releases
/// one (`m.unlock()`), 0 neither.
int lockEffect(const Stmt *S) {
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D); VD && isLockType(VD->getType()))
        return 1;
    return 0;
  }
  const auto *E = dyn_cast<Expr>(S);
  const auto *MC =
      E ? dyn_cast<CXXMemberCallExpr>(E->IgnoreParenImpCasts()) : nullptr;
  const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
  if (!MD || !MD->getIdentifier())
    return 0;
  if (MD->getName() == "lock")
    return 1;
  return MD->getName() == "unlock" ? -1 : 0;
}

int indexOfStmt(llvm::ArrayRef<BodyStmt> Stmts, const Decl *Callable,
                const Stmt *S) {
  int I = indexIn(Callable).indexOf(S);
  if (I >= 0)
    return I;
  for (size_t J = 0; J < Stmts.size(); ++J)
    if (Stmts[J].S == S)
      return int(J);
  return -1;
}

} // namespace

/// False when the unit can start no thread: no OpenMP, and neither
/// `thread`, `jthread` nor `async` was ever spelled in it (a test of the
/// identifier table, before reading every statement).
bool mayStartThreads(const ASTContext &Ctx) {
  if (Ctx.getLangOpts().OpenMP)
    return true;
  for (llvm::StringRef Name : {"thread", "jthread", "async"})
    if (Ctx.Idents.find(Name) != Ctx.Idents.end())
      return true;
  return false;
}

std::vector<ConcurrentCode>
concurrentCode(llvm::ArrayRef<const Decl *> Unit) {
  std::vector<ConcurrentCode> Found;
  if (Unit.empty() || !mayStartThreads(Unit.front()->getASTContext()))
    return Found;
  llvm::DenseMap<const Decl *, unsigned> Starts;
  std::vector<std::pair<ConcurrentCode, bool>> Candidates;
  for (const Decl *Callable : Unit) {
    llvm::ArrayRef<BodyStmt> Stmts = stmtsIn(Callable);
    for (size_t I = 0; I < Stmts.size(); ++I) {
      const Stmt *S = Stmts[I].S;
      if (const auto *D = dyn_cast<OMPExecutableDirective>(S)) {
        if (isOpenMPParallelDirective(D->getDirectiveKind())) {
          ConcurrentCode C;
          C.How = ConcurrentCode::ParallelRegion;
          C.Region = D;
          C.Start = D;
          C.StartIn = Callable;
          Found.push_back(C);
        }
        continue;
      }
      if (!isa<CXXConstructExpr, CallExpr>(S))
        continue;
      ConcurrentCode C;
      const Decl *Entry = threadStart(S, C.How);
      if (!Entry)
        continue;
      C.Entry = Entry;
      C.Start = S;
      C.StartIn = Callable;
      ++Starts[Entry];
      Candidates.push_back(
          {C, insideLoop(Stmts, int(I)) &&
                  !waitedInSameIteration(Stmts, Callable, int(I), C.How)});
    }
  }
  for (const auto &[C, InLoop] : Candidates)
    if (InLoop || Starts.lookup(C.Entry) > 1)
      Found.push_back(C);
  return Found;
}

bool lockHeldIn(llvm::ArrayRef<BodyStmt> Stmts, int I) {
  if (I < 0)
    return false;
  const Stmt *Child = Stmts[I].S;
  for (int P = Stmts[I].Parent; P >= 0; P = Stmts[P].Parent) {
    const Stmt *Parent = Stmts[P].S;
    if (const auto *D = dyn_cast<OMPExecutableDirective>(Parent)) {
      OpenMPDirectiveKind K = D->getDirectiveKind();
      if (K == llvm::omp::OMPD_critical || K == llvm::omp::OMPD_single ||
          K == llvm::omp::OMPD_master || K == llvm::omp::OMPD_masked)
        return true;
    }
    if (const auto *CS = dyn_cast<CompoundStmt>(Parent)) {
      int Held = 0;
      for (const Stmt *Before : CS->body()) {
        if (Before == Child)
          break;
        Held = std::max(0, Held + lockEffect(Before));
      }
      if (Held > 0)
        return true;
    }
    Child = Parent;
  }
  return false;
}

bool lockHeldAt(const Stmt *S, const Decl *Callable) {
  llvm::ArrayRef<BodyStmt> Stmts = stmtsIn(Callable);
  return lockHeldIn(Stmts, indexOfStmt(Stmts, Callable, S));
}

std::vector<BodyStmt> regionStmts(const OMPExecutableDirective *Region) {
  std::vector<BodyStmt> Out;
  if (!Region)
    return Out;
  // Pre-order with an explicit stack; a captured statement stands for the
  // statement it captures, lambdas and blocks are callables of their own.
  llvm::SmallVector<std::pair<const Stmt *, int>, 32> Work;
  Work.push_back({Region, -1});
  while (!Work.empty() && Out.size() < 100000) {
    auto [S, Parent] = Work.pop_back_val();
    if (!S)
      continue;
    int Index = int(Out.size());
    Out.push_back({S, Parent});
    if (isa<LambdaExpr, BlockExpr>(S))
      continue;
    llvm::SmallVector<const Stmt *, 8> Children;
    if (const auto *D = dyn_cast<OMPExecutableDirective>(S)) {
      if (D->hasAssociatedStmt())
        Children.push_back(D->getAssociatedStmt());
    } else if (const auto *CS = dyn_cast<CapturedStmt>(S)) {
      Children.push_back(CS->getCapturedStmt());
    } else {
      for (const Stmt *C : S->children())
        Children.push_back(C);
    }
    for (auto It = Children.rbegin(); It != Children.rend(); ++It)
      Work.push_back({*It, Index});
  }
  return Out;
}

} // namespace cublas_tidy
