// RUN: %check_clang_tidy %s cublas-handle-leak,cublas-handle-per-call,cublas-handle-use-after-destroy,cublas-unchecked-status,cublas-host-pointer %t -- -- -std=c++17

// cuSOLVER and cuSPARSE, the neighbours every cuBLAS user calls: their
// handles and descriptors, statuses and device arguments, by the same
// rules as cuBLAS's, from the API model's rows for cusolverDn.h and
// cusparse.h.

#include <cstdlib>
#include <cuda_runtime.h>
#include <cusolverDn.h>
#include <cusparse.h>

#define CHECK_SOLVER(x) do { if ((x) != CUSOLVER_STATUS_SUCCESS) return -1; } while (0)
#define CHECK_SPARSE(x) do { if ((x) != CUSPARSE_STATUS_SUCCESS) return -1; } while (0)

// --- Reported -------------------------------------------------------------

int solver_leak(bool early) {
  cusolverDnHandle_t h;
  CHECK_SOLVER(cusolverDnCreate(&h));
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: handle 'h' created here is not destroyed on every path; call 'cusolverDnDestroy' before it goes out of reach [cublas-handle-leak]
  if (early)
    return 1;
  // CHECK-NOTES: :[[@LINE-1]]:5: note: leaks when this 'return' is taken
  CHECK_SOLVER(cusolverDnDestroy(h));
  return 0;
}

int descriptor_leak(int *rows, int *cols, float *vals, int n, int nnz) {
  cusparseSpMatDescr_t A;
  CHECK_SPARSE(cusparseCreateCsr(&A, n, n, nnz, rows, cols, vals,
                                 CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                 CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  // CHECK-NOTES: :[[@LINE-3]]:16: warning: descriptor 'A' created here is never destroyed; call 'cusparseDestroySpMat' when it is no longer needed [cublas-handle-leak]
  return 0;
  // CHECK-NOTES: :[[@LINE-1]]:3: note: leaks when this 'return' is taken
}

int factor(float *A, int n, float *work, int *ipiv, int *info) {
  cusolverDnHandle_t h;
  CHECK_SOLVER(cusolverDnCreate(&h));
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: the cuSOLVER handle 'h' is created and destroyed on every call of 'factor', which is called in a loop; cusolverDnCreate allocates resources on the host and the device each time: create it once and pass it in, or keep one per thread and device [cublas-handle-per-call]
  cusolverStatus_t st = cusolverDnSgetrf(h, n, n, A, n, work, ipiv, info);
  CHECK_SOLVER(cusolverDnDestroy(h));
  return st == CUSOLVER_STATUS_SUCCESS ? 0 : -1;
}

void factor_all(float **As, int count, int n, float *work, int *ipiv,
                int *info) {
  for (int i = 0; i < count; ++i)
    if (factor(As[i], n, work, ipiv, info) != 0)
      // CHECK-NOTES: :[[@LINE-1]]:9: note: 'factor' is called in this loop
      return;
}

int sparse_use_after_destroy(cudaStream_t s) {
  cusparseHandle_t h;
  CHECK_SPARSE(cusparseCreate(&h));
  CHECK_SPARSE(cusparseDestroy(h));
  CHECK_SPARSE(cusparseSetStream(h, s));
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: handle 'h' is used after it was destroyed [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :[[@LINE-3]]:16: note: 'h' was destroyed here
  return 0;
}

int solver_use_after_destroy(cudaStream_t s) {
  cusolverDnHandle_t h;
  CHECK_SOLVER(cusolverDnCreate(&h));
  CHECK_SOLVER(cusolverDnDestroy(h));
  CHECK_SOLVER(cusolverDnSetStream(h, s));
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: handle 'h' is used after it was destroyed [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :[[@LINE-3]]:16: note: 'h' was destroyed here
  return 0;
}

// A cuSPARSE handle made around each product, in the loop itself.
void sparse_per_iteration(cusparseSpMatDescr_t A, cusparseDnVecDescr_t x,
                          cusparseDnVecDescr_t y, void *buffer, int steps) {
  float one = 1.0f, zero = 0.0f;
  for (int i = 0; i < steps; ++i) {
    cusparseHandle_t h;
    if (cusparseCreate(&h) != CUSPARSE_STATUS_SUCCESS)
      return;
    // CHECK-NOTES: :[[@LINE-2]]:9: warning: the cuSPARSE handle 'h' is created and destroyed on every iteration of a loop; cusparseCreate allocates resources on the host and the device each time: create it once before the loop and reuse it [cublas-handle-per-call]
    // CHECK-NOTES: :[[@LINE-5]]:3: note: the loop that repeats it
    if (cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, x, &zero,
                     y, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT,
                     buffer) != CUSPARSE_STATUS_SUCCESS)
      i = steps;
    if (cusparseDestroy(h) != CUSPARSE_STATUS_SUCCESS)
      return;
  }
}

void solver_status_discarded(cusolverDnHandle_t h, cudaStream_t s) {
  cusolverDnSetStream(h, s);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the cusolverStatus_t returned by 'cusolverDnSetStream' is discarded; a failure here goes unnoticed [cublas-unchecked-status]
}

bool sparse_status_as_cuda_error(cusparseHandle_t h, cudaStream_t s) {
  return cusparseSetStream(h, s) == cudaSuccess;
  // CHECK-NOTES: :[[@LINE-1]]:34: warning: a cusparseStatus_t compared with the cudaError_t value 'cudaSuccess'; cuSPARSE and CUDA runtime codes differ, so failures are misreported [cublas-unchecked-status]
  // CHECK-NOTES: :[[@LINE-2]]:37: note: FIX-IT applied suggested code changes
  // CHECK-FIXES: {{^}}  return cusparseSetStream(h, s) == CUSPARSE_STATUS_SUCCESS;{{$}}
}

// devInfo and the pivots are device memory.
int host_info(cusolverDnHandle_t h, float *A, int n, float *work,
              int *ipiv) {
  int info = 0;
  CHECK_SOLVER(cusolverDnSgetrf(h, n, n, A, n, work, ipiv, &info));
  // CHECK-NOTES: :[[@LINE-1]]:60: warning: '&info' points to a variable on the host stack, but argument 'devInfo' of 'cusolverDnSgetrf' must point to device memory [cublas-host-pointer]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: 'info' declared here
  return info;
}

// The arrays a cuSPARSE descriptor wraps are device memory: the product
// that reads them faults.
int host_csr(int n, int nnz, float *d_vals, int *d_cols) {
  int rows[3] = {0, 1, 2};
  cusparseSpMatDescr_t A;
  CHECK_SPARSE(cusparseCreateCsr(&A, 2, 2, 2, rows, d_cols, d_vals,
                                 CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                 CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  // CHECK-NOTES: :[[@LINE-3]]:47: warning: 'rows' points to a host array on the stack, but argument 'csrRowOffsets' of 'cusparseCreateCsr' must point to device memory [cublas-host-pointer]
  // CHECK-NOTES: :[[@LINE-6]]:7: note: 'rows' declared here
  CHECK_SPARSE(cusparseDestroySpMat(A));
  return 0;
}

// A placeholder stored in a descriptor whose values the unit never sets
// again: the product reads the host array. Setting another member's values
// does not replace this one's.
struct HalfSet {
  cusparseSpMatDescr_t A;
  cusparseDnVecDescr_t in, out;
};

int half_setup(cusparseHandle_t h, HalfSet *s, int n, size_t *size) {
  float placeholder[1];
  const float one = 1.0f;
  CHECK_SPARSE(cusparseCreateDnVec(&s->in, n, placeholder, CUDA_R_32F));
  CHECK_SPARSE(cusparseCreateDnVec(&s->out, n, placeholder, CUDA_R_32F));
  // CHECK-NOTES: :[[@LINE-1]]:48: warning: 'placeholder' points to a host array on the stack, but argument 'values' of 'cusparseCreateDnVec' must point to device memory [cublas-host-pointer]
  // CHECK-NOTES: :[[@LINE-5]]:9: note: 'placeholder' declared here
  CHECK_SPARSE(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                       &one, s->A, s->in, &one, s->out,
                                       CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT,
                                       size));
  return 0;
}

int half_apply(cusparseHandle_t h, HalfSet *s, float *d_in, void *buffer) {
  const float one = 1.0f;
  CHECK_SPARSE(cusparseDnVecSetValues(s->in, d_in));
  CHECK_SPARSE(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, s->A,
                            s->in, &one, s->out, CUDA_R_32F,
                            CUSPARSE_SPMV_ALG_DEFAULT, buffer));
  return 0;
}

int host_values(cusparseDnVecDescr_t x) {
  float *values = new float[16];
  CHECK_SPARSE(cusparseDnVecSetValues(x, values));
  // CHECK-NOTES: :[[@LINE-1]]:42: warning: 'values' points to host memory from 'new[]', but argument 'values' of 'cusparseDnVecSetValues' must point to device memory [cublas-host-pointer]
  // CHECK-NOTES: :[[@LINE-3]]:19: note: allocated by 'new[]' here
  delete[] values;
  return 0;
}

// --- Not reported ---------------------------------------------------------

int solver_right(float *A, int n, float *work, int *ipiv, int *d_info) {
  cusolverDnHandle_t h;
  CHECK_SOLVER(cusolverDnCreate(&h));
  cusolverStatus_t st = CUSOLVER_STATUS_SUCCESS;
  for (int i = 0; i < 4 && st == CUSOLVER_STATUS_SUCCESS; ++i)
    st = cusolverDnSgetrf(h, n, n, A, n, work, ipiv, d_info);
  int info = st == CUSOLVER_STATUS_SUCCESS ? 0 : -1;
  cudaMemcpy(&info, d_info, sizeof(int), cudaMemcpyDeviceToHost);
  CHECK_SOLVER(cusolverDnDestroy(h));
  return info;
}

// Device arrays, and a descriptor with no arrays yet (nnz still unknown).
int device_csr(int n, float *x) {
  int *rows = nullptr;
  if (cudaMalloc(&rows, sizeof(int) * (n + 1)) != cudaSuccess)
    return -1;
  cusparseSpMatDescr_t A;
  cusparseDnVecDescr_t v;
  CHECK_SPARSE(cusparseCreateCsr(&A, n, n, 0, rows, nullptr, nullptr,
                                 CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                 CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  if (cusparseCreateDnVec(&v, n, x, CUDA_R_32F) == CUSPARSE_STATUS_SUCCESS &&
      cusparseDestroyDnVec(v) != CUSPARSE_STATUS_SUCCESS)
    n = -1;
  CHECK_SPARSE(cusparseDestroySpMat(A));
  cudaFree(rows);
  return n;
}

int descriptors_destroyed(int *rows, int *cols, float *vals, float *x,
                          int n, int nnz) {
  cusparseConstSpMatDescr_t A;
  cusparseDnVecDescr_t v;
  cusparseStatus_t a = cusparseCreateConstCsr(
      &A, n, n, nnz, rows, cols, vals, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
      CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
  cusparseStatus_t b = cusparseCreateDnVec(&v, n, x, CUDA_R_32F);
  int rc = a == CUSPARSE_STATUS_SUCCESS && b == CUSPARSE_STATUS_SUCCESS ? 0 : -1;
  if (b == CUSPARSE_STATUS_SUCCESS && cusparseDestroyDnVec(v) != CUSPARSE_STATUS_SUCCESS)
    rc = -1;
  if (a == CUSPARSE_STATUS_SUCCESS && cusparseDestroySpMat(A) != CUSPARSE_STATUS_SUCCESS)
    rc = -1;
  return rc;
}

// NVIDIA's samples: a helper whose checks return EXIT_FAILURE, a process
// exit status, to main. The descriptor left on that path goes with the
// process.
#define SAMPLE_CHECK(x) { if ((x) != CUSPARSE_STATUS_SUCCESS) return EXIT_FAILURE; }

int solve_sample(cusparseHandle_t h, cusparseSpMatDescr_t A,
                 cusparseDnVecDescr_t x, cusparseDnVecDescr_t y) {
  double one = 1.0;
  size_t size = 0;
  void *buffer = nullptr;
  cusparseSpSVDescr_t d;
  SAMPLE_CHECK(cusparseSpSV_createDescr(&d))
  SAMPLE_CHECK(cusparseSpSV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                       &one, A, x, y, CUDA_R_64F,
                                       CUSPARSE_SPSV_ALG_DEFAULT, d, &size))
  if (cudaMalloc(&buffer, size) != cudaSuccess)
    return EXIT_FAILURE;
  SAMPLE_CHECK(cusparseSpSV_analysis(h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                     &one, A, x, y, CUDA_R_64F,
                                     CUSPARSE_SPSV_ALG_DEFAULT, d, buffer))
  cudaFree(buffer);
  SAMPLE_CHECK(cusparseSpSV_destroyDescr(d))
  return EXIT_SUCCESS;
}

bool sparse_status_checked(cusparseHandle_t h, cudaStream_t s) {
  return cusparseSetStream(h, s) == CUSPARSE_STATUS_SUCCESS;
}

// Descriptors made once with a placeholder for their values, to size the
// product's buffer, and given the real vectors before each product (SUNDIALS'
// cuSPARSE matrix): cuSPARSE stores the pointer and reads it only in the
// product, by then replaced. The setter may come first in the file.
struct Matvec {
  cusparseSpMatDescr_t A;
  cusparseDnVecDescr_t x, y;
  size_t size;
};

int matvec_apply(cusparseHandle_t h, Matvec *m, float *d_x, float *d_y,
                 void *buffer) {
  const float one = 1.0f;
  CHECK_SPARSE(cusparseDnVecSetValues(m->x, d_x));
  CHECK_SPARSE(cusparseDnVecSetValues(m->y, d_y));
  CHECK_SPARSE(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, m->A,
                            m->x, &one, m->y, CUDA_R_32F,
                            CUSPARSE_SPMV_ALG_DEFAULT, buffer));
  return 0;
}

int matvec_setup(cusparseHandle_t h, Matvec *m, int n) {
  float placeholder[1];
  const float one = 1.0f;
  CHECK_SPARSE(cusparseCreateDnVec(&m->x, n, placeholder, CUDA_R_32F));
  CHECK_SPARSE(cusparseCreateDnVec(&m->y, n, placeholder, CUDA_R_32F));
  CHECK_SPARSE(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                       &one, m->A, m->x, &one, m->y,
                                       CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT,
                                       &m->size));
  return 0;
}

// The same with a local descriptor, and a matrix whose arrays are set again.
#define OK(x) ((x) != CUSPARSE_STATUS_SUCCESS)
int local_placeholder(cusparseHandle_t h, int n, int *d_rows, int *d_cols,
                      float *d_vals, float *d_x, float *d_y, void *buffer) {
  int bad = 0;
  int rows[1] = {0};
  float placeholder[1];
  const float one = 1.0f;
  cusparseSpMatDescr_t A;
  cusparseDnVecDescr_t x, y;
  bad |= OK(cusparseCreateCsr(&A, n, n, 0, rows, nullptr, nullptr,
                              CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                              CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  bad |= OK(cusparseCreateDnVec(&x, n, placeholder, CUDA_R_32F));
  bad |= OK(cusparseCreateDnVec(&y, n, placeholder, CUDA_R_32F));
  bad |= OK(cusparseCsrSetPointers(A, d_rows, d_cols, d_vals));
  bad |= OK(cusparseDnVecSetValues(x, d_x));
  bad |= OK(cusparseDnVecSetValues(y, d_y));
  bad |= OK(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, x,
                         &one, y, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT,
                         buffer));
  bad |= OK(cusparseDestroyDnVec(y));
  bad |= OK(cusparseDestroyDnVec(x));
  bad |= OK(cusparseDestroySpMat(A));
  return bad;
}
