// RUN: %check_clang_tidy %s cublas-handle-leak %t

// A project's own test of a status: `if (!ok(cublasCreate(&h))) return;`.
// A function whose result says whether the status it is given is success
// is read as the comparison it makes, so the handle is known to exist
// after the test, and a later error return that skips the destroy leaks
// it. And the tests that say nothing about the status.

#include <cublas_v2.h>

#include <cstdio>
#include <cstdlib>

static bool ok(cublasStatus_t s) {
  if (s != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "cuBLAS error %d\n", static_cast<int>(s));
    return false;
  }
  return true;
}

static int failed(cublasStatus_t s) {
  if (s == CUBLAS_STATUS_SUCCESS)
    return 0;
  std::fprintf(stderr, "cuBLAS error %d\n", static_cast<int>(s));
  return 1;
}

static bool succeeded(cublasStatus_t s) { return s == CUBLAS_STATUS_SUCCESS; }

// --- Reported -------------------------------------------------------------

int scale(float *x, int n) {
  cublasHandle_t h;
  if (!ok(cublasCreate(&h)))
    // CHECK-NOTES: :[[@LINE-1]]:11: warning: handle 'h' created here is not destroyed on every path; call 'cublasDestroy' before it goes out of reach [cublas-handle-leak]
    return 1;
  const float a = 2.f;
  if (!ok(cublasSscal(h, n, &a, x, 1)))
    return 2;
  // CHECK-NOTES: :[[@LINE-1]]:5: note: leaks when this 'return' is taken
  cublasDestroy(h);
  return 0;
}

int axpy(const float *x, float *y, int n) {
  cublasHandle_t h;
  if (failed(cublasCreate(&h)))
    // CHECK-NOTES: :[[@LINE-1]]:14: warning: handle 'h' created here is not destroyed on every path; call 'cublasDestroy' before it goes out of reach [cublas-handle-leak]
    return 1;
  const float a = 1.f;
  if (failed(cublasSaxpy(h, n, &a, x, 1, y, 1)))
    return 2;
  // CHECK-NOTES: :[[@LINE-1]]:5: note: leaks when this 'return' is taken
  cublasDestroy(h);
  return 0;
}

int copy(const float *x, float *y, int n) {
  cublasHandle_t h;
  if (!succeeded(cublasCreate(&h)))
    // CHECK-NOTES: :[[@LINE-1]]:18: warning: handle 'h' created here is not destroyed on every path; call 'cublasDestroy' before it goes out of reach [cublas-handle-leak]
    return 1;
  if (!succeeded(cublasScopy(h, n, x, 1, y, 1)))
    return 2;
  // CHECK-NOTES: :[[@LINE-1]]:5: note: leaks when this 'return' is taken
  cublasDestroy(h);
  return 0;
}

// --- Not reported ----------------------------------------------------------

// The failed create returns: nothing to destroy; the rest destroys.
int scale_right(float *x, int n) {
  cublasHandle_t h;
  if (!ok(cublasCreate(&h)))
    return 1;
  const float a = 2.f;
  int rc = ok(cublasSscal(h, n, &a, x, 1)) ? 0 : 2;
  cublasDestroy(h);
  return rc;
}

int axpy_right(const float *x, float *y, int n) {
  cublasHandle_t h;
  if (failed(cublasCreate(&h)))
    return 1;
  const float a = 1.f;
  if (failed(cublasSaxpy(h, n, &a, x, 1, y, 1))) {
    cublasDestroy(h);
    return 2;
  }
  cublasDestroy(h);
  return 0;
}

// A function that says nothing about the status it logs: either branch
// may be the failed create, so nothing is claimed.
static bool logged(cublasStatus_t s) {
  std::printf("status %d\n", static_cast<int>(s));
  return true;
}

// One error tested, not success: the other errors pass it.
static bool not_initialized(cublasStatus_t s) {
  return s == CUBLAS_STATUS_NOT_INITIALIZED;
}

int scale_logged(float *x, int n) {
  cublasHandle_t h;
  if (!logged(cublasCreate(&h)))
    return 1;
  if (not_initialized(cublasCreate(&h)))
    return 1;
  cublasDestroy(h);
  return 0;
}

// A checker that ends the process on an error: its result is success.
static bool must(cublasStatus_t s) {
  if (s != CUBLAS_STATUS_SUCCESS)
    std::abort();
  return true;
}

int scale_must(float *x, int n) {
  cublasHandle_t h;
  if (!must(cublasCreate(&h)))
    return 1;
  const float a = 2.f;
  must(cublasSscal(h, n, &a, x, 1));
  cublasDestroy(h);
  return 0;
}
