//===- OperandGeometry.cpp - Which parameters describe each operand -------===//

#include "model/OperandGeometry.h"

namespace cublas_tidy {

namespace {

bool isMemory(ParamRole R) {
  return R == ParamRole::DeviceMatrix || R == ParamRole::DeviceVector ||
         R == ParamRole::HostMatrix || R == ParamRole::HostVector ||
         R == ParamRole::AnyMemory || R == ParamRole::DevicePointerArray;
}

/// The pointer parameter of operand `Op`. A leading dimension follows its
/// matrix: the full matrix is the last pointer to `Op` before it; a packed
/// operand of the same name (tpttr, trttp) is the other one.
int memoryParam(const FunctionInfo &F, Operand Op, bool Packed) {
  int Ld = F.findParam(ParamRole::LeadingDim, Op);
  llvm::ArrayRef<ParamInfo> Params = F.params();
  int Full = -1;
  for (int I = 0; I < Ld; ++I)
    if (isMemory(Params[I].Role) && Params[I].Op == Op)
      Full = I;
  if (!Packed && Ld >= 0)
    return Full;
  for (int I = 0, E = Params.size(); I < E; ++I)
    if (isMemory(Params[I].Role) && Params[I].Op == Op && I != Full)
      return I;
  return -1;
}

} // namespace

int selectorParam(const FunctionInfo &F, ShapeSelector S) {
  switch (S) {
  case ShapeSelector::None:
    return -1;
  case ShapeSelector::OperationA:
    return F.findParam(ParamRole::Operation, Operand::A);
  case ShapeSelector::OperationB:
    return F.findParam(ParamRole::Operation, Operand::B);
  case ShapeSelector::Side:
    return F.findParam(ParamRole::Side);
  }
  return -1;
}

unsigned selectedShape(ShapeSelector S, std::int64_t Flag) {
  switch (S) {
  case ShapeSelector::None:
    return 0;
  case ShapeSelector::Side:
    return Flag == 0 ? 0 : 1; // CUBLAS_SIDE_LEFT
  case ShapeSelector::OperationA:
  case ShapeSelector::OperationB:
    return Flag == 1 || Flag == 2 ? 1 : 0; // CUBLAS_OP_T, CUBLAS_OP_C
  }
  return 0;
}

std::vector<OperandParams> operandParams(const FunctionInfo &F) {
  std::vector<OperandParams> Out;
  for (const OperandShape &S : operandShapes(F)) {
    OperandParams P;
    P.Shape = &S;
    bool Packed = S.Kind == ShapeKind::Packed;
    if (S.Kind == ShapeKind::Vector)
      P.Inc = F.findParam(ParamRole::Increment, S.Op);
    else if (!Packed)
      P.Ld = F.findParam(ParamRole::LeadingDim, S.Op);
    P.Memory = memoryParam(F, S.Op, Packed);
    P.Selector = selectorParam(F, S.Selector);
    if (F.StridedBatched) {
      P.Stride = F.findParam(ParamRole::BatchStride, S.Op);
      P.Count = F.findParam(ParamRole::BatchCount);
    }
    P.ElemSize = F.findParam(ParamRole::ElemSize);
    P.DataType = F.findParam(ParamRole::DataType, S.Op);
    Out.push_back(P);
  }
  return Out;
}

OperandElement operandElement(const FunctionInfo &F, const OperandParams &P,
                              std::optional<std::int64_t> ElemSize,
                              const DataTypeInfo *DataType) {
  if (const DataTypeInfo *Fixed = dataTypeOf(F.Elem))
    return {Fixed->Bytes, Fixed};
  if (P.ElemSize >= 0) {
    if (!ElemSize || *ElemSize <= 0 || *ElemSize > 64)
      return {};
    return {static_cast<unsigned>(*ElemSize), nullptr};
  }
  if (P.DataType >= 0 && DataType && DataType->Bytes)
    return {DataType->Bytes, DataType};
  return {};
}

} // namespace cublas_tidy
