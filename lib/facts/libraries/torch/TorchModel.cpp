//===- TorchModel.cpp -----------------------------------------------------===//

#include "facts/libraries/torch/TorchModel.h"

#include "facts/Allocations.h"
#include "facts/OperandTypes.h"
#include "facts/PointerProvenance.h"
#include "facts/StorageMatrices.h"
#include "facts/libraries/torch/TensorFacts.h"
#include "facts/libraries/torch/TensorMatrices.h"
#include "facts/libraries/torch/TensorShapes.h"

#include "ast/TypeNames.h"
#include "model/ComputeTypes.h"
#include "model/TorchApi.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace cublas_tidy {

namespace {

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
    F.Origin.Kind = OriginKind::Library;
    F.Origin.Library = this;
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
    X.Allocator = terms().Object;
    X.SizeExpr = A->SizeList;
    X.ElementType = Elem;
    return X;
  }

  /// t.size(0), t.sizes()[1]: as written in the factory, or a symbol.
  std::optional<SymExpr> integer(const Expr *E,
                                 IntegerEvaluator Evaluate) const override {
    if (!isa<CXXMemberCallExpr, CXXOperatorCallExpr>(E))
      return std::nullopt;
    return tensorSizeReadValue(E, Evaluate);
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
    H.Library = this;
    H.LibraryType = Tensor.DType;
    H.LibraryTypeFrom = Tensor.DTypeFrom;
    return H;
  }

  /// `at::cuda::getCurrentCUDABlasHandle()` and its cuBLASLt twin.
  const CallExpr *ownedHandle(const Expr *E) const override {
    return torchOwnedHandle(E);
  }

  /// `t.data_ptr<float>()` of a row-major tensor or a transposed view.
  std::optional<StorageMatrix> matrix(const Expr *Ptr,
                                      const ValueFacts &VF) const override {
    std::optional<StorageMatrix> M = tensorMatrix(Ptr, VF);
    if (M)
      M->Library = this;
    return M;
  }

  std::optional<std::pair<const VarDecl *, int>>
  sizeSymbolOf(const Symbol &S) const override {
    return tensorSizeOf(S);
  }

  std::string sizeSpelling(llvm::StringRef Object, int Dim) const override {
    return tensorSizeName(Object, Dim);
  }

  /// `t.numel()`, `t.nbytes()` (by the method's name alone).
  bool isElementCount(const Expr *E) const override {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
    const CXXMethodDecl *M = MC ? MC->getMethodDecl() : nullptr;
    return M && (M->getName() == "numel" || M->getName() == "nbytes");
  }

  LibraryTerms terms() const override {
    LibraryTerms T;
    T.Object = "tensor";
    T.DeviceObject = "CUDA tensor";
    T.HostObject = "CPU tensor";
    T.ElementType = "dtype";
    return T;
  }
};

} // namespace

const LibraryModel &torchModel() {
  static const TorchModel Model;
  return Model;
}

} // namespace cublas_tidy
