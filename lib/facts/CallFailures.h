//===- CallFailures.h - Calls that cannot fail as written -----------------===//
//
// A status is worth reading where the call can fail. cublasLt.h documents
// some calls that cannot, as they are written:
//
// - a destroy of a cuBLASLt descriptor (cublasLtMatmulDescDestroy,
//   cublasLtMatrixLayoutDestroy, cublasLtMatmulPreferenceDestroy, ...),
//   whose only documented status is CUBLAS_STATUS_SUCCESS;
// - an attribute accessor (cublasLtMatmulDescSetAttribute, ...GetAttribute,
//   cublasLtMatmulAlgoConfigSetAttribute, ...), which fails with
//   CUBLAS_STATUS_INVALID_VALUE only when its buffer is null or its size is
//   not the attribute's: `&value, sizeof(value)` of an attribute whose
//   documented storage has that size cannot fail.
//
// Both are read from the API model (CUBLAS_ONLY_SUCCESS and
// CUBLAS_LT_ATTRIBUTE, generated from the header's doc comments).
//
// And the version queries of every library of the family
// (cublasGetProperty, cublasLtGetProperty, cusolverGetProperty,
// cusparseGetProperty), which fail only for a type that is not a
// libraryPropertyType or a null output: `(MAJOR_VERSION, &v)` cannot.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_CALLFAILURES_H
#define CUBLAS_TIDY_LIB_FACTS_CALLFAILURES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

namespace cublas_tidy {

/// Whether `Call`, as written, can return nothing but
/// CUBLAS_STATUS_SUCCESS: a destroy documented to return only that, or a
/// cuBLASLt attribute accessor whose attribute and size are constants, the
/// size the attribute's documented storage, and whose buffer is the
/// address of an object (`&value`, an array); or a version query given a
/// constant libraryPropertyType and the address of an object. An attribute,
/// a size or a type that is not a constant, and a buffer that is a pointer
/// variable (which may be null), leave the call able to fail.
bool cannotFailAsWritten(const clang::CallExpr *Call,
                         const clang::ASTContext &Ctx);

} // namespace cublas_tidy

#endif
