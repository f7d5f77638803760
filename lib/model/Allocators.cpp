//===- Allocators.cpp -----------------------------------------------------===//

#include "model/Allocators.h"
#include "model/Rows.h"

namespace cublas_tidy::memory_api {

namespace {

using S = MemorySpace;

// Name, space, pointer, size, count, pitch, height.
const Allocator Table[] = {
    // The CUDA runtime: the pointer through the first argument.
    {"cudaMalloc", S::Device, 0, 1, -1, -1, -1},
    {"cudaMallocAsync", S::Device, 0, 1, -1, -1, -1},
    {"cudaMallocFromPoolAsync", S::Device, 0, 1, -1, -1, -1},
    {"cudaMallocPitch", S::Device, 0, -1, -1, 1, 3},
    {"cudaMallocManaged", S::Managed, 0, 1, -1, -1, -1},
    {"cudaMallocHost", S::PinnedHost, 0, 1, -1, -1, -1},
    {"cudaHostAlloc", S::PinnedHost, 0, 1, -1, -1, -1},
    // The driver API's pinned host memory.
    {"cuMemAllocHost", S::PinnedHost, 0, 1, -1, -1, -1},
    {"cuMemHostAlloc", S::PinnedHost, 0, 1, -1, -1, -1},
    // The C library and its relatives: the result is the pointer.
    {"posix_memalign", S::PageableHost, 0, 2, -1, -1, -1},
    {"malloc", S::PageableHost, -1, 0, -1, -1, -1},
    {"calloc", S::PageableHost, -1, 1, 0, -1, -1},
    {"realloc", S::PageableHost, -1, 1, -1, -1, -1},
    {"aligned_alloc", S::PageableHost, -1, 1, -1, -1, -1},
    {"valloc", S::PageableHost, -1, 0, -1, -1, -1},
    {"memalign", S::PageableHost, -1, 1, -1, -1, -1},
    // pvalloc rounds the size up to whole pages: not one argument.
    {"pvalloc", S::PageableHost, -1, -1, -1, -1, -1},
    {"_aligned_malloc", S::PageableHost, -1, 0, -1, -1, -1},
};

} // namespace

llvm::ArrayRef<Allocator> allocators() { return Table; }

unsigned guaranteedAlignment(const Allocator &A) {
  llvm::StringRef Name = A.Name;
  return Name == "cudaMalloc" || Name == "cudaMallocPitch" ||
                 Name == "cudaMallocManaged"
             ? 256
             : 0;
}

llvm::StringRef documentedName(llvm::StringRef Name) {
  Name.consume_back("_ptsz");
  return Name;
}

const Allocator *lookupAllocator(llvm::StringRef Name) {
  Name = documentedName(Name);
  return rowNamed(Table, Name);
}

} // namespace cublas_tidy::memory_api
