//===- Allocators.h - The functions that allocate memory ------------------===//
//
// Every allocation function the facts know, as one table: the CUDA runtime's
// and driver's (device, managed, pinned host), the C library's (pageable
// host). For each, the memory it returns, where the pointer goes (the result
// or an out-parameter) and which arguments give its size. Both the memory
// space of a pointer (facts/PointerProvenance.h) and the size of what it
// points into (facts/Allocations.h) read this table; adding an allocator is
// one row. As data, like the cuBLAS model; nothing here knows of clang.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_MODEL_ALLOCATORS_H
#define CUBLAS_TIDY_LIB_MODEL_ALLOCATORS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace cublas_tidy::memory_api {

/// The memory an allocator or a container's storage is in.
enum class MemorySpace : std::uint8_t {
  Device,       // device memory
  Managed,      // managed (unified) memory: host and device may use it
  PinnedHost,   // page-locked host memory
  PageableHost, // ordinary host memory
};

/// One allocation function. Argument indices are -1 where there is none.
struct Allocator {
  const char *Name; // as documented: "cudaMalloc", "malloc"
  MemorySpace Space;
  /// The `T **` argument the pointer is written through; -1 when the
  /// result is the pointer.
  int PointerArg;
  /// The size in bytes; -1 when it is not one argument (cudaMallocPitch's
  /// pitch * height, or a size the allocator may round up).
  int SizeArg;
  /// calloc's element count: bytes are CountArg * SizeArg.
  int CountArg;
  /// cudaMallocPitch: the `size_t *pitch` it writes, and the height.
  int PitchArg;
  int HeightArg;

  bool outParameter() const { return PointerArg >= 0; }
  /// True when argument `Arg` is one the call writes through: the pointer
  /// or the pitch.
  bool writes(unsigned Arg) const {
    return (PointerArg >= 0 && Arg == unsigned(PointerArg)) ||
           (PitchArg >= 0 && Arg == unsigned(PitchArg));
  }
};

/// The alignment in bytes every pointer `A` returns is known to have: 256
/// for cudaMalloc, cudaMallocPitch (the first row) and cudaMallocManaged
/// (CUDA C++ Programming Guide, "Device Memory Accesses"); 0 when not
/// known.
unsigned guaranteedAlignment(const Allocator &A);

/// Every allocator, in the table's order.
llvm::ArrayRef<Allocator> allocators();

/// The allocator named `Name` (a function of the global namespace or of
/// `std`; a `_ptsz` suffix, the per-thread default stream's variant, is the
/// same function), or null.
const Allocator *lookupAllocator(llvm::StringRef Name);

/// The name as documented: `Name` without a `_ptsz` suffix.
llvm::StringRef documentedName(llvm::StringRef Name);

} // namespace cublas_tidy::memory_api

#endif
