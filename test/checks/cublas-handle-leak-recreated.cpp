// RUN: %check_clang_tidy %s cublas-handle-leak %t

// A global created by a function that runs again while the previous handle
// is still live: a shutdown() that destroys it once, after the loop or after
// both calls, releases only the last one.

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstdio>

void check(cublasStatus_t);
static void report_epoch(int e) { std::printf("epoch %d\n", e); }

// --- Reported -------------------------------------------------------------

static cublasHandle_t g_blas;
static void init() {
  check(cublasCreate(&g_blas));
  // CHECK-NOTES: :[[@LINE-1]]:9: warning: global handle 'g_blas' is created on every call of 'init', which is called in a loop, while the previous one is still live (nothing in the loop destroys it): each call after the first leaks one; create it once (guard the create with 'if (!g_blas)'), or destroy it before creating it again [cublas-handle-leak]
  // CHECK-NOTES: :[[@LINE+10]]:5: note: 'init' is called in this loop
}
static void shutdown() { check(cublasDestroy(g_blas)); }

void train(float *d_x, int n, int epochs) {
  const float two = 2.0f;
  for (int e = 0; e < epochs; ++e) {
    // Each epoch "initialises" again; the handle is destroyed once, at the
    // end.
    report_epoch(e);
    init();
    check(cublasSscal(g_blas, n, &two, d_x, 1));
  }
  shutdown();
}

static cublasHandle_t g_module;
static void init_module() {
  check(cublasCreate(&g_module));
  // CHECK-NOTES: :[[@LINE-1]]:9: warning: global handle 'g_module' is created on every call of 'init_module', which is called twice, while the previous one is still live (nothing between the two calls destroys it): the second call leaks the first; create it once (guard the create with 'if (!g_module)'), or destroy it before creating it again [cublas-handle-leak]
  // CHECK-NOTES: :[[@LINE+7]]:3: note: 'init_module' is called here
  // CHECK-NOTES: :[[@LINE+8]]:3: note: and again here
}
static void close_module() { check(cublasDestroy(g_module)); }

void stages(float *d_x, int n) {
  const float two = 2.0f;
  init_module();
  check(cublasSscal(g_module, n, &two, d_x, 1));
  init_module();
  check(cublasSscal(g_module, n, &two, d_x, 1));
  close_module();
}

// The teardown that forgets the handle runs once, after the loop.
static cublasHandle_t g_late;
static void open_late() {
  check(cublasCreate(&g_late));
  // CHECK-NOTES: :[[@LINE-1]]:9: warning: global handle 'g_late' is created on every call of 'open_late', which is called in a loop, while the previous one is still live (nothing in the loop destroys it): each call after the first leaks one; create it once (guard the create with 'if (!g_late)'), or destroy it before creating it again [cublas-handle-leak]
  // CHECK-NOTES: :[[@LINE+10]]:5: note: 'open_late' is called in this loop
}
static void close_late() {
  if (g_late) {
    check(cublasDestroy(g_late));
    g_late = nullptr;
  }
}
void late(int count) {
  for (int i = 0; i < count; ++i)
    open_late();
  close_late();
}

// --- Not reported ---------------------------------------------------------

// Destroyed in the loop, directly or through a function of the file.
static cublasHandle_t g_cycle;
static void open_cycle() { check(cublasCreate(&g_cycle)); }
static void close_cycle() { check(cublasDestroy(g_cycle)); }
static void finish_step() { close_cycle(); }
void cycles(float *d_x, int n, int count) {
  const float two = 2.0f;
  for (int i = 0; i < count; ++i) {
    open_cycle();
    check(cublasSscal(g_cycle, n, &two, d_x, 1));
    finish_step();
  }
  for (int i = 0; i < count; ++i) {
    check(cublasDestroy(g_cycle));
    open_cycle();
  }
  close_cycle();
}

// Destroyed between the two calls.
static cublasHandle_t g_phase;
static void open_phase() { check(cublasCreate(&g_phase)); }
void phases() {
  open_phase();
  check(cublasDestroy(g_phase));
  open_phase();
  check(cublasDestroy(g_phase));
}

// The loop calls a function this file cannot read: it may be the cleanup.
static cublasHandle_t g_outside;
static void open_outside() { check(cublasCreate(&g_outside)); }
void release_outside();
void outside(int count) {
  for (int i = 0; i < count; ++i) {
    open_outside();
    release_outside();
  }
  check(cublasDestroy(g_outside));
}

// One handle per device, created once each and destroyed at the end.
static cublasHandle_t g_device;
static cublasHandle_t g_per_device[8];
static void open_device() { check(cublasCreate(&g_device)); }
void devices(int count) {
  for (int d = 0; d < count; ++d) {
    cudaSetDevice(d);
    open_device();
    g_per_device[d] = g_device;
  }
  for (int d = 0; d < count; ++d)
    check(cublasDestroy(g_per_device[d]));
}

// A guarded create: only the first call creates.
static cublasHandle_t g_lazy;
static void open_lazy() {
  if (!g_lazy)
    check(cublasCreate(&g_lazy));
}
void lazy(int count) {
  for (int i = 0; i < count; ++i)
    open_lazy();
  check(cublasDestroy(g_lazy));
}

// A teardown that destroys only a live handle and forgets it: the loop
// destroys before each create.
static cublasHandle_t g_reset;
static void open_reset() { check(cublasCreate(&g_reset)); }
static void close_reset() {
  if (g_reset) {
    check(cublasDestroy(g_reset));
    g_reset = nullptr;
  }
}
void resets(float *d_x, int n, int count) {
  const float two = 2.0f;
  for (int i = 0; i < count; ++i) {
    open_reset();
    check(cublasSscal(g_reset, n, &two, d_x, 1));
    close_reset();
  }
}

// The same teardown written with an early return.
static cublasHandle_t g_early;
static void open_early() { check(cublasCreate(&g_early)); }
static void close_early() {
  if (!g_early)
    return;
  check(cublasDestroy(g_early));
  g_early = nullptr;
}
void earlies(int count) {
  for (int i = 0; i < count; ++i) {
    open_early();
    close_early();
  }
}
