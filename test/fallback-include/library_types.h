/* Minimal stand-in; see README.md. */
#ifndef CUBLAS_TIDY_FALLBACK_LIBRARY_TYPES_H
#define CUBLAS_TIDY_FALLBACK_LIBRARY_TYPES_H
typedef enum cudaDataType_t {
  CUDA_R_16F = 2,
  CUDA_R_32F = 0,
  CUDA_R_64F = 1,
  CUDA_C_32F = 4,
  CUDA_C_64F = 5
} cudaDataType;
typedef enum cudaDataType_t cudaDataType_t;
#endif
