// RUN: %check_clang_tidy %s cublas-handle-leak %t

// cublasLt.h's Init helpers (cublasLtMatmulPreferenceInit, ...) are static
// inline functions of the header that re-initialise a descriptor in place.
// They use the descriptor: a created one still needs its Destroy, and one
// that lives in the caller's own storage needs none.

#include <cublasLt.h>

void consume(cublasLtMatmulPreference_t);

int preference_leaked() {
  cublasLtMatmulPreference_t pref;
  if (cublasLtMatmulPreferenceCreate(&pref) != CUBLAS_STATUS_SUCCESS)
    return -1;
  // CHECK-MESSAGES: :[[@LINE-2]]:7: warning: descriptor 'pref' created here is never destroyed; call 'cublasLtMatmulPreferenceDestroy' when it is no longer needed [cublas-handle-leak]
  if (cublasLtMatmulPreferenceInit(pref) != CUBLAS_STATUS_SUCCESS)
    return -1;
  return 0;
}

void preference_unchecked_leaked() {
  cublasLtMatmulPreference_t pref;
  cublasLtMatmulPreferenceCreate(&pref);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: descriptor 'pref' created here is never destroyed; call 'cublasLtMatmulPreferenceDestroy' when it is no longer needed [cublas-handle-leak]
  cublasLtMatmulPreferenceInit(pref);
}

int preference_destroyed() {
  cublasLtMatmulPreference_t pref;
  if (cublasLtMatmulPreferenceCreate(&pref) != CUBLAS_STATUS_SUCCESS)
    return -1;
  cublasStatus_t st = cublasLtMatmulPreferenceInit(pref);
  cublasLtMatmulPreferenceDestroy(pref);
  return st == CUBLAS_STATUS_SUCCESS ? 0 : -1;
}

int preference_in_own_storage() {
  // Caller-owned storage: nothing was created, nothing is to be destroyed.
  cublasLtMatmulPreferenceOpaque_t storage;
  cublasLtMatmulPreference_t pref = &storage;
  if (cublasLtMatmulPreferenceInit(pref) != CUBLAS_STATUS_SUCCESS)
    return -1;
  consume(pref);
  return 0;
}

int preference_in_own_storage_directly() {
  cublasLtMatmulPreferenceOpaque_t storage;
  return cublasLtMatmulPreferenceInit(&storage) == CUBLAS_STATUS_SUCCESS ? 0
                                                                          : -1;
}

int layout_destroyed(int rows, int cols) {
  cublasLtMatrixLayout_t layout;
  if (cublasLtMatrixLayoutCreate(&layout, CUDA_R_32F, rows, cols, rows) !=
      CUBLAS_STATUS_SUCCESS)
    return -1;
  // Re-describe the same layout for another matrix.
  cublasStatus_t st =
      cublasLtMatrixLayoutInit(layout, CUDA_R_32F, cols, rows, cols);
  cublasLtMatrixLayoutDestroy(layout);
  return st == CUBLAS_STATUS_SUCCESS ? 0 : -1;
}

int layout_in_own_storage(int rows, int cols) {
  cublasLtMatrixLayoutOpaque_t storage;
  cublasLtMatrixLayout_t layout = &storage;
  return cublasLtMatrixLayoutInit(layout, CUDA_R_32F, rows, cols, rows) ==
                 CUBLAS_STATUS_SUCCESS
             ? 0
             : -1;
}

int matmul_desc_early_return() {
  cublasLtMatmulDesc_t op;
  if (cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F) !=
      CUBLAS_STATUS_SUCCESS)
    return -1;
  // CHECK-MESSAGES: :[[@LINE-3]]:7: warning: descriptor 'op' created here is not destroyed on every path; call 'cublasLtMatmulDescDestroy' before it goes out of reach [cublas-handle-leak]
  if (cublasLtMatmulDescInit(op, CUBLAS_COMPUTE_32F, CUDA_R_32F) !=
      CUBLAS_STATUS_SUCCESS)
    return -2;
  cublasLtMatmulDescDestroy(op);
  return 0;
}
