//===- TorchModel.h - PyTorch's tensors as a library model ----------------===//
//
// The facts of TensorFacts.h (where a tensor's storage is, its dtype, its
// sizes) answered to the generic analyses through the LibraryModel
// interface: `t.data_ptr<float>()` points to host or device memory, holds
// the tensor's storage as big as its factory made it, `t.size(0)` is a
// value, `t.data_ptr()` holds the dtype's elements.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_LIBRARIES_TORCHMODEL_H
#define CUBLAS_TIDY_LIB_FACTS_LIBRARIES_TORCHMODEL_H

#include "facts/LibraryModel.h"
#include "facts/ValueFacts.h"

#include <optional>
#include <utility>

namespace cublas_tidy {

/// The model.
const LibraryModel &torchModel();

/// The size `Tensor.size(Dim)` of a tensor variable (a parameter, or a local
/// defined once), as a symbol: never negative, named "a.size(0)". A symbol
/// with no Decl for dimensions it does not name.
Symbol tensorSizeSymbol(const clang::VarDecl *Tensor, int Dim);

/// The tensor and dimension of a tensorSizeSymbol(); nullopt for other
/// symbols.
std::optional<std::pair<const clang::VarDecl *, int>>
tensorSizeOf(const Symbol &S);

/// The size of dimension `Dim` of the tensor `Tensor` (an expression of
/// at::Tensor type) in `Facts`: as written in its factory, or as the symbol
/// of a tensor variable's size (TensorFacts.h follows the views and copies
/// between). nullopt when unknown.
std::optional<SymExpr> tensorSizeValue(const clang::Expr *Tensor, int Dim,
                                       const ValueFacts &Facts);

} // namespace cublas_tidy

#endif
