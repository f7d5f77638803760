//===- LtDescriptors.h - cuBLASLt layouts and matmul descriptors at a use
//--===//
//
// cublasLtMatmul takes its shapes, types, transposes and pointer mode from
// descriptors made earlier: matrix layouts (cublasLtMatrixLayoutCreate and
// cublasLtMatrixLayoutSetAttribute) and the matmul descriptor
// (cublasLtMatmulDescCreate and cublasLtMatmulDescSetAttribute). These
// facts follow a descriptor held in a local variable of the function from
// its create, through the attributes set on it, to a call that uses it.
//
// Precision first: a descriptor is known only when it lives in a local
// variable of the function, is created there exactly once before the use,
// is otherwise only passed to cuBLASLt (no copy, no other address taken),
// and every attribute set on it before the use is one these facts
// understand, with a value they know (`&v` of a local whose only other
// uses are such calls and `sizeof`). An attribute set after the use (in a
// loop it may come first) makes it unknown. A layout whose order is not
// column-major is unknown for its footprint.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_LTDESCRIPTORS_H
#define CUBLAS_TIDY_LIB_FACTS_LTDESCRIPTORS_H

#include "facts/CallGeometry.h"
#include "facts/ValueFacts.h"
#include "model/CublasApi.h"
#include "model/ElementTypes.h"

#include "clang/AST/Expr.h"

#include <array>
#include <optional>
#include <string>

namespace cublas_tidy {

/// A matrix layout where a call uses it.
struct LtLayoutFacts {
  const clang::VarDecl *Var = nullptr;
  const clang::CallExpr *Create = nullptr;
  /// Its element type (null when unknown).
  const DataTypeInfo *Type = nullptr;
  /// Rows, columns and leading dimension, as given to the create (or set
  /// later by an attribute; then Written is empty).
  std::optional<ArgValue> Rows, Cols, Ld;
  /// Batches (1 unless set) and the elements between them (0 unless set).
  std::optional<SymExpr> BatchCount, BatchStride;
  /// CUBLASLT_ORDER_COL (the default); false when another order is set.
  bool ColumnMajor = true;
};

/// A matmul descriptor where a call uses it.
struct LtMatmulDescFacts {
  const clang::VarDecl *Var = nullptr;
  const clang::CallExpr *Create = nullptr;
  /// The enumerators given to the create ("CUBLAS_COMPUTE_32F",
  /// "CUDA_R_32F"), or set as attributes; empty when unknown.
  std::string ComputeType, ScaleType;
  /// CUBLASLT_MATMUL_DESC_TRANSA/B (CUBLAS_OP_N unless set); nullopt when
  /// set to an unknown value.
  std::optional<int64_t> TransA = 0, TransB = 0;
  /// CUBLASLT_MATMUL_DESC_POINTER_MODE (CUBLASLT_POINTER_MODE_HOST = 0
  /// unless set); nullopt when set to an unknown value.
  std::optional<int64_t> PointerMode = 0;
  /// The call that set the pointer mode (null: the default of the create).
  const clang::CallExpr *PointerModeSet = nullptr;
};

/// The layout `Arg` (an argument of `Use`) holds at `Use`, when known.
std::optional<LtLayoutFacts> ltLayoutAt(const clang::CallExpr *Use,
                                        const clang::Expr *Arg,
                                        const ValueFacts &Facts);

/// Whether a layout that the function of `Facts` creates may get an order
/// other than column-major (the default of cublasLtMatrixLayoutCreate):
/// the function sets CUBLASLT_MATRIX_LAYOUT_ORDER on some layout to
/// anything but CUBLASLT_ORDER_COL, sets an attribute it cannot tell, sets
/// any attribute in a lambda, or is too large to look through. At a use,
/// ltLayoutAt() follows the one layout instead (LtLayoutFacts::ColumnMajor).
bool ltLayoutOrderMayChange(const ValueFacts &Facts);

/// The matmul descriptor `Arg` holds at `Use`, when known.
std::optional<LtMatmulDescFacts> ltMatmulDescAt(const clang::CallExpr *Use,
                                                const clang::Expr *Arg,
                                                const ValueFacts &Facts);

/// A/B/C/D of a cublasLtMatmul call: the pointer and layout parameters,
/// and the layout's facts when known.
struct LtOperand {
  Operand Op = Operand::None;
  int Pointer = -1, Layout = -1;
  std::optional<LtLayoutFacts> Facts;
};

/// True when everything the footprint of layout `L` needs is known: it is
/// column-major, with a known element type, rows, columns, ld and batches.
bool ltLayoutKnown(const LtLayoutFacts &L);

/// The elements a matmul spans through an operand of layout `L`: one
/// member's ld*(cols-1)+rows, and stride*(batches-1) more for the last
/// batch (model/OperandGeometry.h's rules, the ones of every other
/// routine). nullopt when a value or the element type is unknown, the
/// layout is not column-major, or cuBLASLt rejects it (ld below rows: see
/// ltLayoutRejected).
std::optional<SymExpr> ltLayoutElements(const LtLayoutFacts &L,
                                        const SymbolBounds &Bounds);

/// True when the layout's leading dimension is proven below its rows:
/// cuBLASLt rejects the layout, and the matmul touches no memory.
bool ltLayoutRejected(const LtLayoutFacts &L, const SymbolBounds &Bounds);

/// op(X) of a matmul operand: its rows and columns under the transpose
/// flag `Trans` (CUBLAS_OP_N, _T or _C; the layout's own for C and D).
struct LtOperandShape {
  const LtLayoutFacts *Layout = nullptr; // null when not known
  std::optional<ArgValue> Rows, Cols;
  bool Transposed = false;
};
LtOperandShape ltOperandShape(const LtOperand &K, std::optional<int64_t> Trans);

/// The four operands of `Matmul`, a call of cublasLtMatmul (`F`), in the
/// order A, B, C, D.
std::array<LtOperand, 4> ltMatmulOperands(const clang::CallExpr *Matmul,
                                          const FunctionInfo &F,
                                          const ValueFacts &Facts);

/// The matmul descriptor (`computeDesc`) of `Matmul`, a call of
/// cublasLtMatmul (`F`), when known.
std::optional<LtMatmulDescFacts> ltMatmulDescOf(const clang::CallExpr *Matmul,
                                                const FunctionInfo &F,
                                                const ValueFacts &Facts);

/// A matmul preference where a call uses it.
struct LtPreferenceFacts {
  const clang::VarDecl *Var = nullptr;
  const clang::CallExpr *Create = nullptr;
  /// CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES (0 unless set; nullopt when
  /// set to an unknown value), and the call that set it.
  std::optional<SymExpr> MaxWorkspace;
  const clang::CallExpr *MaxWorkspaceSet = nullptr;
  /// CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_{A,B,C,D}_BYTES, in that order
  /// (256 unless set; nullopt when set to an unknown value).
  std::array<std::optional<SymExpr>, 4> MinAlignment;
};

/// The preference `Arg` (of `Use`, a heuristic call) holds, when known.
std::optional<LtPreferenceFacts> ltPreferenceAt(const clang::CallExpr *Use,
                                                const clang::Expr *Arg,
                                                const ValueFacts &Facts);

/// The one cublasLtMatmulAlgoGetHeuristic call of `Callable`, before
/// `Matmul`, whose results the algorithm argument `AlgoArg` of `Matmul`
/// takes (`&results[i].algo`, `&result.algo`); null when there is none or
/// more than one.
const clang::CallExpr *ltHeuristicOf(const clang::CallExpr *Matmul,
                                     const clang::Expr *AlgoArg,
                                     const clang::Decl *Callable);

} // namespace cublas_tidy

#endif
