//===- TensorMatrices.cpp -------------------------------------------------===//

#include "facts/libraries/torch/TensorMatrices.h"

#include "facts/libraries/torch/TensorChecks.h"
#include "facts/libraries/torch/TensorFacts.h"
#include "facts/libraries/torch/TensorShapes.h"
#include "facts/libraries/torch/TensorSizes.h"

#include "clang/AST/ExprCXX.h"

#include <algorithm>

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

/// The pairs of dimensions of `M`'s storage, a tensor parameter, whose
/// sizes a check before the use compares equal: `TORCH_CHECK(w.size(0) ==
/// w.size(1))`, or through locals (`n == w.size(1)` with `n = w.size(0)`),
/// each side evaluated in `Facts` and matched to `M.Sizes`.
void addCheckedEqualSizes(TensorMatrix &M, const ValueFacts &Facts) {
  const auto *P = dyn_cast_or_null<ParmVarDecl>(M.Layout.StorageVar);
  if (!P || !M.Data)
    return;
  auto DimOf = [&](const Expr *E) -> int {
    std::optional<SymExpr> V = Facts.evaluate(E);
    for (unsigned Dim = 0; V && Dim < M.Sizes.size(); ++Dim)
      if (M.Sizes[Dim] && *M.Sizes[Dim] == *V)
        return int(Dim);
    return -1;
  };
  torch_facts::checkedBefore(P, M.Data, [&](const Expr *Conjunct) {
    const auto *BO = dyn_cast<BinaryOperator>(Conjunct);
    if (!BO || BO->getOpcode() != BO_EQ)
      return false;
    int A = DimOf(BO->getLHS()), B = DimOf(BO->getRHS());
    if (A >= 0 && B >= 0 && A != B)
      M.EqualSizes.push_back(
          {unsigned(std::min(A, B)), unsigned(std::max(A, B))});
    return false; // every check before the use
  });
}

} // namespace

std::optional<TensorMatrix> tensorMatrix(const Expr *Ptr,
                                         const ValueFacts &VF) {
  if (!unitMayHoldTensors(VF.context()))
    return std::nullopt;
  TensorMatrix M;
  const ValueFacts *Facts = &VF;
  const CXXMemberCallExpr *Data = dataCall(Ptr, Facts);
  M.Data = Data;
  M.Object = Data ? dataPointerTensor(Data) : nullptr;
  if (!M.Object)
    return std::nullopt;
  M.Layout = tensorLayout(M.Object);
  if (M.Layout.Order == TensorOrder::Unknown || !M.Layout.Storage)
    return std::nullopt;
  unsigned N = M.Layout.Dims ? *M.Layout.Dims : ProbedDims;
  for (unsigned Dim = 0; Dim < N; ++Dim)
    M.Sizes.push_back(tensorSizeValue(M.Layout.Storage, int(Dim), *Facts));
  addCheckedEqualSizes(M, *Facts);
  if (M.Layout.Order == TensorOrder::View)
    viewGeometry(M, [&](const Expr *E) { return Facts->evaluate(E); });
  return M;
}

std::optional<int> sizeDimOf(const Symbol &S, const VarDecl *Tensor) {
  std::optional<std::pair<const VarDecl *, int>> Of = tensorSizeOf(S);
  if (!Of || !Tensor || Of->first != Tensor)
    return std::nullopt;
  return Of->second;
}

} // namespace cublas_tidy
