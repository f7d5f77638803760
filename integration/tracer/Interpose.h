//===- Interpose.h - The shape of every interposer ------------------------===//
//
// Interposers.cpp defines one extern "C" function per row of the API model
// that has a symbol, with the real signature (CUBLAS_SIGNATURE in
// lib/model/CublasApi.def; the header's inline helpers, which have
// CUBLAS_INLINE_SIGNATURE, get none); each one
// packs its arguments and calls intercept(), which finds the real function
// (dlsym RTLD_NEXT), tells the tracer before and after, and forwards.
// Calls that cuBLAS makes to its own entry points (libcublas calling
// libcublasLt, say) are forwarded without being recorded.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_INTEGRATION_TRACER_INTERPOSE_H
#define CUBLAS_TIDY_INTEGRATION_TRACER_INTERPOSE_H

#include "Trace.h"

#include <array>
#include <type_traits>

namespace cublas_trace {

/// One enumerator per row of the API model, in table order: the index of
/// the row in cublas_tidy::allFunctions(). Inline rows (no interposer) have
/// theirs too, so that the indices stay those of the table.
enum class FunctionId : unsigned {
#define CUBLAS_FUNCTION(Name, ...) Name,
#include "model/CublasApi.def"
  NumFunctions
};

template <class T> Arg toArg(T Value) {
  Arg A;
  if constexpr (std::is_pointer_v<T> &&
                !std::is_function_v<std::remove_pointer_t<T>>) {
    A.K = Arg::Pointer;
    A.Ptr = Value;
  } else if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) {
    A.K = Arg::Integer;
    A.Int = static_cast<std::int64_t>(Value);
  }
  return A;
}

template <class... T> std::array<Arg, sizeof...(T)> pack(T... Values) {
  return {toArg(Values)...};
}

/// The real function (the next definition after this library), or null.
void *realFunction(FunctionId Id);
/// Reports a function that the loaded libraries do not define, and aborts.
[[noreturn]] void missingFunction(FunctionId Id);

/// True for a call from outside cuBLAS; it must be paired with leaveCall().
bool enterCall();
void leaveCall();
void beforeCall(FunctionId Id, const Arg *Args, const void *ReturnAddress,
                CallSite &Site);
void afterCall(FunctionId Id, const Arg *Args, std::int64_t Result,
               const CallSite &Site);

template <class Ret, std::size_t N, class Forward>
Ret intercept(FunctionId Id, const void *ReturnAddress,
              const std::array<Arg, N> &Args, Forward &&Call) {
  void *Real = realFunction(Id);
  if (!Real)
    missingFunction(Id);
  if (!enterCall()) {
    leaveCall();
    return Call(Real);
  }
  CallSite Site;
  beforeCall(Id, Args.data(), ReturnAddress, Site);
  if constexpr (std::is_void_v<Ret>) {
    Call(Real);
    afterCall(Id, Args.data(), 0, Site);
    leaveCall();
  } else {
    Ret Result = Call(Real);
    std::int64_t Status = 0;
    if constexpr (std::is_integral_v<Ret> || std::is_enum_v<Ret>)
      Status = static_cast<std::int64_t>(Result);
    afterCall(Id, Args.data(), Status, Site);
    leaveCall();
    return Result;
  }
}

} // namespace cublas_trace

#endif
