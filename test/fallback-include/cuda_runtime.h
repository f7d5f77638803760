/* Minimal stand-in for the CUDA runtime API; see README.md. */
#ifndef CUBLAS_TIDY_FALLBACK_CUDA_RUNTIME_H
#define CUBLAS_TIDY_FALLBACK_CUDA_RUNTIME_H
#include <stddef.h>
#include "driver_types.h"
#ifdef __cplusplus
extern "C" {
#endif
cudaError_t cudaMalloc(void **devPtr, size_t size);
cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags);
cudaError_t cudaMallocHost(void **ptr, size_t size);
cudaError_t cudaFree(void *devPtr);
cudaError_t cudaFreeHost(void *ptr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
                       enum cudaMemcpyKind kind);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaGetLastError(void);
const char *cudaGetErrorString(cudaError_t error);
cudaError_t cudaStreamCreate(cudaStream_t *pStream);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
#ifdef __cplusplus
}
template <class T> static inline cudaError_t cudaMalloc(T **devPtr, size_t size) {
  return cudaMalloc((void **)(void *)devPtr, size);
}
#endif
#endif
