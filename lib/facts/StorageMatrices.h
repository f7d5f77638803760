//===- StorageMatrices.h - Operands that are an object's storage ----------===//
//
// A matrix operand of a cuBLAS call may be the storage of a library's
// object: a pointer the library hands out for it (PyTorch's
// `t.data_ptr<float>()`), or a local pointer set from one once. When the
// source states how that object's elements lie (row-major, or a transposed
// view of a row-major object), its sizes say what a leading dimension must
// be: the storage of a row-major {R, C} object is, read column-major,
// C x R with leading dimension C, whatever view the pointer was taken from.
// The library models (LibraryModel.h) say which pointers are such storage.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_STORAGEMATRICES_H
#define CUBLAS_TIDY_LIB_FACTS_STORAGEMATRICES_H

#include "facts/ValueFacts.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <utility>

namespace cublas_tidy {

class LibraryModel;

/// How the elements of an object lie in its storage, where the source says
/// so. RowMajor: contiguous. Transposed: a transposed view of a RowMajor
/// 2-D object, whose storage is that object's. View: a view of a RowMajor
/// object that shares its storage with strides of its own, each dimension
/// described by a ViewDim: reordered (`q.transpose(1, 2)`,
/// `k.permute({0, 2, 1, 3})` of three or more dimensions), narrowed
/// (`x.narrow(1, 0, k)`, `x.slice(1, a, b)`), selected (`x.select(1, i)`),
/// expanded (`b.expand({m, n})`) or given explicit strides (`as_strided`).
enum class StorageOrder : std::uint8_t { Unknown, RowMajor, Transposed, View };

/// One dimension of a View, as the source makes it.
struct ViewDim {
  /// The dimension of the storage whose stride it has; Broadcast: stride 0
  /// (a dimension expand() repeats); Explicit: the stride written in
  /// Stride.
  static constexpr int Broadcast = -1;
  static constexpr int Explicit = -2;
  int StorageDim = 0;
  /// The size written for it (narrow's length, expand's size), when it is
  /// not the storage dimension's own size; the stride as_strided gives.
  const clang::Expr *Size = nullptr;
  const clang::Expr *Stride = nullptr;
  /// slice(dim, start, end): the size is End - Size (Size the start).
  const clang::Expr *End = nullptr;
  /// expand() gave the storage dimension the size Size: its own stride
  /// when the two sizes are equal, stride 0 when the storage's is 1.
  bool MaybeBroadcast = false;
};

/// What the view operations between a View and its storage did, as a set
/// of flags (for the messages).
enum ViewOps : unsigned {
  Reorders = 1,
  Narrows = 2,
  Selects = 4,
  Expands = 8,
  Strides = 16,
};

struct StorageLayout {
  StorageOrder Order = StorageOrder::Unknown;
  /// The row-major object whose sizes the storage has (for Transposed, the
  /// object transposed): the expression, and its variable when it has one.
  const clang::Expr *Storage = nullptr;
  const clang::VarDecl *StorageVar = nullptr;
  /// What makes the order known: the call that made the storage, or the
  /// condition of a check before the use.
  const clang::Expr *Why = nullptr;
  /// The call that makes a Transposed view or a View (the last view
  /// operation).
  const clang::Expr *View = nullptr;
  /// The number of dimensions of Storage, when the source fixes it.
  std::optional<unsigned> Dims;
  /// View: its dimensions, first to last, and the ViewOps that made them.
  llvm::SmallVector<ViewDim, 4> ViewDims;
  unsigned Ops = 0;
};

struct StorageMatrix {
  /// The model whose object it is.
  const LibraryModel *Library = nullptr;
  /// The call that gives the pointer (`bt.data_ptr<float>()`).
  const clang::Expr *Data = nullptr;
  /// The object the pointer is taken from (`bt`).
  const clang::Expr *Object = nullptr;
  /// RowMajor, Transposed or View; Layout.Storage is the row-major object.
  StorageLayout Layout;
  /// The sizes of Layout.Storage by dimension, where known: every
  /// dimension when Layout.Dims is known, the first few otherwise.
  llvm::SmallVector<std::optional<SymExpr>, 4> Sizes;
  /// Pairs of dimensions (lower first) of Layout.Storage whose sizes a
  /// check before the use compares equal (`TORCH_CHECK(w.size(0) ==
  /// w.size(1))`): a leading dimension that names either names both.
  llvm::SmallVector<std::pair<unsigned, unsigned>, 2> EqualSizes;
  /// View: the size and the stride in the storage of each of its
  /// dimensions, where known (viewGeometry()).
  llvm::SmallVector<std::optional<SymExpr>, 4> ViewSizes;
  llvm::SmallVector<std::optional<SymExpr>, 4> ViewStrides;
};

/// Fills `M.ViewSizes` and `M.ViewStrides` of a View from its ViewDims and
/// the storage's sizes, the written sizes and strides evaluated by
/// `Evaluate` (a library model's part of storageMatrix()).
void viewGeometry(
    StorageMatrix &M,
    llvm::function_ref<std::optional<SymExpr>(const clang::Expr *)> Evaluate);

/// The object storage `Ptr` (a pointer argument) is, with a known layout,
/// as the first library model that knows it says; nullopt otherwise. Where
/// `VF` is the context of a call site, a pointer parameter is followed to
/// the caller's argument, and the sizes are the caller's.
std::optional<StorageMatrix> storageMatrix(const clang::Expr *Ptr,
                                           const ValueFacts &VF);

/// A leading dimension that is the size of a dimension of `M`'s storage
/// other than the last one: read column-major, that storage has the last
/// size as its leading dimension, so `Ld` describes another layout.
struct MisreadStorageLd {
  int Named = -1;              // the dimension whose size `Ld` is
  std::optional<SymExpr> Last; // the last size, when known
};

/// Whether the leading dimension `Ld` of a matrix of `Cols` columns
/// (nullopt: unknown) misreads `M`'s storage. A matrix of one column is one
/// run of elements: any leading dimension from its row count up describes
/// it. Without the object's number of dimensions, only a larger dimension
/// of the same object read in `CallValues` (the values of the call's
/// arguments) shows that the named size is not the last. A size checked
/// equal to the last (with the number of dimensions unknown: to any later
/// one) is the last size too.
std::optional<MisreadStorageLd>
misreadStorageLd(const StorageMatrix &M, const SymExpr &Ld,
                 const std::optional<SymExpr> &Cols,
                 llvm::ArrayRef<SymExpr> CallValues,
                 const SymbolBounds &Bounds);

/// A leading dimension or batch stride that reads a View as if it were
/// packed: the value a packed tensor of the view's sizes would have (the
/// view's last size; the size of one of its matrices), where the storage it
/// shares has another.
struct MisreadViewStride {
  SymExpr Packed; // what was given
  SymExpr Actual; // the storage's stride for it
};

/// Whether the leading dimension `Ld` of the View `M` is the view's last
/// size while, in its storage, the rows of the view's matrices (its last
/// two dimensions, one of which has unit stride) are another distance
/// apart. nullopt when right, unknown, or not such a view.
std::optional<MisreadViewStride> misreadViewLd(const StorageMatrix &M,
                                               const SymExpr &Ld);

/// Whether the batch stride `Stride` of the View `M` is the size of one
/// of the view's matrices (the product of its last two sizes) while, in its
/// storage, consecutive matrices along the view's third dimension from the
/// end are another distance apart.
std::optional<MisreadViewStride> misreadViewStride(const StorageMatrix &M,
                                                   const SymExpr &Stride);

} // namespace cublas_tidy

#endif
