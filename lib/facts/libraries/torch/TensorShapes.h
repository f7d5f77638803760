//===- TensorShapes.h - A torch::Tensor's sizes and layout ----------------===//
//
// What the source says of a tensor's shape: the sizes written in the
// factory that made it (`torch::empty({m, n}, ...)`), a size read by name
// (`t.size(0)`) followed through views, copies and `*_like` factories to
// the tensor it is a size of, and how the elements lie in the storage
// (row-major, or a transposed view of a row-major tensor), by the table of
// model/TorchApi.h.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_LIBRARIES_TORCH_TENSORSHAPES_H
#define CUBLAS_TIDY_LIB_FACTS_LIBRARIES_TORCH_TENSORSHAPES_H

#include "facts/StorageMatrices.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace cublas_tidy {

/// The storage a tensor was made with: the factory call and the sizes
/// written in it (`torch::empty({m, n}, ...)`: m and n).
struct TensorAllocation {
  const clang::CallExpr *Factory = nullptr;
  const clang::Expr *SizeList = nullptr; // {m, n}
  llvm::SmallVector<const clang::Expr *, 4> Sizes;
  const clang::VarDecl *Var = nullptr; // the tensor variable, when named
};

/// The allocation of tensor `E` when a factory that takes the sizes as a
/// braced list made it (empty, zeros, ones, full, rand, randn), through
/// locals defined once and `.contiguous()` (the same storage); nullopt
/// otherwise (views, slices and anything else).
std::optional<TensorAllocation> tensorAllocation(const clang::Expr *E);

/// The size of one dimension of a tensor, as the source fixes it: either
/// written where the tensor was made (`m` of `torch::empty({m, n})`), or
/// by name, `Tensor.size(Dim)` of a tensor variable (a parameter or a local
/// defined once) whose sizes nothing changes.
struct TensorSize {
  const clang::Expr *Written = nullptr;
  const clang::VarDecl *Tensor = nullptr;
  int Dim = 0;
};

/// The size `E` reads when it is `t.size(d)` or `t.sizes()[d]` with a
/// constant `d`, followed to the tensor it is a size of: through locals
/// defined once, copies and conversions (`contiguous`, `clone`, `to`,
/// `cuda`, casts keep the sizes), transposes (`x.t().size(1)` is
/// `x.size(0)`), `*_like` factories, and to the sizes written in a factory.
/// nullopt otherwise.
std::optional<TensorSize> tensorSizeRead(const clang::Expr *E);

/// The size of dimension `Dim` of the tensor `T`, as tensorSizeRead()
/// follows it; nullopt when unknown.
std::optional<TensorSize> tensorSize(const clang::Expr *T, int Dim);

/// How the elements of a tensor lie in its storage, where the source says
/// so (facts/StorageMatrices.h). RowMajor: contiguous, as a factory,
/// `.contiguous()` or a `TORCH_CHECK(x.is_contiguous())` before the use
/// makes it (a copy, `.to`, `.cuda()` or a cast of such a tensor too:
/// PyTorch keeps the strides of a dense tensor). Transposed: `x.t()` or
/// `x.transpose(0, 1)` of a RowMajor 2-D `x`, a view whose storage is
/// `x`'s. Layout.Why is the factory or `.contiguous()` call, or the
/// condition of the TORCH_CHECK; Layout.View the `.t()` / `.transpose()`
/// call; Layout.Dims the number of sizes written in the factory, or a
/// TORCH_CHECK(x.dim() == N).
using TensorOrder = StorageOrder;
using TensorLayout = StorageLayout;

/// The layout of the tensor `E`; Order is Unknown where the source does not
/// say it.
TensorLayout tensorLayout(const clang::Expr *E);

} // namespace cublas_tidy

#endif
