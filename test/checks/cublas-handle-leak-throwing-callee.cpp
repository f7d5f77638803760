// RUN: %check_clang_tidy %s cublas-handle-leak %t
// A function of the same file that can throw, called between a create and
// its destroy: its exception leaves the caller with the handle. That is a
// leak when a caller can catch the exception and go on: a 'try' on some
// chain of callers (here, or in another file with the project's facts). A
// chain that ends in main without a 'try' ends the process; callers that are
// not known (a function of external linkage nothing here calls) say nothing.
#include <cublas_v2.h>
#include <cublasLt.h>

#include <stdexcept>

static void check_gpu_error(cublasStatus_t s) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error("cuBLAS failed");
}

// Throws through the function it calls.
static void check_twice(cublasStatus_t s) { check_gpu_error(s); }

// (a) A caller catches: reported, with the place of the 'try'.
void leaksWhenTheCheckThrows(float *x, int n) {
  cublasHandle_t h;
  check_gpu_error(cublasCreate(&h));
  // CHECK-NOTES: :[[@LINE-1]]:19: warning: handle 'h' created here is not destroyed on every path; call 'cublasDestroy' before it goes out of reach [cublas-handle-leak]
  float a = 2.0f;
  check_gpu_error(cublasSscal(h, n, &a, x, 1));
  // CHECK-NOTES: :[[@LINE-1]]:3: note: leaks when 'check_gpu_error' throws here
  check_gpu_error(cublasDestroy(h));
}

void retryOnce(float *x, int n) {
  try {
    leaksWhenTheCheckThrows(x, n);
    // CHECK-NOTES: :[[@LINE-1]]:5: note: 'leaksWhenTheCheckThrows' is called here inside a 'try' block: the exception can be caught and the program go on
  } catch (const std::exception &) {
    leaksWhenTheCheckThrows(x, n / 2);
  }
}

// Callers of callers: the 'try' is two calls up, through a static function.
void leaksThroughTwoCalls(float *x, int n) {
  cublasLtHandle_t lt;
  if (cublasLtCreate(&lt) != CUBLAS_STATUS_SUCCESS)
    return;
  // CHECK-NOTES: :[[@LINE-2]]:7: warning: handle 'lt' created here is not destroyed on every path; call 'cublasLtDestroy' before it goes out of reach [cublas-handle-leak]
  check_twice(n > 0 ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_INVALID_VALUE);
  // CHECK-NOTES: :[[@LINE-1]]:3: note: leaks when 'check_twice' throws here
  cublasLtDestroy(lt);
}

static void step(float *x, int n) { leaksThroughTwoCalls(x, n); }

int serve(float *x, int n) {
  for (int i = 0; i < n; ++i) {
    try {
      step(x, i);
      // CHECK-NOTES: :[[@LINE-1]]:7: note: 'step' is called here inside a 'try' block: the exception can be caught and the program go on
    } catch (...) {
      return -1;
    }
  }
  return 0;
}

// (b) Only main calls it, and main has no 'try': the exception ends the
// process.
void onlyMainCalls(float *x, int n) {
  cublasHandle_t h;
  check_gpu_error(cublasCreate(&h));
  float a = 2.0f;
  check_gpu_error(cublasSscal(h, n, &a, x, 1));
  check_gpu_error(cublasDestroy(h));
}

// A 'try' whose handler throws again catches nothing for good: the
// exception goes on to main.
void cleansUpAndRethrows(float *x, int n) {
  try {
    onlyMainCalls(x, n);
  } catch (...) {
    throw;
  }
}

// (c) No caller is known (external linkage, nothing here calls it): a run
// of this file alone cannot tell whether a caller catches. The other ways
// out are still judged: the early return leaks.
void unknownCallers(float *x, int n, bool early) {
  cublasHandle_t h;
  check_gpu_error(cublasCreate(&h));
  // CHECK-NOTES: :[[@LINE-1]]:19: warning: handle 'h' created here is not destroyed on every path; call 'cublasDestroy' before it goes out of reach [cublas-handle-leak]
  float a = 2.0f;
  check_gpu_error(cublasSscal(h, n, &a, x, 1));
  if (early)
    return;
  // CHECK-NOTES: :[[@LINE-1]]:5: note: leaks when this 'return' is taken
  check_gpu_error(cublasDestroy(h));
}

void noCallerAtAll(float *x, int n) {
  cublasLtHandle_t lt;
  check_gpu_error(cublasLtCreate(&lt));
  check_twice(n > 0 ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_INVALID_VALUE);
  cublasLtDestroy(lt);
}

// A static function whose address is taken: its callers are not known.
static void calledThroughAPointer(float *x, int n) {
  cublasHandle_t h;
  check_gpu_error(cublasCreate(&h));
  float a = 2.0f;
  check_gpu_error(cublasSscal(h, n, &a, x, 1));
  cublasDestroy(h);
}
void (*registered_callback)(float *, int) = calledThroughAPointer;

// ---- Correct code ----

// A noexcept callee cannot throw out (it terminates instead).
static void report_status(cublasStatus_t s) noexcept {
  if (s != CUBLAS_STATUS_SUCCESS)
    __builtin_trap();
}

// A callee that catches its own exception.
static void tolerant(cublasStatus_t s) {
  try {
    if (s != CUBLAS_STATUS_SUCCESS)
      throw std::runtime_error("ignored");
  } catch (const std::exception &) {
  }
}

// Declared only: what it does is not known.
void external_check(cublasStatus_t s);

void noThrowingCallee(float *x, int n) {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    return;
  float a = 2.0f;
  report_status(cublasSscal(h, n, &a, x, 1));
  tolerant(cublasSscal(h, n, &a, x, 1));
  external_check(cublasSscal(h, n, &a, x, 1));
  cublasDestroy(h);
}

// The check of the create's own status: if it throws, nothing was created.
void checkOfTheCreate() {
  cublasHandle_t h;
  check_gpu_error(cublasCreate(&h));
  cublasDestroy(h);
}

// The handle goes to the throwing function: it may destroy it first.
static void use_or_throw(cublasHandle_t h, int n) {
  if (n < 0)
    throw std::invalid_argument("n");
  cublasDestroy(h);
}

void handedToTheCallee(int n) {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    return;
  use_or_throw(h, n);
}

// Caught in the caller, where the handler destroys the handle.
void caughtHere(float *x, int n) {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    return;
  try {
    float a = 2.0f;
    check_gpu_error(cublasSscal(h, n, &a, x, 1));
  } catch (...) {
    cublasDestroy(h);
    throw;
  }
  cublasDestroy(h);
}

void callsTheCorrectOnes(float *x, int n) {
  try {
    noThrowingCallee(x, n);
    checkOfTheCreate();
    handedToTheCallee(n);
    caughtHere(x, n);
  } catch (...) {
  }
}

// main: an exception that leaves main ends the process.
int main(int argc, char **) {
  cublasHandle_t h;
  check_gpu_error(cublasCreate(&h));
  check_gpu_error(argc > 1 ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_SUPPORTED);
  float x[4] = {};
  onlyMainCalls(x, 4);
  cleansUpAndRethrows(x, 4);
  cublasDestroy(h);
  return 0;
}
