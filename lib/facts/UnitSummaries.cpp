//===- UnitSummaries.cpp --------------------------------------------------===//

#include "facts/UnitSummaries.h"

#include "ast/AstUtils.h"
#include "ast/Callables.h"
#include "ast/LocalUses.h"
#include "model/CublasApi.h"
#include "model/OperandShapes.h"
#include "facts/CallGeometry.h"
#include "facts/CallerFacts.h"
#include "facts/Exceptions.h"
#include "facts/HandleStates.h"
#include "facts/MemberHandles.h"
#include "facts/OperandTypes.h"
#include "facts/RepeatedHandles.h"
#include "facts/StatusFunctions.h"

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
  if (isCublasStatusType(FD->getReturnType()))
    return true;
  return llvm::any_of(FD->parameters(), [](const ParmVarDecl *P) {
    return isCublasStatusType(P->getType());
  });
}

/// The memory the call of `F` at `Args` spans through its argument
/// `Arg`, in terms of the parameters of `FD`.
std::optional<FunctionSummary::BufferParam::Span>
spanOf(const FunctionInfo &F, const CallArguments &Args, unsigned Arg,
       const FunctionDecl *FD) {
  if (F.params()[Arg].Role == ParamRole::DevicePointerArray)
    return std::nullopt;
  CallGeometry G(F, Args);
  for (const OperandAtCall &O : G.operands()) {
    const OperandParams &P = O.Params;
    if (P.Memory != static_cast<int>(Arg) || !O.Total || !O.Element.Bytes)
      continue;
    std::optional<ParamPolynomial> Elements = ParamPolynomial::of(*O.Total, FD);
    if (!Elements)
      return std::nullopt;
    FunctionSummary::BufferParam::Span S;
    S.Operand = toString(P.Shape->Op).str();
    S.ElementBytes = O.Element.Bytes;
    S.Plural = O.Plural;
    S.Elements = std::move(*Elements);
    auto Layout = [&](int Param, const std::optional<ArgValue> &V) {
      if (Param < 0 || !V)
        return;
      if (std::optional<ParamPolynomial> Of = ParamPolynomial::of(V->V, FD))
        S.Layout.push_back({F.params()[Param].Name, std::move(*Of)});
    };
    if (P.Shape->Kind == ShapeKind::Vector)
      Layout(P.Inc, O.Inc);
    else if (P.Shape->Kind != ShapeKind::Packed)
      Layout(P.Ld, O.Ld);
    if (F.StridedBatched) {
      Layout(P.Stride, O.Stride);
      Layout(P.Count, O.Count);
    }
    for (const Symbol &Sym : G.bounds().Positive) {
      const auto *Param = dyn_cast_or_null<ParmVarDecl>(Sym.Decl);
      if (Param && !Sym.Instance && !Sym.Tag && Param->getDeclContext() == FD)
        S.Positive.push_back(Param->getFunctionScopeIndex());
    }
    llvm::sort(S.Positive);
    return S;
  }
  return std::nullopt;
}

} // namespace

std::vector<FunctionSummary::BufferParam>
bufferParams(const FunctionDecl *FD, ASTContext &Ctx, bool WithSpans) {
  std::vector<FunctionSummary::BufferParam> Out;
  if (!FD->hasBody() || !llvm::any_of(FD->parameters(), [](const ParmVarDecl *P) {
        return P->getType()->isPointerType();
      }))
    return Out;
  const SourceManager &SM = Ctx.getSourceManager();
  UnchangedVariables Unchanged(FD);
  for (const BodyStmt &B : stmtsIn(FD)) {
    const auto *Call = dyn_cast<CallExpr>(B.S);
    const FunctionInfo *F = Call ? calledCublasFunction(Call) : nullptr;
    if (!F)
      continue;
    llvm::ArrayRef<ParamInfo> Params = F->params();
    std::unique_ptr<CallArguments> Args;
    for (unsigned I = 0; I < Params.size() && I < Call->getNumArgs(); ++I) {
      // A scalar's memory is the pointer mode's, the caller's to judge.
      if (!hasFixedMemorySpace(Params[I].Role))
        continue;
      const auto *DRE =
          dyn_cast<DeclRefExpr>(Call->getArg(I)->IgnoreParenImpCasts());
      const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
      if (!P || P->getDeclContext() != FD || !P->getType()->isPointerType() ||
          !Unchanged.stable(P))
        continue;
      FunctionSummary::BufferParam Param{
          P->getFunctionScopeIndex(), Call->getDirectCallee()->getName().str(),
          spelledCalleeName(Call, SM, Ctx.getLangOpts()), I,
          SM.getExpansionLineNumber(Call->getBeginLoc()), std::nullopt, ""};
      // The facts of the body only where a size or a type may be found.
      std::vector<TypedPointer> Typed = typedPointers(*F);
      auto TypedHere = llvm::find_if(Typed, [&](const TypedPointer &T) {
        return T.Pointer == static_cast<int>(I);
      });
      bool Spanned = WithSpans && !operandShapes(*F).empty();
      if (TypedHere != Typed.end() || Spanned) {
        if (!Args)
          Args = argumentsAt(Call, sharedValueFacts(FD, Ctx), Ctx);
        if (TypedHere != Typed.end())
          Param.DataType = Args->knownEnumerator(TypedHere->Type);
        if (Spanned)
          Param.Spans = spanOf(*F, *Args, I, FD);
      }
      Out.push_back(std::move(Param));
    }
  }
  return Out;
}

namespace {

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
                   SM.getExpansionLineNumber(H.Create->getBeginLoc())});
  }
  return Out;
}

/// The globals of external linkage that a destroy in `FD`'s body names.
std::vector<std::string> destroyedGlobalsOf(const FunctionDecl *FD,
                                            const ResourceTable &Table) {
  std::vector<std::string> Out;
  for (const BodyStmt &B : stmtsIn(FD)) {
    const auto *Call = dyn_cast<CallExpr>(B.S);
    const ResourceTable::Entry *E = Call ? Table.lookup(Call) : nullptr;
    if (!E || E->IsCreate)
      continue;
    for (const Expr *Arg : Call->arguments()) {
      const auto *VD = dyn_cast_or_null<VarDecl>(referencedVar(Arg));
      if (!VD || !Table.destroys(Call, VD))
        continue;
      std::string Key = globalKey(VD);
      if (!Key.empty())
        Out.push_back(std::move(Key));
    }
  }
  llvm::sort(Out);
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
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

} // namespace

std::vector<FunctionSummary>
summarizeFunctions(llvm::ArrayRef<const Decl *> Callables, ASTContext &Ctx) {
  std::vector<FunctionSummary> Out;
  const SourceManager &SM = Ctx.getSourceManager();
  std::unique_ptr<ResourceTable> Table;
  std::unique_ptr<HandleAnalyzer> Analyzer;
  // The main file, where every function summarised is defined.
  std::string MainFile, FileHash;
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
    std::vector<FunctionSummary::BufferParam> Buffers =
        bufferParams(FD, Ctx, /*WithSpans=*/true);
    std::vector<FunctionSummary::PerCallHandle> PerCall = perCallOf(FD);
    if (!Table)
      Table = std::make_unique<ResourceTable>(ResourceTable::fromApiModel());
    std::vector<std::string> Globals = destroyedGlobalsOf(FD, *Table);
    std::vector<FunctionSummary::CreatedGlobal> Created =
        createdGlobalsOf(FD, Callables, *Table);
    std::optional<std::vector<std::string>> Members;
    if (const auto *M = dyn_cast<CXXMethodDecl>(FD))
      Members = membersTouchedBy(M, *Table);
    if (!Status && !Handles && Buffers.empty() && PerCall.empty() &&
        Globals.empty() && Created.empty() && !Members)
      continue;
    FunctionSummary S;
    S.Key = summaryKey(FD);
    if (S.Key.empty())
      continue;
    S.Name = FD->getQualifiedNameAsString();
    if (MainFile.empty()) {
      MainFile = absolutePathOf(SM, SM.getMainFileID());
      FileHash = contentsHash(SM.getBufferData(SM.getMainFileID()));
    }
    S.File = MainFile;
    S.FileHash = FileHash;
    S.Line = SM.getExpansionLineNumber(FD->getLocation());
    S.Buffers = std::move(Buffers);
    S.PerCall = std::move(PerCall);
    S.DestroyedGlobals = std::move(Globals);
    S.CreatedGlobals = std::move(Created);
    S.TouchedMembers = std::move(Members);
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
