#include "sample.h"
#include "helpers.h"

void LtSgemm(cublasLtHandle_t ltHandle, int m, int n, int k, const float *A,
             const float *B, float *C, void *workspace, size_t workspaceSize) {
  cublasLtMatmulDesc_t operationDesc = nullptr;
  cublasLtMatrixLayout_t Adesc = nullptr, Bdesc = nullptr, Cdesc = nullptr;
  const float alpha = 1.0f, beta = 0.0f;
  checkCublasStatus(
      cublasLtMatmulDescCreate(&operationDesc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  checkCublasStatus(cublasLtMatrixLayoutCreate(&Adesc, CUDA_R_32F, m, k, m));
  checkCublasStatus(cublasLtMatrixLayoutCreate(&Bdesc, CUDA_R_32F, k, n, k));
  checkCublasStatus(cublasLtMatrixLayoutCreate(&Cdesc, CUDA_R_32F, m, n, m));
  checkCublasStatus(cublasLtMatmul(ltHandle, operationDesc, &alpha, A, Adesc,
                                   B, Bdesc, &beta, C, Cdesc, C, Cdesc,
                                   nullptr, workspace, workspaceSize, 0));
  checkCublasStatus(cublasLtMatrixLayoutDestroy(Cdesc));
  checkCublasStatus(cublasLtMatrixLayoutDestroy(Bdesc));
  checkCublasStatus(cublasLtMatrixLayoutDestroy(Adesc));
  checkCublasStatus(cublasLtMatmulDescDestroy(operationDesc));
}
