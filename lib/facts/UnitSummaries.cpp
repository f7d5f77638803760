//===- UnitSummaries.cpp --------------------------------------------------===//

#include "facts/UnitSummaries.h"

#include "ast/AstUtils.h"
#include "facts/HandleStates.h"
#include "facts/StatusFunctions.h"

#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

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
  if (isCublasStatusType(FD->getReturnType()))
    return true;
  return llvm::any_of(FD->parameters(), [](const ParmVarDecl *P) {
    return isCublasStatusType(P->getType());
  });
}

/// The absolute path of the file that holds `Loc`, against the compile
/// command's directory (the file manager's working directory).
std::string absoluteFile(const SourceManager &SM, SourceLocation Loc) {
  OptionalFileEntryRef F = SM.getFileEntryRefForID(SM.getFileID(Loc));
  if (!F)
    return "";
  llvm::SmallString<256> Path(F->getName());
  SM.getFileManager().makeAbsolutePath(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return std::string(Path);
}

} // namespace

std::vector<FunctionSummary>
summarizeFunctions(llvm::ArrayRef<const Decl *> Callables, ASTContext &Ctx) {
  std::vector<FunctionSummary> Out;
  const SourceManager &SM = Ctx.getSourceManager();
  std::unique_ptr<ResourceTable> Table;
  std::unique_ptr<HandleAnalyzer> Analyzer;
  for (const Decl *D : Callables) {
    const auto *FD = dyn_cast<FunctionDecl>(D);
    if (!FD || !FD->doesThisDeclarationHaveABody() ||
        FD->isTemplateInstantiation() ||
        !SM.isInMainFile(SM.getExpansionLoc(FD->getLocation())))
      continue;
    bool Status = mentionsStatus(FD);
    bool Handles = llvm::any_of(FD->parameters(), [](const ParmVarDecl *P) {
      return isCublasResourceType(P->getType());
    });
    if (!Status && !Handles)
      continue;
    FunctionSummary S;
    S.Key = summaryKey(FD);
    if (S.Key.empty())
      continue;
    S.Name = FD->getQualifiedNameAsString();
    SourceLocation Loc = SM.getExpansionLoc(FD->getLocation());
    S.File = absoluteFile(SM, Loc);
    S.Line = SM.getExpansionLineNumber(Loc);
    if (Status) {
      const StatusFunctionFacts &F = statusFunctionFacts(FD);
      S.Status = roleOf(F.Role);
      S.Wrapped = F.Wrapped;
      if (F.WrappedCall)
        S.WrappedLine =
            SM.getExpansionLineNumber(F.WrappedCall->getBeginLoc());
    }
    for (unsigned I = 0; Handles && I < FD->getNumParams(); ++I) {
      if (!isCublasResourceType(FD->getParamDecl(I)->getType()))
        continue;
      if (!Analyzer) {
        Table = std::make_unique<ResourceTable>(ResourceTable::fromApiModel());
        Analyzer = std::make_unique<HandleAnalyzer>(Ctx, *Table);
      }
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
    if (S.informative())
      Out.push_back(std::move(S));
  }
  return Out;
}

} // namespace cublas_tidy
