// RUN: %check_clang_tidy %s cublas-handle-leak %t

// A handle kept in a function-local static but created on every call: each
// call after the first leaks the previous handle (a long job ends in
// CUBLAS_STATUS_ALLOC_FAILED or INTERNAL_ERROR at some later cublasCreate).

#include <cublas_v2.h>
#include <cublasLt.h>
#include <cstdlib>
#include <mutex>

#define CUBLAS_CHECK(x)                                                        \
  do {                                                                         \
    if ((x) != CUBLAS_STATUS_SUCCESS)                                          \
      std::abort();                                                            \
  } while (0)

void per_call(float *x, int n) {
  static cublasHandle_t h;
  cublasCreate(&h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: static handle 'h' is created on every call of 'per_call' and the previous one is never destroyed: each call after the first leaks one; create it once (guard the create with 'if (!h)') [cublas-handle-leak]
  cublasSscal(h, n, x, x, 1);
}

void per_call_checked(float *x, int n) {
  static cublasHandle_t h;
  CUBLAS_CHECK(cublasCreate(&h));
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: static handle 'h' is created on every call of 'per_call_checked'
  CUBLAS_CHECK(cublasSscal(h, n, x, x, 1));
}

int per_call_lt() {
  static cublasLtHandle_t lt;
  if (cublasLtCreate(&lt) != CUBLAS_STATUS_SUCCESS)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: static handle 'lt' is created on every call of 'per_call_lt'
    return -1;
  return 0;
}

// Guarded, or the previous one released: fine.
void null_guard(float *x, int n) {
  static cublasHandle_t h = nullptr;
  if (!h)
    cublasCreate(&h);
  cublasSscal(h, n, x, x, 1);
}

cublasHandle_t early_return() {
  static cublasHandle_t h = nullptr;
  if (h != nullptr)
    return h;
  cublasCreate(&h);
  return h;
}

void flag_guard() {
  static cublasHandle_t h;
  static bool ready = false;
  if (ready)
    return;
  cublasCreate(&h);
  ready = true;
}

void destroy_first() {
  static cublasHandle_t h = nullptr;
  cublasDestroy(h);
  cublasCreate(&h);
}

void once_flag() {
  static cublasHandle_t h;
  static std::once_flag flag;
  std::call_once(flag, [] { cublasCreate(&h); });
}

// A global made in a lambda: once under call_once; a lambda called in a
// loop is not followed (nothing names it), so nothing is said.
static cublasHandle_t g_lambda_handle;
void once_flag_global() {
  static std::once_flag flag;
  std::call_once(flag, [] { cublasCreate(&g_lambda_handle); });
}
void lambda_in_loop() {
  auto make = [] { cublasCreate(&g_lambda_handle); };
  for (int i = 0; i < 1; ++i)
    make();
}

static cublasHandle_t make_handle() {
  cublasHandle_t h;
  cublasCreate(&h);
  return h;
}
void initializer(float *x, int n) {
  static cublasHandle_t h = make_handle();
  cublasSscal(h, n, x, x, 1);
}

void in_a_loop(int n) {
  static cublasHandle_t h = nullptr;
  for (int i = 0; i < n; ++i)
    if (!h)
      cublasCreate(&h);
}

// main runs once.
int main() {
  static cublasHandle_t h;
  cublasCreate(&h);
  cublasDestroy(h);
  return 0;
}

// Created and destroyed on every call: the previous handle is gone before
// the next create (a cost, which cublas-handle-per-call judges, not a leak).
void recreated_and_destroyed(float *d_x, int n) {
  static cublasHandle_t h;
  cublasCreate(&h);
  const float two = 2.0f;
  cublasSscal(h, n, &two, d_x, 1);
  cublasDestroy(h);
}
