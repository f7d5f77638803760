//===- Containers.cpp -----------------------------------------------------===//

#include "model/Containers.h"
#include "model/Rows.h"

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

using K = MethodKind;
using At = InsertAt;

// Name, kind, where an insert puts its element.
const ContainerMethod Methods[] = {
    {"data", K::StoragePointer, At::None},
    {"c_str", K::StoragePointer, At::None},
    {"front", K::ElementAccess, At::None},
    {"back", K::ElementAccess, At::None},
    {"at", K::ElementAccess, At::None},
    {"size", K::Size, At::None},
    {"begin", K::Observer, At::None},
    {"end", K::Observer, At::None},
    {"cbegin", K::Observer, At::None},
    {"cend", K::Observer, At::None},
    {"rbegin", K::Observer, At::None},
    {"rend", K::Observer, At::None},
    {"empty", K::Observer, At::None},
    {"capacity", K::Observer, At::None},
    {"push_back", K::Insert, At::Back},
    {"push_front", K::Insert, At::Front},
    {"insert", K::Insert, At::Position},
    {"emplace_back", K::Emplace, At::Back},
    {"emplace_front", K::Emplace, At::Front},
    {"emplace", K::Emplace, At::Position},
    {"resize", K::Resize, At::None},
    {"clear", K::Resize, At::None},
    {"erase", K::Resize, At::None},
    {"pop_back", K::Resize, At::None},
    {"pop_front", K::Resize, At::None},
};

} // namespace

const Container *lookupContainer(llvm::StringRef Name) {
  return rowNamed(Table, Name);
}

llvm::ArrayRef<ContainerMethod> containerMethods() { return Methods; }

const ContainerMethod *containerMethod(llvm::StringRef Name) {
  return rowNamed(Methods, Name);
}

} // namespace cublas_tidy::memory_api
