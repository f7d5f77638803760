//===- TensorSizes.cpp ----------------------------------------------------===//

#include "facts/libraries/torch/TensorSizes.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/Twine.h"

using namespace clang;

namespace cublas_tidy {

namespace {

/// One tag per dimension, -8 to 7: a tensor size symbol's Tag.
constexpr int MinTensorDim = -8, MaxTensorDim = 7;

class TensorSizeTag : public SymbolTag {
public:
  int Dim = 0;
  std::string name(llvm::StringRef Var) const override {
    return tensorSizeName(Var, Dim);
  }
};

struct TensorSizeTags {
  TensorSizeTag Tags[MaxTensorDim - MinTensorDim + 1];
  TensorSizeTags() {
    for (int D = MinTensorDim; D <= MaxTensorDim; ++D)
      Tags[D - MinTensorDim].Dim = D;
  }
};

const TensorSizeTags &sizeTags() {
  static const TensorSizeTags Tags;
  return Tags;
}

std::optional<SymExpr> sizeValue(const std::optional<TensorSize> &S) {
  if (!S || !S->Tensor)
    return std::nullopt;
  Symbol Sym = tensorSizeSymbol(S->Tensor, S->Dim);
  if (!Sym.Decl)
    return std::nullopt;
  return SymExpr::symbol(Sym);
}

} // namespace

std::string tensorSizeName(llvm::StringRef Tensor, int Dim) {
  return (Tensor + ".size(" + llvm::Twine(Dim) + ")").str();
}

Symbol tensorSizeSymbol(const VarDecl *Tensor, int Dim) {
  Symbol S;
  S.Decl = Tensor;
  if (Dim >= MinTensorDim && Dim <= MaxTensorDim)
    S.Tag = &sizeTags().Tags[Dim - MinTensorDim];
  else
    S.Decl = nullptr;
  S.NonNegative = true;
  return S;
}

std::optional<std::pair<const VarDecl *, int>>
tensorSizeOf(const Symbol &S) {
  const TensorSizeTag *First = &sizeTags().Tags[0];
  const TensorSizeTag *Last = &sizeTags().Tags[MaxTensorDim - MinTensorDim];
  for (const TensorSizeTag *T = First; T <= Last; ++T)
    if (S.Decl && S.Tag == T)
      return std::pair(cast<VarDecl>(S.Decl), T->Dim);
  return std::nullopt;
}

std::optional<SymExpr> tensorSizeValue(const Expr *Tensor, int Dim,
                                       const ValueFacts &Facts) {
  std::optional<TensorSize> S = tensorSize(Tensor, Dim);
  if (S && S->Written)
    return Facts.evaluate(S->Written);
  return sizeValue(S);
}

std::optional<SymExpr> tensorSizeReadValue(const Expr *E,
                                           IntegerEvaluator Evaluate) {
  std::optional<TensorSize> S = tensorSizeRead(E);
  if (S && S->Written)
    return Evaluate(S->Written);
  return sizeValue(S);
}

} // namespace cublas_tidy
