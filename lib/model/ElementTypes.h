//===- ElementTypes.h - The element types of cuBLAS operands --------------===//
//
// What an operand's elements are: fixed by a routine's precision prefix
// (S, D, C, Z, H: ElemType in CublasApi.h) or given at run time by a
// cudaDataType_t argument (the Ex, Lt and mixed-precision routines). One
// table of the cudaDataType_t enumerators (library_types.h of CUDA 13),
// read by the checks (by enumerator name, as the source spells it) and by
// the runtime tracer (by value, as the call passes it).
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_MODEL_ELEMENTTYPES_H
#define CUBLAS_TIDY_LIB_MODEL_ELEMENTTYPES_H

#include "model/CublasApi.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace cublas_tidy {

struct DataTypeInfo {
  std::int64_t Value;   // the cudaDataType_t value
  const char *Name;     // the enumerator: "CUDA_R_32F"
  unsigned Bytes;       // size of one element; 0 below a byte (fp4, 4-bit)
  const char *Plural;   // how a message counts them: "floats"
};

/// Every cudaDataType_t enumerator the model knows, in value order.
llvm::ArrayRef<DataTypeInfo> allDataTypes();

/// The row of a cudaDataType_t value or enumerator name; nullptr when
/// unknown.
const DataTypeInfo *dataTypeByValue(std::int64_t Value);
const DataTypeInfo *dataTypeByName(llvm::StringRef Name);

/// The cudaDataType_t row that a precision prefix fixes (F32: CUDA_R_32F);
/// nullptr for None and Dynamic.
const DataTypeInfo *dataTypeOf(ElemType Elem);

/// Whether data of type `Held` may be what `Declared` describes: the same
/// type, real elements read as complex pairs of the same precision
/// (interleaved complex data in a real array), or unsigned 16-bit integers
/// read as half or bfloat16 values (their bits, held without a half type).
bool holdsDeclaredType(const DataTypeInfo &Held, const DataTypeInfo &Declared);

} // namespace cublas_tidy

#endif
