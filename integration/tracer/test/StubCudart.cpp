//===- StubCudart.cpp - A CUDA runtime without a GPU, for the tracer test -===//
//
// "Device" memory is host memory that this library hands out and remembers;
// cudaPointerGetAttributes and cuMemGetAddressRange_v2 answer from that
// table, as the real ones answer from the driver. Everything else the test
// program needs is a plain host implementation.
//
//===----------------------------------------------------------------------===//

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

namespace {

struct Allocation {
  std::size_t Size;
  cudaMemoryType Type;
};

std::mutex Mutex;
std::map<std::uintptr_t, Allocation> Allocations; // by base address
cudaError_t LastError = cudaSuccess;

const std::pair<const std::uintptr_t, Allocation> *find(const void *P) {
  auto A = reinterpret_cast<std::uintptr_t>(P);
  auto It = Allocations.upper_bound(A);
  if (It == Allocations.begin())
    return nullptr;
  --It;
  return A < It->first + It->second.Size ? &*It : nullptr;
}

cudaError_t allocate(void **P, std::size_t Size, cudaMemoryType Type) {
  if (!P)
    return cudaErrorInvalidValue;
  *P = std::calloc(1, Size ? Size : 1);
  std::lock_guard<std::mutex> Lock(Mutex);
  Allocations[reinterpret_cast<std::uintptr_t>(*P)] = {Size, Type};
  return cudaSuccess;
}

cudaError_t release(void *P) {
  if (!P)
    return cudaSuccess;
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!Allocations.erase(reinterpret_cast<std::uintptr_t>(P)))
    return LastError = cudaErrorInvalidValue;
  std::free(P);
  return cudaSuccess;
}

} // namespace

extern "C" {

cudaError_t cudaMalloc(void **P, size_t Size) {
  return allocate(P, Size, cudaMemoryTypeDevice);
}

cudaError_t cudaMallocHost(void **P, size_t Size) {
  return allocate(P, Size, cudaMemoryTypeHost);
}

cudaError_t cudaMallocManaged(void **P, size_t Size, unsigned int) {
  return allocate(P, Size, cudaMemoryTypeManaged);
}

cudaError_t cudaFree(void *P) { return release(P); }
cudaError_t cudaFreeHost(void *P) { return release(P); }

cudaError_t cudaMemcpy(void *Dst, const void *Src, size_t Count,
                       cudaMemcpyKind) {
  std::memmove(Dst, Src, Count);
  return cudaSuccess;
}

cudaError_t cudaMemset(void *Dst, int Value, size_t Count) {
  std::memset(Dst, Value, Count);
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }

cudaError_t cudaGetLastError(void) {
  std::lock_guard<std::mutex> Lock(Mutex);
  cudaError_t E = LastError;
  LastError = cudaSuccess;
  return E;
}

const char *cudaGetErrorName(cudaError_t E) {
  return E == cudaSuccess ? "cudaSuccess" : "cudaErrorInvalidValue";
}

cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *Attributes,
                                     const void *P) {
  if (!Attributes)
    return LastError = cudaErrorInvalidValue;
  std::memset(Attributes, 0, sizeof(*Attributes));
  std::lock_guard<std::mutex> Lock(Mutex);
  const auto *A = find(P);
  Attributes->type = A ? A->second.Type : cudaMemoryTypeUnregistered;
  Attributes->device = A ? 0 : -2;
  Attributes->devicePointer = A ? const_cast<void *>(P) : nullptr;
  Attributes->hostPointer = A && A->second.Type == cudaMemoryTypeDevice
                                ? nullptr
                                : const_cast<void *>(P);
  return cudaSuccess;
}

CUresult cuMemGetAddressRange_v2(CUdeviceptr *Base, size_t *Size,
                                 CUdeviceptr P) {
  std::lock_guard<std::mutex> Lock(Mutex);
  const auto *A = find(reinterpret_cast<const void *>(P));
  if (!A || A->second.Type == cudaMemoryTypeHost)
    return CUDA_ERROR_NOT_FOUND;
  if (Base)
    *Base = A->first;
  if (Size)
    *Size = A->second.Size;
  return CUDA_SUCCESS;
}

} // extern "C"
