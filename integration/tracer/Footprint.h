//===- Footprint.h - Bytes a cuBLAS call touches through one pointer ------===//
//
// The operand geometry of the API model (lib/model/OperandGeometry.h), the
// one cublas-matrix-extents uses, over the integers the call passed: which
// parameter is m, n, k, lda, incx, transa, side, the batch stride and count,
// which dimensions make up each operand (A of a GEMM is m x k, or k x m when
// transposed) and the elements it spans. Routines without a shape (Lt,
// grouped) and pointer-array batches have no footprint: the tracer says
// nothing about them.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_INTEGRATION_TRACER_FOOTPRINT_H
#define CUBLAS_TIDY_INTEGRATION_TRACER_FOOTPRINT_H

#include "CallArgs.h"

#include <cstddef>
#include <cstdint>
#include <string>

#include <optional>

namespace cublas_trace {

struct Footprint {
  std::uint64_t Bytes = 0;
  /// Bytes before the pointer that the call reaches too: the later members
  /// of a strided batch whose stride is negative (a stride computed in
  /// 32 bits that wrapped, say).
  std::uint64_t BytesBefore = 0;
  /// How it was computed, e.g. "lda*(cols-1)+rows = 96*(64-1)+64 = 6112
  /// elements of 4 bytes".
  std::string Formula;
};

/// The bytes, from the pointer on, that the call may read or write through
/// parameter I (a DeviceMatrix or DeviceVector), and the bytes before it
/// for a negative batch stride. Nothing when the model and
/// the routine rules do not say, or when the call touches no memory (a zero
/// dimension, a leading dimension below its minimum or a zero increment:
/// cuBLAS returns before reading).
std::optional<Footprint> operandFootprint(const FunctionInfo &F,
                                          const Arg *Args, unsigned I);

/// Size in bytes of one element of a cudaDataType_t value (the model's
/// table, model/ElementTypes.h); 0 when unknown or smaller than a byte.
std::size_t dataTypeSize(std::int64_t DataType);

} // namespace cublas_trace

#endif
