//===- TensorSizes.h - A torch::Tensor's sizes as values ------------------===//
//
// The value of a tensor's size (TensorShapes.h's TensorSize) for the
// generic value analyses: the expression written in its factory,
// evaluated, or, for a size read by name, a symbol of the tensor variable
// and the dimension, never negative, named as the source reads it
// ("a.size(0)"), so that two reads of one size are one value.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_LIBRARIES_TORCH_TENSORSIZES_H
#define CUBLAS_TIDY_LIB_FACTS_LIBRARIES_TORCH_TENSORSIZES_H

#include "facts/LibraryModel.h"
#include "facts/ValueFacts.h"
#include "facts/libraries/torch/TensorShapes.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <utility>

namespace cublas_tidy {

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
/// of a tensor variable's size (TensorShapes.h follows the views and copies
/// between). nullopt when unknown.
std::optional<SymExpr> tensorSizeValue(const clang::Expr *Tensor, int Dim,
                                       const ValueFacts &Facts);

/// "a.size(0)": how the source reads the size `Dim` of the tensor named
/// `Tensor`.
std::string tensorSizeName(llvm::StringRef Tensor, int Dim);

/// The value of the size `E` reads (tensorSizeRead()): the expression
/// written in the factory, evaluated by `Evaluate`, or the symbol of a
/// tensor variable's size; nullopt when unknown.
std::optional<SymExpr> tensorSizeReadValue(const clang::Expr *E,
                                           IntegerEvaluator Evaluate);

} // namespace cublas_tidy

#endif
