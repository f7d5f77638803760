/* Minimal stand-in for the CUDA runtime types; see README.md. */
#ifndef CUBLAS_TIDY_FALLBACK_DRIVER_TYPES_H
#define CUBLAS_TIDY_FALLBACK_DRIVER_TYPES_H
enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorIllegalAddress = 700,
  cudaErrorUnknown = 999
};
typedef enum cudaError cudaError_t;
enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};
typedef struct CUstream_st *cudaStream_t;
#define cudaMemAttachGlobal 0x01
#endif
