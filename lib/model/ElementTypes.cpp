//===- ElementTypes.cpp - The cudaDataType_t table ------------------------===//

#include "model/ElementTypes.h"
#include "model/Rows.h"

namespace cublas_tidy {

namespace {

// Indexed by value (library_types.h); CUDA_R_8F_UE4M3 is another name of
// CUDA_R_8F_E4M3.
const DataTypeInfo DataTypes[] = {
    {0, "CUDA_R_32F", 4, "floats"},
    {1, "CUDA_R_64F", 8, "doubles"},
    {2, "CUDA_R_16F", 2, "__half values"},
    {3, "CUDA_R_8I", 1, "int8 values"},
    {4, "CUDA_C_32F", 8, "cuComplex values"},
    {5, "CUDA_C_64F", 16, "cuDoubleComplex values"},
    {6, "CUDA_C_16F", 4, "half2 values"},
    {7, "CUDA_C_8I", 2, "complex int8 values"},
    {8, "CUDA_R_8U", 1, "uint8 values"},
    {9, "CUDA_C_8U", 2, "complex uint8 values"},
    {10, "CUDA_R_32I", 4, "int32 values"},
    {11, "CUDA_C_32I", 8, "complex int32 values"},
    {12, "CUDA_R_32U", 4, "uint32 values"},
    {13, "CUDA_C_32U", 8, "complex uint32 values"},
    {14, "CUDA_R_16BF", 2, "__nv_bfloat16 values"},
    {15, "CUDA_C_16BF", 4, "complex bfloat16 values"},
    {16, "CUDA_R_4I", 0, "int4 values"},
    {17, "CUDA_C_4I", 0, "complex int4 values"},
    {18, "CUDA_R_4U", 0, "uint4 values"},
    {19, "CUDA_C_4U", 0, "complex uint4 values"},
    {20, "CUDA_R_16I", 2, "int16 values"},
    {21, "CUDA_C_16I", 4, "complex int16 values"},
    {22, "CUDA_R_16U", 2, "uint16 values"},
    {23, "CUDA_C_16U", 4, "complex uint16 values"},
    {24, "CUDA_R_64I", 8, "int64 values"},
    {25, "CUDA_C_64I", 16, "complex int64 values"},
    {26, "CUDA_R_64U", 8, "uint64 values"},
    {27, "CUDA_C_64U", 16, "complex uint64 values"},
    {28, "CUDA_R_8F_E4M3", 1, "fp8 values"},
    {29, "CUDA_R_8F_E5M2", 1, "fp8 values"},
    {30, "CUDA_R_8F_UE8M0", 1, "fp8 values"},
    {31, "CUDA_R_6F_E2M3", 0, "fp6 values"},
    {32, "CUDA_R_6F_E3M2", 0, "fp6 values"},
    {33, "CUDA_R_4F_E2M1", 0, "fp4 values"},
};

} // namespace

llvm::ArrayRef<DataTypeInfo> allDataTypes() { return DataTypes; }

const DataTypeInfo *dataTypeByValue(std::int64_t Value) {
  if (Value < 0 || Value >= static_cast<std::int64_t>(std::size(DataTypes)))
    return nullptr;
  return &DataTypes[Value];
}

const DataTypeInfo *dataTypeByName(llvm::StringRef Name) {
  if (Name == "CUDA_R_8F_UE4M3")
    return &DataTypes[28];
  return rowNamed(DataTypes, Name);
}

const DataTypeInfo *dataTypeOf(ElemType Elem) {
  switch (Elem) {
  case ElemType::F16:
    return dataTypeByValue(2);
  case ElemType::F32:
    return dataTypeByValue(0);
  case ElemType::F64:
    return dataTypeByValue(1);
  case ElemType::C32:
    return dataTypeByValue(4);
  case ElemType::C64:
    return dataTypeByValue(5);
  case ElemType::None:
  case ElemType::Dynamic:
    return nullptr;
  }
  return nullptr;
}

// Declared with the API model (CublasApi.h); the sizes are this table's.
unsigned elementSize(ElemType Elem) {
  const DataTypeInfo *T = dataTypeOf(Elem);
  return T ? T->Bytes : 0;
}

bool holdsDeclaredType(const DataTypeInfo &Held,
                       const DataTypeInfo &Declared) {
  if (&Held == &Declared)
    return true;
  llvm::StringRef H = Held.Name, D = Declared.Name;
  // Unsigned 16-bit integers are how code without a half type holds the
  // bits of half and bfloat16 values.
  if (H == "CUDA_R_16U" && (D == "CUDA_R_16F" || D == "CUDA_R_16BF"))
    return true;
  return H.consume_front("CUDA_R_") && D.consume_front("CUDA_C_") && H == D;
}

} // namespace cublas_tidy
