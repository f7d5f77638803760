// INTEGRATION-CHECK: cublas-host-pointer
// EXPECT-DIAG: cublas-host-pointer @ 37
// EXPECT-DIAG: cublas-host-pointer @ 31 (note)
// PREDICT: host-pointer cusparseCreateCsr csrRowOffsets @ 37
//
// A CSR matrix whose row offsets stay in a host array while its column
// indices and values are copied to the device: cusparseCreateCsr accepts
// the host pointer (it only stores it), and the SpMV that reads it on the
// GPU is where the program fails, far from the cause. The tracer sees the
// host pointer given as csrRowOffsets.
#include "sample.h"

#include <cusparse.h>

static bool sparse_ok(cusparseStatus_t status, const char *what) {
  if (status == CUSPARSE_STATUS_SUCCESS)
    return true;
  std::printf("CUSPARSE-ERROR: %s (%s)\n", cusparseGetErrorName(status),
              what);
  return false;
}

int main() {
  const int n = 4;
  // The 4 x 4 identity in CSR: y = A x = x.
  std::vector<int> cols = {0, 1, 2, 3};
  std::vector<float> vals(n, 1.0f), x = ramp(n, 1.0f), y(n, 0.0f);
  int *d_cols = to_device(cols, "cols");
  float *d_vals = to_device(vals, "vals"), *d_x = to_device(x, "x");
  float *d_y = to_device(y, "y");
  int offsets[n + 1] = {0, 1, 2, 3, 4};
  bool ok = d_cols && d_vals && d_x && d_y;
  cusparseHandle_t h = nullptr;
  cusparseSpMatDescr_t A = nullptr;
  cusparseDnVecDescr_t vx = nullptr, vy = nullptr;
  ok = ok && sparse_ok(cusparseCreate(&h), "create") &&
       sparse_ok(cusparseCreateCsr(&A, n, n, n, offsets, d_cols, d_vals,
                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F),
                 "csr") &&
       sparse_ok(cusparseCreateDnVec(&vx, n, d_x, CUDA_R_32F), "x") &&
       sparse_ok(cusparseCreateDnVec(&vy, n, d_y, CUDA_R_32F), "y");
  const float one = 1.0f, zero = 0.0f;
  size_t bytes = 0;
  ok = ok &&
       sparse_ok(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                         &one, A, vx, &zero, vy, CUDA_R_32F,
                                         CUSPARSE_SPMV_ALG_DEFAULT, &bytes),
                 "bufferSize");
  void *buffer = nullptr;
  ok = ok && cuda_ok(cudaMalloc(&buffer, bytes > 0 ? bytes : 1), "buffer") &&
       sparse_ok(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A,
                              vx, &zero, vy, CUDA_R_32F,
                              CUSPARSE_SPMV_ALG_DEFAULT, buffer),
                 "spmv") &&
       device_ok("spmv") && to_host(y, d_y, "y");
  bool released = (!vy || sparse_ok(cusparseDestroyDnVec(vy), "y")) &&
                  (!vx || sparse_ok(cusparseDestroyDnVec(vx), "x")) &&
                  (!A || sparse_ok(cusparseDestroySpMat(A), "csr")) &&
                  (!h || sparse_ok(cusparseDestroy(h), "destroy"));
  free_device({d_cols, d_vals, d_x, d_y, buffer});
  return report_result(ok && released && y == x);
}
