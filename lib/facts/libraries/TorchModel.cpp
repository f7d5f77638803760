//===- TorchModel.cpp -----------------------------------------------------===//

#include "facts/libraries/TorchModel.h"

#include "facts/Allocations.h"
#include "facts/OperandTypes.h"
#include "facts/PointerProvenance.h"
#include "facts/TensorFacts.h"

#include "ast/TypeNames.h"
#include "model/ComputeTypes.h"
#include "model/TorchApi.h"

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
    return (Var + ".size(" + llvm::Twine(Dim) + ")").str();
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

/// The C++ element type a tensor's dtype is held in, when the source states
/// the dtype and the model knows a type for it.
const DataTypeInfo *dtypeElement(const TensorFact &T, llvm::StringRef &Name) {
  Name = torch_api::elementTypeOf(T.DType);
  return Name.empty() ? nullptr : dataTypeOfTypeName(Name);
}

class TorchModel : public LibraryModel {
public:
  llvm::StringRef name() const override { return "PyTorch"; }

  /// t.data_ptr<float>(): the storage of a tensor whose device is known.
  std::optional<PointerFact> pointee(const Expr *E,
                                     const PointerQuery &Q) const override {
    const CXXMemberCallExpr *Data = dataPointerCall(E);
    if (!Data || Data != E->IgnoreParens())
      return std::nullopt;
    TensorFact T = tensorFact(dataPointerTensor(Data), Q.context());
    PointerFact F;
    F.Origin.Kind = OriginKind::Tensor;
    F.Origin.Where = Data;
    F.Origin.Object = T.Var;
    F.Origin.Name = "torch::Tensor";
    F.Origin.Established = T.DeviceFrom;
    F.Origin.DefaultDevice = T.DefaultDevice;
    switch (T.Device) {
    case TensorDevice::CPU:
      F.Kind = T.Pinned ? MemoryKind::PinnedHost : MemoryKind::PageableHost;
      return F;
    case TensorDevice::CUDA:
      F.Kind = MemoryKind::Device;
      return F;
    case TensorDevice::Unknown:
      break;
    }
    return PointerFact();
  }

  /// The storage of a tensor made with its sizes written out
  /// (`torch::empty({m, n}, ...)`), as elements of the pointer's type (of
  /// the tensor's dtype for `data_ptr()`).
  std::optional<Extent> extent(const Expr *E,
                               const ExtentQuery &Q) const override {
    const ValueFacts &Facts = Q.facts();
    const CXXMemberCallExpr *Data = dataPointerCall(E);
    if (!Data || Data != E)
      return std::nullopt;
    std::optional<TensorAllocation> A =
        tensorAllocation(dataPointerTensor(Data));
    if (!A)
      return std::nullopt;
    QualType Elem = Data->getType()->getPointeeType();
    std::optional<int64_t> Size;
    if (!Elem.isNull() && !Elem->isVoidType()) {
      Size = sizeInBytes(Elem, Facts.context());
    } else {
      Elem = QualType();
      llvm::StringRef Held;
      if (const DataTypeInfo *D = dtypeElement(
              tensorFact(dataPointerTensor(Data), Facts.context()), Held))
        if (D->Bytes)
          Size = D->Bytes;
    }
    if (!Size)
      return std::nullopt;
    std::optional<SymExpr> Bytes = SymExpr::constant(*Size);
    for (const Expr *Dim : A->Sizes) {
      std::optional<SymExpr> N = Facts.evaluate(Dim);
      Bytes = N && Bytes ? Bytes->mul(*N) : std::nullopt;
      if (!Bytes)
        return std::nullopt;
    }
    Extent X;
    X.Bytes = *Bytes;
    X.Origin = A->Factory;
    X.OriginVar = A->Var;
    X.Allocator = "tensor";
    X.SizeExpr = A->SizeList;
    X.ElementType = Elem;
    return X;
  }

  /// t.size(0), t.sizes()[1]: as written in the factory, or a symbol.
  std::optional<SymExpr> integer(const Expr *E,
                                 IntegerEvaluator Evaluate) const override {
    if (!isa<CXXMemberCallExpr, CXXOperatorCallExpr>(E))
      return std::nullopt;
    std::optional<TensorSize> S = tensorSizeRead(E);
    if (S && S->Written)
      return Evaluate(S->Written);
    return sizeValue(S);
  }

  /// `t.data_ptr()` (void *) of a tensor whose dtype the source states.
  std::optional<HeldType> heldType(const Expr *E,
                                   const ASTContext &Ctx) const override {
    const CXXMemberCallExpr *Data = dataPointerCall(E);
    if (!Data)
      return std::nullopt;
    TensorFact Tensor = tensorFact(dataPointerTensor(Data), Ctx);
    llvm::StringRef Element;
    const DataTypeInfo *Type = dtypeElement(Tensor, Element);
    if (!Type)
      return std::nullopt;
    HeldType H;
    H.Type = Type;
    H.Spelled = Element.str();
    H.Bytes = Type->Bytes;
    H.TensorDType = Tensor.DType;
    H.DTypeFrom = Tensor.DTypeFrom;
    return H;
  }

  /// `at::cuda::getCurrentCUDABlasHandle()` and its cuBLASLt twin.
  const CallExpr *ownedHandle(const Expr *E) const override {
    return torchOwnedHandle(E);
  }
};

} // namespace

const LibraryModel &torchModel() {
  static const TorchModel Model;
  return Model;
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

} // namespace cublas_tidy
