// INTEGRATION-CHECK: cublas-device-pointer
// EXPECT-DIAG: cublas-device-pointer @ 63
// PREDICT: device-pointer cusparseSpMV alpha @ 63
//
// The scale of a sparse product kept in device memory, as a solver keeps
// its step length, given to cusparseSpMV on a handle left in the default
// CUSPARSE_POINTER_MODE_HOST: cuSPARSE dereferences alpha on the host (a
// segmentation fault where the CPU cannot read GPU memory). The cuBLAS
// handle beside it is in device mode, which does not count for cuSPARSE.
#include "sample.h"

#include <cusparse.h>

static bool sparse_ok(cusparseStatus_t status, const char *what) {
  if (status == CUSPARSE_STATUS_SUCCESS)
    return true;
  std::printf("CUSPARSE-ERROR: %s (%s)\n", cusparseGetErrorName(status), what);
  return false;
}

int main() {
  const int n = 4;
  // The 4 x 4 identity in CSR: y = alpha * x.
  std::vector<int> offsets = {0, 1, 2, 3, 4}, cols = {0, 1, 2, 3};
  std::vector<float> vals(n, 1.0f), x = ramp(n, 1.0f), y(n, 0.0f);
  std::vector<float> step = {2.0f};
  int *d_offsets = to_device(offsets, "offsets");
  int *d_cols = to_device(cols, "cols");
  float *d_vals = to_device(vals, "vals"), *d_x = to_device(x, "x");
  float *d_y = to_device(y, "y"), *d_step = nullptr;
  bool ok = d_offsets && d_cols && d_vals && d_x && d_y &&
            cuda_ok(cudaMalloc(&d_step, sizeof(float)), "step") &&
            cuda_ok(cudaMemcpy(d_step, step.data(), sizeof(float),
                               cudaMemcpyHostToDevice),
                    "step copy");
  if (!ok)
    return 2;
  cublasHandle_t blas;
  if (cublasCreate(&blas) != CUBLAS_STATUS_SUCCESS)
    return 2;
  cusparseHandle_t h;
  if (cusparseCreate(&h) != CUSPARSE_STATUS_SUCCESS)
    return 2;
  cusparseSpMatDescr_t A = nullptr;
  cusparseDnVecDescr_t vx = nullptr, vy = nullptr;
  ok = cublas_ok(cublasSetPointerMode(blas, CUBLAS_POINTER_MODE_DEVICE),
                 "cublas device mode") &&
       sparse_ok(cusparseCreateCsr(&A, n, n, n, d_offsets, d_cols, d_vals,
                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F),
                 "csr") &&
       sparse_ok(cusparseCreateDnVec(&vx, n, d_x, CUDA_R_32F), "x") &&
       sparse_ok(cusparseCreateDnVec(&vy, n, d_y, CUDA_R_32F), "y");
  const float zero = 0.0f, one = 1.0f;
  size_t bytes = 0;
  ok = ok &&
       sparse_ok(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                         &one, A, vx, &zero, vy, CUDA_R_32F,
                                         CUSPARSE_SPMV_ALG_DEFAULT, &bytes),
                 "bufferSize");
  void *buffer = nullptr;
  ok = ok && cuda_ok(cudaMalloc(&buffer, bytes > 0 ? bytes : 1), "buffer") &&
       sparse_ok(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, d_step, A,
                              vx, &zero, vy, CUDA_R_32F,
                              CUSPARSE_SPMV_ALG_DEFAULT, buffer),
                 "spmv") &&
       device_ok("spmv") && to_host(y, d_y, "y");
  bool released = (!vy || sparse_ok(cusparseDestroyDnVec(vy), "y")) &&
                  (!vx || sparse_ok(cusparseDestroyDnVec(vx), "x")) &&
                  (!A || sparse_ok(cusparseDestroySpMat(A), "csr")) &&
                  sparse_ok(cusparseDestroy(h), "destroy") &&
                  cublas_ok(cublasDestroy(blas), "cublas destroy");
  free_device({d_offsets, d_cols, d_vals, d_x, d_y, buffer});
  cuda_ok(cudaFree(d_step),
          "cudaFree step"); // not in free_device: see sample.h
  std::vector<float> want(x);
  for (float &v : want)
    v *= step[0];
  return report_result(ok && released && all_close(y, want));
}
