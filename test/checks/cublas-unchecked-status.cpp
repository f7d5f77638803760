// RUN: %check_clang_tidy %s cublas-unchecked-status %t

#include <cublas_v2.h>
#include <cublasLt.h>
#include <cuda_runtime.h>
#include <exception>
#include <cstdio>
#include <cstdlib>

void report(cublasStatus_t);
bool ok(cublasStatus_t s) { return s == CUBLAS_STATUS_SUCCESS; }
cublasStatus_t my_gemm(cublasHandle_t h);
int log_error(const char *);
[[noreturn]] void die(const char *);

#define CUBLAS_CHECK(call)                                                     \
  do {                                                                         \
    cublasStatus_t status_ = (call);                                           \
    if (status_ != CUBLAS_STATUS_SUCCESS)                                      \
      die(cublasGetStatusString(status_));                                     \
  } while (0)
#define PASS_THROUGH(call) call
#define CALL_NO_CHECK(call)                                                    \
  do {                                                                         \
    call;                                                                      \
  } while (0)

struct Result {
  cublasStatus_t status;
};

//===--- Discarded results ------------------------------------------------===//

void discarded(cublasHandle_t h, const float *A, const float *B, float *C,
               float *x, float *y, int n) {
  const float one = 1.0f, zero = 0.0f;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, B, n, &zero, C, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasSgemm' is discarded; a failure here goes unnoticed [cublas-unchecked-status]
  cublasSaxpy(h, n, &one, x, 1, y, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasSaxpy' is discarded
  cublasDestroy_v2(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasDestroy_v2' is discarded
  cublasDestroy(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
  cublasSetMatrix(n, n, sizeof(float), x, n, y, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasSetMatrix' is discarded
  my_gemm(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'my_gemm' is discarded
}

void discarded_in_control_flow(cublasHandle_t h, bool c, int n) {
  if (c)
    cublasDestroy(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
  else
    cublasCreate(&h);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the cublasStatus_t returned by 'cublasCreate' is discarded
  for (int i = 0; i < n; cublasSetStream(h, nullptr), ++i)
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: the cublasStatus_t returned by 'cublasSetStream' is discarded
    cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the cublasStatus_t returned by 'cublasSetPointerMode' is discarded
  c ? cublasDestroy(h) : cublasCreate(&h);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
  // CHECK-MESSAGES: :[[@LINE-2]]:26: warning: the cublasStatus_t returned by 'cublasCreate' is discarded
  switch (n) {
  case 0:
    cublasDestroy(h);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
    break;
  default:
    break;
  }
  auto later = [h]() mutable { cublasDestroy(h); };
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
  later();
}

void discarded_in_macros(cublasHandle_t h) {
  PASS_THROUGH(cublasDestroy(h));
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
  CALL_NO_CHECK(cublasDestroy(h));
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
}

void discarded_lt(cublasLtHandle_t lt) {
  cublasLtDestroy(lt);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasLtDestroy' is discarded
}

void discarded_lt_init() {
  // An inline helper of cublasLt.h, which fails (CUBLAS_STATUS_ALLOC_FAILED)
  // when the storage is too small for the descriptor.
  cublasLtMatmulPreferenceOpaque_t storage;
  cublasLtMatmulPreferenceInit(&storage);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasLtMatmulPreferenceInit' is discarded; a failure here goes unnoticed [cublas-unchecked-status]
}

template <typename T> void destroy_later(T h) {
  cublasDestroy(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
}
template void destroy_later<cublasHandle_t>(cublasHandle_t);

//===--- Stored and never read --------------------------------------------===//

void stored_never_read(cublasHandle_t h, const float *x, float *y, int n) {
  const float one = 1.0f;
  cublasStatus_t st = cublasSaxpy(h, n, &one, x, 1, y, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: the cublasStatus_t returned by 'cublasSaxpy' is stored in 'st' but never read [cublas-unchecked-status]
}

int overwritten_before_read(cublasHandle_t h, const float *x, float *y, int n) {
  const float one = 1.0f;
  cublasStatus_t st = cublasSaxpy(h, n, &one, x, 1, y, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: the cublasStatus_t returned by 'cublasSaxpy' is stored in 'st' but never read
  st = cublasSaxpy(h, n, &one, y, 1, y, 1);
  if (st != CUBLAS_STATUS_SUCCESS)
    return 1;
  st = cublasDestroy(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: the cublasStatus_t returned by 'cublasDestroy' is stored in 'st' but never read
  return 0;
}

void stored_in_int(cublasHandle_t h) {
  int code = cublasDestroy(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: the cublasStatus_t returned by 'cublasDestroy' is stored in 'code' but never read
}

void stored_in_loop(cublasHandle_t h, int n) {
  for (int i = 0; i < n; ++i) {
    auto s = cublasSetStream(h, nullptr);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: the cublasStatus_t returned by 'cublasSetStream' is stored in 's' but never read
  }
}

//===--- cublasStatus_t mixed up with cudaError_t --------------------------===//

int compared_with_cuda_error(cublasHandle_t h) {
  cublasStatus_t cst = cublasDestroy(h);
  if (cst != cudaSuccess)
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: a cublasStatus_t compared with the cudaError_t value 'cudaSuccess'; cuBLAS and CUDA runtime codes differ, so failures are misreported
    // CHECK-FIXES: {{^}}  if (cst != CUBLAS_STATUS_SUCCESS){{$}}
    return 1;
  if (cublasCreate(&h) == cudaErrorMemoryAllocation)
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: a cublasStatus_t compared with the cudaError_t value 'cudaErrorMemoryAllocation'
    // CHECK-FIXES: {{^}}  if (cublasCreate(&h) == cudaErrorMemoryAllocation){{$}}
    return 2;
  cudaError_t err = cudaGetLastError();
  if (err == cst)
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: a cublasStatus_t compared with a cudaError_t; cuBLAS and CUDA runtime codes differ
    return 3;
  return 0;
}

int cuda_error_compared_with_status(float **p) {
  if (cudaMalloc(p, 64) != CUBLAS_STATUS_SUCCESS)
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: a cudaError_t compared with the cublasStatus_t value 'CUBLAS_STATUS_SUCCESS'
    // CHECK-FIXES: {{^}}  if (cudaMalloc(p, 64) != cudaSuccess){{$}}
    return 1;
  return 0;
}

const char *converted_to_cuda_error(cublasHandle_t h) {
  cublasStatus_t st = cublasDestroy(h);
  return cudaGetErrorString((cudaError_t)st);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: cublasStatus_t from 'st' converted to cudaError_t; cuBLAS and CUDA runtime codes differ, so failures are misreported
}

int switched_with_cuda_labels(cublasHandle_t h) {
  switch (cublasDestroy(h)) {
  case cudaSuccess:
    // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: case label 'cudaSuccess' is a cudaError_t value but the switch is on a cublasStatus_t
    return 0;
  case CUBLAS_STATUS_NOT_INITIALIZED:
    return 1;
  default:
    return 2;
  }
}

//===--- Not flagged ------------------------------------------------------===//

int checked(cublasHandle_t h, const float *x, float *y, int n) {
  const float one = 1.0f;
  if (cublasSaxpy(h, n, &one, x, 1, y, 1) != CUBLAS_STATUS_SUCCESS)
    return 1;
  cublasStatus_t st = cublasSaxpy(h, n, &one, x, 1, y, 1);
  if (st)
    return 2;
  switch (cublasDestroy(h)) {
  case CUBLAS_STATUS_SUCCESS:
    break;
  default:
    return 3;
  }
  CUBLAS_CHECK(cublasCreate(&h));
  report(cublasDestroy(h));
  bool fine = ok(cublasCreate(&h));
  return fine ? 0 : 4;
}

cublasStatus_t returned(cublasHandle_t h) { return cublasDestroy(h); }

cublasStatus_t returned_later(cublasHandle_t h) {
  cublasStatus_t st = cublasDestroy(h);
  return st;
}

void stored_elsewhere(cublasHandle_t h, Result &r, cublasStatus_t *out) {
  r.status = cublasDestroy(h);
  *out = cublasCreate(&h);
  static cublasStatus_t last;
  last = cublasDestroy(h);
}

void explicitly_discarded(cublasHandle_t h) {
  (void)cublasDestroy(h);
  static_cast<void>(cublasCreate(&h));
}

void read_on_some_path(cublasHandle_t h, bool verbose) {
  cublasStatus_t st = cublasDestroy(h);
  if (verbose)
    log_error(cublasGetStatusString(st));
}

int read_after_loop(cublasHandle_t h, int n) {
  cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
  for (int i = 0; i < n && st == CUBLAS_STATUS_SUCCESS; ++i)
    st = cublasSetStream(h, nullptr);
  return st == CUBLAS_STATUS_SUCCESS ? 0 : 1;
}

void address_taken(cublasHandle_t h) {
  cublasStatus_t st = cublasDestroy(h);
  cublasStatus_t *p = &st;
  report(*p);
}

void captured_by_reference(cublasHandle_t h) {
  cublasStatus_t st = cublasDestroy(h);
  auto show = [&] { report(st); };
  show();
}

void initial_value_overwritten(cublasHandle_t h) {
  // The initial value is a constant, not a result: nothing is lost.
  cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
  st = cublasDestroy(h);
  report(st);
}

void not_a_status(cublasHandle_t h) {
  cublasGetStatusString(CUBLAS_STATUS_SUCCESS);
  cudaDeviceSynchronize();
  int x = log_error("x");
  (void)x;
}

bool success_compared_with_status_success(float **p) {
  return cudaMalloc(p, 64) == cudaSuccess &&
         cublasDestroy(nullptr) == CUBLAS_STATUS_SUCCESS;
}

void no_unevaluated_calls(cublasHandle_t h) {
  using T = decltype(cublasDestroy(h));
  static_assert(sizeof(cublasDestroy(h)) == sizeof(int), "");
}

template <typename T> void dependent(T h) {
  // Uninstantiated: the call's type is unknown, nothing is said.
  h.destroy();
}

void through_function_pointer(cublasHandle_t h) {
  auto destroy = cublasDestroy;
  destroy(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by this call is discarded
  cublasStatus_t (*create)(cublasHandle_t *) = cublasCreate;
  cublasStatus_t st = create(&h);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: the cublasStatus_t returned by this call is stored in 'st' but never read
}

void in_init_statements(cublasHandle_t h, int n) {
  for (cublasCreate(&h); n > 0; --n) {
    // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: the cublasStatus_t returned by 'cublasCreate' is discarded
  }
  if (cublasDestroy(h); n == 0) {
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
  }
}

void suppressed(cublasHandle_t h) {
  cublasDestroy(h); // NOLINT(cublas-unchecked-status)
  // NOLINTNEXTLINE(cublas-unchecked-status)
  cublasDestroy(h);
}

int condition_variables(cublasHandle_t h) {
  if (cublasStatus_t st = cublasDestroy(h))
    return st;
  if (auto st = cublasCreate(&h); st != CUBLAS_STATUS_SUCCESS)
    return 1;
  while (cublasStatus_t st = cublasSetStream(h, nullptr))
    report(st);
  return 0;
}

int goto_cleanup(cublasHandle_t h, const float *x, float *y, int n) {
  const float one = 1.0f;
  cublasStatus_t st = cublasSaxpy(h, n, &one, x, 1, y, 1);
  if (st != CUBLAS_STATUS_SUCCESS)
    goto fail;
  st = cublasSaxpy(h, n, &one, y, 1, y, 1);
  if (st != CUBLAS_STATUS_SUCCESS)
    goto fail;
  return 0;
fail:
  log_error(cublasGetStatusString(st));
  return 1;
}

struct Blas {
  cublasHandle_t handle;
  cublasStatus_t last = CUBLAS_STATUS_SUCCESS;
  cublasStatus_t axpy(int n, const float *a, const float *x, float *y) {
    return cublasSaxpy(handle, n, a, x, 1, y, 1);
  }
  Blas() : last(cublasCreate(&handle)) {}
  ~Blas() {
    cublasDestroy(handle); // at teardown: cublas-unchecked-status-teardown.cpp
  }
};

void member_wrapper(Blas &b, const float *x, float *y, int n) {
  const float one = 1.0f;
  b.axpy(n, &one, x, y);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'axpy' (the status of 'cublasSaxpy') is discarded
  if (b.axpy(n, &one, x, y) != CUBLAS_STATUS_SUCCESS)
    return;
}

template <int N> cublasStatus_t read_in_one_instantiation(cublasHandle_t h) {
  cublasStatus_t st = cublasSetStream(h, nullptr);
  if constexpr (N > 4)
    return st;
  else
    return CUBLAS_STATUS_SUCCESS;
}
template cublasStatus_t read_in_one_instantiation<2>(cublasHandle_t);
template cublasStatus_t read_in_one_instantiation<8>(cublasHandle_t);

// A status assigned inside a condition is read by the condition.
int assigned_in_conditions(cublasHandle_t *h, cublasHandle_t g, int tries) {
  cublasStatus_t st;
  if ((st = cublasCreate(h)) != CUBLAS_STATUS_SUCCESS)
    return -1;
  while ((st = cublasSetStream(g, nullptr)) != CUBLAS_STATUS_SUCCESS &&
         tries < 3)
    ++tries;
  switch (st = cublasSetStream(g, nullptr)) {
  case CUBLAS_STATUS_SUCCESS:
    break;
  default:
    return -2;
  }
  int code = (st = cublasDestroy(g)) == CUBLAS_STATUS_SUCCESS ? 0 : -3;
  // Stored by a plain statement and overwritten: still never read.
  st = cublasSetStream(g, nullptr);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: the cublasStatus_t returned by 'cublasSetStream' is stored in 'st' but never read [cublas-unchecked-status]
  st = CUBLAS_STATUS_SUCCESS;
  return code + tries + (int)st;
}

// The project's own functions. A checker looks at the status it receives or
// returns: its result may be discarded. A wrapper returns a status it never
// looked at: discarding it loses the status of the cuBLAS call inside.
cublasStatus_t check_status(cublasStatus_t s) {
  if (s != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "cuBLAS error %d\n", (int)s);
    std::abort();
  }
  return s;
}
cublasStatus_t switch_checker(cublasStatus_t s) {
  switch (s) {
  case CUBLAS_STATUS_SUCCESS:
    return s;
  default:
    throw 1;
  }
}
cublasStatus_t reporting_checker(cublasStatus_t s) {
  std::puts(cublasGetStatusString(s));
  return s;
}
cublasStatus_t checked_inside(cublasHandle_t h) {
  cublasStatus_t s = cublasDestroy(h);
  if (s != CUBLAS_STATUS_SUCCESS)
    std::puts("cublasDestroy failed");
  return s;
}
cublasStatus_t set_stream_wrapper(cublasHandle_t h) {
  return cublasSetStream(h, nullptr);
}
cublasStatus_t destroy_wrapper(cublasHandle_t h) {
  cublasStatus_t s = cublasDestroy(h);
  return s;
}
cublasStatus_t pass_through(cublasStatus_t s) { return s; }
cublasStatus_t declared_only(cublasHandle_t h);

void own_functions(cublasHandle_t h, float *x) {
  check_status(cublasSscal(h, 4, x, x, 1));
  switch_checker(cublasSscal(h, 4, x, x, 1));
  reporting_checker(cublasSscal(h, 4, x, x, 1));
  checked_inside(h);
  set_stream_wrapper(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'set_stream_wrapper' (the status of 'cublasSetStream') is discarded; a failure here goes unnoticed [cublas-unchecked-status]
  destroy_wrapper(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'destroy_wrapper' (the status of 'cublasDestroy') is discarded; a failure here goes unnoticed [cublas-unchecked-status]
  pass_through(cublasSscal(h, 4, x, x, 1));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'pass_through' is discarded; a failure here goes unnoticed [cublas-unchecked-status]
  declared_only(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'declared_only' is discarded; a failure here goes unnoticed [cublas-unchecked-status]
}

// A status laundered through an integer and then read as a cudaError_t: the
// same confusion as a direct cast, reported where the macro is used.
#define CU_SAFE_CALL(fun)                                                      \
  {                                                                            \
    int ret;                                                                   \
    if ((ret = (fun)) != 0)                                                    \
      std::printf("%s\n", cudaGetErrorString((cudaError_t)ret));               \
  }
void laundered(cublasHandle_t *h, float **p) {
  CU_SAFE_CALL(cublasCreate(h));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'ret' holds a cublasStatus_t and is converted to cudaError_t; cuBLAS and CUDA runtime codes differ, so failures are misreported [cublas-unchecked-status]
  CU_SAFE_CALL(cudaMalloc((void **)p, 64));
  int code = cublasSetStream(*h, nullptr);
  if (code != 0)
    std::printf("%s\n", cudaGetErrorName(static_cast<cudaError_t>(code)));
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: 'code' holds a cublasStatus_t and is converted to cudaError_t
  // An int that holds statuses, read as what it is: fine.
  int ok = cublasDestroy(*h);
  if (ok != CUBLAS_STATUS_SUCCESS)
    std::puts(cublasGetStatusString(static_cast<cublasStatus_t>(ok)));
  // An int that holds a CUDA error too: not known to be a status.
  int mixed = cublasSetStream(*h, nullptr);
  if (mixed == 0)
    mixed = cudaMalloc((void **)p, 64);
  std::puts(cudaGetErrorString(static_cast<cudaError_t>(mixed)));
}

// The same through the project's own wrapper: its result is the status of
// the cuBLAS call inside (Kaldi's CU_SAFE_CALL(cublas_gemm(...))).
static cublasStatus_t scale_wrapper(cublasHandle_t h, float *x, int n) {
  const float a = 2.0f;
  return cublasSscal(h, n, &a, x, 1);
}
// An int function: not a status.
static int count_rows(int n) { return n; }
void launderedWrapper(cublasHandle_t h, float *x, int n) {
  CU_SAFE_CALL(scale_wrapper(h, x, n));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'ret' holds a cublasStatus_t and is converted to cudaError_t; cuBLAS and CUDA runtime codes differ, so failures are misreported [cublas-unchecked-status]
  CU_SAFE_CALL(count_rows(n));
}

// Through a parameter: a checker that takes any status as an int and prints
// it as a CUDA runtime error misreports the cuBLAS statuses it is given.
void check_any(int ret, const char *what) {
  if (ret != 0)
    std::printf("%s: %s\n", what, cudaGetErrorString((cudaError_t)ret));
  // CHECK-MESSAGES: :[[@LINE-1]]:54: warning: 'ret' holds a cublasStatus_t and is converted to cudaError_t; cuBLAS and CUDA runtime codes differ, so failures are misreported [cublas-unchecked-status]
}
void check_cuda_only(int ret) {
  if (ret != 0)
    std::puts(cudaGetErrorString((cudaError_t)ret));
}
void through_parameters(cublasHandle_t *h, float **p) {
  check_any(cudaMalloc((void **)p, 64), "cudaMalloc");
  check_any(cublasCreate(h), "cublasCreate");
  check_cuda_only(cudaMalloc((void **)p, 64));
}

// Code switched off with a literal `if (0)` or `if (false)` never runs:
// nothing in it is reported. A condition from a macro or a constant is a
// build setting that other builds turn on: reported.
#define NEVER_IN_THIS_BUILD 0
void switched_off(cublasHandle_t h, cudaStream_t s) {
  if (0) {
    cublasSetStream(h, s);
  }
  if (false)
    cublasSetStream(h, s);
  if (!1)
    cublasSetStream(h, s);
  if (0) {
  } else {
    cublasSetStream(h, s);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the cublasStatus_t returned by 'cublasSetStream' is discarded
  }
  if (NEVER_IN_THIS_BUILD)
    cublasSetStream(h, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the cublasStatus_t returned by 'cublasSetStream' is discarded
  if (1)
    cublasSetStream(h, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the cublasStatus_t returned by 'cublasSetStream' is discarded
}

// One discarded status in a template: one warning, whichever instantiations
// the unit makes (each names another cuBLAS function through the wrapper).
template <typename T> cublasStatus_t scal_of(cublasHandle_t h, int n, T *x);
template <> cublasStatus_t scal_of<float>(cublasHandle_t h, int n, float *x) {
  const float a = 2.0f;
  return cublasSscal(h, n, &a, x, 1);
}
template <> cublasStatus_t scal_of<double>(cublasHandle_t h, int n, double *x) {
  const double a = 2.0;
  return cublasDscal(h, n, &a, x, 1);
}
template <typename T> void scale_twice(cublasHandle_t h, int n, T *x) {
  scal_of<T>(h, n, x);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'scal_of' (the status of '{{cublasSscal|cublasDscal}}') is discarded; a failure here goes unnoticed [cublas-unchecked-status]
}
void scale_both(cublasHandle_t h, int n, float *xf, double *xd) {
  scale_twice(h, n, xf);
  scale_twice(h, n, xd);
}

// A guard's destructor that restores the pointer mode: while an exception
// unwinds the stack, a failure cannot be thrown, and the status is
// deliberately let go; otherwise it is checked. Only the first is silent.
void throw_on_failure(cublasStatus_t st);
class ModeGuard {
public:
  explicit ModeGuard(cublasHandle_t h)
      : h_(h), unwinding_(std::uncaught_exceptions()) {}
  ~ModeGuard() noexcept(false) {
    if (std::uncaught_exceptions() > unwinding_)
      cublasSetPointerMode(h_, CUBLAS_POINTER_MODE_DEVICE);
    else
      throw_on_failure(cublasSetPointerMode(h_, CUBLAS_POINTER_MODE_DEVICE));
  }

private:
  cublasHandle_t h_;
  int unwinding_;
};

class SloppyGuard {
public:
  explicit SloppyGuard(cublasHandle_t h) : h_(h) {}
  ~SloppyGuard() {
    if (std::uncaught_exceptions() == 0)
      cublasSetPointerMode(h_, CUBLAS_POINTER_MODE_DEVICE);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the cublasStatus_t returned by 'cublasSetPointerMode' is discarded; a failure here goes unnoticed [cublas-unchecked-status]
  }

private:
  cublasHandle_t h_;
};
