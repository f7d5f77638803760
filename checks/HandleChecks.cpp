//===- HandleChecks.cpp ---------------------------------------------------===//

#include "HandleChecks.h"

#include "RepeatReasons.h"
#include "ast/AstUtils.h"
#include "ast/Callables.h"
#include "ast/CompileErrors.h"
#include "ast/FunctionTimer.h"
#include "ast/TranslationUnitCache.h"
#include "facts/DestroyedGlobals.h"
#include "facts/DestroyedMembers.h"
#include "facts/HandleNames.h"
#include "facts/MemberHandles.h"
#include "facts/RepeatedHandles.h"
#include "facts/Summaries.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallPtrSet.h"


using namespace clang::ast_matchers;
using namespace cublas_tidy;

namespace clang::tidy::cublas {

namespace {
/// The handle analysis of one function under one ResourcePairs value.
struct SharedAnalysis {
  std::string ResourcePairs;
  HandleAnalysisResult Result;
};
thread_local TranslationUnitCache<std::pair<const Decl *, size_t>,
                                  SharedAnalysis>
    SharedAnalyses;
} // namespace

HandleCheckBase::HandleCheckBase(StringRef Name, ClangTidyContext *Context)
    : CublasCheck(Name, Context),
      ResourcePairs(Options.get("ResourcePairs", "")),
      Table(ResourceTable::fromApiModel()) {
  SmallVector<StringRef, 8> Pairs;
  ResourcePairs.split(Pairs, ';', -1, /*KeepEmpty=*/false);
  for (StringRef Pair : Pairs) {
    Pair = Pair.trim();
    if (Pair.empty())
      continue;
    auto [Create, Destroy] = Pair.split(':');
    Create = Create.trim();
    Destroy = Destroy.trim();
    if (Create.empty() || Destroy.empty() || Destroy.contains(':')) {
      configurationDiag("invalid entry '%0' in option '%1.ResourcePairs': "
                        "expected 'createFunction:destroyFunction'")
          << Pair << getID();
      continue;
    }
    if (!Table.addPair(Create, Destroy))
      configurationDiag("entry '%0' in option '%1.ResourcePairs' names a "
                        "function that is already a create or destroy "
                        "function")
          << Pair << getID();
  }
}

void HandleCheckBase::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "ResourcePairs", ResourcePairs);
}

bool HandleCheckBase::isWorthAnalysing(const Decl *Callable) {
  if (!analysableBody(Callable))
    return false;
  return callsAny(Callable, [&](const CallExpr *Call) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD || !FD->getIdentifier())
      return false;
    if (const ResourceTable::Entry *E = Table.lookup(FD->getName()))
      return needsCreates() ? E->IsCreate : !E->IsCreate;
    // For leaks, also calls of same-file helpers that may return a new
    // resource (`cublasHandle_t make() { ...; cublasCreate(&h); return h; }`);
    // for uses after destroy, calls of functions that may destroy what they
    // are given (`shutdown(h)`).
    if (needsCreates())
      return mayReturnNewResource(FD, Table, CreatesInBody);
    return !calledCublasFunction(Call) &&
           mayDestroyGiven(Call, Table, DestroysInBody);
  });
}

void HandleCheckBase::clearUnit() {
  Analyzer.reset();
  MemberFacts.reset();
  CreatesInBody.clear();
  DestroysInBody.clear();
}

bool HandleCheckBase::anyCompileErrors() const {
  return llvm::any_of(callables(),
                      [](const Decl *C) { return hasCompileErrors(C); });
}

void HandleCheckBase::checkCallable(const Decl *Callable, ASTContext &Ctx) {
  // Template patterns are analysed in their instantiations.
  if (!isWorthAnalysing(Callable))
    return;
  FunctionTimer Timer(getID(), Callable);
  // Both checks read the same analysis: it runs once per function for a
  // given ResourcePairs (the only option that changes its result).
  SharedAnalysis *Shared = SharedAnalyses.get(
      Ctx, {Callable, llvm::hash_value(ResourcePairs)}, [&] {
        if (!Analyzer)
          Analyzer = std::make_unique<HandleAnalyzer>(Ctx, Table);
        return std::make_unique<SharedAnalysis>(
            SharedAnalysis{ResourcePairs.str(), Analyzer->analyze(Callable)});
      });
  if (Shared->ResourcePairs != ResourcePairs) {
    // A hash collision of two configurations: analyse on our own.
    if (!Analyzer)
      Analyzer = std::make_unique<HandleAnalyzer>(Ctx, Table);
    HandleAnalysisResult Own = Analyzer->analyze(Callable);
    if (Own.Completed)
      report(Own, Callable, Ctx);
    return;
  }
  if (Shared->Result.Completed)
    report(Shared->Result, Callable, Ctx);
  reportFunction(Callable, Ctx);
}

static StringRef exitNote(LeakExit::KindT Kind) {
  switch (Kind) {
  case LeakExit::Return:
    return "leaks when this 'return' is taken";
  case LeakExit::Throw:
    return "leaks when this exception is thrown";
  case LeakExit::ThrowingCall:
    return "leaks when '%1' throws here";
  case LeakExit::FunctionEnd:
    return "leaks when the function returns here";
  case LeakExit::ScopeEnd:
    return "leaks when '%0' goes out of scope here";
  case LeakExit::Jump:
    return "leaks when this '%1' is taken";
  case LeakExit::Recreated:
    return "leaks when '%0' is created again here";
  case LeakExit::Overwritten:
    return "leaks when '%0' is overwritten here";
  }
  return "leaks here";
}

/// Whether `X` is an exception, whose leak depends on who catches it: a
/// `throw` of the function's own (a checking macro's on a failed call, or a
/// check of its inputs) or one that a call of the project throws. Nothing
/// catches it where no caller is known to: it ends the process, and what it
/// leaves allocated does not outlive it.
static bool leaksWhereCaught(const LeakExit &X) {
  return X.Kind == LeakExit::ThrowingCall || X.Kind == LeakExit::Throw;
}

void HandleLeakCheck::report(const HandleAnalysisResult &Result,
                             const Decl *Callable, ASTContext &Ctx) {
  for (const LeakReport &L : Result.Leaks) {
    // Whether a caller catches what a throwing call lets out is known once
    // every function of the unit is.
    if (L.Var && llvm::any_of(L.Exits, leaksWhereCaught))
      ThrowLeaks.push_back({L, Callable});
    else
      wordLeak(L, Ctx, nullptr);
  }
}

void HandleLeakCheck::wordLeak(const LeakReport &L, ASTContext &Ctx,
                               const ExceptionCatch *Catch) {
  const SourceManager &SM = Ctx.getSourceManager();
  const ResourceTable::Kind &K = table().kind(L.KindId);
  if (!L.Var) {
    const FunctionDecl *Helper = L.Create->getDirectCallee();
    diag(userLocation(L.Create->getBeginLoc(), SM),
         "%0 returned by '%1' is never destroyed; keep it and call '%2' "
         "when done")
        << K.Noun << (Helper ? Helper->getName() : "this call") << K.Destroy;
    return;
  }
  // An exception that no caller is known to catch ends the process, or
  // where it goes is not known: not a way out that leaks.
  auto Leaves = [&](const LeakExit &X) {
    return Catch || !leaksWhereCaught(X);
  };
  if (!L.Exits.empty() && llvm::none_of(L.Exits, Leaves))
    return;
  diag(userLocation(L.Create->getBeginLoc(), SM),
       L.NeverReleased
           ? "%0 '%1' created here is never destroyed; call '%2' when it "
             "is no longer needed"
           : "%0 '%1' created here is not destroyed on every path; call "
             "'%2' before it goes out of reach")
      << K.Noun << L.Var->getName() << K.Destroy;
  // One note per way out (the first in the source), and how many more
  // paths leave the same way.
  llvm::SmallVector<std::pair<const LeakExit *, unsigned>, 4> Notes;
  for (const LeakExit &X : L.Exits) {
    if (!Leaves(X) || userLocation(X.Loc, SM).isInvalid())
      continue;
    auto Same = llvm::find_if(Notes, [&](const auto &N) {
      return N.first->Kind == X.Kind &&
             (!N.first->S || !X.S ||
              N.first->S->getStmtClass() == X.S->getStmtClass());
    });
    if (Same == Notes.end())
      Notes.push_back({&X, 0});
    else
      ++Same->second;
  }
  for (const auto &[X, More] : Notes) {
    std::string Jump = isa_and_nonnull<BreakStmt>(X->S)      ? "break"
                       : isa_and_nonnull<ContinueStmt>(X->S) ? "continue"
                                                             : "goto";
    if (X->Kind == LeakExit::ThrowingCall)
      if (const auto *CE = dyn_cast_or_null<CallExpr>(X->S))
        if (const FunctionDecl *FD = CE->getDirectCallee())
          Jump = FD->getNameAsString();
    std::string Text = exitNote(X->Kind).str();
    if (More)
      Text += " (and %2 more path%s2 like it)";
    diag(userLocation(X->Loc, SM), Text, DiagnosticIDs::Note)
        << L.Var->getName() << Jump << More;
  }
  if (Catch && llvm::any_of(L.Exits, leaksWhereCaught))
    noteCatch(*Catch, Ctx);
}

void HandleLeakCheck::noteCatch(const ExceptionCatch &Catch, ASTContext &Ctx) {
  SourceManager &SM = Ctx.getSourceManager();
  SourceLocation At = Catch.Call ? userLocation(Catch.Call->getBeginLoc(), SM)
                                 : locationInFile(SM, Catch.File, Catch.Line);
  if (At.isInvalid())
    return;
  std::string Name = Catch.CalleeName;
  if (Catch.Callee) {
    const auto *M = dyn_cast<CXXMethodDecl>(Catch.Callee);
    Name = M && M->getParent()->isLambda()
               ? ""
               : Catch.Callee->getQualifiedNameAsString();
  }
  // A constructor's caller constructs an object.
  if (const auto *Ctor = dyn_cast_or_null<CXXConstructorDecl>(Catch.Callee)) {
    diag(At,
         "a '%0' is constructed here inside a 'try' block: the exception "
         "can be caught and the program go on",
         DiagnosticIDs::Note)
        << Ctor->getParent()->getName();
    return;
  }
  // %0: the function ('' for a lambda); %1: in another file.
  diag(At,
       Catch.Binding
           ? "%select{'%0'|the lambda}2 is registered here for Python to "
             "call%select{|, in another file}1: the binding catches the "
             "exception and the program goes on"
           : "'%0' is called here inside a 'try' block%select{|, in another "
             "file}1: the exception can be caught and the program go on",
       DiagnosticIDs::Note)
      << Name << (Catch.Call ? 0 : 1) << (Name.empty() ? 1 : 0);
}

void HandleLeakCheck::reportFunction(const Decl *Callable, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const auto *FD = dyn_cast<FunctionDecl>(Callable);
  for (const RecreatedStatic &R : recreatedStatics(Callable, table())) {
    if (R.UnguardedGlobal) {
      if (FD)
        GlobalCreates.push_back({R, FD});
      continue;
    }
    const ResourceTable::Kind &K = table().kind(R.KindId);
    StringRef Storage = R.Var->isStaticLocal() ? "static" : "global";
    if (R.NeverSetFlag) {
      diag(userLocation(R.Create->getBeginLoc(), SM),
           "%0 %1 '%2' is created on every call of '%3': its guard '%4' is "
           "tested but never set, and the previous one is never destroyed; "
           "each call after the first leaks one; set '%4' after the create")
          << Storage << K.Noun << R.Var->getName()
          << (FD ? FD->getName() : "") << R.NeverSetFlag->getName();
      diag(userLocation(R.Guard->getBeginLoc(), SM),
           "'%0' is false on every call: nothing sets it",
           DiagnosticIDs::Note)
          << R.NeverSetFlag->getName();
      continue;
    }
    diag(userLocation(R.Create->getBeginLoc(), SM),
         "static %0 '%1' is created on every call of '%2' and the previous "
         "one is never destroyed: each call after the first leaks one; "
         "create it once (guard the create with 'if (!%1)')")
        << K.Noun << R.Var->getName() << (FD ? FD->getName() : "");
  }
}

void HandleLeakCheck::clearUnit() {
  HandleCheckBase::clearUnit();
  GlobalCreates.clear();
  ThrowLeaks.clear();
  GlobalDestroyers.clear();
}

void HandleLeakCheck::checkProjectGlobalCreates() {
  // The functions of other units this one calls that create a global on
  // every call (facts/Summaries.h).
  auto Called = projectCallees(callables(), [](const FunctionSummary &S) {
    return !S.CreatedGlobals.empty();
  });
  for (const auto &[FD, S] : Called) {
    for (const FunctionSummary::CreatedGlobal &G : S->CreatedGlobals) {
      // Destroyed in this unit, or in another file.
      if (destroyedInProject(G.Key, callables(), table(),
                             FD->getASTContext()))
        continue;
      std::optional<RepeatReason> Why =
          repeatReason(FD, callables(), nullptr, /*Twice=*/true);
      if (!Why || Why->Notes.empty())
        continue;
      std::string Name = "'" + FD->getName().str() + "'";
      std::string Clause = Why->Clause;
      if (StringRef(Clause).starts_with(Name))
        Clause.insert(Name.size(), " (defined in another file)");
      diag(Why->Notes.front().first,
           "global %0 '%1' is created on every call of %2, and the previous "
           "one is never destroyed: %3; %select{create it once (guard the "
           "create with 'if (!%1)')|keep one per device (an array indexed by "
           "the device), each created once}4")
          << G.Noun << G.Name << Clause
          << (Why->Kind == RepeatReason::Twice
                  ? "the second call leaks the first"
                  : "each call after the first leaks one")
          << (Why->Kind == RepeatReason::DeviceLoop ? 1 : 0);
      for (size_t I = 1; I < Why->Notes.size(); ++I)
        diag(Why->Notes[I].first, "%0", DiagnosticIDs::Note)
            << Why->Notes[I].second;
      const SourceManager &SM = FD->getASTContext().getSourceManager();
      SourceLocation At = locationInFile(const_cast<SourceManager &>(SM),
                                         S->File, G.Line);
      if (At.isValid())
        diag(At, "%0 creates it here, in another file", DiagnosticIDs::Note)
            << Name;
    }
  }
}

/// Why `Fn` runs again while what it created into `Global` is still live:
/// a loop that calls it and nothing in the loop may destroy `Global`, or
/// two calls with nothing between them that may (facts/HandleStates.h,
/// mayDestroyGlobal).
std::optional<RepeatReason>
HandleLeakCheck::liveRepeat(const FunctionDecl *Fn, const VarDecl *Global) {
  auto MayDestroy = [&](const CallExpr *Call) {
    return mayDestroyGlobal(Call, Global, table(), GlobalDestroyers);
  };
  auto NoDestroyInLoop = [&](const CallInLoop &In) {
    return llvm::none_of(callsIn(In.Caller), [&](const CallExpr *Call) {
      return Call != In.Call && containsStmt(In.Loop, Call) &&
             MayDestroy(Call);
    });
  };
  auto NoDestroyBetween = [&](const CallTwice &T) {
    const SourceManager &SM = Fn->getASTContext().getSourceManager();
    return llvm::none_of(callsIn(T.Caller), [&](const CallExpr *Call) {
      return SM.isBeforeInTranslationUnit(T.First->getEndLoc(),
                                          Call->getBeginLoc()) &&
             SM.isBeforeInTranslationUnit(Call->getBeginLoc(),
                                          T.Second->getBeginLoc()) &&
             MayDestroy(Call);
    });
  };
  std::optional<RepeatReason> Why =
      repeatReason(Fn, callables(), nullptr, /*OneVariable=*/true,
                   NoDestroyInLoop, NoDestroyBetween);
  // An op registered for Python: what runs between two calls is unknown.
  if (Why && Why->Kind == RepeatReason::Op)
    return std::nullopt;
  return Why;
}

void HandleLeakCheck::checkUnit(ASTContext &Ctx) {
  // A leak through a call that may throw: when a caller, here or in
  // another file, can catch the exception (facts/Exceptions.h).
  if (!ThrowLeaks.empty()) {
    ExceptionCallers Callers(callables(), Ctx);
    for (const auto &[L, Callable] : ThrowLeaks) {
      std::optional<ExceptionCatch> Catch =
          Callers.catchOf(dyn_cast<FunctionDecl>(Callable));
      wordLeak(L, Ctx, Catch ? &*Catch : nullptr);
    }
    ThrowLeaks.clear();
  }
  if (anyCompileErrors())
    return;
  for (const auto &[R, FD] : GlobalCreates) {
    // Something in the file destroys it (a cleanup called in the same loop
    // would release it), or a function of another file (a global of
    // external linkage): the project's summaries say.
    bool Destroyed = destroyedInProject(R.Var, callables(), table());
    // A copy kept elsewhere may be how the previous one lives on.
    if (handleCopiedOut(R.Var, callables()))
      continue;
    const SourceManager &SM = FD->getASTContext().getSourceManager();
    const ResourceTable::Kind &K = table().kind(R.KindId);
    // Destroyed somewhere: a leak only when nothing between two runs of
    // the create may destroy it (a shutdown() after the loop releases the
    // last one only).
    std::optional<RepeatReason> Why =
        Destroyed ? liveRepeat(FD, R.Var)
                  : repeatReason(FD, callables(), nullptr, /*Twice=*/true);
    if (!Why)
      continue;
    diag(userLocation(R.Create->getBeginLoc(), SM),
         "global %0 '%1' is created on every call of %2, %select{and the "
         "previous one is never destroyed|while the previous one is still "
         "live (nothing %6 destroys it)}5: %3; %select{create it once (guard "
         "the create with 'if (!%1)')|keep one per device (an array indexed "
         "by the device), each created once}4%select{|, or destroy it before "
         "creating it again}5")
        << K.Noun << R.Var->getName() << Why->Clause
        << (Why->Kind == RepeatReason::Twice
                ? "the second call leaks the first"
                : "each call after the first leaks one")
        << (Why->Kind == RepeatReason::DeviceLoop ? 1 : 0) << Destroyed
        << (Why->Kind == RepeatReason::Twice ? "between the two calls"
                                             : "in the loop");
    for (const auto &[Loc, Text] : Why->Notes)
      diag(Loc, "%0", DiagnosticIDs::Note) << Text;
  }
  GlobalCreates.clear();
  checkProjectGlobalCreates();

  for (const LeakedMember &M : leakedMembers(callables(), table()))
    reportLeakedMember(M);
}

void HandleLeakCheck::reportLeakedMember(const LeakedMember &M) {
  const SourceManager &SM = M.Class->getASTContext().getSourceManager();
  const ResourceTable::Kind &K = table().kind(M.KindId);
  std::string Class = recordName(M.Class);
  // An array or a container of handles (`handles_[d]`): each one it holds.
  // One handle or descriptor, of any library, is a pointer.
  bool Many = !M.Field->getType()->isPointerType();
  const char *Leaks = Many ? "the ones it holds" : "one";
  const char *OnEach = Many ? " on each" : "";
  if (M.Init && (M.InitParam >= 0 || M.Returns))
    diag(userLocation(M.Create->getBeginLoc(), SM),
         "%0 member '%1' is created in '%2', but nothing destroys it: every "
         "'%3' it %select{runs on|returns}5 leaks %6; call '%4'%7 where a "
         "'%3' is released")
        << K.Noun << M.Field->getName() << M.Init->getQualifiedNameAsString()
        << Class << K.Destroy << (M.Returns ? 1 : 0) << Leaks << OnEach;
  else if (M.Init)
    diag(userLocation(M.Create->getBeginLoc(), SM),
         "%0 member '%1' is created in '%2', but nothing destroys it: every "
         "'%3' object it runs on leaks %5; call '%4'%6 in '~%3'")
        << K.Noun << M.Field->getName() << M.Init->getQualifiedNameAsString()
        << Class << K.Destroy << Leaks << OnEach;
  else
    diag(userLocation(M.Create->getBeginLoc(), SM),
         "%0 member '%1' is created when a '%2' is constructed, but "
         "nothing destroys it: every '%2' object leaks %4; call '%3'%5 in "
         "'~%2'")
        << K.Noun << M.Field->getName() << Class << K.Destroy << Leaks
        << OnEach;
  if (M.Accessor)
    diag(userLocation(M.Accessor->getLocation(), SM),
         "'%0' gives the %1 out; nothing in this file destroys what it "
         "returns",
         DiagnosticIDs::Note)
        << M.Accessor->getName() << K.Noun;
  if (M.Init)
    diag(userLocation(M.Object->getBeginLoc(), SM),
         "'%0' %select{runs on|makes}2 a '%1' here", DiagnosticIDs::Note)
        << M.Init->getName() << Class << (M.Returns ? 1 : 0);
  else
    diag(userLocation(M.Object->getBeginLoc(), SM), "a '%0' is created here",
         DiagnosticIDs::Note)
        << Class;
}

/// ", in 'shutdown'" for a destroy that a call of a project function
/// makes; "" for a destroy of the resource table.
std::string HandleUseAfterDestroyCheck::throughFunction(const Expr *E) const {
  const auto *Call = dyn_cast<CallExpr>(E);
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || table().lookup(Call))
    return "";
  return ", in '" + FD->getQualifiedNameAsString() + "'";
}

void HandleUseAfterDestroyCheck::report(const HandleAnalysisResult &Result,
                                        const Decl *, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const UseAfterDestroyReport &U : Result.UsesAfterDestroy)
    reportUse(U.Var->getName(), U.Use, U.Inside, U.IsDestroy, U.Destroy,
              U.KindId, SM, U.EveryWayOnFromDestroy);
}

void HandleUseAfterDestroyCheck::reportUse(
    StringRef Name, const Expr *Use, const FunctionDecl *Inside, bool IsDestroy,
    const CallExpr *Destroy, unsigned KindId, const SourceManager &SM,
    bool EveryWayOn) {
  // A destroy, or a use, inside a function of the project names that
  // function.
  std::string Again = IsDestroy ? throughFunction(Use) : "";
  if (Inside)
    Again = ", in '" + Inside->getQualifiedNameAsString() + "'";
  if (!Again.empty())
    Again += ",";
  diag(userLocation(Use->getBeginLoc(), SM),
       IsDestroy ? "%0 '%1' is destroyed again%2 after it was destroyed"
                 : "%0 '%1' is used%2 after it was destroyed")
      << table().kind(KindId).Noun << Name << Again;
  noteDestroyed(Name, Destroy, SM,
                EveryWayOn
                    ? (IsDestroy ? ", and every way on from here "
                                   "destroys it again"
                                 : ", and every way on from here uses it")
                    : "");
}

void HandleUseAfterDestroyCheck::reportScopeEnd(const MemberUseAfterDestroy &U,
                                                const SourceManager &SM) {
  if (!U.Inside || expandedInSystemHeader(U.ScopeEnd, SM))
    return;
  const auto *Dtor = dyn_cast<CXXDestructorDecl>(U.Inside);
  std::string Object = U.Handle.Base ? U.Handle.Base->getName().str() : "";
  diag(userLocation(U.ScopeEnd, SM),
       "%0 '%1' is %select{used|destroyed again}2, in '%3', which runs when "
       "'%4' goes out of scope here, after it was destroyed")
      << table().kind(U.KindId).Noun << U.Spelling << U.IsDestroy
      << (Dtor ? Dtor->getQualifiedNameAsString()
               : U.Inside->getQualifiedNameAsString())
      << Object;
  noteDestroyed(U.Spelling, U.Destroy, SM);
}

void HandleUseAfterDestroyCheck::noteDestroyed(StringRef Name,
                                               const CallExpr *Destroy,
                                               const SourceManager &SM,
                                               StringRef WayOn) {
  diag(userLocation(Destroy->getBeginLoc(), SM), "'%0' was destroyed here%1%2",
       DiagnosticIDs::Note)
      << Name << throughFunction(Destroy) << WayOn;
}

void HandleUseAfterDestroyCheck::reportFunction(const Decl *Callable,
                                                ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  // A handle kept in a member, destroyed and then used.
  if (!MemberFacts)
    MemberFacts = std::make_unique<MemberDestroyFacts>(table());
  for (const MemberUseAfterDestroy &U :
       MemberFacts->usesAfterDestroy(Callable)) {
    if (!U.Use) {
      reportScopeEnd(U, SM);
      continue;
    }
    if (!expandedInSystemHeader(U.Use->getBeginLoc(), SM))
      reportUse(U.Spelling, U.Use, U.Inside, U.IsDestroy, U.Destroy, U.KindId,
                SM);
  }
  // Destroying the handle PyTorch owns: every later matmul of PyTorch's,
  // and of the next call of this extension, uses a destroyed handle.
  for (const CallExpr *Call : callsIn(Callable)) {
    const ResourceTable::Entry *E = table().lookup(Call);
    unsigned Index = E && E->ParamIndex > 0 ? E->ParamIndex : 0;
    if (!E || E->IsCreate || Index >= Call->getNumArgs())
      continue;
    std::optional<LibraryHandle> Owned =
        libraryOwnedHandle(Call->getArg(Index));
    if (!Owned || expandedInSystemHeader(Call->getBeginLoc(), SM))
      continue;
    const CallExpr *Getter = Owned->Getter;
    const auto *Fn = Getter->getDirectCallee();
    llvm::StringRef Library = Owned->Library->name();
    diag(userLocation(Call->getBeginLoc(), SM),
         "this destroys %0's own %1 (from '%2'): %0 keeps using it for every "
         "later operation, which then fails or crashes; do not destroy a "
         "handle %0 gives out")
        << Library << table().kind(E->KindId).Noun
        << (Fn ? Fn->getQualifiedNameAsString() : std::string("its getter"));
    if (!containsStmt(Call, Getter))
      diag(userLocation(Getter->getBeginLoc(), SM), "the handle comes from here",
           DiagnosticIDs::Note);
  }
}

void HandleUseAfterDestroyCheck::checkUnit(ASTContext &) {
  if (!anyCompileErrors())
    for (const SharedHandleCopy &C : sharedHandleCopies(callables(), table())) {
      const SourceManager &SM = C.Owner->getASTContext().getSourceManager();
      const ResourceTable::Kind &K = table().kind(C.KindId);
      SourceLocation At = C.Assignment ? C.Copy->getExprLoc()
                                       : C.Copy->getBeginLoc();
      if (!C.Through.empty())
        diag(userLocation(At, SM),
             "this %0 copies a '%1' into the container, and the copy shares "
             "%select{its|the}5 %2 member '%3'%select{| of its '%4'}5 with "
             "the original: both destroy it in '~%4', so it is destroyed "
             "twice and the one left is used after destroy; delete the copy "
             "operations of '%4' or give each object its own %2")
            << C.Through << C.Copied->getName() << K.Noun
            << C.Field->getName() << C.Owner->getName()
            << (C.Copied == C.Owner ? 0 : 1);
      else if (C.Copied == C.Owner)
        diag(userLocation(At, SM),
             "this %select{copy|assignment}0 of a '%1' shares its %2 member "
             "'%3' with the original: both destroy it in '~%1', so it is "
             "destroyed twice and the one left is used after destroy; delete "
             "the copy operations of '%1' or give each object its own %2")
            << C.Assignment << C.Owner->getName() << K.Noun
            << C.Field->getName();
      else
        diag(userLocation(At, SM),
             "this %select{copy|assignment}0 of a '%1' shares the %2 member "
             "'%3' of its '%4' with the original: both destroy it in '~%4', "
             "so it is destroyed twice and the one left is used after "
             "destroy; delete the copy operations of '%4' or give each "
             "object its own %2")
            << C.Assignment << C.Copied->getName() << K.Noun
            << C.Field->getName() << C.Owner->getName();
      diag(userLocation(C.Destroy->getBeginLoc(), SM),
           "'%0' is destroyed here when each '%1' is destroyed",
           DiagnosticIDs::Note)
          << C.Field->getName() << C.Owner->getName();
    }
}

} // namespace clang::tidy::cublas
