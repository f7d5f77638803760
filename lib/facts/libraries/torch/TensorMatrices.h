//===- TensorMatrices.h - cuBLAS operands that are a tensor's storage -----===//
//
// A matrix operand of a cuBLAS call given as `t.data_ptr<float>()` (or a
// local pointer set from it once) is the storage of the tensor `t`. When the
// source states how that tensor's elements lie (TensorShapes.h:
// row-major from a factory, `.contiguous()` or a TORCH_CHECK; a `.t()` view
// of such a tensor), its sizes say what a leading dimension must be: the
// storage of a row-major {R, C} tensor is, read column-major, C x R with
// leading dimension C, whatever view the pointer was taken from: the
// PyTorch model's answer to facts/StorageMatrices.h.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_LIBRARIES_TORCH_TENSORMATRICES_H
#define CUBLAS_TIDY_LIB_FACTS_LIBRARIES_TORCH_TENSORMATRICES_H

#include "facts/StorageMatrices.h"
#include "facts/ValueFacts.h"
#include "facts/libraries/torch/TensorShapes.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <optional>

namespace cublas_tidy {

/// A matrix that is a tensor's storage: Data is the data pointer call
/// (`bt.data_ptr<float>()`), Object the tensor the pointer is taken from
/// (`bt`); the model (TorchModel.h) sets Library when it answers.
using TensorMatrix = StorageMatrix;

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

} // namespace cublas_tidy

#endif
