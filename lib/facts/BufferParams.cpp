//===- BufferParams.cpp ---------------------------------------------------===//

#include "facts/BufferParams.h"

#include "ast/AstUtils.h"
#include "ast/Callables.h"
#include "ast/CompileErrors.h"
#include "ast/LocalUses.h"
#include "ast/TranslationUnitCache.h"
#include "facts/CallGeometry.h"
#include "facts/CallerFacts.h"
#include "facts/OperandTypes.h"
#include "facts/SummaryParts.h"
#include "model/CublasApi.h"
#include "model/OperandShapes.h"

#include "clang/Basic/SourceManager.h"

#include <memory>

using namespace clang;

namespace json = llvm::json;

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

// Its summary part "buffers" (facts/SummaryParts.h): the pointer
// parameters it gives to cuBLAS, with what the call spans through them and
// the type it states.

namespace {

json::Value spanToJson(const FunctionSummary::BufferParam::Span &P) {
  json::Array Layout, Positive;
  for (const auto &[Name, V] : P.Layout)
    Layout.push_back(json::Array{Name, V.toJson()});
  for (unsigned I : P.Positive)
    Positive.push_back(I);
  return json::Object{
      {"operand", P.Operand},        {"elementBytes", P.ElementBytes},
      {"plural", P.Plural},          {"elements", P.Elements.toJson()},
      {"layout", std::move(Layout)}, {"positive", std::move(Positive)}};
}

/// One entry of a span's "layout": [name, polynomial].
bool readLayout(const json::Value &L, FunctionSummary::BufferParam::Span &P) {
  const json::Array *A = L.getAsArray();
  std::optional<ParamPolynomial> V =
      A && A->size() == 2 ? ParamPolynomial::fromJson(&(*A)[1]) : std::nullopt;
  if (!V || !(*A)[0].getAsString())
    return false;
  P.Layout.push_back({(*A)[0].getAsString()->str(), std::move(*V)});
  return true;
}

std::optional<FunctionSummary::BufferParam::Span>
spanFromJson(const json::Object &O) {
  FunctionSummary::BufferParam::Span P;
  auto Operand = O.getString("operand"), Plural = O.getString("plural");
  auto Bytes = O.getInteger("elementBytes");
  std::optional<ParamPolynomial> Elements =
      ParamPolynomial::fromJson(O.get("elements"));
  if (!Operand || !Plural || !Bytes || *Bytes <= 0 || !Elements ||
      !O.getArray("layout") || !O.getArray("positive"))
    return std::nullopt;
  P.Operand = Operand->str();
  P.Plural = Plural->str();
  P.ElementBytes = static_cast<unsigned>(*Bytes);
  P.Elements = std::move(*Elements);
  if (!summary_json::readEach(
          O, "layout",
          [&](const json::Value &L) { return readLayout(L, P); }) ||
      !summary_json::readEach(O, "positive", [&](const json::Value &I) {
        std::optional<unsigned> N = summary_json::natural(I);
        if (N)
          P.Positive.push_back(*N);
        return N.has_value();
      }))
    return std::nullopt;
  return P;
}

/// One entry of "buffers": [index, callee, spelled, arg, line, {more}?].
json::Value bufferToJson(const FunctionSummary::BufferParam &B) {
  json::Array T{B.Index, B.Callee, B.Spelled, B.Arg, B.Line};
  if (B.Spans || !B.DataType.empty()) {
    json::Object More;
    if (B.Spans)
      More["span"] = spanToJson(*B.Spans);
    if (!B.DataType.empty())
      More["dataType"] = B.DataType;
    T.push_back(std::move(More));
  }
  return T;
}

std::optional<FunctionSummary::BufferParam>
bufferFromJson(const json::Value &B) {
  const json::Array *T = B.getAsArray();
  if (!T || T->size() < 5 || T->size() > 6)
    return std::nullopt;
  auto Index = summary_json::natural((*T)[0]),
       Arg = summary_json::natural((*T)[3]),
       Line = summary_json::natural((*T)[4]);
  auto Callee = (*T)[1].getAsString(), Spelled = (*T)[2].getAsString();
  if (!Index || !Arg || !Line || !Callee || !Spelled)
    return std::nullopt;
  FunctionSummary::BufferParam P{
      *Index, Callee->str(), Spelled->str(), *Arg, *Line, std::nullopt, ""};
  if (T->size() == 6) {
    const json::Object *More = (*T)[5].getAsObject();
    if (!More)
      return std::nullopt;
    if (const json::Object *Span = More->getObject("span")) {
      P.Spans = spanFromJson(*Span);
      if (!P.Spans)
        return std::nullopt;
    }
    P.DataType = More->getString("dataType").value_or("").str();
  }
  return P;
}

} // namespace

const SummaryPart BuffersSummaryPart = {
    [](const FunctionSummary &S) { return !S.Buffers.empty(); },
    [](const FunctionSummary &S, json::Object &O) {
      json::Array A;
      for (const FunctionSummary::BufferParam &B : S.Buffers)
        A.push_back(bufferToJson(B));
      O["buffers"] = std::move(A);
    },
    [](const json::Object &O, FunctionSummary &S) {
      return summary_json::readEach(O, "buffers", [&](const json::Value &B) {
        std::optional<FunctionSummary::BufferParam> P = bufferFromJson(B);
        if (P)
          S.Buffers.push_back(std::move(*P));
        return P.has_value();
      });
    }};

} // namespace cublas_tidy
