//===- TensorMatrices.h - cuBLAS operands that are a tensor's storage -----===//
//
// A matrix operand of a cuBLAS call given as `t.data_ptr<float>()` (or a
// local pointer set from it once) is the storage of the tensor `t`. When the
// source states how that tensor's elements lie (facts/TensorFacts.h:
// row-major from a factory, `.contiguous()` or a TORCH_CHECK; a `.t()` view
// of such a tensor), its sizes say what a leading dimension must be: the
// storage of a row-major {R, C} tensor is, read column-major, C x R with
// leading dimension C, whatever view the pointer was taken from.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_TENSORMATRICES_H
#define CUBLAS_TIDY_LIB_FACTS_TENSORMATRICES_H

#include "facts/TensorFacts.h"
#include "facts/ValueFacts.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace cublas_tidy {

struct TensorMatrix {
  /// The data pointer call (`bt.data_ptr<float>()`).
  const clang::CXXMemberCallExpr *Data = nullptr;
  /// The tensor the pointer is taken from (`bt`).
  const clang::Expr *Tensor = nullptr;
  /// RowMajor or Transposed; Layout.Storage is the row-major tensor.
  TensorLayout Layout;
  /// The sizes of Layout.Storage by dimension, where known: every
  /// dimension when Layout.Dims is known, the first few otherwise.
  llvm::SmallVector<std::optional<SymExpr>, 4> Sizes;
};

/// The tensor storage `Ptr` (a pointer argument) is, with a known layout;
/// nullopt when `Ptr` is not the start of a tensor's storage or the layout
/// is unknown. Where `VF` is the context of a call site, a pointer
/// parameter is followed to the caller's argument (a helper on raw
/// pointers called with `t.data_ptr<float>()`), and the sizes are the
/// caller's.
std::optional<TensorMatrix> tensorMatrix(const clang::Expr *Ptr,
                                         const ValueFacts &VF);

/// The dimension `Tensor.size(Dim)` that the symbol `S` names, when `S` is a
/// size of the variable `Tensor`.
std::optional<int> sizeDimOf(const Symbol &S, const clang::VarDecl *Tensor);

/// A leading dimension that is the size of a dimension of `M`'s storage
/// other than the last one: read column-major, that storage has the last
/// size as its leading dimension, so `Ld` describes another layout.
struct MisreadTensorLd {
  int Named = -1;              // the dimension whose size `Ld` is
  std::optional<SymExpr> Last; // the last size, when known
};

/// Whether the leading dimension `Ld` of a matrix of `Cols` columns
/// (nullopt: unknown) misreads `M`'s storage. A matrix of one column is one
/// run of elements: any leading dimension from its row count up describes
/// it. Without the tensor's number of dimensions, only a larger dimension
/// of the same tensor read in `CallValues` (the values of the call's
/// arguments) shows that the named size is not the last.
std::optional<MisreadTensorLd>
misreadTensorLd(const TensorMatrix &M, const SymExpr &Ld,
                const std::optional<SymExpr> &Cols,
                llvm::ArrayRef<SymExpr> CallValues,
                const SymbolBounds &Bounds);

} // namespace cublas_tidy

#endif
