//===- RuntimeCalls.h - The CUDA runtime calls the facts read -------------===//
//
// Besides its allocators (Allocators.h), the facts read a few calls of the
// CUDA runtime: a copy into a buffer, a free, a registration of host memory
// as pinned, the selection of a device. For each, what it does and which
// arguments say it. And the values of cublasPointerMode_t, which the facts
// compare a cublasSetPointerMode argument with. Adding a runtime call is one
// row. As data, like the cuBLAS model; nothing here knows of clang.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_MODEL_RUNTIMECALLS_H
#define CUBLAS_TIDY_LIB_MODEL_RUNTIMECALLS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace cublas_tidy::runtime_api {

/// What a runtime call does.
enum class RuntimeKind : std::uint8_t {
  Copy,         // cudaMemcpy: bytes from a source into a destination
  Free,         // cudaFree: gives back what an allocator returned
  Register,     // cudaHostRegister: pins host memory in place
  SelectDevice, // cudaSetDevice: the device of the thread's later calls
  CreateStream, // cudaStreamCreate: a stream of the current device
};

/// One runtime function. Argument indices are -1 where there is none.
struct RuntimeCall {
  const char *Name; // as declared: "cudaMemcpy"
  RuntimeKind Kind;
  /// What it acts on: a copy's destination, the pointer freed or
  /// registered, the device selected, where the new stream is written.
  int TargetArg;
  /// A copy's source.
  int SourceArg;
  /// The bytes copied or registered.
  int BytesArg;
};

/// Every runtime call, in the table's order.
llvm::ArrayRef<RuntimeCall> runtimeCalls();

/// The runtime call named exactly `Name`, or null.
const RuntimeCall *lookupRuntimeCall(llvm::StringRef Name);

/// True when `Name` is a runtime call of kind `Kind`.
bool isRuntimeCall(llvm::StringRef Name, RuntimeKind Kind);

/// cublasPointerMode_t: how a classic handle reads scalars.
enum PointerModeValue : std::int64_t {
  PointerModeHost = 0,   // CUBLAS_POINTER_MODE_HOST, a new handle's
  PointerModeDevice = 1, // CUBLAS_POINTER_MODE_DEVICE
};

} // namespace cublas_tidy::runtime_api

#endif
