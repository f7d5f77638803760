//===- UnitSummaries.cpp --------------------------------------------------===//

#include "facts/UnitSummaries.h"

#include "ast/AstUtils.h"
#include "ast/Callables.h"
#include "facts/BufferParams.h"
#include "facts/DestroyedGlobals.h"
#include "facts/Exceptions.h"
#include "facts/HandleDevices.h"
#include "facts/HandleStates.h"
#include "facts/MemberHandles.h"
#include "facts/RepeatedHandles.h"
#include "facts/StatusFunctions.h"
#include "model/CublasApi.h"

#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"

#include <memory>

using namespace clang;

namespace cublas_tidy {

namespace {

FunctionSummary::StatusRole roleOf(StatusFunctionFacts::RoleT R) {
  switch (R) {
  case StatusFunctionFacts::Checker:
    return FunctionSummary::StatusRole::Checker;
  case StatusFunctionFacts::Wrapper:
    return FunctionSummary::StatusRole::Wrapper;
  case StatusFunctionFacts::Unknown:
    break;
  }
  return FunctionSummary::StatusRole::Unknown;
}

bool mentionsStatus(const FunctionDecl *FD) {
  if (isLibraryStatusType(FD->getReturnType()))
    return true;
  return llvm::any_of(FD->parameters(), [](const ParmVarDecl *P) {
    return isLibraryStatusType(P->getType());
  });
}

/// The handles `FD` creates and destroys on every call, when it selects no
/// device.
std::vector<FunctionSummary::PerCallHandle> perCallOf(const FunctionDecl *FD) {
  std::vector<FunctionSummary::PerCallHandle> Out;
  for (const ScopedHandle &H : repeatedHandles(FD)) {
    if (!H.OncePerCall || H.Loop)
      continue;
    if (Out.empty() && selectsDevice(FD->getBody()))
      return {};
    const SourceManager &SM = FD->getASTContext().getSourceManager();
    std::string Create = spelledCalleeName(H.Create, SM,
                                           FD->getASTContext().getLangOpts());
    Out.push_back({H.Kind == ResourceKind::LtHandle, Create,
                   SM.getExpansionLineNumber(H.Create->getBeginLoc()), "", ""});
  }
  // What a function of another file that it calls every time makes.
  for (const auto &[Call, S] : perCallCallees(FD)) {
    if (Out.empty() && selectsDevice(FD->getBody()))
      return {};
    for (const FunctionSummary::PerCallHandle &H : S->PerCall) {
      FunctionSummary::PerCallHandle Via = H;
      if (Via.Through.empty()) {
        Via.CreateFile = S->File;
        Via.Through = S->Name;
      }
      if (!llvm::is_contained(Out, Via))
        Out.push_back(std::move(Via));
    }
  }
  return Out;
}

/// The globals of external linkage `FD` creates on every call, unguarded,
/// that nothing among `Callables` (its unit) destroys or copies.
std::vector<FunctionSummary::CreatedGlobal>
createdGlobalsOf(const FunctionDecl *FD, llvm::ArrayRef<const Decl *> Callables,
                 const ResourceTable &Table) {
  std::vector<FunctionSummary::CreatedGlobal> Out;
  for (const RecreatedStatic &R : recreatedStatics(FD, Table)) {
    std::string Key = R.UnguardedGlobal ? globalKey(R.Var) : "";
    if (Key.empty())
      continue;
    if (Out.empty() && selectsDevice(FD->getBody()))
      return {};
    bool Destroyed = llvm::any_of(Callables, [&](const Decl *C) {
      return llvm::any_of(callsIn(C), [&](const CallExpr *Call) {
        return Table.destroys(Call, R.Var);
      });
    });
    if (Destroyed || handleCopiedOut(R.Var, Callables))
      continue;
    const SourceManager &SM = FD->getASTContext().getSourceManager();
    Out.push_back({std::move(Key), R.Var->getName().str(),
                   Table.kind(R.KindId).Noun,
                   SM.getExpansionLineNumber(R.Create->getBeginLoc())});
  }
  return Out;
}

/// Makes the summaries of the functions of one unit, sharing what they
/// need: the resource table, the handle analysis, the main file's path
/// and hash, each made when first needed.
class Summarizer {
public:
  Summarizer(llvm::ArrayRef<const Decl *> Callables, ASTContext &Ctx)
      : Callables(Callables), Ctx(Ctx), SM(Ctx.getSourceManager()) {}

  /// The summary of `FD` (defined in the main file); nothing when it is
  /// not informative or other units cannot call it.
  std::optional<FunctionSummary> summarize(const FunctionDecl *FD) {
    if (FD->isMain()) // no other function calls it
      return std::nullopt;
    bool Status = mentionsStatus(FD);
    bool Handles = llvm::any_of(FD->parameters(), [](const ParmVarDecl *P) {
      return isCublasResourceType(P->getType());
    });
    FunctionSummary S;
    S.Buffers = bufferParams(FD, Ctx, /*WithSpans=*/true);
    S.PerCall = perCallOf(FD);
    S.DestroyedGlobals = destroyedGlobalsOf(FD, table());
    S.CreatedGlobals = createdGlobalsOf(FD, Callables, table());
    if (const auto *M = dyn_cast<CXXMethodDecl>(FD))
      S.TouchedMembers = membersTouchedBy(M, table());
    if (createsStoredElements(FD)) {
      if (!Arrays)
        Arrays = perDeviceHandleArrays(Callables);
      S.PerDeviceGlobals = perDeviceGlobalsOf(FD, *Arrays);
    }
    // (Status and handle parameters are asked of their facts only here.)
    if (!Status && !Handles && !S.informative())
      return std::nullopt;
    S.Key = summaryKey(FD);
    if (S.Key.empty())
      return std::nullopt;
    place(FD, S);
    if (Status)
      addStatus(FD, S);
    if (Handles)
      addHandles(FD, S);
    addReleasedGlobals(FD, S);
    if (!S.informative())
      return std::nullopt;
    return S;
  }

private:
  const ResourceTable &table() {
    if (!Table)
      Table = std::make_unique<ResourceTable>(ResourceTable::fromApiModel());
    return *Table;
  }

  /// Where `FD` is: its name, the main file (with its hash) and its line.
  void place(const FunctionDecl *FD, FunctionSummary &S) {
    S.Name = FD->getQualifiedNameAsString();
    if (MainFile.empty()) {
      MainFile = absolutePathOf(SM, SM.getMainFileID());
      FileHash = contentsHash(SM.getBufferData(SM.getMainFileID()));
    }
    S.File = MainFile;
    S.FileHash = FileHash;
    S.Line = SM.getExpansionLineNumber(FD->getLocation());
  }

  /// Its status role (facts/StatusFunctions.h).
  void addStatus(const FunctionDecl *FD, FunctionSummary &S) {
    const StatusFunctionFacts &F = statusFunctionFacts(FD);
    S.Status = roleOf(F.Role);
    S.Predicate = F.Predicate;
    S.Wrapped = F.Wrapped;
    if (F.WrappedCall) {
      S.WrappedLine = SM.getExpansionLineNumber(F.WrappedCall->getBeginLoc());
    } else if (!F.WrappedFile.empty()) {
      // The call of a wrapper of a third file whose status it returns.
      S.WrappedFile = F.WrappedFile;
      S.WrappedLine = F.WrappedLine;
    }
  }

  /// What it does to each of its handle parameters (facts/HandleStates.h).
  void addHandles(const FunctionDecl *FD, FunctionSummary &S) {
    for (unsigned I = 0; I < FD->getNumParams(); ++I) {
      if (!isCublasResourceType(FD->getParamDecl(I)->getType()))
        continue;
      if (!Analyzer)
        Analyzer = std::make_unique<HandleAnalyzer>(Ctx, table());
      switch (Analyzer->summarize(FD, I, 1)) {
      case HandleAnalyzer::ParamEffect::Keeps:
        S.Handles.push_back({I, FunctionSummary::HandleEffect::Keeps});
        break;
      case HandleAnalyzer::ParamEffect::Destroys:
        S.Handles.push_back({I, FunctionSummary::HandleEffect::Destroys});
        break;
      case HandleAnalyzer::ParamEffect::Escapes:
        break;
      }
    }
  }

  /// The globals it leaves destroyed on every way out (facts/HandleStates.h).
  void addReleasedGlobals(const FunctionDecl *FD, FunctionSummary &S) {
    if (!Analyzer)
      Analyzer = std::make_unique<HandleAnalyzer>(Ctx, table());
    for (const auto &[VD, Kind] : Analyzer->globalsDestroyed(FD, 1))
      if (std::string Key = globalKey(VD); !Key.empty())
        S.ReleasedGlobals.push_back({std::move(Key), Kind});
    llvm::sort(S.ReleasedGlobals);
    S.ReleasedGlobals.erase(
        std::unique(S.ReleasedGlobals.begin(), S.ReleasedGlobals.end()),
        S.ReleasedGlobals.end());
  }

  llvm::ArrayRef<const Decl *> Callables;
  ASTContext &Ctx;
  const SourceManager &SM;
  std::unique_ptr<ResourceTable> Table;
  std::unique_ptr<HandleAnalyzer> Analyzer;
  std::optional<UnitHandleArrays> Arrays;
  // The main file, where every function summarised is defined.
  std::string MainFile, FileHash;
};

} // namespace

std::vector<FunctionSummary>
summarizeFunctions(llvm::ArrayRef<const Decl *> Callables, ASTContext &Ctx) {
  std::vector<FunctionSummary> Out;
  const SourceManager &SM = Ctx.getSourceManager();
  Summarizer Make(Callables, Ctx);
  for (const Decl *D : Callables) {
    const auto *FD = dyn_cast<FunctionDecl>(D);
    if (!FD || !FD->doesThisDeclarationHaveABody() ||
        FD->isTemplateInstantiation() ||
        !SM.isInMainFile(SM.getExpansionLoc(FD->getLocation())))
      continue;
    if (std::optional<FunctionSummary> S = Make.summarize(FD))
      Out.push_back(std::move(*S));
  }
  return Out;
}

std::optional<FileSummary>
summarizeFile(llvm::ArrayRef<const Decl *> Callables, ASTContext &Ctx) {
  FileSummary S;
  S.Exceptions = ExceptionCallers(Callables, Ctx).routes();
  if (!S.informative())
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  S.File = absolutePathOf(SM, SM.getMainFileID());
  S.FileHash = contentsHash(SM.getBufferData(SM.getMainFileID()));
  if (S.File.empty())
    return std::nullopt;
  return S;
}

} // namespace cublas_tidy
