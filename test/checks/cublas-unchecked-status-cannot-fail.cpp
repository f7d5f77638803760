// RUN: %check_clang_tidy %s cublas-unchecked-status %t

// cublasLt.h documents calls that cannot fail as they are written: the
// destroys of cuBLASLt descriptors return only CUBLAS_STATUS_SUCCESS, and an
// attribute accessor fails only when its buffer is null or its size is not
// the attribute's. Their statuses may go unread. The same calls written so
// that they can fail are reported.

#include <cublasLt.h>
#include <cusolverDn.h>
#include <cusparse.h>
#include <cstddef>
#include <cstdint>

// --- Cannot fail: silent ------------------------------------------------------

void teardown(cublasLtMatmulDesc_t op, cublasLtMatrixLayout_t a,
              cublasLtMatmulPreference_t pref) {
  cublasLtMatrixLayoutDestroy(a);
  cublasLtMatmulDescDestroy(op);
  cublasLtMatmulPreferenceDestroy(pref);
  cublasStatus_t st = cublasLtMatrixLayoutDestroy(a); // stored, never read
}

void configure(cublasLtMatmulDesc_t op, cublasLtMatmulPreference_t pref,
               const float *bias, std::size_t workspace) {
  cublasOperation_t transa = CUBLAS_OP_T;
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &transa,
                                 sizeof(transa));
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias,
                                 sizeof bias);
  int8_t fast = 1;
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast,
                                 sizeof(int8_t));
  cublasLtMatmulPreferenceSetAttribute(
      pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace,
      sizeof(workspace));
  const cublasLtMatmulDescAttributes_t epilogue = CUBLASLT_MATMUL_DESC_EPILOGUE;
  cublasLtEpilogue_t relu = CUBLASLT_EPILOGUE_RELU;
  cublasLtMatmulDescSetAttribute(op, epilogue, &relu, sizeof(relu));
}

void tune(cublasLtMatmulAlgo_t *algo) {
  uint16_t shape = CUBLASLT_MATMUL_INNER_SHAPE_UNDEFINED;
  cublasLtMatmulAlgoConfigSetAttribute(algo, CUBLASLT_ALGO_CONFIG_INNER_SHAPE_ID,
                                       &shape, sizeof(shape));
  int tile = CUBLASLT_MATMUL_TILE_16x16;
  cublasLtMatmulAlgoConfigSetAttribute(algo, CUBLASLT_ALGO_CONFIG_TILE_ID, &tile,
                                       sizeof(tile));
}

int32_t computeType(cublasLtMatmulDesc_t op) {
  int32_t type[1];
  std::size_t written;
  cublasLtMatmulDescGetAttribute(op, CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, type,
                                 sizeof(type), &written);
  return type[0];
}

// A library's version: the property queries fail only for a type that is
// not a libraryPropertyType or a null output.
void versions(int out[3]) {
  int major = 0, minor = 0, patch = 0;
  cublasGetProperty(MAJOR_VERSION, &major);
  cusolverGetProperty(MINOR_VERSION, &minor);
  cusparseGetProperty(PATCH_LEVEL, &patch);
  cublasLtGetProperty(MAJOR_VERSION, &out[0]);
}

// --- Can fail: reported -------------------------------------------------------

void property_unknown(libraryPropertyType type, int *value) {
  int v = 0;
  cublasGetProperty(type, &v);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasGetProperty' is discarded
  cusolverGetProperty(MAJOR_VERSION, value); // may be null
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cusolverStatus_t returned by 'cusolverGetProperty' is discarded
}

void wrong_sizes(cublasLtMatmulDesc_t op, cublasLtMatmulAlgo_t *algo) {
  cublasOperation_t transa = CUBLAS_OP_T;
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &transa,
                                 sizeof(int64_t));
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: the cublasStatus_t returned by 'cublasLtMatmulDescSetAttribute' is discarded; a failure here goes unnoticed [cublas-unchecked-status]
  // INNER_SHAPE_ID is a uint16_t: an int's 4 bytes fail.
  int shape = 0;
  cublasLtMatmulAlgoConfigSetAttribute(algo, CUBLASLT_ALGO_CONFIG_INNER_SHAPE_ID,
                                       &shape, sizeof(shape));
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: the cublasStatus_t returned by 'cublasLtMatmulAlgoConfigSetAttribute' is discarded; a failure here goes unnoticed [cublas-unchecked-status]
}

// A pointer variable may be null; an attribute or a size that is not a
// constant may not fit.
void unknown(cublasLtMatmulDesc_t op, const void *value,
             cublasLtMatmulDescAttributes_t attr, std::size_t n) {
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, value,
                                 sizeof(int32_t));
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: the cublasStatus_t returned by 'cublasLtMatmulDescSetAttribute' is discarded
  int32_t v = 0;
  cublasLtMatmulDescSetAttribute(op, attr, &v, sizeof(v));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasLtMatmulDescSetAttribute' is discarded
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &v, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasLtMatmulDescSetAttribute' is discarded
}

// Destroys of handles, and creates, can fail.
void others(cublasLtHandle_t lt, cublasLtMatmulDesc_t *op) {
  cublasLtMatmulDescCreate(op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasLtMatmulDescCreate' is discarded
  cublasLtDestroy(lt);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasLtDestroy' is discarded
}
