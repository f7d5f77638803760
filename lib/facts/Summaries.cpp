//===- Summaries.cpp ------------------------------------------------------===//

#include "facts/Summaries.h"

#include "ast/AstUtils.h"
#include "ast/Callables.h"
#include "ast/TranslationUnitCache.h"
#include "model/CublasApi.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Mangle.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

using namespace clang;

namespace cublas_tidy {

namespace {

thread_local const SummaryStore *CurrentStore = nullptr;
thread_local std::vector<std::string> *CurrentAsked = nullptr;
thread_local std::vector<FunctionSummary> *CurrentMade = nullptr;
thread_local std::vector<FileSummary> *CurrentMadeFiles = nullptr;
thread_local const ASTContext *MadeFor = nullptr;
thread_local std::shared_ptr<const SummaryStore> DefaultStore;
thread_local unsigned ScopeDepth = 0;

/// A front end's scope decides alone, even with no store: a store found by
/// the check option would otherwise slip into the run that makes a new one.
const SummaryStore *storeInUse() {
  return ScopeDepth ? CurrentStore : DefaultStore.get();
}

thread_local TranslationUnitCache<int, std::string> MainFiles;

/// What projectSummary() answered about a function in this unit: its key,
/// the summary found in the store `From`, and the record of questions the
/// key went into.
struct Answer {
  std::string Key;
  bool Answered = false;
  const SummaryStore *From = nullptr;
  const FunctionSummary *Summary = nullptr;
  const std::vector<std::string> *RecordedIn = nullptr;
};
thread_local TranslationUnitCache<const FunctionDecl *, Answer> Answers;

} // namespace

/// The name the linker knows `D` (a function or a variable) by.
static std::string linkerName(const NamedDecl *D, GlobalDecl GD) {
  std::unique_ptr<MangleContext> MC(D->getASTContext().createMangleContext());
  std::string Key;
  llvm::raw_string_ostream OS(Key);
  if (MC->shouldMangleDeclName(D))
    MC->mangleName(GD, OS);
  else
    OS << D->getName();
  return Key;
}

std::string globalKey(const VarDecl *VD) {
  if (!VD || !VD->hasGlobalStorage() || VD->isStaticLocal() ||
      VD->isStaticDataMember() || !VD->isExternallyVisible() ||
      VD->getDeclContext()->isDependentContext() || !VD->getIdentifier())
    return "";
  VD = VD->getCanonicalDecl();
  return linkerName(VD, GlobalDecl(VD));
}

std::string summaryKey(const FunctionDecl *FD) {
  if (!FD || isa<CXXConstructorDecl>(FD) || FD->isDependentContext() ||
      !FD->isExternallyVisible() || FD->getDeclName().isEmpty())
    return "";
  FD = FD->getCanonicalDecl();
  if (const auto *D = dyn_cast<CXXDestructorDecl>(FD))
    return linkerName(D, GlobalDecl(D, Dtor_Complete));
  if (!FD->getDeclName().isIdentifier())
    return "";
  return linkerName(FD, GlobalDecl(FD));
}

ProjectFactsScope::ProjectFactsScope(const SummaryStore *Store,
                                     std::vector<std::string> *Asked,
                                     std::vector<FunctionSummary> *Made,
                                     std::vector<FileSummary> *MadeFiles)
    : PrevStore(CurrentStore), PrevAsked(CurrentAsked), PrevMade(CurrentMade),
      PrevMadeFiles(CurrentMadeFiles), PrevMadeFor(MadeFor) {
  CurrentStore = Store;
  CurrentAsked = Asked;
  CurrentMade = Made;
  CurrentMadeFiles = MadeFiles;
  MadeFor = nullptr;
  ++ScopeDepth;
}

ProjectFactsScope::~ProjectFactsScope() {
  --ScopeDepth;
  CurrentStore = PrevStore;
  CurrentAsked = PrevAsked;
  CurrentMade = PrevMade;
  CurrentMadeFiles = PrevMadeFiles;
  MadeFor = PrevMadeFor;
}

bool projectFactsActive() { return storeInUse() != nullptr; }

bool projectFactsWanted() { return storeInUse() || CurrentAsked; }

void setThreadDefaultStore(std::shared_ptr<const SummaryStore> Store) {
  DefaultStore = std::move(Store);
}

std::vector<FunctionSummary> *summarySinkFor(const ASTContext &Ctx) {
  if (!CurrentMade || MadeFor == &Ctx)
    return nullptr;
  MadeFor = &Ctx;
  return CurrentMade;
}

std::vector<FileSummary> *fileSummarySink() { return CurrentMadeFiles; }

/// The absolute path of the main file of `Ctx`'s unit.
static const std::string &mainFileOf(const ASTContext &Ctx) {
  return *MainFiles.get(Ctx, 0, [&] {
    const SourceManager &SM = Ctx.getSourceManager();
    return std::make_unique<std::string>(
        absolutePathOf(SM, SM.getMainFileID()));
  });
}

/// Whether what `Store` says of `File` (summarised when it had the
/// contents hashed `Hash`) may be used in `Ctx`'s unit.
static bool usableFor(const SummaryStore &Store, const std::string &File,
                      llvm::StringRef Hash, const ASTContext &Ctx) {
  // A store made in this run is as new as the files; one read from a file
  // may be older than the file that defines the function.
  if (Store.mayBeStale() && !fileHasHash(File, Hash))
    return false;
  // A summary of the file being analysed is from an older version of it
  // (its functions here have their bodies): the file as it is now decides.
  return File != mainFileOf(Ctx);
}

/// The summary under `Key` in `Store`, when it may be used for a call in
/// `Ctx`'s unit.
static const FunctionSummary *usableSummary(const SummaryStore &Store,
                                            llvm::StringRef Key,
                                            const ASTContext &Ctx) {
  const FunctionSummary *S = Store.find(Key);
  return S && usableFor(Store, S->File, S->FileHash, Ctx) ? S : nullptr;
}

std::string useStoreForUnit(const ASTContext &Ctx, llvm::StringRef Option,
                            std::string &Problem) {
  struct Resolved {
    std::string Option;
    std::shared_ptr<const SummaryStore> Store;
  };
  thread_local TranslationUnitCache<int, Resolved> Units;
  bool New = false;
  Resolved &R = *Units.get(Ctx, 0, [&] {
    New = true;
    return std::make_unique<Resolved>();
  });
  if (!New && R.Option == Option) {
    DefaultStore = R.Store;
    return "";
  }
  R.Option = Option.str();
  R.Store.reset();
  std::string Path = Option.str();
  if (Path.empty()) {
    const SourceManager &SM = Ctx.getSourceManager();
    std::string Main = absolutePathOf(SM, SM.getMainFileID());
    Path = Main.empty() ? "" : findStoreFor(Main);
  }
  if (!Path.empty() && Path != "none")
    R.Store = sharedStore(Path, Problem);
  DefaultStore = R.Store;
  return Problem.empty() ? "" : Path;
}

const FunctionSummary *projectSummary(const FunctionDecl *FD) {
  const SummaryStore *Store = storeInUse();
  if (!FD || (!Store && !CurrentAsked))
    return nullptr;
  // The analyses ask again and again about one function (the handle
  // analysis at each path through a call): it is answered once per store,
  // and recorded once per record of questions.
  FD = FD->getCanonicalDecl();
  const ASTContext &Ctx = FD->getASTContext();
  Answer &A = *Answers.get(Ctx, FD, [&] {
    auto New = std::make_unique<Answer>();
    New->Key = summaryKey(FD);
    return New;
  });
  if (A.Key.empty())
    return nullptr;
  if (CurrentAsked && A.RecordedIn != CurrentAsked) {
    CurrentAsked->push_back(A.Key);
    A.RecordedIn = CurrentAsked;
  }
  if (!A.Answered || A.From != Store) {
    A.Summary = Store ? usableSummary(*Store, A.Key, Ctx) : nullptr;
    A.From = Store;
    A.Answered = true;
  }
  return A.Summary;
}

const FunctionSummary *projectSummaryOfCall(const CallExpr *Call) {
  if (!projectFactsWanted())
    return nullptr;
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || isa<CXXOperatorCallExpr>(Call) || FD->getDefinition() ||
      calledCublasFunction(Call) ||
      FD->getASTContext().getSourceManager().isInSystemHeader(
          FD->getLocation()))
    return nullptr;
  return projectSummary(FD);
}

std::vector<std::pair<const FunctionDecl *, const FunctionSummary *>>
projectCallees(llvm::ArrayRef<const Decl *> Callables,
               llvm::function_ref<bool(const FunctionSummary &)> Wanted) {
  std::vector<std::pair<const FunctionDecl *, const FunctionSummary *>> Out;
  if (!projectFactsWanted())
    return Out;
  llvm::SmallPtrSet<const FunctionDecl *, 16> Seen;
  for (const Decl *Callable : Callables)
    for (const CallExpr *Call : callsIn(Callable)) {
      const FunctionDecl *FD = Call->getDirectCallee();
      if (!FD || isa<CXXOperatorCallExpr>(Call) ||
          !Seen.insert(FD->getCanonicalDecl()).second)
        continue;
      if (const FunctionSummary *S = projectSummaryOfCall(Call);
          S && Wanted(*S))
        Out.push_back({FD, S});
    }
  return Out;
}

const FunctionSummary *projectDestroyerOf(const VarDecl *VD) {
  if (!VD || (!storeInUse() && !CurrentAsked))
    return nullptr;
  std::string Key = globalKey(VD);
  return Key.empty() ? nullptr : projectDestroyerOf(Key, VD->getASTContext());
}

const FunctionSummary *projectDestroyerOf(llvm::StringRef Key,
                                          const ASTContext &Ctx) {
  const SummaryStore *Store = storeInUse();
  if (Key.empty() || (!Store && !CurrentAsked))
    return nullptr;
  if (CurrentAsked)
    CurrentAsked->push_back(("global:" + Key).str());
  if (!Store)
    return nullptr;
  for (const FunctionSummary *S : Store->destroyersOf(Key))
    if (usableSummary(*Store, S->Key, Ctx) == S)
      return S;
  return nullptr;
}

std::optional<std::pair<const FunctionSummary *,
                        const FunctionSummary::PerDeviceGlobal *>>
projectPerDeviceCreatorOf(const VarDecl *VD) {
  const SummaryStore *Store = storeInUse();
  if (!VD || (!Store && !CurrentAsked))
    return std::nullopt;
  std::string Key = globalKey(VD);
  if (Key.empty())
    return std::nullopt;
  if (CurrentAsked)
    CurrentAsked->push_back("perdevice:" + Key);
  if (!Store)
    return std::nullopt;
  for (const FunctionSummary *S : Store->perDeviceCreatorsOf(Key))
    if (usableSummary(*Store, S->Key, VD->getASTContext()) == S)
      for (const FunctionSummary::PerDeviceGlobal &G : S->PerDeviceGlobals)
        if (G.Key == Key)
          return std::pair(S, &G);
  return std::nullopt;
}

std::vector<std::pair<const FileSummary *, const FileSummary::ExceptionRoute *>>
projectExceptionRoutes(llvm::StringRef Callee, const ASTContext &Ctx) {
  std::vector<
      std::pair<const FileSummary *, const FileSummary::ExceptionRoute *>>
      Out;
  const SummaryStore *Store = storeInUse();
  if (Callee.empty() || (!Store && !CurrentAsked))
    return Out;
  if (CurrentAsked)
    CurrentAsked->push_back(("catch:" + Callee).str());
  if (!Store)
    return Out;
  for (const FileSummary *F : Store->routesOf(Callee))
    if (usableFor(*Store, F->File, F->FileHash, Ctx))
      Out.push_back({F, F->routeOf(Callee)});
  return Out;
}

} // namespace cublas_tidy
