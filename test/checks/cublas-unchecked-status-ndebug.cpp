// RUN: %check_clang_tidy -check-suffix=RELEASE %s cublas-unchecked-status %t.release -- -- -DNDEBUG
// RUN: %check_clang_tidy -check-suffix=DEBUG %s cublas-unchecked-status %t.debug

// A status read only inside a macro that the build defines without that
// argument (assert under NDEBUG, a project's check defined as ((void)0)
// in release builds, as MAGMA's check_xerror is) is never read in that
// build: it is reported as stored and never read, and a note says where
// the read went. A read in a block that the preprocessor skips
// (`#ifndef NDEBUG`) gets the same note, naming the block. A build that
// keeps the read reports nothing.

#include <cassert>
#include <cublas_v2.h>

void report(cublasStatus_t, const char *);

#ifdef NDEBUG
#define check_status(st, what) ((void)0)
#define trace_status(st, label) report(st, "")
#else
#define check_status(st, what) report(st, what)
#define trace_status(st, label) report(st, label)
#endif

// A check that wraps assert: the argument goes in, assert drops it.
#define CHECK_OK(st) assert((st) == CUBLAS_STATUS_SUCCESS)

void asserted(cublasHandle_t h, float *x, int n) {
  float a = 2.0f;
  cublasStatus_t st = cublasSscal(h, n, &a, x, 1);
  // CHECK-NOTES-RELEASE: :[[@LINE-1]]:23: warning: the cublasStatus_t returned by 'cublasSscal' is stored in 'st' but never read [cublas-unchecked-status]
  assert(st == CUBLAS_STATUS_SUCCESS);
  // CHECK-NOTES-RELEASE: :[[@LINE-1]]:3: note: 'st' is read here only inside 'assert', which NDEBUG compiles out
}

void checked(cublasHandle_t h, float *x, int n) {
  float a = 2.0f;
  cublasStatus_t err = cublasSscal(h, n, &a, x, 1);
  // CHECK-NOTES-RELEASE: :[[@LINE-1]]:24: warning: the cublasStatus_t returned by 'cublasSscal' is stored in 'err' but never read [cublas-unchecked-status]
  check_status(err, "sscal");
  // CHECK-NOTES-RELEASE: :[[@LINE-1]]:3: note: 'err' is read here only inside 'check_status', which this build defines without that argument
}

void wrapped_assert(cublasHandle_t h, float *x, int n) {
  float a = 2.0f;
  cublasStatus_t st = cublasSscal(h, n, &a, x, 1);
  // CHECK-NOTES-RELEASE: :[[@LINE-1]]:23: warning: the cublasStatus_t returned by 'cublasSscal' is stored in 'st' but never read [cublas-unchecked-status]
  CHECK_OK(st);
  // CHECK-NOTES-RELEASE: :[[@LINE-1]]:3: note: 'st' is read here only inside 'CHECK_OK', which NDEBUG compiles out
}

// A read in a block that the preprocessor skips in this build: the block,
// not a macro, dropped it.
void debug_block(cublasHandle_t h, float *x, int n) {
  float a = 2.0f;
  cublasStatus_t st = cublasSscal(h, n, &a, x, 1);
  // CHECK-NOTES-RELEASE: :[[@LINE-1]]:23: warning: the cublasStatus_t returned by 'cublasSscal' is stored in 'st' but never read [cublas-unchecked-status]
#ifndef NDEBUG
  if (st != CUBLAS_STATUS_SUCCESS)
  // CHECK-NOTES-RELEASE: :[[@LINE-1]]:7: note: 'st' is read here only in a block that '#ifndef NDEBUG' leaves out of this build
    report(st, "sscal");
#endif
}

// The same read in the '#else' of a test that this build takes, nested in
// a block that it keeps, and after a block it skips that does not read.
void else_block(cublasHandle_t h, float *x, int n) {
  float a = 2.0f;
  cublasStatus_t st = cublasSscal(h, n, &a, x, 1);
  // CHECK-NOTES-RELEASE: :[[@LINE-1]]:23: warning: the cublasStatus_t returned by 'cublasSscal' is stored in 'st' but never read [cublas-unchecked-status]
#if defined(CUBLAS_V2_H_)
#if !defined(NDEBUG)
  n = 0;
#endif
#ifdef NDEBUG
  n = 1;
#else
  check_status(st, "sscal");
  // CHECK-NOTES-RELEASE: :[[@LINE-1]]:16: note: 'st' is read here only in the '#else' of '#ifdef NDEBUG', which this build leaves out
#endif
#endif
}

// A block whose test this build cannot tell by reading the directive
// alone: no note, the finding stands.
#define BLAS_DEBUG_LEVEL 2
void unknown_block(cublasHandle_t h, float *x, int n) {
  float a = 2.0f;
  cublasStatus_t st = cublasSscal(h, n, &a, x, 1);
  // CHECK-NOTES-RELEASE: :[[@LINE-1]]:23: warning: the cublasStatus_t returned by 'cublasSscal' is stored in 'st' but never read [cublas-unchecked-status]
  // CHECK-NOTES-DEBUG: :[[@LINE-2]]:23: warning: the cublasStatus_t returned by 'cublasSscal' is stored in 'st' but never read [cublas-unchecked-status]
#if BLAS_DEBUG_LEVEL > 3
  report(st, "sscal");
#endif
}

// --- Not a dropped read -----------------------------------------------------

// The macro drops another argument: the status is read in both builds.
void label_dropped(cublasHandle_t h, float *x, int n, const char *name) {
  float a = 2.0f;
  cublasStatus_t st = cublasSscal(h, n, &a, x, 1);
  trace_status(st, name);
}

// Read outside the macro too.
int also_returned(cublasHandle_t h, float *x, int n) {
  float a = 2.0f;
  cublasStatus_t st = cublasSscal(h, n, &a, x, 1);
  assert(st == CUBLAS_STATUS_SUCCESS);
  return st == CUBLAS_STATUS_SUCCESS ? 0 : 1;
}

// Never read in any build: reported in both, with no note about macros,
// though a dropped argument of another variable follows.
void never_read(cublasHandle_t h, float *x, int n) {
  float a = 2.0f;
  cublasStatus_t st = cublasSscal(h, n, &a, x, 1);
  // CHECK-NOTES-RELEASE: :[[@LINE-1]]:23: warning: the cublasStatus_t returned by 'cublasSscal' is stored in 'st' but never read [cublas-unchecked-status]
  // CHECK-NOTES-DEBUG: :[[@LINE-2]]:23: warning: the cublasStatus_t returned by 'cublasSscal' is stored in 'st' but never read [cublas-unchecked-status]
  assert(n > 0);
}

// A read dropped before the store is not the store's read.
void dropped_before(cublasHandle_t h, float *x, int n) {
  float a = 2.0f;
  cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
  assert(st == CUBLAS_STATUS_SUCCESS);
  st = cublasSscal(h, n, &a, x, 1);
  // CHECK-NOTES-RELEASE: :[[@LINE-1]]:8: warning: the cublasStatus_t returned by 'cublasSscal' is stored in 'st' but never read [cublas-unchecked-status]
  // CHECK-NOTES-DEBUG: :[[@LINE-2]]:8: warning: the cublasStatus_t returned by 'cublasSscal' is stored in 'st' but never read [cublas-unchecked-status]
}
