//===- OperandGeometry.h - The memory each operand of a call spans --------===//
//
// One geometry of cuBLAS operands, shared by the static checks and the
// runtime tracer. For each matrix or vector operand of a routine (the shape
// table, OperandShapes.h) it says which parameters hold its pointer, leading
// dimension or increment, batch stride and count, flag and element type, and
// how many elements the call spans through the pointer:
//
//   matrix (or band storage)  ld*(cols-1)+rows
//   vector                    1+(n-1)*|inc|
//   packed triangle           n*(n+1)/2
//   strided batch             stride*(batchCount-1) + one member
//
// The rules are written once, over any arithmetic (see `Arithmetic` below):
// the tracer instantiates them with the integers a call passed, the checks
// with the symbolic values the facts give (lib/facts/CallGeometry.h). Both
// say nothing where cuBLAS touches no memory (a dimension or a batch count
// of 0 or less, a leading dimension below max(1, rows), an increment of 0)
// or where a value is unknown.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_MODEL_OPERANDGEOMETRY_H
#define CUBLAS_TIDY_LIB_MODEL_OPERANDGEOMETRY_H

#include "model/CublasApi.h"
#include "model/ElementTypes.h"
#include "model/OperandShapes.h"

#include <vector>

#include <cstdint>
#include <optional>

namespace cublas_tidy {

/// Which parameters of a routine hold the quantities of one operand; -1
/// where the routine has none.
struct OperandParams {
  const OperandShape *Shape = nullptr;
  int Memory = -1;   // the pointer (device, host or either; or the pointer
                     // array of a batched call)
  int Ld = -1;       // the leading dimension of a matrix or band operand
  int Inc = -1;      // the increment of a vector operand
  int Selector = -1; // the flag that picks one of the operand's two shapes
  int Stride = -1;   // the stride between members of a strided batch
  int Count = -1;    // the batch count of a strided batch
  int ElemSize = -1; // elemSize of the Set/Get routines, in bytes
  int DataType = -1; // the operand's cudaDataType_t
};

/// The operands of `F`, in the order of operandShapes(F).
std::vector<OperandParams> operandParams(const FunctionInfo &F);

/// The parameter of `F` that `S` reads; -1 for ShapeSelector::None.
int selectorParam(const FunctionInfo &F, ShapeSelector S);

/// Which of an operand's two shapes flag value `Flag` selects: 1 for
/// CUBLAS_OP_T and CUBLAS_OP_C (they swap rows and columns) and for
/// CUBLAS_SIDE_RIGHT; 0 for CUBLAS_OP_N, CUBLAS_OP_CONJG, CUBLAS_SIDE_LEFT
/// and when there is no selector.
unsigned selectedShape(ShapeSelector S, std::int64_t Flag);

/// The elements of an operand: those of the routine's precision (S, D, C,
/// Z, H), else `ElemSize` bytes (the elemSize argument of Set/Get: a size
/// without a type), else those of `DataType` (its cudaDataType_t argument,
/// which the caller looked up by value or by name). Bytes is 0 when
/// unknown, below a byte, or an elemSize outside 1..64.
struct OperandElement {
  unsigned Bytes = 0;
  const DataTypeInfo *Type = nullptr; // null for an elemSize
};
OperandElement operandElement(const FunctionInfo &F, const OperandParams &P,
                              std::optional<std::int64_t> ElemSize,
                              const DataTypeInfo *DataType);

// The rules over an arithmetic `A`:
//
//   struct A {
//     using Value = ...;
//     std::optional<Value> size(ParamRole Role);  // DimM, DimN, DimK, DimKL,
//                                                 // DimKU of the call
//     Value constant(std::int64_t C);
//     std::optional<Value> add(const Value &, const Value &);
//     std::optional<Value> sub(const Value &, const Value &);
//     std::optional<Value> mul(const Value &, const Value &);
//     std::optional<Value> max(const Value &, const Value &); // undecided:
//                                                             // nullopt
//     std::optional<std::int64_t> constantOf(const Value &);
//     bool provenLess(const Value &, const Value &);
//   };
//
// Every operation fails (nullopt) on overflow or when it cannot be
// expressed.

/// The value of one dimension of the shape table.
template <class A>
std::optional<typename A::Value> dimension(ShapeDim D, A &Ar) {
  using V = std::optional<typename A::Value>;
  auto Add = [&](const V &L, const V &R) -> V {
    return L && R ? Ar.add(*L, *R) : std::nullopt;
  };
  switch (D) {
  case ShapeDim::Unknown:
    return std::nullopt;
  case ShapeDim::One:
    return Ar.constant(1);
  case ShapeDim::M:
    return Ar.size(ParamRole::DimM);
  case ShapeDim::N:
    return Ar.size(ParamRole::DimN);
  case ShapeDim::K:
    return Ar.size(ParamRole::DimK);
  case ShapeDim::KPlus1:
    return Add(Ar.size(ParamRole::DimK), Ar.constant(1));
  case ShapeDim::KLPlusKUPlus1:
    return Add(Add(Ar.size(ParamRole::DimKL), Ar.size(ParamRole::DimKU)),
               Ar.constant(1));
  case ShapeDim::MaxMN: {
    V M = Ar.size(ParamRole::DimM), N = Ar.size(ParamRole::DimN);
    return M && N ? Ar.max(*M, *N) : std::nullopt;
  }
  }
  return std::nullopt;
}

namespace geometry_detail {
template <class A>
bool provenNonPositive(const std::optional<typename A::Value> &V, A &Ar) {
  std::optional<std::int64_t> C = V ? Ar.constantOf(*V) : std::nullopt;
  return C && *C <= 0;
}
} // namespace geometry_detail

/// The elements one member of the operand spans: ld*(cols-1)+rows for a
/// matrix or band storage, 1+(n-1)*|inc| for a vector (n = Rows), n*(n+1)/2
/// for a packed triangle of order n (= Rows). Nothing when the call touches
/// no memory through it or a value is unknown; a vector's increment must be
/// a constant.
template <class A>
std::optional<typename A::Value>
memberElements(ShapeKind Kind, const std::optional<typename A::Value> &Rows,
               const std::optional<typename A::Value> &Cols,
               const std::optional<typename A::Value> &LdOrInc, A &Ar) {
  using geometry_detail::provenNonPositive;
  if (!Rows || provenNonPositive(Rows, Ar))
    return std::nullopt;
  switch (Kind) {
  case ShapeKind::Vector: {
    std::optional<std::int64_t> Inc =
        LdOrInc ? Ar.constantOf(*LdOrInc) : std::nullopt;
    if (!Inc || *Inc == 0 || *Inc == INT64_MIN)
      return std::nullopt;
    auto Span = Ar.sub(*Rows, Ar.constant(1));
    Span = Span ? Ar.mul(*Span, Ar.constant(*Inc < 0 ? -*Inc : *Inc))
                : std::nullopt;
    return Span ? Ar.add(*Span, Ar.constant(1)) : std::nullopt;
  }
  case ShapeKind::Packed: {
    std::optional<std::int64_t> N = Ar.constantOf(*Rows);
    if (!N || *N > (std::int64_t(1) << 30))
      return std::nullopt;
    return Ar.constant(*N * (*N + 1) / 2);
  }
  case ShapeKind::Matrix:
  case ShapeKind::Band: {
    if (!Cols || !LdOrInc || provenNonPositive(Cols, Ar))
      return std::nullopt;
    // cuBLAS rejects a leading dimension below max(1, rows).
    if (Ar.provenLess(*LdOrInc, Ar.constant(1)) ||
        Ar.provenLess(*LdOrInc, *Rows))
      return std::nullopt;
    auto ColsMinus1 = Ar.sub(*Cols, Ar.constant(1));
    auto Span = ColsMinus1 ? Ar.mul(*LdOrInc, *ColsMinus1) : std::nullopt;
    return Span ? Ar.add(*Span, *Rows) : std::nullopt;
  }
  }
  return std::nullopt;
}

/// The elements all members of a strided batch span:
/// stride*(count-1) + Member. Nothing for a count of 0 or less (cuBLAS
/// touches nothing), a negative constant stride, or an unknown value.
template <class A>
std::optional<typename A::Value>
stridedElements(const typename A::Value &Member,
                const std::optional<typename A::Value> &Stride,
                const std::optional<typename A::Value> &Count, A &Ar) {
  using geometry_detail::provenNonPositive;
  if (!Stride || !Count || provenNonPositive(Count, Ar))
    return std::nullopt;
  if (std::optional<std::int64_t> S = Ar.constantOf(*Stride); S && *S < 0)
    return std::nullopt;
  auto Batches = Ar.sub(*Count, Ar.constant(1));
  auto Span = Batches ? Ar.mul(*Stride, *Batches) : std::nullopt;
  return Span ? Ar.add(*Span, Member) : std::nullopt;
}

} // namespace cublas_tidy

#endif
