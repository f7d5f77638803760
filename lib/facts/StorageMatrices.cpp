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
      for (const Symbol *S : {&Mono.First, &Mono.Second})
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

/// The view's last two dimensions as dimensions of the storage, when `M`
/// is a Permuted view of known rank whose every size is known.
std::optional<std::pair<unsigned, unsigned>>
viewMatrixDims(const StorageMatrix &M) {
  const StorageLayout &L = M.Layout;
  unsigned N = L.Permutation.size();
  if (L.Order != StorageOrder::Permuted || N < 3 || !L.Dims || *L.Dims != N ||
      M.Sizes.size() != N ||
      !llvm::all_of(M.Sizes, [](const auto &S) { return S.has_value(); }))
    return std::nullopt;
  return std::pair(L.Permutation[N - 2], L.Permutation[N - 1]);
}

} // namespace

std::optional<MisreadViewStride> misreadViewLd(const StorageMatrix &M,
                                               const SymExpr &Ld) {
  auto Dims = viewMatrixDims(M);
  if (!Dims)
    return std::nullopt;
  auto [Rows, Cols] = *Dims;
  unsigned Last = M.Sizes.size() - 1;
  // One of the two has unit stride; the other's stride is the leading
  // dimension that describes the view.
  if (Rows != Last && Cols != Last)
    return std::nullopt;
  std::optional<SymExpr> Actual = storageStride(M, Cols == Last ? Rows : Cols);
  const SymExpr &Packed = *M.Sizes[Cols];
  if (!Actual || !(Ld == Packed) || *Actual == Packed)
    return std::nullopt;
  return MisreadViewStride{Packed, *Actual};
}

std::optional<MisreadViewStride> misreadViewStride(const StorageMatrix &M,
                                                   const SymExpr &Stride) {
  auto Dims = viewMatrixDims(M);
  if (!Dims)
    return std::nullopt;
  const StorageLayout &L = M.Layout;
  std::optional<SymExpr> Packed =
      M.Sizes[Dims->first]->mul(*M.Sizes[Dims->second]);
  std::optional<SymExpr> Actual =
      storageStride(M, L.Permutation[L.Permutation.size() - 3]);
  if (!Packed || !Actual || !(Stride == *Packed) || *Actual == *Packed)
    return std::nullopt;
  return MisreadViewStride{*Packed, *Actual};
}

} // namespace cublas_tidy
