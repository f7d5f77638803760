//===- StorageMatrices.cpp ------------------------------------------------===//

#include "facts/StorageMatrices.h"

#include "facts/LibraryModel.h"

using namespace clang;

namespace cublas_tidy {

namespace {

/// The dimension of the variable `Object` whose size the symbol `S` is, as
/// `Library` names its sizes.
std::optional<int> dimOfSize(const LibraryModel &Library, const Symbol &S,
                             const VarDecl *Object) {
  std::optional<std::pair<const VarDecl *, int>> Of = Library.sizeSymbolOf(S);
  if (!Of || !Object || Of->first != Object)
    return std::nullopt;
  return Of->second;
}

/// Whether a size of `Object` larger than dimension `Named` is among the
/// symbols of `CallValues`.
bool laterSizeRead(const LibraryModel &Library, const VarDecl *Object,
                   int Named, llvm::ArrayRef<SymExpr> CallValues) {
  for (const SymExpr &V : CallValues)
    for (const auto &[Mono, Coef] : V.terms())
      for (const Symbol *S : Mono.symbols())
        if (std::optional<int> D = dimOfSize(Library, *S, Object);
            D && *D > Named)
          return true;
  return false;
}

} // namespace

std::optional<StorageMatrix> storageMatrix(const Expr *Ptr,
                                           const ValueFacts &VF) {
  for (const LibraryModel *M : libraryModels())
    if (std::optional<StorageMatrix> Matrix = M->matrix(Ptr, VF))
      return Matrix;
  return std::nullopt;
}

std::optional<MisreadStorageLd>
misreadStorageLd(const StorageMatrix &M, const SymExpr &Ld,
                 const std::optional<SymExpr> &Cols,
                 llvm::ArrayRef<SymExpr> CallValues,
                 const SymbolBounds &Bounds) {
  MisreadStorageLd R;
  for (unsigned Dim = 0; Dim < M.Sizes.size(); ++Dim)
    if (M.Sizes[Dim] && *M.Sizes[Dim] == Ld) {
      R.Named = int(Dim);
      break;
    }
  if (R.Named < 0 || (Cols && Cols->getConstant() == 1) || !M.Library)
    return std::nullopt;
  const StorageLayout &L = M.Layout;
  auto CheckedEqual = [&](unsigned Later) {
    return llvm::is_contained(M.EqualSizes,
                              std::make_pair(unsigned(R.Named), Later));
  };
  if (L.Dims) {
    if (unsigned(R.Named) + 1 >= *L.Dims || CheckedEqual(*L.Dims - 1))
      return std::nullopt; // the last size: right
    R.Last = M.Sizes.back();
    if (R.Last && (compare(Ld, *R.Last, Bounds) == Order::Equal ||
                   R.Last->getConstant() == 1))
      return std::nullopt;
    return R;
  }
  std::optional<Symbol> Sym = Ld.asSymbol();
  std::optional<std::pair<const VarDecl *, int>> Of =
      Sym ? M.Library->sizeSymbolOf(*Sym) : std::nullopt;
  if (!Of || !laterSizeRead(*M.Library, Of->first, R.Named, CallValues) ||
      llvm::any_of(M.EqualSizes,
                   [&](auto Pair) { return Pair.first == unsigned(R.Named); }))
    return std::nullopt;
  return R;
}

namespace {

/// The stride of dimension `Dim` of `M`'s row-major storage: the product
/// of the sizes after it; nullopt when one is unknown or the product is
/// beyond SymExpr (three symbols).
std::optional<SymExpr> storageStride(const StorageMatrix &M, unsigned Dim) {
  SymExpr Stride = SymExpr::constant(1);
  for (unsigned I = Dim + 1; I < M.Sizes.size(); ++I) {
    std::optional<SymExpr> Next =
        M.Sizes[I] ? Stride.mul(*M.Sizes[I]) : std::nullopt;
    if (!Next)
      return std::nullopt;
    Stride = *Next;
  }
  return Stride;
}

/// The number of dimensions of the View `M` when it has `Last` or more
/// and the last `Last` have a known size and stride; 0 otherwise.
unsigned knownViewDims(const StorageMatrix &M, unsigned Last) {
  unsigned N = M.Layout.ViewDims.size();
  if (M.Layout.Order != StorageOrder::View || N < Last ||
      M.ViewSizes.size() != N || M.ViewStrides.size() != N)
    return 0;
  for (unsigned I = N - Last; I < N; ++I)
    if (!M.ViewSizes[I] || !M.ViewStrides[I])
      return 0;
  return N;
}

} // namespace

void viewGeometry(
    StorageMatrix &M,
    llvm::function_ref<std::optional<SymExpr>(const Expr *)> Evaluate) {
  M.ViewSizes.clear();
  M.ViewStrides.clear();
  // The storage's strides need its number of dimensions.
  if (!M.Layout.Dims || M.Sizes.size() != *M.Layout.Dims)
    return;
  for (const ViewDim &D : M.Layout.ViewDims) {
    bool Stored = D.StorageDim >= 0 && unsigned(D.StorageDim) < M.Sizes.size();
    std::optional<SymExpr> Size;
    if (D.End) {
      std::optional<SymExpr> End = Evaluate(D.End);
      std::optional<SymExpr> Start =
          D.Size ? Evaluate(D.Size) : SymExpr::constant(0);
      if (End && Start)
        Size = End->sub(*Start);
    } else if (D.Size) {
      Size = Evaluate(D.Size);
    } else if (Stored) {
      Size = M.Sizes[D.StorageDim];
    }
    std::optional<SymExpr> Stride;
    if (D.MaybeBroadcast) {
      std::optional<SymExpr> Own =
          Stored ? M.Sizes[D.StorageDim] : std::nullopt;
      if (Own && Size && *Own == *Size)
        Stride = storageStride(M, unsigned(D.StorageDim));
      else if (Own && Own->getConstant() == 1)
        Stride = SymExpr::constant(0);
    } else if (D.StorageDim == ViewDim::Broadcast)
      Stride = SymExpr::constant(0);
    else if (D.StorageDim == ViewDim::Explicit)
      Stride = D.Stride ? Evaluate(D.Stride) : std::nullopt;
    else if (Stored)
      Stride = storageStride(M, unsigned(D.StorageDim));
    M.ViewSizes.push_back(std::move(Size));
    M.ViewStrides.push_back(std::move(Stride));
  }
}

std::optional<MisreadViewStride> misreadViewLd(const StorageMatrix &M,
                                               const SymExpr &Ld) {
  unsigned N = knownViewDims(M, 2);
  if (!N)
    return std::nullopt;
  const SymExpr &RowStride = *M.ViewStrides[N - 2];
  const SymExpr &ColStride = *M.ViewStrides[N - 1];
  // One of the two has unit stride; the other's stride is the leading
  // dimension that describes the view.
  std::optional<SymExpr> Actual;
  if (ColStride.getConstant() == 1)
    Actual = RowStride;
  else if (RowStride.getConstant() == 1)
    Actual = ColStride;
  const SymExpr &Packed = *M.ViewSizes[N - 1];
  if (!Actual || !(Ld == Packed) || *Actual == Packed)
    return std::nullopt;
  return MisreadViewStride{Packed, *Actual};
}

std::optional<MisreadViewStride> misreadViewStride(const StorageMatrix &M,
                                                   const SymExpr &Stride) {
  unsigned N = knownViewDims(M, 3);
  if (!N)
    return std::nullopt;
  // Only the batch dimensions reordered (a permutation of the storage's,
  // nothing narrowed, repeated or strided), each matrix the storage's own:
  // a stride of one packed matrix takes the matrices in the storage's
  // order, which is right when every operand is reordered alike (and
  // which the batch count alone cannot tell).
  const llvm::SmallVector<ViewDim, 4> &Dims = M.Layout.ViewDims;
  int Rank = static_cast<int>(M.Sizes.size());
  if (static_cast<int>(Dims.size()) == Rank && Dims.size() == N &&
      Dims[N - 2].StorageDim == Rank - 2 &&
      Dims[N - 1].StorageDim == Rank - 1 &&
      llvm::all_of(Dims, [](const ViewDim &D) {
        return D.StorageDim >= 0 && !D.Size && !D.End && !D.MaybeBroadcast;
      }))
    return std::nullopt;
  std::optional<SymExpr> Packed = M.ViewSizes[N - 2]->mul(*M.ViewSizes[N - 1]);
  const SymExpr &Actual = *M.ViewStrides[N - 3];
  if (!Packed || !(Stride == *Packed) || Actual == *Packed)
    return std::nullopt;
  return MisreadViewStride{*Packed, Actual};
}

} // namespace cublas_tidy
