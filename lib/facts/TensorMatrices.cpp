//===- TensorMatrices.cpp -------------------------------------------------===//

#include "facts/TensorMatrices.h"
#include "facts/libraries/TorchModel.h"

using namespace clang;

namespace cublas_tidy {

namespace {

/// Sizes read of a tensor whose number of dimensions is unknown.
constexpr unsigned ProbedDims = 4;

/// The data pointer call `E` is, through casts, locals set once and (where
/// `VF` is the context of a call site) the parameters the caller binds;
/// `VF` becomes the facts of the function the call is in.
const CXXMemberCallExpr *dataCall(const Expr *E, const ValueFacts *&VF,
                                  unsigned Depth = 0) {
  if (!E || Depth > 8)
    return nullptr;
  if (const CXXMemberCallExpr *Data = dataPointerCall(E))
    return Data;
  for (int Step = 0; Step < 8; ++Step) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
      E = Cast->getSubExpr();
    else
      break;
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !VD->getType()->isPointerType())
    return nullptr;
  auto Defs = VF->reachingDefinitions(VD, DRE);
  if (!Defs || Defs->size() != 1)
    return nullptr;
  const Definition &D = *Defs->front();
  if (D.Kind == DefKind::Entry) {
    const auto *P = dyn_cast<ParmVarDecl>(VD);
    std::optional<ValueFacts::Binding> B =
        P ? VF->binding(P) : std::nullopt;
    if (!B)
      return nullptr;
    VF = B->Facts;
    return dataCall(B->Arg, VF, Depth + 1);
  }
  if (D.Kind != DefKind::Init && D.Kind != DefKind::Assign)
    return nullptr;
  return dataCall(D.Value, VF, Depth + 1);
}

} // namespace

std::optional<TensorMatrix> tensorMatrix(const Expr *Ptr,
                                         const ValueFacts &VF) {
  if (!unitMayHoldTensors(VF.context()))
    return std::nullopt;
  TensorMatrix M;
  const ValueFacts *Facts = &VF;
  M.Data = dataCall(Ptr, Facts);
  M.Tensor = M.Data ? dataPointerTensor(M.Data) : nullptr;
  if (!M.Tensor)
    return std::nullopt;
  M.Layout = tensorLayout(M.Tensor);
  if (M.Layout.Order == TensorOrder::Unknown || !M.Layout.Storage)
    return std::nullopt;
  unsigned N = M.Layout.Dims ? *M.Layout.Dims : ProbedDims;
  for (unsigned Dim = 0; Dim < N; ++Dim)
    M.Sizes.push_back(tensorSizeValue(M.Layout.Storage, int(Dim), *Facts));
  return M;
}

std::optional<int> sizeDimOf(const Symbol &S, const VarDecl *Tensor) {
  std::optional<std::pair<const VarDecl *, int>> Of = tensorSizeOf(S);
  if (!Of || !Tensor || Of->first != Tensor)
    return std::nullopt;
  return Of->second;
}

std::optional<MisreadTensorLd>
misreadTensorLd(const TensorMatrix &M, const SymExpr &Ld,
                const std::optional<SymExpr> &Cols,
                llvm::ArrayRef<SymExpr> CallValues,
                const SymbolBounds &Bounds) {
  MisreadTensorLd R;
  for (unsigned Dim = 0; Dim < M.Sizes.size(); ++Dim)
    if (M.Sizes[Dim] && *M.Sizes[Dim] == Ld) {
      R.Named = int(Dim);
      break;
    }
  if (R.Named < 0 || (Cols && Cols->getConstant() == 1))
    return std::nullopt;
  const TensorLayout &L = M.Layout;
  if (L.Dims) {
    if (unsigned(R.Named) + 1 >= *L.Dims)
      return std::nullopt; // the last size: right
    R.Last = M.Sizes.back();
    if (R.Last && (compare(Ld, *R.Last, Bounds) == Order::Equal ||
                   R.Last->getConstant() == 1))
      return std::nullopt;
    return R;
  }
  std::optional<Symbol> Sym = Ld.asSymbol();
  std::optional<std::pair<const clang::VarDecl *, int>> Of =
      Sym ? tensorSizeOf(*Sym) : std::nullopt;
  if (!Of)
    return std::nullopt;
  for (const SymExpr &V : CallValues)
    for (const auto &[Mono, Coef] : V.terms())
      for (const Symbol *S : {&Mono.First, &Mono.Second})
        if (std::optional<int> D = sizeDimOf(*S, Of->first);
            D && *D > R.Named)
          return R;
  return std::nullopt;
}

} // namespace cublas_tidy
