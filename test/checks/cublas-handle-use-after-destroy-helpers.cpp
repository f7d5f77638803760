// RUN: %check_clang_tidy %s cublas-handle-use-after-destroy %t

// A destroy that happens inside a function of the file: the caller's handle
// is gone after the call, as after a cublasDestroy of its own.

#include <cublas_v2.h>
#include <cublasLt.h>

void log_status(cublasStatus_t);
void shutdown(cublasHandle_t h) { cublasDestroy(h); }
// A chain: the destroy is two calls down.
void close_all(cublasHandle_t h, cublasLtMatmulDesc_t d) {
  cublasLtMatmulDescDestroy(d);
  shutdown(h);
}
bool checked_shutdown(cublasHandle_t h) {
  return cublasDestroy(h) == CUBLAS_STATUS_SUCCESS;
}

void used_after_shutdown(const float *x, float *y, int n) {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    return;
  const float a = 1.0f;
  log_status(cublasSaxpy(h, n, &a, x, 1, y, 1));
  shutdown(h);
  log_status(cublasSaxpy(h, n, &a, x, 1, y, 1));
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: handle 'h' is used after it was destroyed [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'h' was destroyed here, in 'shutdown'
}

void shut_down_twice() {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    return;
  shutdown(h);
  shutdown(h);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: handle 'h' is destroyed again, in 'shutdown', after it was destroyed [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'h' was destroyed here, in 'shutdown'
}

void used_after_a_chain(cublasLtHandle_t lt) {
  cublasHandle_t h;
  cublasLtMatmulDesc_t d;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    return;
  if (cublasLtMatmulDescCreate(&d, CUBLAS_COMPUTE_32F, CUDA_R_32F) !=
      CUBLAS_STATUS_SUCCESS) {
    shutdown(h);
    return;
  }
  close_all(h, d);
  log_status(cublasSetStream(h, nullptr));
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: handle 'h' is used after it was destroyed [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'h' was destroyed here, in 'close_all'
  cublasOperation_t op = CUBLAS_OP_T;
  log_status(cublasLtMatmulDescSetAttribute(d, CUBLASLT_MATMUL_DESC_TRANSA,
                                            &op, sizeof(op)));
  // CHECK-NOTES: :[[@LINE-2]]:14: warning: descriptor 'd' is used after it was destroyed [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :[[@LINE-8]]:3: note: 'd' was destroyed here, in 'close_all'
}

void destroyed_after_a_checked_shutdown() {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    return;
  if (!checked_shutdown(h))
    return;
  log_status(cublasDestroy(h));
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: handle 'h' is destroyed again after it was destroyed [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :[[@LINE-4]]:8: note: 'h' was destroyed here, in 'checked_shutdown'
}

// A global handle, destroyed by a function of the file.
cublasHandle_t g_blas;
cublasLtHandle_t g_lt;
void teardown() {
  log_status(cublasDestroy(g_blas));
  log_status(cublasLtDestroy(g_lt));
}

void used_after_teardown(float *x, int n) {
  if (cublasCreate(&g_blas) != CUBLAS_STATUS_SUCCESS)
    return;
  teardown();
  const float a = 2.0f;
  log_status(cublasSscal(g_blas, n, &a, x, 1));
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: handle 'g_blas' is used after it was destroyed [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: 'g_blas' was destroyed here, in 'teardown'
}

void torn_down_twice() {
  teardown();
  teardown();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: handle 'g_blas' is destroyed again, in 'teardown', after it was destroyed [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'g_blas' was destroyed here, in 'teardown'
  // CHECK-NOTES: :[[@LINE-3]]:3: warning: handle 'g_lt' is destroyed again, in 'teardown', after it was destroyed [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :[[@LINE-5]]:3: note: 'g_lt' was destroyed here, in 'teardown'
}

//===--- Not flagged --------------------------------------------------------===//

// Destroys on some paths only: after the call the handle may be alive.
void maybe_shutdown(cublasHandle_t h, bool last) {
  if (last)
    cublasDestroy(h);
}
// Resets the caller's variable: the caller sees a null handle, not a
// destroyed one.
void shutdown_and_reset(cublasHandle_t *h) {
  cublasDestroy(*h);
  *h = nullptr;
}
// Keeps the handle: it only uses it.
void warm_up(cublasHandle_t h) { log_status(cublasSetStream(h, nullptr)); }
// Hands the handle to something it does not know.
void keep_somewhere(cublasHandle_t h);
void park(cublasHandle_t h) { keep_somewhere(h); }

void used_after_maybe(const float *x, float *y, int n, bool last) {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    return;
  maybe_shutdown(h, last);
  const float a = 1.0f;
  log_status(cublasSaxpy(h, n, &a, x, 1, y, 1));
  log_status(cublasDestroy(h));
}

void reset_by_the_helper() {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    return;
  shutdown_and_reset(&h);
  if (h)
    log_status(cublasSetStream(h, nullptr));
}

void kept_by_the_helper() {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    return;
  warm_up(h);
  warm_up(h);
  park(h);
  log_status(cublasSetStream(h, nullptr));
}

void recreated_after_shutdown(int steps) {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    return;
  for (int i = 0; i < steps; ++i) {
    shutdown(h);
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
      return;
    warm_up(h);
  }
  shutdown(h);
}

void shutdown_on_one_branch(bool fast) {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    return;
  if (fast)
    shutdown(h);
  else
    warm_up(h);
  if (!fast)
    shutdown(h);
}

// A teardown that resets the global, or destroys it only when it is set;
// an init() of the file, or a function the file cannot read, that may
// create it again.
cublasHandle_t g_other;
void teardown_and_reset() {
  log_status(cublasDestroy(g_other));
  g_other = nullptr;
}
void teardown_if_set() {
  if (g_other)
    log_status(cublasDestroy(g_other));
}
void init() {
  log_status(cublasCreate(&g_blas));
  log_status(cublasLtCreate(&g_lt));
}
void init_elsewhere();
void set_up() { init(); }

void reset_by_teardown() {
  teardown_and_reset();
  if (g_other)
    log_status(cublasSetStream(g_other, nullptr));
  teardown_if_set();
  log_status(cublasSetStream(g_other, nullptr));
}

void created_again(float *x, int n) {
  const float a = 2.0f;
  teardown();
  init();
  log_status(cublasSscal(g_blas, n, &a, x, 1));
  teardown();
  set_up();
  log_status(cublasSscal(g_blas, n, &a, x, 1));
  log_status(cublasDestroy(g_blas));
  init_elsewhere();
  log_status(cublasSscal(g_blas, n, &a, x, 1));
}

// A global destroyed on one path only: the other path uses a live handle
// (the function does not create it; it lives before the call).
void teardown_when(bool last, float *x, int n) {
  if (last)
    teardown();
  const float a = 2.0f;
  log_status(cublasSscal(g_blas, n, &a, x, 1));
}
void destroy_when(bool last, float *x, int n) {
  if (last)
    log_status(cublasDestroy(g_blas));
  const float a = 2.0f;
  log_status(cublasSscal(g_blas, n, &a, x, 1));
}

// A function of the file that works on the global on every path from its
// entry, called after the teardown: the use is inside it.
void step(float *x, int n) {
  const float a = 2.0f;
  log_status(cublasSscal(g_blas, n, &a, x, 1));
}
void maybe_step(bool on, float *x, int n) {
  if (!on)
    return;
  step(x, n);
}
void step_after_teardown(float *x, int n) {
  step(x, n);
  teardown();
  step(x, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: handle 'g_blas' is used, in 'step', after it was destroyed [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'g_blas' was destroyed here, in 'teardown'
}
void maybe_step_after_teardown(bool on, float *x, int n) {
  teardown();
  maybe_step(on, x, n);
}
