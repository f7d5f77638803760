// INTEGRATION-CHECK: none
// PREDICT: clean
//
// cublas-matrix-extents/spgemm_buffer_of_other_step.cpp with the compute
// step's buffer allocated with the size the compute step wrote. No check
// may report anything, and compute-sanitizer finds nothing.
#include "sample.h"

#include <algorithm>
#include <cusparse.h>

static bool sparse_ok(cusparseStatus_t status, const char *what) {
  if (status == CUSPARSE_STATUS_SUCCESS)
    return true;
  std::printf("CUSPARSE-ERROR: %s (%s)\n", cusparseGetErrorName(status), what);
  return false;
}

#define SPARSE_CHECK(call)                                                     \
  do {                                                                         \
    cusparseStatus_t s_ = (call);                                              \
    if (s_ != CUSPARSE_STATUS_SUCCESS) {                                       \
      std::printf("CUSPARSE-ERROR: %s (%s)\n", cusparseGetErrorName(s_),      \
                  #call);                                                      \
      return false;                                                            \
    }                                                                          \
  } while (0)

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    if (!cuda_ok((call), #call))                                               \
      return false;                                                            \
  } while (0)

// C = A * A, the work estimation and the compute step of SpGEMM.
static bool multiply(cusparseHandle_t h, cusparseSpMatDescr_t A,
                     cusparseSpMatDescr_t C, cusparseSpGEMMDescr_t d,
                     void **buffers) {
  const float alpha = 1.0f, beta = 0.0f;
  const cusparseOperation_t op = CUSPARSE_OPERATION_NON_TRANSPOSE;
  size_t size1 = 0, size2 = 0;
  void *buffer1 = nullptr, *buffer2 = nullptr;
  SPARSE_CHECK(cusparseSpGEMM_workEstimation(h, op, op, &alpha, A, A, &beta, C,
                                             CUDA_R_32F, CUSPARSE_SPGEMM_DEFAULT,
                                             d, &size1, nullptr));
  CUDA_CHECK(cudaMalloc(&buffer1, size1));
  buffers[0] = buffer1;
  SPARSE_CHECK(cusparseSpGEMM_workEstimation(h, op, op, &alpha, A, A, &beta, C,
                                             CUDA_R_32F, CUSPARSE_SPGEMM_DEFAULT,
                                             d, &size1, buffer1));
  SPARSE_CHECK(cusparseSpGEMM_compute(h, op, op, &alpha, A, A, &beta, C,
                                      CUDA_R_32F, CUSPARSE_SPGEMM_DEFAULT, d,
                                      &size2, nullptr));
  CUDA_CHECK(cudaMalloc(&buffer2, size2));
  buffers[1] = buffer2;
  SPARSE_CHECK(cusparseSpGEMM_compute(h, op, op, &alpha, A, A, &beta, C,
                                      CUDA_R_32F, CUSPARSE_SPGEMM_DEFAULT, d,
                                      &size2, buffer2));
  return device_ok("compute");
}

int main() {
  const int n = 4096, w = 64;
  // A banded n x n matrix: row i holds columns i .. i + w - 1 (mod n).
  std::vector<int> offsets(n + 1), cols(static_cast<std::size_t>(n) * w);
  for (int i = 0; i <= n; ++i)
    offsets[i] = i * w;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < w; ++j)
      cols[static_cast<std::size_t>(i) * w + j] = (i + j) % n;
  for (int i = 0; i < n; ++i) // columns in order within each row
    std::sort(cols.begin() + static_cast<std::ptrdiff_t>(i) * w,
              cols.begin() + static_cast<std::ptrdiff_t>(i + 1) * w);
  std::vector<float> vals(cols.size(), 1.0f);
  int *d_offsets = to_device(offsets, "offsets");
  int *d_cols = to_device(cols, "cols");
  float *d_vals = to_device(vals, "vals");
  if (!d_offsets || !d_cols || !d_vals)
    return 2;
  cusparseHandle_t h = nullptr;
  cusparseSpMatDescr_t A = nullptr, C = nullptr;
  cusparseSpGEMMDescr_t d = nullptr;
  void *buffers[2] = {nullptr, nullptr};
  bool ok =
      cusparseCreate(&h) == CUSPARSE_STATUS_SUCCESS &&
      cusparseCreateCsr(&A, n, n, static_cast<int64_t>(cols.size()), d_offsets,
                        d_cols, d_vals, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                        CUSPARSE_INDEX_BASE_ZERO,
                        CUDA_R_32F) == CUSPARSE_STATUS_SUCCESS &&
      cusparseCreateCsr(&C, n, n, 0, nullptr, nullptr, nullptr,
                        CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                        CUSPARSE_INDEX_BASE_ZERO,
                        CUDA_R_32F) == CUSPARSE_STATUS_SUCCESS &&
      cusparseSpGEMM_createDescr(&d) == CUSPARSE_STATUS_SUCCESS &&
      multiply(h, A, C, d, buffers);
  if (d)
    ok = sparse_ok(cusparseSpGEMM_destroyDescr(d), "descr") && ok;
  if (C)
    ok = sparse_ok(cusparseDestroySpMat(C), "C") && ok;
  if (A)
    ok = sparse_ok(cusparseDestroySpMat(A), "A") && ok;
  if (h)
    ok = sparse_ok(cusparseDestroy(h), "destroy") && ok;
  free_device({d_offsets, d_cols, d_vals, buffers[0], buffers[1]});
  return report_result(ok);
}
