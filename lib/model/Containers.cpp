//===- Containers.cpp -----------------------------------------------------===//

#include "model/Containers.h"

namespace cublas_tidy::memory_api {

namespace {

using S = MemorySpace;

// Name, display, where, space, allocator argument, allocator, sized.
const Container Table[] = {
    {"std::vector", "std::vector", Storage::Heap, S::PageableHost, 1,
     "std::allocator", true},
    {"std::basic_string", "std::string", Storage::Heap, S::PageableHost, 2,
     "std::allocator", false},
    {"std::array", "std::array", Storage::Inline, S::PageableHost, -1, nullptr,
     false},
    {"thrust::host_vector", "thrust::host_vector", Storage::Heap,
     S::PageableHost, 1, "std::allocator", true},
    {"thrust::device_vector", "thrust::device_vector", Storage::Heap,
     S::Device, 1, "thrust::device_allocator", true},
    {"thrust::universal_vector", "thrust::universal_vector", Storage::Heap,
     S::Managed, 1, "thrust::universal_allocator", true},
};

} // namespace

const Container *lookupContainer(llvm::StringRef Name) {
  for (const Container &C : Table)
    if (Name == C.Name)
      return &C;
  return nullptr;
}

} // namespace cublas_tidy::memory_api
