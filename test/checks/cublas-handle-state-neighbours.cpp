// RUN: %check_clang_tidy %s cublas-handle-state %t -- -- -std=c++17

// cuSOLVER's and cuSPARSE's handles carry a stream as cuBLAS's do: changed
// in code that several threads run at once, it redirects every thread's
// work. Setting it resets nothing else (no workspace is lost).

#include <cusolverDn.h>
#include <cusparse.h>
#include <thread>
#include <vector>

cusolverDnHandle_t g_solver;
cusparseHandle_t g_sparse;

void factor(cudaStream_t s, float *A, int n, float *work, int lwork,
            int *info) {
  cusolverDnSetStream(g_solver, s);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'cusolverDnSetStream' changes the stream of 'g_solver' (a global handle) in code that several threads run at once: the change applies to every thread's calls on that handle, and cuSOLVER handles are not to be reconfigured while threads share them; give each thread its own handle, or hold a lock across the change and the calls that depend on it [cublas-handle-state]
  // CHECK-NOTES: :[[@LINE+9]]:5: note: the threads that run it at once start here
  cusolverDnSpotrf(g_solver, CUBLAS_FILL_MODE_LOWER, n, A, n, work, lwork,
                   info);
}

void factorAll(cudaStream_t *streams, float *A, int n, float *work,
               int lwork, int *info) {
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back(factor, streams[i], A, n, work, lwork, info);
  for (auto &t : threads)
    t.join();
}

void multiply(cudaStream_t s) {
  cusparseSetStream(g_sparse, s);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'cusparseSetStream' changes the stream of 'g_sparse' (a global handle) in code that several threads run at once: the change applies to every thread's calls on that handle, and cuSPARSE handles are not to be reconfigured while threads share them; give each thread its own handle, or hold a lock across the change and the calls that depend on it [cublas-handle-state]
  // CHECK-NOTES: :[[@LINE+6]]:5: note: the threads that run it at once start here
}

void multiplyAll(cudaStream_t *streams) {
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back(multiply, streams[i]);
  for (auto &t : threads)
    t.join();
}

// --- Not reported ---------------------------------------------------------

// One handle per thread.
void perThread(cudaStream_t *streams, float *A, int n, float *work,
               int lwork, int *info) {
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([=] {
      cusolverDnHandle_t h;
      if (cusolverDnCreate(&h) != CUSOLVER_STATUS_SUCCESS)
        return;
      cusolverDnSetStream(h, streams[i]);
      cusolverDnSpotrf(h, CUBLAS_FILL_MODE_LOWER, n, A, n, work, lwork, info);
      cusolverDnDestroy(h);
    });
  for (auto &t : threads)
    t.join();
}

// The stream set once, before the threads start.
void configuredFirst(cudaStream_t s, float *A, int n, float *work,
                     int lwork, int *info) {
  cusolverDnSetStream(g_solver, s);
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([=] {
      cusolverDnSpotrf(g_solver, CUBLAS_FILL_MODE_LOWER, n, A, n, work,
                       lwork, info);
    });
  for (auto &t : threads)
    t.join();
}

// A workspace is not reset by cuSOLVER's stream change: nothing to lose.
void streamAfterParams(cusolverDnHandle_t h, cudaStream_t s) {
  cusolverDnParams_t p;
  if (cusolverDnCreateParams(&p) != CUSOLVER_STATUS_SUCCESS)
    return;
  cusolverDnSetStream(h, s);
  cusolverDnDestroyParams(p);
}

// --- cuSPARSE's pointer mode left on a handle the function does not own ----

cusparseStatus_t spmvDevice(cusparseHandle_t handle, cusparseSpMatDescr_t A,
                            cusparseDnVecDescr_t x, cusparseDnVecDescr_t y,
                            const float *dAlpha, const float *dBeta,
                            void *buffer) {
  cusparseSetPointerMode(handle, CUSPARSE_POINTER_MODE_DEVICE);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'handle' (a parameter: the caller's handle) is left in CUSPARSE_POINTER_MODE_DEVICE when 'spmvDevice' returns: the next call on it with a host alpha or beta has them read as device addresses; set the mode back on every way out (save it with 'cusparseGetPointerMode' first, or set CUSPARSE_POINTER_MODE_HOST) [cublas-handle-state]
  // CHECK-NOTES: :[[@LINE+4]]:5: note: returns with the device pointer mode still set
  cusparseStatus_t st = cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, dAlpha, A, x,
                   dBeta, y, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buffer);
  if (st != CUSPARSE_STATUS_SUCCESS)
    return st;
  cusparseSetPointerMode(handle, CUSPARSE_POINTER_MODE_HOST);
  return CUSPARSE_STATUS_SUCCESS;
}

// Set back on every way out.
cusparseStatus_t spmvRestored(cusparseHandle_t handle, cusparseSpMatDescr_t A,
                              cusparseDnVecDescr_t x, cusparseDnVecDescr_t y,
                              const float *dAlpha, const float *dBeta,
                              void *buffer) {
  cusparsePointerMode_t old;
  cusparseGetPointerMode(handle, &old);
  cusparseSetPointerMode(handle, CUSPARSE_POINTER_MODE_DEVICE);
  cusparseStatus_t st = cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, dAlpha, A, x,
                   dBeta, y, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buffer);
  cusparseSetPointerMode(handle, old);
  return st;
}
