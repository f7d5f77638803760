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
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <utility>

namespace cublas_tidy {

class LibraryModel;

/// How the elements of an object lie in its storage, where the source says
/// so. RowMajor: contiguous. Transposed: a transposed view of a RowMajor
/// 2-D object, whose storage is that object's. Permuted: a view of a
/// RowMajor object of three or more dimensions that reorders them
/// (`q.transpose(1, 2)`, `k.permute({0, 2, 1, 3})`), whose storage is that
/// object's too.
enum class StorageOrder : std::uint8_t {
  Unknown,
  RowMajor,
  Transposed,
  Permuted
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
  /// The call that makes a Transposed view.
  const clang::Expr *View = nullptr;
  /// The number of dimensions of Storage, when the source fixes it.
  std::optional<unsigned> Dims;
  /// Permuted: dimension J of the view is dimension Permutation[J] of
  /// Storage (Dims entries).
  llvm::SmallVector<unsigned, 4> Permutation;
};

struct StorageMatrix {
  /// The model whose object it is.
  const LibraryModel *Library = nullptr;
  /// The call that gives the pointer (`bt.data_ptr<float>()`).
  const clang::Expr *Data = nullptr;
  /// The object the pointer is taken from (`bt`).
  const clang::Expr *Object = nullptr;
  /// RowMajor or Transposed; Layout.Storage is the row-major object.
  StorageLayout Layout;
  /// The sizes of Layout.Storage by dimension, where known: every
  /// dimension when Layout.Dims is known, the first few otherwise.
  llvm::SmallVector<std::optional<SymExpr>, 4> Sizes;
  /// Pairs of dimensions (lower first) of Layout.Storage whose sizes a
  /// check before the use compares equal (`TORCH_CHECK(w.size(0) ==
  /// w.size(1))`): a leading dimension that names either names both.
  llvm::SmallVector<std::pair<unsigned, unsigned>, 2> EqualSizes;
};

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

/// A leading dimension or batch stride that reads a Permuted view as if it
/// were packed: the value a packed tensor of the view's sizes would have
/// (the view's last size; the size of one of its matrices), where the
/// storage it shares has another.
struct MisreadViewStride {
  SymExpr Packed; // what was given
  SymExpr Actual; // the storage's stride for it
};

/// Whether the leading dimension `Ld` of the Permuted `M` is the view's
/// last size while, in its storage, the rows of the view's matrices (its
/// last two dimensions, one of which has unit stride) are another
/// distance apart. nullopt when right, unknown, or not such a view.
std::optional<MisreadViewStride> misreadViewLd(const StorageMatrix &M,
                                               const SymExpr &Ld);

/// Whether the batch stride `Stride` of the Permuted `M` is the size of one
/// of the view's matrices (the product of its last two sizes) while, in its
/// storage, consecutive matrices along the view's third dimension from the
/// end are another distance apart.
std::optional<MisreadViewStride> misreadViewStride(const StorageMatrix &M,
                                                   const SymExpr &Stride);

} // namespace cublas_tidy

#endif
