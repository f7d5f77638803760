//===- BufferParams.cpp ---------------------------------------------------===//

#include "facts/BufferParams.h"

#include "ast/AstUtils.h"
#include "ast/Callables.h"
#include "ast/CompileErrors.h"
#include "ast/LocalUses.h"
#include "ast/TranslationUnitCache.h"
#include "model/CublasApi.h"
#include "model/OperandShapes.h"
#include "facts/CallGeometry.h"
#include "facts/CallerFacts.h"
#include "facts/OperandTypes.h"

#include "clang/Basic/SourceManager.h"

#include <memory>

using namespace clang;

namespace cublas_tidy {

namespace {

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
  auto IsPointer = [](const ParmVarDecl *P) {
    return P->getType()->isPointerType();
  };
  if (!FD->hasBody() || !llvm::any_of(FD->parameters(), IsPointer))
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

/// bufferParams() of the functions of this unit, those with a type only.
thread_local TranslationUnitCache<const FunctionDecl *,
                                  std::vector<FunctionSummary::BufferParam>>
    LocalTypedBuffers;

bool typed(const FunctionSummary::BufferParam &B) {
  return !B.DataType.empty();
}

} // namespace

std::optional<TypedBuffers> typedBuffersOfCallee(const CallExpr *Call,
                                                 ASTContext &Ctx) {
  const FunctionDecl *FD = Call->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!FD)
    return std::nullopt;
  if (!FD->hasBody(Def)) {
    const FunctionSummary *S = projectSummaryOfCall(Call);
    if (!S || !llvm::any_of(S->Buffers, typed))
      return std::nullopt;
    return TypedBuffers{S->Buffers, S->File};
  }
  // A function of this unit that gives a parameter to cuBLAS: its own
  // pointer is untyped (void *) when it says the type.
  if (FD->getNumParams() == 0 || !analysableBody(Def) ||
      hasCompileErrors(Def) ||
      expandedInSystemHeader(Def->getLocation(), Ctx.getSourceManager()))
    return std::nullopt;
  const std::vector<FunctionSummary::BufferParam> &Local =
      *LocalTypedBuffers.get(Ctx, Def, [&] {
        auto Out = std::make_unique<std::vector<FunctionSummary::BufferParam>>(
            bufferParams(Def, Ctx, /*WithSpans=*/false));
        llvm::erase_if(*Out, [](const auto &B) { return !typed(B); });
        return Out;
      });
  if (Local.empty())
    return std::nullopt;
  return TypedBuffers{Local, ""};
}

} // namespace cublas_tidy
