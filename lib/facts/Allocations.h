//===- Allocations.h - How much memory a pointer reaches ------------------===//
//
// The extent of the allocation a pointer expression points into: which
// allocation (the allocators of model/Allocators.h, new T[n], the sized
// containers of model/Containers.h, arrays, and what a library model
// knows: facts/LibraryModel.h), its size in bytes as a value fact, and the
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
  /// The call of a function of the unit that returned the allocation (an
  /// allocation helper, `deviceFloats(m * k)`), where it is written in the
  /// code that asked; null for an allocation made there.
  const clang::CallExpr *Through = nullptr;

  /// The helper `Through` calls; null for an allocation made here.
  const clang::FunctionDecl *helper() const {
    return Through ? Through->getDirectCallee() : nullptr;
  }

  /// An allocation of `Count` elements of `ElementBytes` bytes each (its
  /// other fields empty); nullopt when either is unknown or the product
  /// overflows.
  static std::optional<Extent> ofElements(const std::optional<SymExpr> &Count,
                                          std::optional<int64_t> ElementBytes) {
    if (!Count || !ElementBytes)
      return std::nullopt;
    std::optional<SymExpr> Bytes = Count->mul(SymExpr::constant(*ElementBytes));
    if (!Bytes)
      return std::nullopt;
    Extent X;
    X.Bytes = *Bytes;
    return X;
  }

  /// Bytes from the pointer to the end of the allocation.
  std::optional<SymExpr> remainingBytes() const {
    return Bytes.sub(OffsetBytes);
  }

  /// Elements of `ElementBytes` bytes in the whole allocation, when they
  /// divide exactly.
  std::optional<SymExpr> totalElements(int64_t ElementBytes) const {
    return ElementBytes > 0 ? Bytes.divExact(ElementBytes) : std::nullopt;
  }

  /// Elements of `ElementBytes` bytes from the pointer to the end, when
  /// they divide exactly.
  std::optional<SymExpr> remainingElements(int64_t ElementBytes) const {
    std::optional<SymExpr> R = remainingBytes();
    return R && ElementBytes > 0 ? R->divExact(ElementBytes) : std::nullopt;
  }

  /// True when the code proves that fewer than `Elements` elements of
  /// `ElementBytes` bytes remain from the pointer to the end.
  bool provenShorterThan(const SymExpr &Elements, int64_t ElementBytes,
                         const SymbolBounds &Bounds) const {
    std::optional<SymExpr> R = remainingBytes();
    std::optional<SymExpr> Needed =
        Elements.mul(SymExpr::constant(ElementBytes));
    return R && Needed && provenLess(*R, *Needed, Bounds);
  }
};

/// `Bytes` as elements of `ElementBytes` bytes: whole elements of a
/// constant (rounded down), an exact division of a symbolic value, nullopt
/// otherwise.
inline std::optional<SymExpr> bytesAsElements(const SymExpr &Bytes,
                                              int64_t ElementBytes) {
  if (ElementBytes <= 0)
    return std::nullopt;
  if (std::optional<int64_t> C = Bytes.getConstant())
    return SymExpr::constant(*C / ElementBytes);
  return Bytes.divExact(ElementBytes);
}

/// True when the whole allocation is the square of one size: `n * n`
/// elements of `ElementBytes` bytes (the matrix in it is square).
bool isSquare(const Extent &X, int64_t ElementBytes);

/// The one cudaMemcpy (or cudaMemcpyAsync) that fills the buffer `Var`
/// points to, when `Callable` shows no other write into it: every other
/// use of `Var` there is its allocation (`&Var` given to an allocator), the
/// argument of a cuBLAS call, the source of a copy or cudaFree. Null
/// otherwise (copied twice, into `Var + i`, handed to a kernel or to any
/// other function, assigned).
const clang::CallExpr *onlyCopyInto(const clang::VarDecl *Var,
                                    const clang::Decl *Callable);

/// A device array of pointers that holds fewer than the `Count` pointers a
/// batched call reads from it: allocated with fewer (from where `Array`
/// points), or, allocated with enough, filled by its one copy
/// (onlyCopyInto()) with fewer.
struct ShortPointerArray {
  /// The bytes there are: what the allocation holds from the pointer on,
  /// or what the copy writes.
  SymExpr Bytes;
  /// The allocation, when it is too short; else the copy.
  std::optional<Extent> Allocation;
  const clang::CallExpr *Copy = nullptr;
};
std::optional<ShortPointerArray>
shortPointerArray(const clang::Expr *Array, const SymExpr &Count,
                  int64_t PointerBytes, const ValueFacts &Facts,
                  const SymbolBounds &Bounds);

/// The allocation `Ptr` (a pointer expression) points into, evaluated where
/// `Ptr` is written; nullopt when not known on every path.
std::optional<Extent> pointerExtent(const clang::Expr *Ptr,
                                    const ValueFacts &Facts);

} // namespace cublas_tidy

#endif
