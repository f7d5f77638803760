// The project's wrappers of cuBLAS, defined in gemm.cpp, called from
// layer.cpp.
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <algorithm>

// C = A * B, column-major and packed: A is M x K, B is K x N, C is M x N.
cublasStatus_t gemm(cublasHandle_t H, int M, int N, int K, const float *A,
                    const float *B, float *C);
// The same, Count times, each matrix Stride elements after the last.
cublasStatus_t gemmBatched(cublasHandle_t H, int M, int N, int K,
                           const float *A, long long StrideA, const float *B,
                           long long StrideB, float *C, long long StrideC,
                           int Count);
// The same with a leading dimension it computes.
cublasStatus_t gemmPadded(cublasHandle_t H, int M, int N, int K,
                          const float *A, const float *B, float *C);
// The same with A transposed or not, as the caller says.
cublasStatus_t gemmOp(cublasHandle_t H, cublasOperation_t OpA, int M, int N,
                      int K, const float *A, const float *B, float *C);
// Half precision: A, B and C hold __half values.
cublasStatus_t gemmHalf(cublasHandle_t H, int M, int N, int K, const void *A,
                        const void *B, void *C);
// Any type, as the caller says.
cublasStatus_t gemmTyped(cublasHandle_t H, int M, int N, int K,
                         cudaDataType_t Type, const void *A, const void *B,
                         void *C);
// X scaled in place, every other element of it.
cublasStatus_t scaleEveryOther(cublasHandle_t H, int N, float *X);
// Copies the host values into a device buffer of its own first.
cublasStatus_t scaleHost(cublasHandle_t H, int N, const float *Host);
// Row-major C (M x N) = op(A) * op(B), as BLAS-style layers write it: the
// transposes and leading dimensions follow the flags.
enum Transpose { NoTrans = 111, Trans = 112 };
cublasStatus_t gemmRowMajor(cublasHandle_t H, Transpose TransA,
                            Transpose TransB, int M, int N, int K,
                            const float *A, const float *B, float *C);
// Count packed matrices of each, one after the other: the strides are the
// matrices' sizes, which it computes.
cublasStatus_t gemmPacked(cublasHandle_t H, int M, int N, int K, int Count,
                          const float *A, const float *B, float *C);
// y = A x with A M x N at lda = max(1, M), as LAPACK-style code writes it.
cublasStatus_t gemvLapack(cublasHandle_t H, int M, int N, const float *A,
                          const float *X, float *Y);
