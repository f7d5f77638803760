//===- OperandShapes.h - Rows and columns of each cuBLAS operand ----------===//
//
// For each BLAS routine family of the API model: the shape of each matrix
// or vector operand in terms of the routine's size arguments (m, n, k, kl,
// ku) and the flag that selects it (the operand's transpose, or the side),
// following NVIDIA's cuBLAS documentation (column-major storage). The
// minimum leading dimension of a matrix operand is max(1, rows); its
// footprint at leading dimension ld is ld*(cols-1)+rows elements; a band
// matrix stores rows = its band width + 1; a packed one n*(n+1)/2 elements;
// a vector of n elements at increment inc occupies 1+(n-1)*|inc|.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_MODEL_OPERANDSHAPES_H
#define CUBLAS_TIDY_LIB_MODEL_OPERANDSHAPES_H

#include "model/CublasApi.h"

#include "llvm/ADT/ArrayRef.h"

namespace cublas_tidy {

/// A dimension written in terms of the routine's size arguments.
enum class ShapeDim : std::uint8_t {
  Unknown, // given by an argument the model does not name (nrhs)
  One,
  M,
  N,
  K,
  KPlus1,        // k + 1: rows stored for a band matrix of bandwidth k
  KLPlusKUPlus1, // kl + ku + 1: rows stored for a general band matrix
  MaxMN,         // max(m, n)
};

/// What selects between the two shapes of an operand.
enum class ShapeSelector : std::uint8_t {
  None,       // one shape
  OperationA, // the cublasOperation_t of A: [0] for CUBLAS_OP_N
  OperationB, // the cublasOperation_t of B
  Side,       // cublasSideMode_t: [0] for CUBLAS_SIDE_LEFT
};

enum class ShapeKind : std::uint8_t { Matrix, Band, Packed, Vector };

struct OperandShape {
  Operand Op;
  ShapeKind Kind;
  ShapeSelector Selector;
  /// Rows and columns ([0] when the selector is N/left or there is none,
  /// [1] for T/C/right). A vector has Rows = its length and Cols = One; a
  /// packed matrix has Rows = Cols = its order.
  ShapeDim Rows[2];
  ShapeDim Cols[2];
  /// cuBLAS writes this operand.
  bool Written;
};

/// The operands of `F` with their shapes; empty for routines without a
/// rule (Lt matmul, grouped batched, rotg, ...).
llvm::ArrayRef<OperandShape> operandShapes(const FunctionInfo &F);

llvm::StringRef toString(ShapeDim D);

} // namespace cublas_tidy

#endif
