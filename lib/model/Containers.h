//===- Containers.h - The classes whose objects own a buffer --------------===//
//
// Every container the facts know, as one table: where its storage is (the
// host heap, inside the object, device or managed memory) and under which
// allocator, whether its element count is followed from its construction,
// and how messages name it. The memory space of a pointer into it
// (facts/PointerProvenance.h), its element count (facts/ValueFacts.h) and
// the size of the buffer (facts/Allocations.h) read this table; adding a
// container is one row. What the containers' member functions do (give the
// storage, an element, the size; insert a value; change the size) is a
// second table, by name; adding a method is one row. As data; nothing here
// knows of clang.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_MODEL_CONTAINERS_H
#define CUBLAS_TIDY_LIB_MODEL_CONTAINERS_H

#include "model/Allocators.h"

#include "llvm/ADT/ArrayRef.h"
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

/// What a member function of a container does.
enum class MethodKind : std::uint8_t {
  StoragePointer, // data(), c_str(): a pointer to the first element
  ElementAccess,  // front(), back(), at(i): a reference to one element
  Size,           // size(): the element count
  Observer,       // begin(), empty(), capacity(): reads, changes nothing
  Insert,         // push_back(v), insert(pos, v): copies or moves v in
  Emplace,        // emplace_back(args...): constructs an element in place
  Resize,         // resize(n), clear(), erase(pos): changes the count
};

/// Where an Insert or Emplace puts its element.
enum class InsertAt : std::uint8_t {
  None,     // not an insert
  Back,     // push_back, emplace_back: the value is the only argument
  Front,    // push_front, emplace_front: the value is the only argument
  Position, // insert, emplace: a position, then the value
};

/// One member function of the standard and thrust containers, by name
/// (the same name means the same on each of them).
struct ContainerMethod {
  const char *Name;
  MethodKind Kind;
  InsertAt At;

  /// The method leaves the element count as it is: it gives the storage,
  /// an element or the size, or only observes.
  bool preservesSize() const {
    return Kind == MethodKind::StoragePointer ||
           Kind == MethodKind::ElementAccess || Kind == MethodKind::Size ||
           Kind == MethodKind::Observer;
  }
  /// The method puts one new element in (Insert or Emplace).
  bool inserts() const {
    return Kind == MethodKind::Insert || Kind == MethodKind::Emplace;
  }
  /// The arguments an insert of one element takes: the value, after the
  /// position for an insert at a position; 0 for other methods.
  unsigned insertArgs() const {
    return At == InsertAt::None ? 0 : At == InsertAt::Position ? 2 : 1;
  }
};

/// Every container method, in the table's order.
llvm::ArrayRef<ContainerMethod> containerMethods();

/// The container method named `Name`, or null.
const ContainerMethod *containerMethod(llvm::StringRef Name);

} // namespace cublas_tidy::memory_api

#endif
