// RUN: %check_clang_tidy %s cublas-data-type %t -- -- -std=c++17

// A template whose branches depend on its own arguments: in each
// instantiation the branch the arguments switch off never runs, so its
// calls are not judged with that instantiation's facts (an int8 matmul
// whose scale type is CUDA_R_32I when it accumulates in int32, CUDA_R_32F
// otherwise). The branch that runs still is.

#include <cublasLt.h>
#include <cstdint>

template <int OUT>
void igemm(cublasLtHandle_t lt, const int8_t *A, const int8_t *B, void *C,
           int m, int n, int k, cudaStream_t s) {
  cudaDataType_t scaleType = OUT == 32 ? CUDA_R_32I : CUDA_R_32F;
  cudaDataType_t outType = OUT == 32 ? CUDA_R_32I : CUDA_R_8I;
  cublasLtMatmulDesc_t op;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32I, scaleType);
  cublasLtMatrixLayout_t a, b, c;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_8I, m, k, m);
  cublasLtMatrixLayoutCreate(&b, CUDA_R_8I, k, n, k);
  cublasLtMatrixLayoutCreate(&c, outType, m, n, m);
  if (OUT == 32) {
    int alpha = 1, beta = 0;
    cublasLtMatmul(lt, op, &alpha, A, a, B, b, &beta, C, c, C, c, nullptr,
                   nullptr, 0, s);
  } else {
    float alpha = 1.0f, beta = 0.0f;
    cublasLtMatmul(lt, op, &alpha, A, a, B, b, &beta, C, c, C, c, nullptr,
                   nullptr, 0, s);
  }
  if (OUT == 8) {
    // Int scalars where the scale type is CUDA_R_32F: read as floats.
    int alpha = 1, beta = 0;
    cublasLtMatmul(lt, op, &alpha, A, a, B, b, &beta, C, c, C, c, nullptr,
                   nullptr, 0, s);
    // CHECK-MESSAGES: :[[@LINE-2]]:28: warning: '&alpha' (alpha) points to 'int' (4 bytes) but the scale type of 'op' is CUDA_R_32F {{.*}} [cublas-data-type]
    // CHECK-MESSAGES: :[[@LINE-3]]:48: warning: '&beta' (beta) points to 'int' (4 bytes) but the scale type of 'op' is CUDA_R_32F {{.*}} [cublas-data-type]
  }
  cublasLtMatrixLayoutDestroy(c);
  cublasLtMatrixLayoutDestroy(b);
  cublasLtMatrixLayoutDestroy(a);
  cublasLtMatmulDescDestroy(op);
}

template void igemm<32>(cublasLtHandle_t, const int8_t *, const int8_t *,
                        void *, int, int, int, cudaStream_t);
template void igemm<8>(cublasLtHandle_t, const int8_t *, const int8_t *,
                       void *, int, int, int, cudaStream_t);
