//===- Trace.h - What the runtime tracer records --------------------------===//
//
// The logic of libcublas-trace.so, the LD_PRELOAD library of the integration
// suite: given one intercepted cuBLAS call (its row of the API model and its
// argument values), record what went wrong, as JSON lines:
//
//   status           the call returned a status other than SUCCESS
//   host-pointer     an argument cuBLAS reads on the device is host memory
//                    (matrices, vectors, pointer arrays, workspaces, and the
//                    scalars under CUBLAS_POINTER_MODE_DEVICE)
//   device-pointer   an argument cuBLAS reads on the host is device memory
//                    (the host side of Set/Get, scalars in host pointer mode)
//   out-of-bounds    the footprint of a matrix or vector operand reaches past
//                    the end of the allocation that holds its pointer
//   use-after-destroy a handle or descriptor passed after its destroy (a
//                    second destroy included)
//   exit             at exit: every handle and descriptor never destroyed
//
// Nothing here depends on the CUDA headers or on a GPU: memory facts come
// from a MemoryOracle (cudaPointerGetAttributes and cuMemGetAddressRange in
// the real library, a table in the tests), and lines go to a ReportSink.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_INTEGRATION_TRACER_TRACE_H
#define CUBLAS_TIDY_INTEGRATION_TRACER_TRACE_H

#include "CallArgs.h"
#include "model/CublasApi.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace cublas_trace {


/// What cudaPointerGetAttributes says about a pointer.
enum class MemKind : std::uint8_t {
  Unknown,      // no answer (no CUDA runtime, or an error)
  Unregistered, // plain host memory (malloc, new, the stack, std::vector)
  PinnedHost,   // cudaMallocHost / cudaHostRegister: device-accessible
  Device,       // cudaMalloc
  Managed,      // cudaMallocManaged
};
const char *toString(MemKind Kind);

class MemoryOracle {
public:
  virtual ~MemoryOracle();
  virtual MemKind kind(const void *P) = 0;
  /// The allocation that holds P, as [Base, Base + Size); false if unknown.
  virtual bool allocation(const void *P, std::uintptr_t &Base,
                          std::size_t &Size) = 0;
};

class ReportSink {
public:
  virtual ~ReportSink();
  /// One complete JSON object, without the newline.
  virtual void write(const std::string &Line) = 0;
};

/// Where a call came from: the object file and the address in it that
/// addr2line understands (an offset for shared objects and PIE, the address
/// for fixed-position executables), pointing into the call instruction.
struct CallSite {
  std::string Object;
  std::uint64_t Address = 0;
  std::string Symbol;
};
CallSite resolveCallSite(const void *ReturnAddress);

/// The name of a cublasStatus_t value, e.g. "CUBLAS_STATUS_INVALID_VALUE".
const char *statusName(std::int64_t Status);

class Tracer {
public:
  Tracer(MemoryOracle &Memory, ReportSink &Out) : Memory(Memory), Out(Out) {}

  /// Before the real function runs: pointer kinds, footprints, uses of
  /// destroyed resources.
  void beforeCall(const FunctionInfo &F, const Arg *Args, const CallSite &Site);
  /// After it returned `Result` (the status when F.ReturnsStatus): failures,
  /// creates, destroys, pointer modes.
  void afterCall(const FunctionInfo &F, const Arg *Args, std::int64_t Result,
                 const CallSite &Site);
  /// Writes the exit record with every resource still alive. Once.
  void finish();

  /// Writes a record of its own (start, notes).
  void record(const std::string &Line);

private:
  struct Resource {
    const FunctionInfo *By;
    CallSite Site;
  };

  void checkMemory(const FunctionInfo &F, unsigned I, const Arg *Args,
                   bool NeedsDevice, const char *Why, const CallSite &Site);
  /// The workspace against its allocation: workspaceSizeInBytes must fit.
  void checkWorkspace(const FunctionInfo &F, unsigned I, const Arg *Args,
                      const CallSite &Site);
  /// Emits out-of-bounds when `Needed` bytes from argument I's pointer run
  /// past its allocation, or `Before` bytes before the pointer reach below
  /// it; `Formula` says how they were counted.
  void checkExtent(const FunctionInfo &F, unsigned I, const Arg *Args,
                   std::uint64_t Needed, const std::string &Formula,
                   const CallSite &Site, std::uint64_t Before = 0);
  void checkFootprint(const FunctionInfo &F, unsigned I, const Arg *Args,
                      const CallSite &Site);
  /// alpha or beta of cublasLtMatmul, by its descriptor's pointer mode.
  void checkLtScalar(const FunctionInfo &F, unsigned I,
                     const Arg *Args, const CallSite &Site);
  void checkDestroyed(const FunctionInfo &F, unsigned I, const Arg &A,
                      const CallSite &Site);
  void emit(const std::string &Event, const FunctionInfo &F, unsigned I,
            const CallSite &Site, const std::string &Fields);

  MemoryOracle &Memory;
  ReportSink &Out;
  std::mutex Mutex;
  std::uint64_t Calls = 0;
  /// Handles (cuBLAS, cuBLASLt, cuBLASXt) created, destroyed or not.
  std::uint64_t CreatedHandles = 0;
  bool Finished = false;
  std::map<const void *, Resource> Live;
  std::map<const void *, Resource> Destroyed;
  std::map<const void *, std::int64_t> PointerModes; // per cublasHandle_t
  /// CUBLASLT_MATMUL_DESC_POINTER_MODE per cublasLtMatmulDesc_t (absent:
  /// the default, CUBLASLT_POINTER_MODE_HOST).
  std::map<const void *, std::int64_t> LtPointerModes;
  /// Per cublasHandle_t given a workspace with cublasSetWorkspace: whether
  /// a cublasSetStream has reset it to the default pool since, and where.
  struct UserWorkspace {
    bool Reset = false;
    CallSite ResetAt;
  };
  std::map<const void *, UserWorkspace> Workspaces;
};

/// JSON text helpers for the records.
std::string jsonString(const std::string &S);
std::string jsonSite(const CallSite &Site);
std::string hexAddress(std::uint64_t A);

} // namespace cublas_trace

#endif
