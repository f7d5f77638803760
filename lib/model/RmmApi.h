//===- RmmApi.h - The buffers of RAPIDS Memory Manager (RMM) --------------===//
//
// RAPIDS libraries (cuML, cuGraph, raft, cuDF) hand cuBLAS the storage of
// RMM's RAII buffers: `rmm::device_uvector<T>` (elements of T),
// `rmm::device_buffer` (untyped bytes) and `rmm::device_scalar<T>` (one
// T), each in device memory from a memory resource. This is the small model
// of their API that lib/facts/libraries/RmmModel.h reads: the classes,
// which constructor argument is the size and which the memory resource,
// the methods that give a pointer into the storage, and the methods that
// keep its size. As data; nothing here knows of clang.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_MODEL_RMMAPI_H
#define CUBLAS_TIDY_LIB_MODEL_RMMAPI_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace cublas_tidy::rmm_api {

/// How a buffer class counts its size.
enum class Counts : std::uint8_t {
  Elements, // device_uvector<T>: size() elements of T
  Bytes,    // device_buffer: size() bytes
  One,      // device_scalar<T>: one T
};

/// One buffer class.
struct BufferClass {
  const char *Name; // qualified, without inline namespaces
  Counts Size;
  /// The constructor argument that gives the size, for the constructor
  /// whose arguments are (size, stream, mr); -1 for device_scalar, whose
  /// constructors are (stream, mr) and (value, stream, mr). The memory
  /// resource is found by its type, whichever constructor it is.
  int SizeArg;
};

/// The buffer class named `QualifiedName`, or null.
const BufferClass *lookupBuffer(llvm::StringRef QualifiedName);

/// What a method of a buffer class gives. Every method of the table
/// neither changes the size nor moves the storage (size(), data(),
/// element(i, stream), set_element_async, ...).
enum class MethodKind : std::uint8_t {
  Start,   // data(), begin(): a pointer to the first element
  Element, // element_ptr(i): a pointer to element i
  Size,    // size(): the size it counts (BufferClass::Size)
  Other,   // anything else that keeps the storage
};

/// One method of the buffer classes.
struct BufferMethod {
  const char *Name;
  MethodKind Kind;
};

/// The method named `Method`, or null for one that may change the size or
/// move the storage (resize, reserve, release, ...).
const BufferMethod *lookupMethod(llvm::StringRef Method);

/// How a method gives a pointer into the storage.
enum class PointerMethod : std::uint8_t {
  None,
  Start,   // data(), begin(): the first element
  Element, // element_ptr(i): element i
};
PointerMethod pointerMethod(llvm::StringRef Method);

/// Methods that neither change the size nor move the storage: those of
/// the table.
bool keepsStorage(llvm::StringRef Method);

/// size(): the size the buffer counts.
bool givesSize(llvm::StringRef Method);

} // namespace cublas_tidy::rmm_api

#endif
