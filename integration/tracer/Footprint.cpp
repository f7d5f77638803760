//===- Footprint.cpp - Bytes a cuBLAS call touches through one pointer ----===//

#include "Footprint.h"

#include "model/ElementTypes.h"
#include "model/OperandGeometry.h"

namespace cublas_trace {

using cublas_tidy::OperandParams;
using cublas_tidy::ParamRole;
using cublas_tidy::ShapeKind;
using cublas_tidy::ShapeSelector;

namespace {

using Value = std::optional<std::int64_t>;

/// The integers of one traced call, as the arithmetic of the model's
/// operand geometry (model/OperandGeometry.h): every operation fails on
/// overflow.
struct IntegerArithmetic {
  using Value = std::int64_t;
  const FunctionInfo &F;
  const Arg *Args;

  std::optional<Value> param(int I) const {
    if (I < 0 || static_cast<unsigned>(I) >= F.NumParams ||
        Args[I].K != Arg::Integer)
      return std::nullopt;
    return Args[I].Int;
  }
  std::optional<Value> size(ParamRole Role) { return param(F.findParam(Role)); }
  Value constant(std::int64_t C) { return C; }
  std::optional<Value> add(Value L, Value R) {
    Value Out;
    return __builtin_add_overflow(L, R, &Out) ? std::nullopt
                                              : std::optional<Value>(Out);
  }
  std::optional<Value> sub(Value L, Value R) {
    Value Out;
    return __builtin_sub_overflow(L, R, &Out) ? std::nullopt
                                              : std::optional<Value>(Out);
  }
  std::optional<Value> mul(Value L, Value R) {
    Value Out;
    return __builtin_mul_overflow(L, R, &Out) ? std::nullopt
                                              : std::optional<Value>(Out);
  }
  std::optional<Value> max(Value L, Value R) { return L < R ? R : L; }
  std::optional<std::int64_t> constantOf(Value V) { return V; }
  bool provenLess(Value L, Value R) { return L < R; }
};

const char *nameOf(const FunctionInfo &F, int I) {
  return I < 0 ? "?" : F.params()[I].Name;
}

} // namespace

std::size_t dataTypeSize(std::int64_t T) {
  const cublas_tidy::DataTypeInfo *Info = cublas_tidy::dataTypeByValue(T);
  return Info ? Info->Bytes : 0;
}

std::optional<Footprint> operandFootprint(const FunctionInfo &F,
                                          const Arg *Args, unsigned I) {
  if (I >= F.NumParams)
    return std::nullopt;
  const ParamInfo &Param = F.params()[I];
  if (Param.Role != ParamRole::DeviceMatrix &&
      Param.Role != ParamRole::DeviceVector)
    return std::nullopt;
  IntegerArithmetic A{F, Args};
  for (const OperandParams &P : cublas_tidy::operandParams(F)) {
    if (P.Memory != static_cast<int>(I))
      continue;
    const cublas_tidy::OperandShape &S = *P.Shape;
    const cublas_tidy::DataTypeInfo *Type = nullptr;
    if (Value T = A.param(P.DataType))
      Type = cublas_tidy::dataTypeByValue(*T);
    std::size_t ElemBytes =
        cublas_tidy::operandElement(F, P, A.param(P.ElemSize), Type).Bytes;
    if (ElemBytes == 0)
      return std::nullopt;

    unsigned Sel = 0;
    if (S.Selector != ShapeSelector::None) {
      Value Flag = A.param(P.Selector);
      if (!Flag)
        return std::nullopt;
      Sel = cublas_tidy::selectedShape(S.Selector, *Flag);
    }
    Value Rows = cublas_tidy::dimension(S.Rows[Sel], A);
    Value Cols = cublas_tidy::dimension(S.Cols[Sel], A);
    bool Vector = S.Kind == ShapeKind::Vector;
    Value LdOrInc = A.param(Vector ? P.Inc : P.Ld);
    Value Elements = cublas_tidy::memberElements(S.Kind, Rows, Cols, LdOrInc, A);
    if (!Elements)
      return std::nullopt;

    std::string Formula;
    if (Vector)
      Formula = std::string("1+(n-1)*|") + nameOf(F, P.Inc) + "| = 1+(" +
                std::to_string(*Rows) + "-1)*" +
                std::to_string(*LdOrInc < 0 ? -*LdOrInc : *LdOrInc);
    else if (S.Kind == ShapeKind::Packed)
      Formula = "n*(n+1)/2 = " + std::to_string(*Rows) + "*(" +
                std::to_string(*Rows) + "+1)/2";
    else
      Formula = std::string(nameOf(F, P.Ld)) + "*(cols-1)+rows = " +
                std::to_string(*LdOrInc) + "*(" + std::to_string(*Cols) +
                "-1)+" + std::to_string(*Rows);

    std::uint64_t Before = 0;
    if (F.StridedBatched) {
      Value Stride = A.param(P.Stride), Count = A.param(P.Count);
      if (Stride && Count && *Stride < 0 && *Count > 1) {
        // The later members lie before the pointer, each |stride| further.
        Value Back = A.mul(-*Stride, *Count - 1);
        Value BackBytes =
            Back ? A.mul(*Back, static_cast<std::int64_t>(ElemBytes))
                 : std::nullopt;
        if (!BackBytes)
          return std::nullopt;
        Before = static_cast<std::uint64_t>(*BackBytes);
        Formula += std::string(", members from ") + nameOf(F, P.Stride) +
                   "*(batchCount-1) = " + std::to_string(*Stride) + "*(" +
                   std::to_string(*Count) + "-1) elements";
        Stride = 0; // each member's own span follows the pointer
      }
      Elements = cublas_tidy::stridedElements(*Elements, Stride, Count, A);
      if (!Elements)
        return std::nullopt;
      if (*Stride > 0 && *Count > 1)
        Formula += std::string(" + ") + nameOf(F, P.Stride) +
                   "*(batchCount-1) = " + std::to_string(*Stride) + "*(" +
                   std::to_string(*Count) + "-1)";
    }
    Value Bytes = A.mul(*Elements, static_cast<std::int64_t>(ElemBytes));
    if (!Bytes)
      return std::nullopt;
    Formula += " = " + std::to_string(*Elements) + " elements of " +
               std::to_string(ElemBytes) + " bytes";
    return Footprint{static_cast<std::uint64_t>(*Bytes), Before, Formula};
  }
  return std::nullopt;
}

} // namespace cublas_trace
