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

#include <map>
#include <memory>
#include <set>

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

using Flag = FunctionSummary::BufferParam::Flag;

constexpr unsigned MaxFlags = 2, MaxFlagValues = 3;

/// `P == C` or `P != C` (either side): the parameter of `FD` and the
/// constant.
std::optional<std::pair<const ParmVarDecl *, int64_t>>
flagComparison(const Stmt *S, const FunctionDecl *FD, const ASTContext &Ctx) {
  const auto *BO = dyn_cast<BinaryOperator>(S);
  if (!BO || (BO->getOpcode() != BO_EQ && BO->getOpcode() != BO_NE))
    return std::nullopt;
  for (auto [Side, Other] : {std::pair(BO->getLHS(), BO->getRHS()),
                             std::pair(BO->getRHS(), BO->getLHS())}) {
    const auto *P = dyn_cast_or_null<ParmVarDecl>(referencedVar(Side));
    Expr::EvalResult R;
    if (P && P->getDeclContext() == FD &&
        P->getType()->isIntegralOrEnumerationType() &&
        Other->EvaluateAsInt(R, Ctx) && R.Val.isInt() &&
        R.Val.getInt().getSignificantBits() <= 63)
      return std::pair(P, R.Val.getInt().getExtValue());
  }
  return std::nullopt;
}

/// The flags of `FD`: integer parameters it never changes, that no
/// condition deciding whether code runs reads (`Own.tests`), and that a
/// conditional which only picks a value compares with constants
/// (`(TransA == NoTrans) ? K : M`). At most MaxFlags, of at most
/// MaxFlagValues constants each.
std::vector<Flag> flagsOf(const FunctionDecl *FD, const ValueFacts &Own,
                          UnchangedVariables &Unchanged, ASTContext &Ctx) {
  std::map<const ParmVarDecl *, std::set<int64_t>> Compared;
  for (const BodyStmt &B : stmtsIn(FD)) {
    const auto *CO = dyn_cast<ConditionalOperator>(B.S);
    if (!CO)
      continue;
    walkStmts(CO->getCond(), [&](const Stmt *S) {
      if (auto C = flagComparison(S, FD, Ctx))
        Compared[C->first].insert(C->second);
      return true;
    });
  }
  std::vector<Flag> Flags;
  for (const auto &[P, Values] : Compared) {
    if (Own.tests(P) || !Unchanged.stable(P) || Values.size() > MaxFlagValues)
      continue;
    Flag F{P->getFunctionScopeIndex(), {Values.begin(), Values.end()}, 0};
    while (Values.count(F.Other))
      ++F.Other;
    Flags.push_back(std::move(F));
  }
  llvm::sort(Flags,
             [](const Flag &A, const Flag &B) { return A.Param < B.Param; });
  if (Flags.size() > MaxFlags)
    Flags.clear();
  return Flags;
}

/// Leaves out of `Cases` (one per combination of the values of `Flags`,
/// in order) each flag whose value does not change the span: a call that
/// fixes only the flags that matter to a buffer still finds its case.
void dropFlagsThatDoNotMatter(
    std::vector<Flag> &Flags,
    std::vector<FunctionSummary::BufferParam::Case> &Cases) {
  for (size_t F = Flags.size(); F-- > 0;) {
    bool Matters = false;
    for (const auto &A : Cases)
      for (const auto &B : Cases) {
        bool OthersEqual = true;
        for (size_t I = 0; I < Flags.size(); ++I)
          OthersEqual = OthersEqual && (I == F || A.Values[I] == B.Values[I]);
        Matters = Matters || (OthersEqual && !(A.S == B.S));
      }
    if (Matters)
      continue;
    std::vector<FunctionSummary::BufferParam::Case> Kept;
    for (auto &C : Cases) {
      C.Values.erase(C.Values.begin() + F);
      if (llvm::none_of(Kept,
                        [&](const auto &K) { return K.Values == C.Values; }))
        Kept.push_back(std::move(C));
    }
    Cases = std::move(Kept);
    Flags.erase(Flags.begin() + F);
  }
}

/// The span through argument `Arg` of the cuBLAS call `Call` (to `F`) in
/// each combination of the values of `Flags`, the flags of `FD`, into
/// `Param`.
void flagCases(const FunctionDecl *FD, ASTContext &Ctx, const FunctionInfo &F,
               const CallExpr *Call, unsigned Arg, std::vector<Flag> Flags,
               FunctionSummary::BufferParam &Param) {
  if (Flags.empty())
    return;
  const ValueFacts &Own = sharedValueFacts(FD, Ctx);
  std::vector<std::vector<int64_t>> Combinations{{}};
  for (const Flag &Fl : Flags) {
    std::vector<std::vector<int64_t>> Longer;
    for (const std::vector<int64_t> &C : Combinations)
      for (size_t I = 0; I <= Fl.Values.size(); ++I) {
        Longer.push_back(C);
        Longer.back().push_back(I < Fl.Values.size() ? Fl.Values[I] : Fl.Other);
      }
    Combinations = std::move(Longer);
  }
  for (const std::vector<int64_t> &Values : Combinations) {
    llvm::SmallVector<std::pair<const ParmVarDecl *, int64_t>, 2> Assumed;
    for (size_t I = 0; I < Flags.size(); ++I)
      Assumed.push_back({FD->getParamDecl(Flags[I].Param), Values[I]});
    ValueFacts Case(Own, Assumed);
    std::unique_ptr<CallArguments> Args = argumentsAt(Call, Case, Ctx);
    if (auto S = spanOf(F, *Args, Arg, FD))
      Param.Cases.push_back({Values, std::move(*S)});
  }
  // With every case known, the flags that do not change this span go.
  if (Param.Cases.size() == Combinations.size())
    dropFlagsThatDoNotMatter(Flags, Param.Cases);
  if (Flags.empty() && Param.Cases.size() == 1) {
    Param.Spans = std::move(Param.Cases.front().S);
    Param.Cases.clear();
  }
  if (!Param.Cases.empty())
    Param.Flags = std::move(Flags);
}

/// The parameter of `FD` that `E` names, or null.
const ParmVarDecl *paramNamed(const Expr *E, const FunctionDecl *FD) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  return P && P->getDeclContext() == FD ? P : nullptr;
}

/// A span of a callee's buffer in terms of the callee's parameters, in
/// terms of `FD`'s, the arguments of `Call` (whose values `ValueOf` gives)
/// put in; null when one of its sizes is not a polynomial of FD's
/// parameters. A bound that the callee's parameter is positive stays with
/// the parameter of FD it is given, and goes with any other argument.
std::optional<FunctionSummary::BufferParam::Span>
spanInCaller(const FunctionSummary::BufferParam::Span &Callee,
             const CallExpr *Call, const FunctionDecl *FD,
             llvm::function_ref<std::optional<SymExpr>(unsigned)> ValueOf) {
  auto InCaller =
      [&](const ParamPolynomial &V) -> std::optional<ParamPolynomial> {
    std::optional<SymExpr> Bound = V.bind(ValueOf);
    return Bound ? ParamPolynomial::of(*Bound, FD) : std::nullopt;
  };
  FunctionSummary::BufferParam::Span Out;
  Out.Operand = Callee.Operand;
  Out.ElementBytes = Callee.ElementBytes;
  Out.Plural = Callee.Plural;
  std::optional<ParamPolynomial> Elements = InCaller(Callee.Elements);
  if (!Elements)
    return std::nullopt;
  Out.Elements = std::move(*Elements);
  for (const auto &[Name, V] : Callee.Layout)
    if (std::optional<ParamPolynomial> L = InCaller(V))
      Out.Layout.push_back({Name, std::move(*L)});
  for (unsigned I : Callee.Positive)
    if (I < Call->getNumArgs())
      if (const ParmVarDecl *P = paramNamed(Call->getArg(I), FD))
        Out.Positive.push_back(P->getFunctionScopeIndex());
  return Out;
}

/// The spans of `B`, a buffer of the function `Call` calls, through the
/// pointer `FD` gives it, into `Out`: its span, or its cases, with their
/// flags given by FD as constants (the cases they pick) or as FD's own
/// parameters (then FD's flags). Nothing when a flag is given anything
/// else, or a size is not a polynomial of FD's parameters.
void spansInCaller(const FunctionSummary::BufferParam &B, const CallExpr *Call,
                   const FunctionDecl *FD,
                   llvm::function_ref<std::optional<SymExpr>(unsigned)> ValueOf,
                   FunctionSummary::BufferParam &Out) {
  if (B.Spans) {
    Out.Spans = spanInCaller(*B.Spans, Call, FD, ValueOf);
    return;
  }
  std::vector<Flag> Kept;     // the flags FD passes on, as FD's
  std::vector<size_t> KeptAt; // their places among B.Flags
  std::vector<std::optional<int64_t>> Fixed(B.Flags.size());
  for (size_t I = 0; I < B.Flags.size(); ++I) {
    const Flag &F = B.Flags[I];
    if (F.Param >= Call->getNumArgs())
      return;
    if (const ParmVarDecl *P = paramNamed(Call->getArg(F.Param), FD)) {
      Kept.push_back({P->getFunctionScopeIndex(), F.Values, F.Other});
      KeptAt.push_back(I);
      continue;
    }
    std::optional<SymExpr> V = ValueOf(F.Param);
    std::optional<int64_t> C = V ? V->getConstant() : std::nullopt;
    if (!C)
      return;
    Fixed[I] = llvm::is_contained(F.Values, *C) ? *C : F.Other;
  }
  std::vector<FunctionSummary::BufferParam::Case> Cases;
  for (const FunctionSummary::BufferParam::Case &C : B.Cases) {
    bool Picked = true;
    for (size_t I = 0; I < Fixed.size(); ++I)
      Picked = Picked && (!Fixed[I] || C.Values[I] == *Fixed[I]);
    if (!Picked)
      continue;
    std::optional<FunctionSummary::BufferParam::Span> S =
        spanInCaller(C.S, Call, FD, ValueOf);
    if (!S)
      return;
    std::vector<int64_t> Values;
    for (size_t At : KeptAt)
      Values.push_back(C.Values[At]);
    Cases.push_back({std::move(Values), std::move(*S)});
  }
  if (Cases.empty())
    return;
  if (Kept.empty()) {
    Out.Spans = std::move(Cases.front().S);
    return;
  }
  Out.Flags = std::move(Kept);
  Out.Cases = std::move(Cases);
}

/// The pointer parameters of `FD` that `Call` gives, unchanged, to a
/// function of another file that gives them to cuBLAS (as its summary
/// says), into `Out`: what that function's cuBLAS call needs of them is
/// what FD's callers must give.
void forwardedBuffers(const FunctionDecl *FD, const CallExpr *Call,
                      UnchangedVariables &Unchanged, ASTContext &Ctx,
                      bool WithSpans,
                      std::vector<FunctionSummary::BufferParam> &Out) {
  const FunctionSummary *S = projectSummaryOfCall(Call);
  if (!S || S->Buffers.empty())
    return;
  ArgumentValues ValueOf(Call, sharedValueFacts(FD, Ctx));
  for (const FunctionSummary::BufferParam &B : S->Buffers) {
    const ParmVarDecl *P = B.Index < Call->getNumArgs()
                               ? paramNamed(Call->getArg(B.Index), FD)
                               : nullptr;
    if (!P || !P->getType()->isPointerType() || !Unchanged.stable(P))
      continue;
    FunctionSummary::BufferParam Param{P->getFunctionScopeIndex(),
                                       B.Callee,
                                       B.Spelled,
                                       B.Arg,
                                       B.Line,
                                       std::nullopt,
                                       B.DataType,
                                       {},
                                       {},
                                       B.callFile(S->File).str(),
                                       B.Through.empty() ? S->Name : B.Through};
    if (WithSpans)
      spansInCaller(B, Call, FD, ValueOf, Param);
    // One call of the third file reached twice says one thing.
    if (!llvm::is_contained(Out, Param))
      Out.push_back(std::move(Param));
  }
}

} // namespace

std::optional<SymExpr> ArgumentValues::operator()(unsigned I) {
  if (I >= Call->getNumArgs())
    return std::nullopt;
  auto [It, New] = Values.try_emplace(I);
  if (New)
    It->second = Facts.evaluate(Call->getArg(I));
  return It->second;
}

std::string throughText(const FunctionSummary::BufferParam &B) {
  return B.Through.empty() ? "" : ", through '" + B.Through + "',";
}

const FunctionSummary::BufferParam::Span *
spanAtCall(const FunctionSummary::BufferParam &B,
           llvm::function_ref<std::optional<SymExpr>(unsigned)> ValueOf) {
  if (B.Spans)
    return &*B.Spans;
  std::vector<int64_t> Values;
  for (const Flag &F : B.Flags) {
    std::optional<SymExpr> V = ValueOf(F.Param);
    std::optional<int64_t> C = V ? V->getConstant() : std::nullopt;
    if (!C)
      return nullptr;
    Values.push_back(llvm::is_contained(F.Values, *C) ? *C : F.Other);
  }
  for (const FunctionSummary::BufferParam::Case &C : B.Cases)
    if (C.Values == Values)
      return &C.S;
  return nullptr;
}

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
  std::optional<std::vector<Flag>> Flags;
  for (const BodyStmt &B : stmtsIn(FD)) {
    const auto *Call = dyn_cast<CallExpr>(B.S);
    const FunctionInfo *F = Call ? calledCublasFunction(Call) : nullptr;
    if (!F) {
      if (Call)
        forwardedBuffers(FD, Call, Unchanged, Ctx, WithSpans, Out);
      continue;
    }
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
          P->getFunctionScopeIndex(),
          Call->getDirectCallee()->getName().str(),
          spelledCalleeName(Call, SM, Ctx.getLangOpts()),
          I,
          SM.getExpansionLineNumber(Call->getBeginLoc()),
          std::nullopt,
          "",
          {},
          {},
          "",
          ""};
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
        if (Spanned && !Param.Spans) {
          // The flags are the function's: found once, for every operand.
          if (!Flags)
            Flags = flagsOf(FD, sharedValueFacts(FD, Ctx), Unchanged, Ctx);
          flagCases(FD, Ctx, *F, Call, I, *Flags, Param);
        }
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

/// A list of integers.
std::optional<std::vector<int64_t>> integers(const json::Value &V) {
  const json::Array *A = V.getAsArray();
  if (!A)
    return std::nullopt;
  std::vector<int64_t> Out;
  for (const json::Value &I : *A) {
    std::optional<int64_t> N = I.getAsInteger();
    if (!N)
      return std::nullopt;
    Out.push_back(*N);
  }
  return Out;
}

/// "flags": [[param, [values], other], ...] and "cases": [[[values],
/// span], ...], each case with one value per flag.
bool flagsFromJson(const json::Object &More, FunctionSummary::BufferParam &P) {
  bool Read =
      summary_json::readEach(
          More, "flags",
          [&](const json::Value &F) {
            const json::Array *T = F.getAsArray();
            if (!T || T->size() != 3)
              return false;
            std::optional<unsigned> Param = summary_json::natural((*T)[0]);
            std::optional<std::vector<int64_t>> Values = integers((*T)[1]);
            std::optional<int64_t> Other = (*T)[2].getAsInteger();
            if (!Param || !Values || !Other)
              return false;
            P.Flags.push_back({*Param, std::move(*Values), *Other});
            return true;
          }) &&
      summary_json::readEach(More, "cases", [&](const json::Value &C) {
        const json::Array *T = C.getAsArray();
        if (!T || T->size() != 2 || !(*T)[1].getAsObject())
          return false;
        std::optional<std::vector<int64_t>> Values = integers((*T)[0]);
        auto S = spanFromJson(*(*T)[1].getAsObject());
        if (!Values || Values->size() != P.Flags.size() || !S)
          return false;
        P.Cases.push_back({std::move(*Values), std::move(*S)});
        return true;
      });
  return Read && !P.Flags.empty() && !P.Cases.empty();
}

/// One entry of "buffers": [index, callee, spelled, arg, line, {more}?].
json::Value bufferToJson(const FunctionSummary::BufferParam &B) {
  json::Array T{B.Index, B.Callee, B.Spelled, B.Arg, B.Line};
  if (B.Spans || !B.DataType.empty() || !B.Cases.empty() ||
      !B.CallFile.empty()) {
    json::Object More;
    if (B.Spans)
      More["span"] = spanToJson(*B.Spans);
    if (!B.Cases.empty()) {
      json::Array Flags, Cases;
      for (const Flag &F : B.Flags)
        Flags.push_back(json::Array{F.Param, json::Array(F.Values), F.Other});
      for (const FunctionSummary::BufferParam::Case &C : B.Cases)
        Cases.push_back(json::Array{json::Array(C.Values), spanToJson(C.S)});
      More["flags"] = std::move(Flags);
      More["cases"] = std::move(Cases);
    }
    if (!B.DataType.empty())
      More["dataType"] = B.DataType;
    if (!B.CallFile.empty())
      More["file"] = B.CallFile;
    if (!B.Through.empty())
      More["through"] = B.Through;
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
  FunctionSummary::BufferParam P{*Index,
                                 Callee->str(),
                                 Spelled->str(),
                                 *Arg,
                                 *Line,
                                 std::nullopt,
                                 "",
                                 {},
                                 {},
                                 "",
                                 ""};
  if (T->size() == 6) {
    const json::Object *More = (*T)[5].getAsObject();
    if (!More)
      return std::nullopt;
    if (const json::Object *Span = More->getObject("span")) {
      P.Spans = spanFromJson(*Span);
      if (!P.Spans)
        return std::nullopt;
    }
    if (More->get("cases") && !flagsFromJson(*More, P))
      return std::nullopt;
    P.DataType = More->getString("dataType").value_or("").str();
    P.CallFile = More->getString("file").value_or("").str();
    P.Through = More->getString("through").value_or("").str();
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
