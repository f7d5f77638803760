//===- PointerModes.h - The pointer mode a scalar argument is read in -----===//
//
// cuBLAS reads alpha, beta and the scalar results from host or device
// memory by a pointer mode: a classic handle's (cublasSetPointerMode,
// followed by PointerProvenance.h) or, for cublasLtMatmul, its matmul
// descriptor's CUBLASLT_MATMUL_DESC_POINTER_MODE (LtDescriptors.h), whose
// vector modes place alpha and beta apart. One question for both.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_POINTERMODES_H
#define CUBLAS_TIDY_LIB_FACTS_POINTERMODES_H

#include "facts/PointerProvenance.h"
#include "facts/ValueFacts.h"
#include "model/CublasApi.h"

#include "clang/AST/Expr.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace cublas_tidy {

/// The mode in which a call reads one of its scalar arguments.
struct ScalarPointerMode {
  /// Host or Device where known; Where is the set (or the create that left
  /// the default).
  PointerModeFact Mode;
  /// The handle or descriptor argument whose mode it is (null when
  /// unknown).
  const clang::Expr *Handle = nullptr;
  /// The mode's enumerator: "CUBLAS_POINTER_MODE_DEVICE",
  /// "CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_HOST", ...
  std::string Name;
};

/// The pointer mode in which `Call` (of `F`) reads its scalar argument
/// `Param`, from the provenance analysis of the function (`P`) and, for
/// cuBLASLt, its values (`Facts`, asked only then).
ScalarPointerMode
pointerModeAt(const clang::CallExpr *Call, const FunctionInfo &F,
              unsigned Param, const PointerProvenance &P,
              llvm::function_ref<const ValueFacts &()> Facts);

} // namespace cublas_tidy

#endif
