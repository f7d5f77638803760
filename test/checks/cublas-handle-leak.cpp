// RUN: %check_clang_tidy %s cublas-handle-leak %t

#include <cublas_v2.h>
#include <cublasLt.h>
#include <cublasXt.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <vector>

#define CUBLAS_CHECK(call)                                                     \
  do {                                                                         \
    cublasStatus_t status_ = (call);                                           \
    if (status_ != CUBLAS_STATUS_SUCCESS) {                                    \
      std::fprintf(stderr, "cuBLAS error %d\n", (int)status_);                 \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)
#define CUBLAS_TRY(call)                                                       \
  do {                                                                         \
    if ((call) != CUBLAS_STATUS_SUCCESS)                                       \
      return -1;                                                               \
  } while (0)
#define CUBLAS_THROW(call)                                                     \
  do {                                                                         \
    if ((call) != CUBLAS_STATUS_SUCCESS)                                       \
      throw std::runtime_error("cublas");                                      \
  } while (0)

[[noreturn]] void fatal(const char *);
void use(cublasHandle_t);
void keep_forever(cublasHandle_t);
int work(cublasHandle_t);
bool ok(cublasStatus_t);

//===--- Leaks --------------------------------------------------------------===//

int early_return(const float *x, float *y, int n) {
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return -1;
  // CHECK-NOTES: :[[@LINE-2]]:7: warning: handle 'handle' created here is not destroyed on every path; call 'cublasDestroy' before it goes out of reach [cublas-handle-leak]
  const float alpha = 2.0f;
  cublasStatus_t st = cublasSaxpy(handle, n, &alpha, x, 1, y, 1);
  if (st != CUBLAS_STATUS_SUCCESS)
    return -2;
  // CHECK-NOTES: :[[@LINE-1]]:5: note: leaks when this 'return' is taken
  cublasDestroy(handle);
  return 0;
}

void never_destroyed() {
  cublasHandle_t h;
  cublasCreate(&h);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: handle 'h' created here is never destroyed; call 'cublasDestroy'
}
// CHECK-NOTES: :[[@LINE-1]]:1: note: leaks when the function returns here

int destroyed_in_one_branch(bool fast) {
  cublasHandle_t h;
  CUBLAS_CHECK(cublasCreate(&h));
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: handle 'h' created here is not destroyed on every path
  if (fast) {
    cublasDestroy(h);
    return 1;
  }
  return 0;
  // CHECK-NOTES: :[[@LINE-1]]:3: note: leaks when this 'return' is taken
}

// A 'throw' of the function's own leaks what is still allocated where a
// caller catches the exception and goes on, as a checking macro's throw
// does.
void thrown(int n) {
  cublasHandle_t h;
  CUBLAS_CHECK(cublasCreate(&h));
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: handle 'h' created here is not destroyed on every path
  if (n < 0)
    throw std::invalid_argument("n");
  // CHECK-NOTES: :[[@LINE-1]]:5: note: leaks when this exception is thrown
  cublasDestroy(h);
}

int thrown_caught(int n) {
  try {
    thrown(n);
    // CHECK-NOTES: :[[@LINE-1]]:5: note: 'thrown' is called here inside a 'try' block: the exception can be caught and the program go on
  } catch (const std::invalid_argument &) {
    return -1;
  }
  return 0;
}

// Where no caller is known to catch (nothing in the file calls it), the
// exception ends the process or goes where the unit cannot tell: a
// library's consistency check that throws is not a leak to report.
void thrown_to_nobody_known(int n) {
  cublasHandle_t h;
  CUBLAS_CHECK(cublasCreate(&h));
  if (n < 0)
    throw std::runtime_error("inconsistent sizes");
  cublasDestroy(h);
}

// A constructor that throws between two creates, whose object a caller
// constructs inside a 'try': the first handle leaks. Constructed where no
// 'try' is, the exception ends what it ends.
struct TwoHandles {
  explicit TwoHandles(int n) {
    cublasHandle_t first;
    CUBLAS_CHECK(cublasCreate(&first));
    // CHECK-NOTES: :[[@LINE-1]]:18: warning: handle 'first' created here is not destroyed on every path
    if (n < 0)
      throw std::invalid_argument("n");
    // CHECK-NOTES: :[[@LINE-1]]:7: note: leaks when this exception is thrown
    blas = first;
  }
  cublasHandle_t blas;
};
bool try_two_handles(int n) {
  try {
    TwoHandles t(n);
    // CHECK-NOTES: :[[@LINE-1]]:16: note: a 'TwoHandles' is constructed here inside a 'try' block: the exception can be caught and the program go on
    return t.blas != nullptr;
  } catch (const std::exception &) {
    return false;
  }
}
struct TwoHandlesUncaught {
  explicit TwoHandlesUncaught(int n) {
    cublasHandle_t first;
    CUBLAS_CHECK(cublasCreate(&first));
    if (n < 0)
      throw std::invalid_argument("n");
    blas = first;
  }
  cublasHandle_t blas;
};
bool no_try(int n) { return TwoHandlesUncaught(n).blas != nullptr; }

void created_in_a_loop(int n) {
  cublasHandle_t h;
  for (int i = 0; i < n; ++i)
    cublasCreate(&h);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: handle 'h' created here is not destroyed on every path
  // CHECK-NOTES: :[[@LINE-2]]:5: note: leaks when 'h' is created again here
  cublasDestroy(h);
}

void created_twice() {
  cublasLtHandle_t lt;
  cublasLtCreate(&lt);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: handle 'lt' created here is never destroyed; call 'cublasLtDestroy'
  cublasLtCreate(&lt);
  // CHECK-NOTES: :[[@LINE-1]]:3: note: leaks when 'lt' is created again here
  cublasLtDestroy(lt);
}

void overwritten() {
  cublasHandle_t h;
  cublasCreate(&h);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: handle 'h' created here is never destroyed
  h = nullptr;
  // CHECK-NOTES: :[[@LINE-1]]:5: note: leaks when 'h' is overwritten here
}

int break_past_destroy(int n) {
  for (int i = 0; i < n; ++i) {
    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
      return -1;
    // CHECK-NOTES: :[[@LINE-2]]:9: warning: handle 'h' created here is not destroyed on every path
    if (work(nullptr) != 0)
      break;
    // CHECK-NOTES: :[[@LINE-1]]:7: note: leaks when this 'break' is taken
    if (work(nullptr) == 2)
      continue;
    // CHECK-NOTES: :[[@LINE-1]]:7: note: leaks when this 'continue' is taken
    cublasDestroy(h);
  }
  return 0;
}

int goto_past_destroy(int n) {
  cublasHandle_t h;
  CUBLAS_TRY(cublasCreate(&h));
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: handle 'h' created here is not destroyed on every path
  if (n == 0)
    goto out;
  cublasDestroy(h);
out:
  return 0;
  // CHECK-NOTES: :[[@LINE-1]]:3: note: leaks when this 'return' is taken
}

void scope_end(bool b) {
  if (b) {
    cublasHandle_t inner;
    cublasCreate(&inner);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: handle 'inner' created here is never destroyed
  }
  // CHECK-NOTES: :[[@LINE-1]]:3: note: leaks when 'inner' goes out of scope here
}

void descriptors() {
  cublasLtMatmulDesc_t op;
  cublasLtMatrixLayout_t a;
  CUBLAS_CHECK(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&a, CUDA_R_32F, 64, 64, 64));
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: descriptor 'a' created here is never destroyed; call 'cublasLtMatrixLayoutDestroy'
  // CHECK-NOTES: :[[@LINE+2]]:1: note: leaks when the function returns here
  cublasLtMatmulDescDestroy(op);
}

void preference() {
  cublasLtMatmulPreference_t pref;
  CUBLAS_CHECK(cublasLtMatmulPreferenceCreate(&pref));
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: descriptor 'pref' created here is never destroyed; call 'cublasLtMatmulPreferenceDestroy'
}
// CHECK-NOTES: :[[@LINE-1]]:1: note: leaks when the function returns here

void xt(bool b) {
  cublasXtHandle_t x;
  if (cublasXtCreate(&x) != CUBLAS_STATUS_SUCCESS)
    return;
  // CHECK-NOTES: :[[@LINE-2]]:7: warning: handle 'x' created here is not destroyed on every path; call 'cublasXtDestroy'
  if (b)
    return;
  // CHECK-NOTES: :[[@LINE-1]]:5: note: leaks when this 'return' is taken
  cublasXtDestroy(x);
}

int status_stored_and_tested_later(bool b) {
  cublasHandle_t h;
  cublasStatus_t st = cublasCreate(&h);
  // CHECK-NOTES: :[[@LINE-1]]:23: warning: handle 'h' created here is not destroyed on every path
  if (st != CUBLAS_STATUS_SUCCESS)
    return -1;
  if (b)
    return 1;
  // CHECK-NOTES: :[[@LINE-1]]:5: note: leaks when this 'return' is taken
  cublasDestroy(h);
  return 0;
}

//===--- Not leaks ----------------------------------------------------------===//

int create_failed(cublasHandle_t *out) {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    return -1;
  cublasDestroy(h);
  cublasHandle_t g;
  if (cublasCreate(&g))
    return -1;
  cublasDestroy(g);
  cublasHandle_t k;
  CUBLAS_TRY(cublasCreate(&k));
  cublasDestroy(k);
  return 0;
}

int status_tested_later() {
  cublasHandle_t h;
  cublasStatus_t st = cublasCreate(&h);
  if (st != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "create failed\n");
    return -1;
  }
  cublasDestroy(h);
  cublasLtHandle_t lt;
  bool created = cublasLtCreate(&lt) == CUBLAS_STATUS_SUCCESS;
  if (!created)
    return -2;
  cublasLtDestroy(lt);
  return 0;
}

int switch_on_status() {
  cublasHandle_t h;
  switch (cublasCreate(&h)) {
  case CUBLAS_STATUS_SUCCESS:
    break;
  default:
    return -1;
  }
  cublasDestroy(h);
  return 0;
}

void macros_that_abort_or_throw() {
  cublasHandle_t h;
  CUBLAS_CHECK(cublasCreate(&h));
  cublasDestroy(h);
  cublasLtHandle_t lt;
  CUBLAS_THROW(cublasLtCreate(&lt));
  cublasLtDestroy(lt);
}

// A checking macro's throw on a failed call leaks what is still allocated
// where a caller catches the exception and goes on.
void second_create_throws() {
  cublasHandle_t h;
  CUBLAS_CHECK(cublasCreate(&h));
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: handle 'h' created here is not destroyed on every path
  cublasLtHandle_t lt;
  CUBLAS_THROW(cublasLtCreate(&lt));
  // CHECK-NOTES: :[[@LINE-1]]:3: note: leaks when this exception is thrown
  cublasLtDestroy(lt);
  cublasDestroy(h);
}

int second_create_caught() {
  try {
    second_create_throws();
    // CHECK-NOTES: :[[@LINE-1]]:5: note: 'second_create_throws' is called here inside a 'try' block: the exception can be caught and the program go on
  } catch (const std::exception &) {
    return -1;
  }
  return 0;
}

// Where no caller is known to catch it, the exception of a failed call
// ends the program, or goes where the unit cannot tell: silent, as for a
// function of the project that throws. So is a library's macro that
// throws or aborts as it is configured.
void second_create_uncaught() {
  cublasHandle_t h;
  CUBLAS_CHECK(cublasCreate(&h));
  cublasLtHandle_t lt;
  CUBLAS_THROW(cublasLtCreate(&lt));
  cublasLtDestroy(lt);
  cublasDestroy(h);
}

bool throw_on_abort();
#define ABORT_IF(cond)                                                         \
  do {                                                                         \
    if (cond) {                                                                \
      std::fprintf(stderr, "aborted\n");                                       \
      if (throw_on_abort())                                                    \
        throw std::runtime_error("aborted");                                   \
      else                                                                     \
        std::abort();                                                          \
    }                                                                          \
  } while (0)
#define LT_CHECK(call)                                                         \
  do {                                                                         \
    cublasStatus_t rc_ = (call);                                               \
    ABORT_IF(rc_ != CUBLAS_STATUS_SUCCESS);                                    \
  } while (0)

void layout_throws_or_aborts(int m, int n) {
  cublasLtMatrixLayout_t a;
  LT_CHECK(cublasLtMatrixLayoutCreate(&a, CUDA_R_32F, m, n, m));
  int32_t batch = 2;
  LT_CHECK(cublasLtMatrixLayoutSetAttribute(
      a, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &batch, sizeof(batch)));
  LT_CHECK(cublasLtMatrixLayoutDestroy(a));
}

void noreturn_paths(bool bad) {
  cublasHandle_t h;
  CUBLAS_CHECK(cublasCreate(&h));
  if (bad)
    fatal("giving up");
  if (work(h) < 0)
    std::abort();
  cublasDestroy(h);
}

cublasHandle_t returned() {
  cublasHandle_t h;
  CUBLAS_CHECK(cublasCreate(&h));
  return h;
}

static cublasHandle_t g_handle;
struct Context {
  cublasHandle_t handle;
  std::vector<cublasHandle_t> pool;
};

void stored_elsewhere(Context &ctx, cublasHandle_t *out) {
  cublasHandle_t a, b, c, d;
  CUBLAS_CHECK(cublasCreate(&a));
  g_handle = a;
  CUBLAS_CHECK(cublasCreate(&b));
  ctx.handle = b;
  CUBLAS_CHECK(cublasCreate(&c));
  *out = c;
  CUBLAS_CHECK(cublasCreate(&d));
  ctx.pool.push_back(d);
}

void created_in_place(Context &ctx, cublasHandle_t *out) {
  cublasCreate(&ctx.handle);
  cublasCreate(out);
  cublasCreate(&g_handle);
}

void passed_to_unknown_code() {
  cublasHandle_t h;
  CUBLAS_CHECK(cublasCreate(&h));
  keep_forever(h);
  cublasHandle_t a;
  CUBLAS_CHECK(cublasCreate(&a));
  cublasHandle_t *p = &a;
  cublasDestroy(*p);
}

auto captured_by_lambda() {
  cublasHandle_t h;
  CUBLAS_CHECK(cublasCreate(&h));
  return [h] { use(h); };
}

template <typename F> struct ScopeExit {
  F f;
  ~ScopeExit() { f(); }
};
template <typename F> ScopeExit<F> on_exit(F f) { return {f}; }

int scope_guard(bool b) {
  cublasHandle_t h;
  CUBLAS_CHECK(cublasCreate(&h));
  auto guard = on_exit([&] { cublasDestroy(h); });
  if (b)
    return 1;
  return 0;
}

struct HandleOwner {
  cublasHandle_t h;
  explicit HandleOwner(cublasHandle_t h) : h(h) {}
  ~HandleOwner() { cublasDestroy(h); }
};

void raii() {
  cublasHandle_t h;
  CUBLAS_CHECK(cublasCreate(&h));
  HandleOwner owner(h);
  cublasHandle_t u;
  CUBLAS_CHECK(cublasCreate(&u));
  std::unique_ptr<cublasContext, cublasStatus_t (*)(cublasHandle_t)> guard(
      u, cublasDestroy);
}

static void release(cublasHandle_t h) { cublasDestroy(h); }
static void release_twice_removed(cublasHandle_t h) { release(h); }
static void only_uses(cublasHandle_t h) { cublasSetStream(h, nullptr); }

void destroyed_by_a_helper() {
  cublasHandle_t h;
  CUBLAS_CHECK(cublasCreate(&h));
  release(h);
  cublasHandle_t g;
  CUBLAS_CHECK(cublasCreate(&g));
  release_twice_removed(g);
}

void helper_does_not_destroy() {
  cublasHandle_t h;
  CUBLAS_CHECK(cublasCreate(&h));
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: handle 'h' created here is never destroyed
  only_uses(h);
}
// CHECK-NOTES: :[[@LINE-1]]:1: note: leaks when the function returns here

void same_condition_twice(bool enabled) {
  cublasHandle_t h = nullptr;
  if (enabled)
    CUBLAS_CHECK(cublasCreate(&h));
  work(nullptr);
  if (enabled)
    cublasDestroy(h);
}

void null_checked_at_the_end() {
  cublasHandle_t h = nullptr;
  cublasCreate(&h);
  work(nullptr);
  if (h)
    cublasDestroy(h);
  cublasHandle_t g = nullptr;
  cublasCreate(&g);
  if (g != nullptr)
    cublasDestroy(g);
}

int status_read_by_unknown_code() {
  // ok() decides; which branch is the failure is unknown: silence.
  cublasHandle_t h;
  if (!ok(cublasCreate(&h)))
    return 1;
  cublasDestroy(h);
  return 0;
}

void created_in_loop_and_destroyed(int n) {
  for (int i = 0; i < n; ++i) {
    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
      continue;
    work(h);
    cublasDestroy(h);
  }
}

template <typename H> void generic_destroy(H h) { cublasDestroy(h); }
void through_template() {
  cublasHandle_t h;
  CUBLAS_CHECK(cublasCreate(&h));
  generic_destroy(h);
}

void cuda_custom_resources_are_not_known_by_default() {
  cudaStream_t s;
  cudaStreamCreate(&s);
}

//===--- Helpers that return a new handle -----------------------------------===//

static cublasHandle_t blas_handle() {
  cublasHandle_t handle;
  cublasCreate(&handle);
  return handle;
}

static cublasHandle_t checked_handle() {
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return nullptr;
  return handle;
}

static cublasHandle_t singleton() {
  static cublasHandle_t handle = nullptr;
  if (!handle)
    cublasCreate(&handle);
  return handle;
}

void helper_per_call(const float *x, float *y, int n) {
  const float a = 1.0f;
  cublasSaxpy(blas_handle(), n, &a, x, 1, y, 1);
  // CHECK-NOTES: :[[@LINE-1]]:15: warning: handle returned by 'blas_handle' is never destroyed; keep it and call 'cublasDestroy' when done [cublas-handle-leak]
  cublasSaxpy(singleton(), n, &a, x, 1, y, 1);
}

int helper_stored(bool b) {
  cublasHandle_t h = checked_handle();
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: handle 'h' created here is not destroyed on every path; call 'cublasDestroy'
  if (!h)
    return -1;
  if (b)
    return 1;
  // CHECK-NOTES: :[[@LINE-1]]:5: note: leaks when this 'return' is taken
  cublasDestroy(h);
  return 0;
}

cublasHandle_t helper_passed_on() {
  cublasHandle_t h = blas_handle();
  return h;
}

// One note per way out, with the count of the other paths that leave the
// same way; a 'break' and a 'continue' are different ways.
int many_throws(float *x, int n) {
  cublasHandle_t h;
  CUBLAS_THROW(cublasCreate(&h));
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: handle 'h' created here is not destroyed on every path; call 'cublasDestroy' before it goes out of reach
  CUBLAS_THROW(cublasSetStream(h, nullptr));
  // CHECK-NOTES: :[[@LINE-1]]:3: note: leaks when this exception is thrown (and 2 more paths like it)
  CUBLAS_THROW(cublasSscal(h, n, x, x, 1));
  CUBLAS_THROW(cublasSscal(h, n, x, x, 1));
  cublasDestroy(h);
  return 0;
}

int scale_or_fail(float *x, int n) {
  try {
    return many_throws(x, n);
    // CHECK-NOTES: :[[@LINE-1]]:12: note: 'many_throws' is called here inside a 'try' block: the exception can be caught and the program go on
  } catch (...) {
    return -1;
  }
}

int two_returns(int n) {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    return -1;
  // CHECK-NOTES: :[[@LINE-2]]:7: warning: handle 'h' created here is not destroyed on every path; call 'cublasDestroy' before it goes out of reach
  if (n == 1)
    return 1;
  // CHECK-NOTES: :[[@LINE-1]]:5: note: leaks when this 'return' is taken (and 1 more path like it)
  if (n == 2)
    return 2;
  cublasDestroy(h);
  return 0;
}

// A status test wrapped in __builtin_expect (a project's LIKELY/UNLIKELY, or
// a TORCH_CHECK-style macro) correlates with the create like a plain if.
#define MY_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define MY_LIKELY(x) __builtin_expect(!!(x), 1)
[[noreturn]] void fatal_error(const char *);
int expect_never_destroyed(int n) {
  cublasHandle_t h;
  if (MY_UNLIKELY(cublasCreate(&h) != CUBLAS_STATUS_SUCCESS))
    fatal_error("cublasCreate");
  // CHECK-NOTES: :[[@LINE-2]]:19: warning: handle 'h' created here is never destroyed; call 'cublasDestroy' when it is no longer needed
  return n;
  // CHECK-NOTES: :[[@LINE-1]]:3: note: leaks when this 'return' is taken
}

int expect_destroyed(int n) {
  cublasHandle_t h;
  if (!MY_LIKELY(cublasCreate(&h) == CUBLAS_STATUS_SUCCESS))
    return -1; // the create failed: nothing to destroy
  cublasDestroy(h);
  return n;
}
