//===- LtLayouts.h - What is known of the cuBLASLt layouts of a function --===//
//
// A cublasLtMatrixLayout_t is column-major unless
// cublasLtMatrixLayoutSetAttribute sets CUBLASLT_MATRIX_LAYOUT_ORDER.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_LTLAYOUTS_H
#define CUBLAS_TIDY_LIB_FACTS_LTLAYOUTS_H

#include "clang/AST/Decl.h"

namespace cublas_tidy {

/// True when the body of `Callable` may set an attribute of a layout (it
/// calls cublasLtMatrixLayoutSetAttribute, or is too large to tell), so
/// that a layout it creates may not be column-major.
bool maySetLayoutAttributes(const clang::Decl *Callable);

} // namespace cublas_tidy

#endif
