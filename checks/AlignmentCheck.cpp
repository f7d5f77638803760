//===- AlignmentCheck.cpp - cublas-alignment ------------------------------===//

#include "AlignmentCheck.h"

#include "ast/AstUtils.h"
#include "facts/Allocations.h"
#include "facts/CallGeometry.h"
#include "facts/LtDescriptors.h"
#include "model/Allocators.h"
#include "model/ComputeTypes.h"
#include "model/LtAttributes.h"

#include "clang/AST/ASTContext.h"

using namespace cublas_tidy;

namespace clang::tidy::cublas {

namespace {

/// The value of a known constant argument.
std::optional<int64_t> constantOf(const std::optional<ArgValue> &A) {
  return A ? A->V.getConstant() : std::nullopt;
}

/// The alignment of one call's A and B, in one set of facts.
class CallAlignment {
public:
  CallAlignment(const CallExpr *Call, const FunctionInfo &F,
                const ValueFacts &Facts, ASTContext &Ctx)
      : Call(Call), F(F), Facts(Facts), Ctx(Ctx), SM(Ctx.getSourceManager()) {}

  std::vector<ContextFinding> run() {
    if (StringRef(F.Name) == "cublasLtMatmul")
      checkLtMatmul();
    else
      checkGemmEx();
    return std::move(Findings);
  }

private:
  void checkGemmEx();
  void checkLtMatmul();
  void checkHeuristicAlgorithm(const std::array<LtOperand, 4> &Ops);
  /// Where `Ptr` is known to start off a multiple of `Bytes` in an
  /// allocation aligned to at least `Bytes`: the allocation and the offset.
  struct Misaligned {
    Extent X;
    int64_t Offset;
  };
  std::optional<Misaligned> misaligned(const Expr *Ptr, unsigned Bytes);
  /// "`Ptr` (`Operand`) is N bytes past the start of its allocation", when
  /// it is known to be and N is not a multiple of the rule's bytes.
  void checkPointer(const Expr *Ptr, StringRef Operand, StringRef Product,
                    const OperandAlignment &Rule);
  const CallExpr *Call;
  const FunctionInfo &F;
  const ValueFacts &Facts;
  ASTContext &Ctx;
  const SourceManager &SM;
  std::vector<ContextFinding> Findings;
};

std::optional<CallAlignment::Misaligned>
CallAlignment::misaligned(const Expr *Ptr, unsigned Bytes) {
  if (!Ptr)
    return std::nullopt;
  std::optional<Extent> X = pointerExtent(Ptr, Facts);
  const memory_api::Allocator *A =
      X ? memory_api::lookupAllocator(X->Allocator) : nullptr;
  std::optional<int64_t> Offset =
      X ? X->OffsetBytes.getConstant() : std::nullopt;
  if (!A || !Offset || *Offset < 0 || !X->Origin ||
      memory_api::guaranteedAlignment(*A) < Bytes || *Offset % Bytes == 0)
    return std::nullopt;
  return Misaligned{*X, *Offset};
}

void CallAlignment::checkPointer(const Expr *Ptr, StringRef Operand,
                                 StringRef Product,
                                 const OperandAlignment &Rule) {
  std::optional<Misaligned> M = misaligned(Ptr, Rule.PointerBytes);
  if (!M)
    return;
  const Extent &X = M->X;
  ContextFinding Out;
  Out.Key = "pointer " + Operand.str();
  Out.Loc = userLocation(Ptr->getBeginLoc(), SM);
  Out.Message = operandText(Operand, Ptr, Ctx) + " is " +
                std::to_string(M->Offset) + " bytes past the start of its " +
                X.Allocator.str() + " allocation, not a multiple of " +
                std::to_string(Rule.PointerBytes) + ": " + F.Name + " with " +
                Product.str() + " needs A and B " +
                std::to_string(Rule.PointerBytes) +
                "-byte aligned and returns CUBLAS_STATUS_NOT_SUPPORTED";
  Out.Notes.push_back(
      {userLocation(X.Origin->getBeginLoc(), SM), "allocated here"});
  Findings.push_back(std::move(Out));
}

void CallAlignment::checkGemmEx() {
  std::unique_ptr<CallArguments> Args = argumentsAt(Call, Facts, Ctx);
  std::string Compute =
      Args->knownEnumerator(F.findParam(ParamRole::ComputeType));
  const OperandAlignment *Rule = integerGemmAlignment(Compute);
  if (!Rule)
    return;
  llvm::ArrayRef<ParamInfo> Params = F.params();
  for (Operand Op : {Operand::A, Operand::B}) {
    int Ld = F.findParam(ParamRole::LeadingDim, Op);
    std::optional<ArgValue> V = Args->value(Ld);
    std::optional<int64_t> C = constantOf(V);
    if (C && *C > 0 && *C % Rule->LdMultiple != 0)
      Findings.push_back({"ld " + std::string(Params[Ld].Name),
                          userLocation(argumentAt(Call, Ld)->getBeginLoc(), SM),
                          std::string(Params[Ld].Name) + " = " + V->describe() +
                              " is not a multiple of " +
                              std::to_string(Rule->LdMultiple) + ": " + F.Name +
                              " with " + Compute +
                              " needs lda and ldb multiples of " +
                              std::to_string(Rule->LdMultiple) +
                              " and returns CUBLAS_STATUS_NOT_SUPPORTED",
                          {}});
    int Ptr = F.findParam(ParamRole::DeviceMatrix, Op);
    if (Ptr >= 0)
      checkPointer(argumentAt(Call, Ptr), Params[Ptr].Name, Compute, *Rule);
  }
}

void CallAlignment::checkLtMatmul() {
  std::array<LtOperand, 4> Ops = ltMatmulOperands(Call, F, Facts);
  auto Fp8 = [&](unsigned At) {
    const std::optional<LtLayoutFacts> &L = Ops[At].Facts;
    return L && L->Type && isFp8Operand(*L->Type);
  };
  if (!Fp8(0) && !Fp8(1))
    return checkHeuristicAlgorithm(Ops);
  const OperandAlignment &Rule = fp8MatmulAlignment();
  llvm::ArrayRef<ParamInfo> Params = F.params();
  for (unsigned At = 0; At < 2; ++At) {
    const std::optional<LtLayoutFacts> &L = Ops[At].Facts;
    std::optional<int64_t> Ld = L ? constantOf(L->Ld) : std::nullopt;
    StringRef Name = At == 0 ? "A" : "B";
    if (Ld && *Ld > 0 && *Ld % Rule.LdMultiple != 0 && L->Var && L->Create)
      Findings.push_back(
          {"ld " + Name.str(),
           userLocation(Call->getBeginLoc(), SM),
           "the leading dimension of " + Name.str() + "'s layout '" +
               L->Var->getName().str() + "' is " + std::to_string(*Ld) +
               ", not a multiple of " + std::to_string(Rule.LdMultiple) +
               ": cublasLtMatmul with FP8 inputs needs leading dimensions "
               "that are multiples of " +
               std::to_string(Rule.LdMultiple) +
               " and returns CUBLAS_STATUS_NOT_SUPPORTED",
           {{userLocation(L->Create->getBeginLoc(), SM),
             "the layout is created here"}}});
    if (Ops[At].Pointer >= 0)
      checkPointer(argumentAt(Call, Ops[At].Pointer), Params[Ops[At].Pointer].Name,
                   "FP8 inputs", Rule);
  }
}

/// Whether two arguments are the same expression (`acc + 4` given as C
/// and as D).
static bool sameExpression(const Expr *L, const Expr *R,
                           const ASTContext &Ctx) {
  if (!L || !R)
    return false;
  llvm::FoldingSetNodeID A, B;
  L->IgnoreParenImpCasts()->Profile(A, Ctx, /*Canonical=*/true);
  R->IgnoreParenImpCasts()->Profile(B, Ctx, /*Canonical=*/true);
  return A == B;
}

/// Half or bf16 A, B, C and D read by an algorithm that a heuristic chose
/// for the alignment its preference states (256 bytes unless set): a
/// pointer that starts off a multiple of 16 bytes, with columns a multiple
/// of 16 bytes long, is not one that algorithm reads. C given as D too (the
/// product in place) is said once, as D.
void CallAlignment::checkHeuristicAlgorithm(
    const std::array<LtOperand, 4> &Ops) {
  int AlgoParam = F.findParamNamed("algo");
  const CallExpr *Heuristic =
      AlgoParam >= 0
          ? ltHeuristicOf(Call, argumentAt(Call, AlgoParam), Facts.callable())
          : nullptr;
  if (!Heuristic || Heuristic->getNumArgs() < 7)
    return;
  std::optional<LtPreferenceFacts> P =
      ltPreferenceAt(Heuristic, Heuristic->getArg(6), Facts);
  if (!P)
    return;
  llvm::ArrayRef<ParamInfo> Params = F.params();
  for (unsigned At = 0; At < 4; ++At) {
    if (At == 2 && Ops[2].Pointer >= 0 && Ops[3].Pointer >= 0 &&
        sameExpression(argumentAt(Call, Ops[2].Pointer),
                       argumentAt(Call, Ops[3].Pointer), Ctx))
      continue;
    const std::optional<LtLayoutFacts> &L = Ops[At].Facts;
    const OperandAlignment *Rule =
        L && L->Type ? heuristicMatmulAlignment(*L->Type) : nullptr;
    std::optional<int64_t> Ld = Rule ? constantOf(L->Ld) : std::nullopt;
    std::optional<int64_t> Stated =
        P->MinAlignment[At] ? P->MinAlignment[At]->getConstant() : std::nullopt;
    if (!Ld || *Ld <= 0 || *Ld % Rule->LdMultiple != 0 || !Stated ||
        Ops[At].Pointer < 0)
      continue;
    const Expr *Ptr = argumentAt(Call, Ops[At].Pointer);
    std::optional<Misaligned> M = misaligned(Ptr, Rule->PointerBytes);
    // The alignment the pointer has: the largest power of two dividing
    // its offset. A preference that states it (or less) is right.
    int64_t Has = M ? (M->Offset & -M->Offset) : 0;
    if (!M || Has == 0 || *Stated <= Has)
      continue;
    std::string Name = Params[Ops[At].Pointer].Name;
    std::string Attribute =
        "CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_" + Name + "_BYTES";
    ContextFinding Out;
    Out.Key = "heuristic " + Name;
    Out.Loc = userLocation(Ptr->getBeginLoc(), SM);
    Out.Message =
        operandText(Name, Ptr, Ctx) + " is " + std::to_string(M->Offset) +
        " bytes past the start of its " + M->X.Allocator.str() +
        " allocation, but the algorithm comes from "
        "cublasLtMatmulAlgoGetHeuristic with a preference that states " +
        std::to_string(*Stated) + "-byte aligned " + Name + " (" + Attribute +
        (*Stated == lt_api::DefaultPrefMinAlignmentBytes ? ", the default"
                                                         : "") +
        "): with " + Name + "'s columns " + std::to_string(*Ld) + " " +
        L->Type->Plural +
        " apart, cublasLtMatmul returns "
        "CUBLAS_STATUS_NOT_SUPPORTED; state " +
        Name + "'s real alignment (" + std::to_string(Has) +
        " bytes) in the preference";
    Out.Notes.push_back(
        {userLocation(M->X.Origin->getBeginLoc(), SM), "allocated here"});
    Out.Notes.push_back({userLocation(Heuristic->getBeginLoc(), SM),
                         "the heuristic chooses the algorithm here"});
    Findings.push_back(std::move(Out));
  }
}

} // namespace

bool AlignmentCheck::wants(const FunctionInfo &F) const {
  return StringRef(F.Name) == "cublasLtMatmul" ||
         (F.findParam(ParamRole::ComputeType) >= 0 &&
          F.findParam(ParamRole::LeadingDim, Operand::A) >= 0);
}

void AlignmentCheck::checkCall(const CallExpr *Call, const FunctionInfo &F,
                               const Decl *Callable, ASTContext &Ctx) {
  judgeInContexts(
      Callable, Call, Callers.factsFor(Callable, Ctx), Callers, Ctx,
      [&](const ValueFacts &Facts) {
        return CallAlignment(Call, F, Facts, Ctx).run();
      },
      [&](const ContextFinding &Found) { Sink.emit(*this, Found); });
}

} // namespace clang::tidy::cublas
