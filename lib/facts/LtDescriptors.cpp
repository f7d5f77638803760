//===- LtDescriptors.cpp - cuBLASLt layouts and matmul descriptors --------===//

#include "facts/LtDescriptors.h"
#include "model/LtAttributes.h"

#include "ast/AstUtils.h"
#include "ast/Callables.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallVector.h"

namespace cublas_tidy {

namespace {

using namespace clang;

/// The callee's name as the model spells it (`cublasLtMatmulDescCreate`).
StringRef calleeName(const CallExpr *C) {
  const FunctionInfo *F = C ? calledCublasFunction(C) : nullptr;
  return F ? StringRef(F->Name) : StringRef();
}

/// A descriptor variable's create and the attributes set on it before a use.
struct History {
  const VarDecl *Var = nullptr;
  const CallExpr *Create = nullptr;
  llvm::SmallVector<const CallExpr *, 8> Sets;
};

std::optional<History> historyOf(const CallExpr *Use, const Expr *Arg,
                                 const Decl *Callable, StringRef CreateName,
                                 StringRef SetName) {
  const VarDecl *Var = referencedVar(Arg);
  if (!Var || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var) ||
      Var->getType()->isReferenceType())
    return std::nullopt;
  llvm::ArrayRef<BodyStmt> Stmts = stmtsIn(Callable);
  const BodyIndex &Index = indexIn(Callable);
  int UseAt = Index.indexOf(Use);
  if (UseAt < 0)
    return std::nullopt;
  History H;
  H.Var = Var;
  auto Refs = Index.RefsTo.find(Var);
  if (Refs == Index.RefsTo.end())
    return std::nullopt;
  for (int I : Refs->second) {
    int P = parentThroughWrappers(Stmts, I);
    const Stmt *User = P >= 0 ? Stmts[P].S : nullptr;
    // `&var`: only the create may take its address.
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(User);
        U && U->getOpcode() == UO_AddrOf) {
      int Q = parentThroughWrappers(Stmts, P);
      const auto *C = Q >= 0 ? dyn_cast<CallExpr>(Stmts[Q].S) : nullptr;
      if (!C || calleeName(C) != CreateName || C->getNumArgs() == 0 ||
          C->getArg(0)->IgnoreParenImpCasts() != U || H.Create || Q > UseAt)
        return std::nullopt;
      H.Create = C;
      continue;
    }
    const auto *C = dyn_cast_or_null<CallExpr>(User);
    if (!C || calleeName(C).empty())
      return std::nullopt; // copied, compared, passed to code of ours
    if (calleeName(C) == SetName) {
      if (C->getNumArgs() == 0 || referencedVar(C->getArg(0)) != Var ||
          P > UseAt)
        return std::nullopt;
      H.Sets.push_back(C);
    }
  }
  if (!H.Create)
    return std::nullopt;
  return H;
}

/// The value an attribute call sets: `&v` of a local (or constant) whose
/// other uses are reads, such calls and `sizeof`, read from its
/// initializer.
std::optional<SymExpr> attributeValue(const CallExpr *Set,
                                      const ValueFacts &Facts) {
  if (Set->getNumArgs() < 3)
    return std::nullopt;
  const VarDecl *V = addressedVar(Set->getArg(2));
  if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) || !V->getInit())
    return std::nullopt;
  if (!V->getType().isConstQualified()) {
    llvm::ArrayRef<BodyStmt> Stmts = stmtsIn(Facts.callable());
    const BodyIndex &Index = indexIn(Facts.callable());
    auto Refs = Index.RefsTo.find(V);
    for (int I : Refs == Index.RefsTo.end() ? llvm::ArrayRef<int>()
                                            : llvm::ArrayRef<int>(Refs->second)) {
      // A read of the value is fine.
      if (int Raw = Stmts[I].Parent; Raw >= 0)
        if (const auto *Cast = dyn_cast<ImplicitCastExpr>(Stmts[Raw].S);
            Cast && Cast->getCastKind() == CK_LValueToRValue)
          continue;
      int P = parentThroughWrappers(Stmts, static_cast<int>(I));
      const Stmt *User = P >= 0 ? Stmts[P].S : nullptr;
      if (isa_and_nonnull<UnaryExprOrTypeTraitExpr>(User))
        continue; // sizeof(v)
      const auto *U = dyn_cast_or_null<UnaryOperator>(User);
      if (!U || U->getOpcode() != UO_AddrOf)
        return std::nullopt;
      int Q = parentThroughWrappers(Stmts, P);
      const auto *C = Q >= 0 ? dyn_cast<CallExpr>(Stmts[Q].S) : nullptr;
      if (!C || !calleeName(C).ends_with("SetAttribute"))
        return std::nullopt;
    }
  }
  return Facts.evaluate(V->getInit());
}

std::optional<int64_t> attributeId(const CallExpr *Set,
                                   const ValueFacts &Facts) {
  if (Set->getNumArgs() < 2)
    return std::nullopt;
  std::optional<SymExpr> V = Facts.evaluate(Set->getArg(1));
  return V ? V->getConstant() : std::nullopt;
}

std::optional<int64_t> constantOf(const std::optional<SymExpr> &V) {
  return V ? V->getConstant() : std::nullopt;
}

} // namespace

std::optional<LtLayoutFacts> ltLayoutAt(const CallExpr *Use, const Expr *Arg,
                                        const ValueFacts &Facts) {
  std::optional<History> H =
      historyOf(Use, Arg, Facts.callable(), "cublasLtMatrixLayoutCreate",
                "cublasLtMatrixLayoutSetAttribute");
  if (!H || H->Create->getNumArgs() < 5)
    return std::nullopt;
  LtLayoutFacts L;
  L.Var = H->Var;
  L.Create = H->Create;
  std::unique_ptr<CallArguments> Args =
      argumentsAt(H->Create, Facts, Facts.context());
  if (std::optional<ArgValue> T = Args->value(1))
    if (std::optional<int64_t> C = T->V.getConstant())
      L.Type = dataTypeByValue(*C);
  L.Rows = Args->value(2);
  L.Cols = Args->value(3);
  L.Ld = Args->value(4);
  L.BatchCount = SymExpr::constant(1);
  L.BatchStride = SymExpr::constant(0);
  for (const CallExpr *Set : H->Sets) {
    std::optional<int64_t> Id = attributeId(Set, Facts);
    if (!Id)
      return std::nullopt;
    std::optional<SymExpr> V = attributeValue(Set, Facts);
    auto Known = [&]() -> std::optional<ArgValue> {
      if (!V)
        return std::nullopt;
      return ArgValue{*V, {}};
    };
    switch (*Id) {
    case lt_api::LayoutType:
      L.Type = constantOf(V) ? dataTypeByValue(*constantOf(V)) : nullptr;
      break;
    case lt_api::LayoutOrder:
      L.ColumnMajor = constantOf(V) == lt_api::OrderCol;
      break;
    case lt_api::LayoutRows:
      L.Rows = Known();
      break;
    case lt_api::LayoutCols:
      L.Cols = Known();
      break;
    case lt_api::LayoutLd:
      L.Ld = Known();
      break;
    case lt_api::LayoutBatchCount:
      L.BatchCount = V;
      break;
    case lt_api::LayoutStridedBatchOffset:
      L.BatchStride = V;
      break;
    default: // plane offsets, batch modes, ...: not modelled
      return std::nullopt;
    }
  }
  return L;
}

bool ltLayoutOrderMayChange(const ValueFacts &Facts) {
  const Decl *Callable = Facts.callable();
  if (!Callable || !Callable->getBody())
    return true;
  auto IsSet = [](const Stmt *S) {
    const auto *C = dyn_cast<CallExpr>(S);
    return C && calleeName(C) == "cublasLtMatrixLayoutSetAttribute";
  };
  bool May = false;
  bool Whole = walkStmts(
      Callable->getBody(),
      [&](const Stmt *S) {
        if (isa<LambdaExpr>(S)) {
          May = anyStmt(S, IsSet, 20000);
        } else if (IsSet(S)) {
          const auto *Set = cast<CallExpr>(S);
          std::optional<int64_t> Id = attributeId(Set, Facts);
          May = !Id || (*Id == lt_api::LayoutOrder &&
                        constantOf(attributeValue(Set, Facts)) !=
                            lt_api::OrderCol);
        }
        return May ? WalkStep::Stop : WalkStep::Enter;
      },
      20000);
  return May || !Whole;
}

std::optional<LtMatmulDescFacts>
ltMatmulDescAt(const CallExpr *Use, const Expr *Arg, const ValueFacts &Facts) {
  std::optional<History> H =
      historyOf(Use, Arg, Facts.callable(), "cublasLtMatmulDescCreate",
                "cublasLtMatmulDescSetAttribute");
  if (!H || H->Create->getNumArgs() < 3)
    return std::nullopt;
  LtMatmulDescFacts D;
  D.Var = H->Var;
  D.Create = H->Create;
  std::unique_ptr<CallArguments> Args =
      argumentsAt(H->Create, Facts, Facts.context());
  D.ComputeType = Args->knownEnumerator(1);
  D.ScaleType = Args->knownEnumerator(2);
  for (const CallExpr *Set : H->Sets) {
    std::optional<int64_t> Id = attributeId(Set, Facts);
    if (!Id)
      return std::nullopt;
    std::optional<int64_t> V = constantOf(attributeValue(Set, Facts));
    switch (*Id) {
    case lt_api::DescComputeType:
      // The name is not known from the value alone.
      D.ComputeType.clear();
      break;
    case lt_api::DescScaleType:
      D.ScaleType =
          V ? (dataTypeByValue(*V) ? dataTypeByValue(*V)->Name : "") : "";
      break;
    case lt_api::DescPointerMode:
      D.PointerMode = V;
      D.PointerModeSet = Set;
      break;
    case lt_api::DescTransA:
      D.TransA = V;
      break;
    case lt_api::DescTransB:
      D.TransB = V;
      break;
    default: // epilogues, scale pointers, ...: nothing read here
      break;
    }
  }
  return D;
}

bool ltLayoutRejected(const LtLayoutFacts &L, const SymbolBounds &Bounds) {
  return L.Ld && L.Rows && provenLess(L.Ld->V, L.Rows->V, Bounds);
}

bool ltLayoutKnown(const LtLayoutFacts &L) {
  return L.ColumnMajor && L.Type && L.Type->Bytes && L.Rows && L.Cols &&
         L.Ld && L.BatchCount && L.BatchStride;
}

std::optional<SymExpr> ltLayoutElements(const LtLayoutFacts &L,
                                        const SymbolBounds &Bounds) {
  if (!ltLayoutKnown(L) || ltLayoutRejected(L, Bounds))
    return std::nullopt;
  SymbolicArithmetic Ar{Bounds};
  std::optional<SymExpr> Member = memberElements<SymbolicArithmetic>(
      ShapeKind::Matrix, L.Rows->V, L.Cols->V, L.Ld->V, Ar);
  if (!Member)
    return std::nullopt;
  return stridedElements<SymbolicArithmetic>(*Member, L.BatchStride,
                                             L.BatchCount, Ar);
}

LtOperandShape ltOperandShape(const LtOperand &K,
                              std::optional<int64_t> Trans) {
  LtOperandShape S;
  if (!K.Facts || !K.Facts->ColumnMajor || !Trans || *Trans < 0 ||
      *Trans > 2)
    return S;
  S.Layout = &*K.Facts;
  S.Transposed = *Trans != 0;
  S.Rows = S.Transposed ? K.Facts->Cols : K.Facts->Rows;
  S.Cols = S.Transposed ? K.Facts->Rows : K.Facts->Cols;
  return S;
}

std::array<LtOperand, 4> ltMatmulOperands(const CallExpr *Matmul,
                                          const FunctionInfo &F,
                                          const ValueFacts &Facts) {
  std::array<LtOperand, 4> Out;
  const Operand Ops[4] = {Operand::A, Operand::B, Operand::C, Operand::D};
  for (unsigned I = 0; I < 4; ++I) {
    LtOperand &O = Out[I];
    O.Op = Ops[I];
    O.Pointer = F.findParam(ParamRole::DeviceMatrix, O.Op);
    O.Layout = F.findParam(ParamRole::Resource, O.Op);
    if (O.Pointer >= 0 && O.Layout >= 0 &&
        unsigned(O.Layout) < Matmul->getNumArgs())
      O.Facts = ltLayoutAt(Matmul, Matmul->getArg(O.Layout), Facts);
  }
  return Out;
}

std::optional<LtMatmulDescFacts> ltMatmulDescOf(const CallExpr *Matmul,
                                                const FunctionInfo &F,
                                                const ValueFacts &Facts) {
  int Desc = F.findParamNamed("computeDesc");
  if (Desc < 0 || unsigned(Desc) >= Matmul->getNumArgs())
    return std::nullopt;
  return ltMatmulDescAt(Matmul, Matmul->getArg(Desc), Facts);
}

std::optional<LtPreferenceFacts>
ltPreferenceAt(const CallExpr *Use, const Expr *Arg, const ValueFacts &Facts) {
  std::optional<History> H =
      historyOf(Use, Arg, Facts.callable(), "cublasLtMatmulPreferenceCreate",
                "cublasLtMatmulPreferenceSetAttribute");
  if (!H)
    return std::nullopt;
  LtPreferenceFacts P;
  P.Var = H->Var;
  P.Create = H->Create;
  P.MaxWorkspace = SymExpr::constant(0);
  P.MinAlignment.fill(SymExpr::constant(lt_api::DefaultPrefMinAlignmentBytes));
  for (const CallExpr *Set : H->Sets) {
    std::optional<int64_t> Id = attributeId(Set, Facts);
    if (!Id)
      return std::nullopt;
    if (*Id == lt_api::PrefMaxWorkspaceBytes) {
      P.MaxWorkspace = attributeValue(Set, Facts);
      P.MaxWorkspaceSet = Set;
    } else if (*Id >= lt_api::PrefMinAlignmentABytes &&
               *Id <= lt_api::PrefMinAlignmentDBytes) {
      P.MinAlignment[*Id - lt_api::PrefMinAlignmentABytes] =
          attributeValue(Set, Facts);
    }
  }
  return P;
}

const CallExpr *ltHeuristicOf(const CallExpr *Matmul, const Expr *AlgoArg,
                              const Decl *Callable) {
  // `&results[i].algo` or `&result.algo`.
  const auto *U = AlgoArg
                      ? dyn_cast<UnaryOperator>(AlgoArg->IgnoreParenImpCasts())
                      : nullptr;
  if (!U || U->getOpcode() != UO_AddrOf)
    return nullptr;
  const auto *ME = dyn_cast<MemberExpr>(U->getSubExpr()->IgnoreParenImpCasts());
  if (!ME || !ME->getMemberDecl()->getIdentifier() ||
      ME->getMemberDecl()->getName() != "algo")
    return nullptr;
  const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
  if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(Base))
    Base = Sub->getBase()->IgnoreParenImpCasts();
  const VarDecl *Results = referencedVar(Base);
  if (!Results || !Results->hasLocalStorage())
    return nullptr;
  const CallExpr *Found = nullptr;
  for (const BodyStmt &B : stmtsIn(Callable)) {
    if (B.S == Matmul)
      break;
    const auto *C = dyn_cast<CallExpr>(B.S);
    if (!C || calleeName(C) != "cublasLtMatmulAlgoGetHeuristic" ||
        C->getNumArgs() < 10)
      continue;
    const Expr *Out = C->getArg(8)->IgnoreParenImpCasts();
    if (referencedVar(Out) == Results || addressedVar(Out) == Results) {
      if (Found)
        return nullptr; // two heuristics fill it: which one is unclear
      Found = C;
    }
  }
  return Found;
}

} // namespace cublas_tidy
