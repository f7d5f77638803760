//===- CallArgs.h - The arguments of an intercepted call ------------------===//
//
// What the tracer records of each argument of a cuBLAS call it intercepts,
// for the trace (Trace.h) and the footprints (Footprint.h) alike.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_INTEGRATION_TRACER_CALLARGS_H
#define CUBLAS_TIDY_INTEGRATION_TRACER_CALLARGS_H

#include "model/CublasApi.h"

#include <cstdint>

namespace cublas_trace {

using cublas_tidy::FunctionInfo;
using cublas_tidy::ParamInfo;

/// One argument of an intercepted call, as the tracer sees it.
struct Arg {
  enum Kind : std::uint8_t { Other, Integer, Pointer };
  Kind K = Other;
  std::int64_t Int = 0;      // integers and enumerations
  const void *Ptr = nullptr; // object pointers
};

} // namespace cublas_trace

#endif
