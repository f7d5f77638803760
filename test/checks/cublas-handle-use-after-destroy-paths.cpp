// RUN: %check_clang_tidy %s cublas-handle-use-after-destroy %t

// A destroy on some paths only, after which every way on reaches a use or a
// second destroy: an error path that destroys and then falls into the common
// cleanup, a destroy under a condition before an unconditional use. Whenever
// the destroy runs, the use after it runs too. Silent where some way on from
// the destroy avoids the use (a return, a condition the path cannot tell, a
// loop's exit), where the handle is made again or reset, and where a call
// that may not return (a function of another file) stands between.

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

void log_error(const char *what); // another file's: may never return

int cleanup_after_error_path(int n) {
  cublasHandle_t h;
  float *d = nullptr;
  int rc = 0;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    return 1;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess) {
    cublasDestroy(h);
    rc = 2;
    goto cleanup;
  }
  if (cublasSscal(h, n, nullptr, d, 1) != CUBLAS_STATUS_SUCCESS)
    rc = 3;
cleanup:
  cudaFree(d);
  cublasDestroy(h);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: handle 'h' is destroyed again after it was destroyed [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :[[@LINE-10]]:5: note: 'h' was destroyed here, and every way on from here destroys it again
  return rc;
}

int destroyed_under_a_flag(bool failed, float *d, int n) {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    return 1;
  if (failed)
    cublasDestroy(h);
  std::printf("scaling %d\n", n);
  cublasSscal(h, n, nullptr, d, 1);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: handle 'h' is used after it was destroyed
  // CHECK-NOTES: :[[@LINE-4]]:5: note: 'h' was destroyed here, and every way on from here uses it
  cublasDestroy(h);
  return 0;
}

void last_iteration(cublasHandle_t h, float *d, int n) {
  for (int i = 0; i < n; ++i) {
    if (i == n - 1)
      cublasDestroy(h);
    cublasSscal(h, n, nullptr, d, 1);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: handle 'h' is used after it was destroyed
    // CHECK-NOTES: :[[@LINE-3]]:7: note: 'h' was destroyed here, and every way on from here uses it
  }
}

//===--- Not flagged --------------------------------------------------------===//

int error_path_returns(int n) {
  cublasHandle_t h;
  float *d = nullptr;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    return 1;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess) {
    cublasDestroy(h);
    return 2;
  }
  cublasSscal(h, n, nullptr, d, 1);
  cudaFree(d);
  cublasDestroy(h);
  return 0;
}

int error_path_exits(int n) {
  cublasHandle_t h;
  float *d = nullptr;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    return 1;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess) {
    cublasDestroy(h);
    std::fprintf(stderr, "out of memory\n");
    std::exit(2);
  }
  cublasSscal(h, n, nullptr, d, 1);
  cublasDestroy(h);
  return 0;
}

int error_path_reports(int n, float *d) {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    return 1;
  if (n < 0) {
    cublasDestroy(h);
    log_error("negative size"); // may end the program
  }
  cublasSscal(h, n, nullptr, d, 1);
  cublasDestroy(h);
  return 0;
}

void correlated(bool last, float *d, int n) {
  cublasHandle_t h;
  cublasCreate(&h);
  if (last)
    cublasDestroy(h);
  if (!last)
    cublasSscal(h, n, nullptr, d, 1);
}

void untold_condition(cublasHandle_t h, float *d, int i, int n) {
  if (i == n - 1)
    cublasDestroy(h);
  if (i < n - 1) // the analysis cannot tell: some way on avoids the use
    cublasSscal(h, n, nullptr, d, 1);
}

void destroyed_at_the_end_of_a_loop(cublasHandle_t h, float *d, int n) {
  for (int i = 0; i < n; ++i) {
    cublasSscal(h, n, nullptr, d, 1);
    if (i == n - 1)
      cublasDestroy(h);
  }
}

void made_again(bool reset, float *d, int n) {
  cublasHandle_t h;
  cublasCreate(&h);
  if (reset) {
    cublasDestroy(h);
    cublasCreate(&h);
  }
  cublasSscal(h, n, nullptr, d, 1);
  cublasDestroy(h);
}

void reset_to_null(bool early, float *d, int n) {
  cublasHandle_t h;
  cublasCreate(&h);
  if (early) {
    cublasDestroy(h);
    h = nullptr;
  }
  if (h)
    cublasDestroy(h);
}

void remade_elsewhere(bool early, float *d, int n) {
  cublasHandle_t h;
  cublasCreate(&h);
  void remake(cublasHandle_t *);
  if (early)
    cublasDestroy(h);
  remake(&h);
  cublasSscal(h, n, nullptr, d, 1);
  cublasDestroy(h);
}
