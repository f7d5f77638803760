//===- Containers.h - The classes whose objects own a buffer --------------===//
//
// Every container the facts know, as one table: where its storage is (the
// host heap, inside the object, device or managed memory) and under which
// allocator, whether its element count is followed from its construction,
// and how messages name it. The memory space of a pointer into it
// (facts/PointerProvenance.h), its element count (facts/ValueFacts.h) and
// the size of the buffer (facts/Allocations.h) read this table; adding a
// container is one row. As data; nothing here knows of clang.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_MODEL_CONTAINERS_H
#define CUBLAS_TIDY_LIB_MODEL_CONTAINERS_H

#include "model/Allocators.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace cublas_tidy::memory_api {

/// Where a container keeps its elements.
enum class Storage : std::uint8_t {
  Heap,   // a buffer in the memory space of the row (Space)
  Inline, // inside the object (std::array): where the object is
};

/// One container class template (or class).
struct Container {
  /// The qualified name without inline namespaces: "std::vector".
  const char *Name;
  /// How messages name it: "std::string" for std::basic_string.
  const char *Display;
  Storage Where;
  /// The memory of a Heap container's buffer.
  MemorySpace Space;
  /// The template argument that names the allocator, and the allocator
  /// class template under which the buffer is in Space; -1 and null when
  /// the class has no allocator argument. Under any other allocator the
  /// memory space is unknown (a pinned or managed allocator, say).
  int AllocatorArg;
  const char *SpaceAllocator;
  /// The element count is followed (facts/ValueFacts.h): the class is a
  /// template whose first argument is the element type, constructed with
  /// the count as its first argument.
  bool Sized;
};

/// The container whose qualified name is `Name`, or null.
const Container *lookupContainer(llvm::StringRef Name);

} // namespace cublas_tidy::memory_api

#endif
