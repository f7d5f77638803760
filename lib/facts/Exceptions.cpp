//===- Exceptions.cpp -----------------------------------------------------===//

#include "facts/Exceptions.h"

#include "ast/AstUtils.h"
#include "ast/Callables.h"
#include "ast/TranslationUnitCache.h"
#include "facts/Registrations.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/Type.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"

#include <deque>

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
  /// A call of a function of the project whose body is not here counts as
  /// one that may throw (what other files may let out through it).
  bool UnknownThrows = false;
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

bool nothrow(const FunctionDecl *FD) {
  const auto *Proto = FD->getType()->getAs<FunctionProtoType>();
  return Proto && Proto->isNothrow();
}

bool inSystemHeader(const Decl *D) {
  const SourceManager &SM = D->getASTContext().getSourceManager();
  return SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation()));
}

/// A call of a function of the project whose body is not in the unit: it
/// is defined in another file (or nowhere known), and may throw there.
bool callsElsewhere(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || FD->getBuiltinID() || !FD->isExternallyVisible() || nothrow(FD) ||
      inSystemHeader(FD) || calledCublasFunction(Call))
    return false;
  const FunctionDecl *Def = FD->getDefinition();
  return !Def || !analysableBody(Def);
}

bool canThrow(const FunctionDecl *FD, ThrowFacts &Known) {
  if (!FD)
    return false;
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || !analysableBody(Def))
    return false;
  if (nothrow(Def) || inSystemHeader(Def))
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
        Throws = canThrow(Call->getDirectCallee(), Known) ||
                 (Known.UnknownThrows && callsElsewhere(Call));
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
  /// A dependent call in a template may become a call of `Fn` when the
  /// template is instantiated: count it as another reference.
  bool VisitOverloadExpr(OverloadExpr *E) {
    if (const FunctionTemplateDecl *Template = Fn->getPrimaryTemplate())
      for (const NamedDecl *D : E->decls())
        if (D->getUnderlyingDecl()->getCanonicalDecl() ==
            Template->getCanonicalDecl())
          Other = true;
    return !Other;
  }

  bool Other = false;

private:
  const FunctionDecl *Fn, *Main;
  const FunctionDecl *In = nullptr;
  llvm::SmallPtrSet<const Expr *, 4> Calls;
};

/// True when no other unit can call `Fn` (a function of the main file):
/// it has internal linkage, or every other unit that called it would need
/// its own definition (an inline function, an implicit instantiation of a
/// template of the main file). Methods are left out: their calls are not
/// followed by `References`.
bool unitLocal(const FunctionDecl *Fn) {
  if (!Fn->isExternallyVisible())
    return true;
  if (isa<CXXMethodDecl>(Fn))
    return false;
  if (Fn->getTemplateSpecializationKind() == TSK_ImplicitInstantiation)
    return true;
  return !Fn->isTemplateInstantiation() && !Fn->getPrimaryTemplate() &&
         Fn->isInlineSpecified();
}

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
  if (!unitLocal(Fn))
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
    // A unit-local function of the main file is referenced there
    // (headers come before it). A call in main visits the callee
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

namespace {

/// Whether a handler of `Try` ends otherwise than by a `throw`: it may
/// catch the exception for good.
bool handlesForGood(const CXXTryStmt *Try) {
  for (unsigned I = 0; I < Try->getNumHandlers(); ++I) {
    const auto *Block =
        dyn_cast_or_null<CompoundStmt>(Try->getHandler(I)->getHandlerBlock());
    const Stmt *Last =
        Block && !Block->body_empty() ? Block->body_back() : nullptr;
    if (const auto *E = dyn_cast_or_null<Expr>(Last))
      Last = E->IgnoreImplicit();
    if (!isa_and_nonnull<CXXThrowExpr>(Last))
      return true;
  }
  return false;
}

/// True when `Call`, in the body of `Callable`, is inside the try block of
/// a `try` statement there that may catch its exception for good.
bool insideCatchingTry(const Expr *Call, const Decl *Callable) {
  llvm::ArrayRef<BodyStmt> Stmts = stmtsIn(Callable);
  int Index = indexIn(Callable).indexOf(Call);
  // The index holds calls and references; a construction is looked for.
  if (Index < 0 && isa<CXXConstructExpr>(Call))
    if (const BodyStmt *At = llvm::find_if(
            Stmts, [&](const BodyStmt &B) { return B.S == Call; });
        At != Stmts.end())
      Index = static_cast<int>(At - Stmts.begin());
  if (Index < 0)
    return false;
  for (int Child = Index, Up = Stmts[Index].Parent; Up >= 0;
       Child = Up, Up = Stmts[Up].Parent)
    if (const auto *Try = dyn_cast<CXXTryStmt>(Stmts[Up].S))
      if (Stmts[Child].S == Try->getTryBlock() && handlesForGood(Try))
        return true;
  return false;
}

} // namespace

ExceptionCallers::ExceptionCallers(llvm::ArrayRef<const Decl *> Callables,
                                   ASTContext &Ctx)
    : Ctx(Ctx), Callables(Callables) {
  auto Seen = [&](const FunctionDecl *FD) {
    if (!Sites.count(FD) && !Registered.count(FD))
      Callees.push_back(FD);
  };
  for (const Decl *Caller : Callables) {
    if (!analysableBody(Caller))
      continue;
    for (const CallExpr *Call : callsIn(Caller))
      if (const FunctionDecl *FD = Call->getDirectCallee()) {
        FD = FD->getCanonicalDecl();
        Seen(FD);
        Sites[FD].push_back({Call, Caller});
      }
    // Objects constructed there: their constructors are called.
    for (const BodyStmt &S : stmtsIn(Caller))
      if (const auto *Construct = dyn_cast<CXXConstructExpr>(S.S))
        if (const CXXConstructorDecl *Ctor = Construct->getConstructor();
            Ctor && Ctor->isUserProvided()) {
          const FunctionDecl *FD = Ctor->getCanonicalDecl();
          Seen(FD);
          Sites[FD].push_back({Construct, Caller});
        }
  }
  auto Register = [&](const FunctionDecl *FD, const OpRegistration &R) {
    Seen(FD);
    Registered.try_emplace(FD, R.Call);
    return false;
  };
  forEachRegistration(Callables, Register);
  forEachGlobalRegistration(Ctx, Register);
}

const std::string &ExceptionCallers::keyOf(const FunctionDecl *Fn) {
  auto [It, New] = Keys.try_emplace(Fn);
  if (New)
    It->second = summaryKey(Fn);
  return It->second;
}

const FunctionDecl *ExceptionCallers::declaredHere(llvm::StringRef Key) {
  if (!ByKey) {
    ByKey.emplace();
    for (const FunctionDecl *FD : Callees)
      if (const std::string &K = keyOf(FD); !K.empty())
        ByKey->try_emplace(K, FD);
    for (const Decl *C : Callables)
      if (const auto *FD = dyn_cast<FunctionDecl>(C))
        if (const std::string &K = keyOf(FD->getCanonicalDecl()); !K.empty())
          ByKey->try_emplace(K, FD->getCanonicalDecl());
  }
  auto It = ByKey->find(Key);
  return It == ByKey->end() ? nullptr : It->second;
}

const ExceptionCallers::Local &
ExceptionCallers::localRoute(const FunctionDecl *Fn) {
  Fn = Fn->getCanonicalDecl();
  auto Found = Routes.find(Fn);
  if (Found != Routes.end())
    return Found->second;
  Local Out;
  llvm::SmallPtrSet<const FunctionDecl *, 16> Visited{Fn};
  std::deque<const FunctionDecl *> Work{Fn};
  // Breadth first: the nearest catch. Bounded: a chain of many hundreds of
  // functions is not followed to its end.
  while (!Work.empty() && !Out.Catch && Visited.size() < 512) {
    const FunctionDecl *N = Work.front();
    Work.pop_front();
    if (auto R = Registered.find(N); R != Registered.end()) {
      Out.Catch = ExceptionCatch{R->second, N, /*Binding=*/true, "", 0, ""};
      break;
    }
    auto S = Sites.find(N);
    if (S == Sites.end())
      continue;
    for (const auto &[Call, Caller] : S->second) {
      if (insideCatchingTry(Call, Caller)) {
        Out.Catch = ExceptionCatch{Call, N, /*Binding=*/false, "", 0, ""};
        break;
      }
      const auto *C = dyn_cast<FunctionDecl>(Caller);
      if (!C || C->isMain())
        continue;
      C = C->getCanonicalDecl();
      if (!keyOf(C).empty()) {
        if (!llvm::is_contained(Out.Through, C))
          Out.Through.push_back(C);
      } else if (Visited.insert(C).second) {
        Work.push_back(C);
      }
    }
  }
  return Routes.try_emplace(Fn, std::move(Out)).first->second;
}

std::optional<ExceptionCatch>
ExceptionCallers::catchOf(const FunctionDecl *Fn) {
  if (!Fn)
    return std::nullopt;
  Fn = Fn->getCanonicalDecl();
  const Local &First = localRoute(Fn);
  if (First.Catch)
    return First.Catch;
  // Then up through the functions other units can call: their callers
  // here, and those of the other files, as the project's summaries say.
  struct Item {
    const FunctionDecl *Here; // declared in this unit, or null
    std::string Key;
  };
  std::deque<Item> Work;
  for (const FunctionDecl *T : First.Through)
    Work.push_back({T, keyOf(T)});
  Work.push_back({nullptr, keyOf(Fn)});
  llvm::StringSet<> Seen;
  llvm::SmallPtrSet<const FunctionDecl *, 16> SeenHere{Fn};
  for (unsigned Steps = 0; !Work.empty() && Steps < 1000; ++Steps) {
    Item I = std::move(Work.front());
    Work.pop_front();
    if (I.Here && SeenHere.insert(I.Here).second) {
      const Local &R = localRoute(I.Here);
      if (R.Catch)
        return R.Catch;
      for (const FunctionDecl *T : R.Through)
        Work.push_back({T, keyOf(T)});
    }
    if (I.Key.empty() || !Seen.insert(I.Key).second || !projectFactsWanted())
      continue;
    for (const auto &[File, Route] : projectExceptionRoutes(I.Key, Ctx)) {
      if (Route->CaughtLine)
        return ExceptionCatch{nullptr,           nullptr,
                              Route->Binding,    File->File,
                              Route->CaughtLine, Route->CaughtCallee};
      for (const std::string &T : Route->Through)
        Work.push_back({declaredHere(T), T});
    }
  }
  return std::nullopt;
}

bool ExceptionCallers::mayLetOut(const FunctionDecl *Fn) {
  if (nothrow(Fn) || inSystemHeader(Fn))
    return false;
  if (auto S = Sites.find(Fn);
      S != Sites.end() &&
      calledCublasFunction(dyn_cast<CallExpr>(S->second.front().first)))
    return false;
  const FunctionDecl *Def = Fn->getDefinition();
  if (!Def || !analysableBody(Def))
    return true;
  ThrowFacts *Known = Facts.get(Ctx, &Facts, [] {
    auto F = std::make_unique<ThrowFacts>();
    F->UnknownThrows = true;
    return F;
  });
  return canThrow(Def, *Known);
}

std::vector<FileSummary::ExceptionRoute> ExceptionCallers::routes() {
  std::vector<FileSummary::ExceptionRoute> Out;
  const SourceManager &SM = Ctx.getSourceManager();
  for (const FunctionDecl *Fn : Callees) {
    // What no other file can call routes nothing across files; the cheap
    // tests first (most calls are of library functions).
    if (!Fn->isExternallyVisible() || !mayLetOut(Fn))
      continue;
    std::string Key = keyOf(Fn);
    if (Key.empty())
      continue;
    const Local &L = localRoute(Fn);
    FileSummary::ExceptionRoute R;
    R.Callee = Key;
    if (L.Catch) {
      R.CaughtLine = SM.getExpansionLineNumber(L.Catch->Call->getBeginLoc());
      const auto *M = dyn_cast<CXXMethodDecl>(L.Catch->Callee);
      if (!M || !M->getParent()->isLambda())
        R.CaughtCallee = L.Catch->Callee->getQualifiedNameAsString();
      R.Binding = L.Catch->Binding;
    } else {
      for (const FunctionDecl *T : L.Through)
        R.Through.push_back(keyOf(T));
      llvm::sort(R.Through);
      R.Through.erase(std::unique(R.Through.begin(), R.Through.end()),
                      R.Through.end());
    }
    if (R.CaughtLine || !R.Through.empty())
      Out.push_back(std::move(R));
  }
  llvm::sort(Out, [](const FileSummary::ExceptionRoute &A,
                     const FileSummary::ExceptionRoute &B) {
    return A.Callee < B.Callee;
  });
  // Two declarations of one function under one key: one route.
  Out.erase(std::unique(Out.begin(), Out.end(),
                        [](const FileSummary::ExceptionRoute &A,
                           const FileSummary::ExceptionRoute &B) {
                          return A.Callee == B.Callee;
                        }),
            Out.end());
  return Out;
}

} // namespace cublas_tidy
