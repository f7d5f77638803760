//===- Allocations.h - How much memory a pointer reaches ------------------===//
//
// The extent of the allocation a pointer expression points into: which
// allocation (cudaMalloc, cudaMallocManaged, cudaMallocAsync, cudaMallocHost,
// cudaHostAlloc, cudaMallocPitch, malloc, calloc, new T[n], std::vector,
// thrust vectors, arrays), its size in bytes as a value fact, and the
// offset of the pointer into it, following the pointer through copies and
// pointer arithmetic (`dA + i*lda`, `&dA[off]`) and into helper functions
// called with known arguments (through ValueFacts contexts).
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_ALLOCATIONS_H
#define CUBLAS_TIDY_LIB_FACTS_ALLOCATIONS_H

#include "facts/ValueFacts.h"

#include "clang/AST/Expr.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace cublas_tidy {

/// A function that allocates through an out-parameter, e.g.
/// `cudaMalloc(void **devPtr, size_t size)`.
struct OutParamAllocator {
  const char *Name;
  unsigned PointerArg;     // the T** argument
  int PitchArg;            // cudaMallocPitch's size_t *pitch, or -1
  int SizeArg;             // the size in bytes, or -1 (pitched)
  int WidthArg, HeightArg; // cudaMallocPitch's widthInBytes and height
};

/// The allocator `Name` names (`cudaMalloc`, ...), or null.
const OutParamAllocator *lookupOutParamAllocator(llvm::StringRef Name);

/// True when argument `Arg` of `Call` is an out-parameter that the
/// allocator writes (the pointer, or cudaMallocPitch's pitch).
bool isAllocatorOutArgument(const clang::CallExpr *Call, unsigned Arg);

struct Extent {
  /// Bytes of the whole allocation.
  SymExpr Bytes;
  /// Offset of the pointer from the allocation's start, in bytes.
  SymExpr OffsetBytes;
  /// The allocating expression (call, new, container construction), for a
  /// note; null for an array variable.
  const clang::Expr *Origin = nullptr;
  /// The variable declared with it, when it is a container or an array.
  const clang::VarDecl *OriginVar = nullptr;
  /// "cudaMalloc", "cudaMallocPitch", "malloc", "new[]", "std::vector", ...
  llvm::StringRef Allocator;
  /// The written size argument (or the element count for new[] and
  /// containers), for messages.
  const clang::Expr *SizeExpr = nullptr;
  /// The element type the allocation was made for, when known.
  clang::QualType ElementType;
  /// cudaMallocPitch: bytes per row (the usable leading dimension times
  /// the element size).
  std::optional<SymExpr> PitchBytes;

  /// Bytes from the pointer to the end of the allocation.
  std::optional<SymExpr> remainingBytes() const {
    return Bytes.sub(OffsetBytes);
  }
};

/// The allocation `Ptr` (a pointer expression) points into, evaluated where
/// `Ptr` is written; nullopt when not known on every path.
std::optional<Extent> pointerExtent(const clang::Expr *Ptr,
                                    const ValueFacts &Facts);

} // namespace cublas_tidy

#endif
