// RUN: %check_clang_tidy %s cublas-handle-leak %t

// A handle in a static or a global, created under a guard `if (!flag)` whose
// flag is tested but never set: the guard lets every call through, and each
// call after the first leaks the previous handle. And the correct guards a
// naive rule would flag.

#include <cublas_v2.h>
#include <cuda_runtime.h>

// --- Reported -------------------------------------------------------------

void scale(float *d_x, int n) {
  static cublasHandle_t h;
  static bool initialized = false;
  if (!initialized) {
    cublasCreate(&h);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: static handle 'h' is created on every call of 'scale': its guard 'initialized' is tested but never set, and the previous one is never destroyed; each call after the first leaks one; set 'initialized' after the create [cublas-handle-leak]
    // CHECK-NOTES: :[[@LINE-3]]:3: note: 'initialized' is false on every call: nothing sets it
  }
  const float two = 2.0f;
  cublasSscal(h, n, &two, d_x, 1);
}

static cublasHandle_t g_handle;
static int g_ready;

void axpy(const float *d_x, float *d_y, int n) {
  if (g_ready == 0)
    if (cublasCreate(&g_handle) != CUBLAS_STATUS_SUCCESS)
      // CHECK-NOTES: :[[@LINE-1]]:9: warning: global handle 'g_handle' is created on every call of 'axpy': its guard 'g_ready' is tested but never set, {{.*}}
      // CHECK-NOTES: :[[@LINE-3]]:3: note: 'g_ready' is false on every call: nothing sets it
      return;
  const float one = 1.0f;
  cublasSaxpy(g_handle, n, &one, d_x, 1, d_y, 1);
}

bool ready_for_axpy() { return g_ready != 0; }

// --- Not reported ---------------------------------------------------------

void scale_set(float *d_x, int n) {
  static cublasHandle_t h;
  static bool initialized = false;
  if (!initialized) {
    cublasCreate(&h);
    initialized = true;
  }
  const float two = 2.0f;
  cublasSscal(h, n, &two, d_x, 1);
}

static cublasHandle_t g_other;
static bool g_other_ready;

void init_other() { g_other_ready = true; }

void use_other(float *d_x, int n) {
  if (!g_other_ready)
    cublasCreate(&g_other); // set elsewhere in this file
  const float two = 2.0f;
  cublasSscal(g_other, n, &two, d_x, 1);
}

// A flag that other files may set.
extern bool shared_ready;
cublasHandle_t shared_handle;
void use_shared(float *d_x, int n) {
  if (!shared_ready)
    cublasCreate(&shared_handle);
  const float two = 2.0f;
  cublasSscal(shared_handle, n, &two, d_x, 1);
}

// A flag set through a pointer.
static bool g_flagged;
static cublasHandle_t g_flagged_handle;
static void mark(bool *flag) { *flag = true; }
void use_flagged(float *d_x, int n) {
  if (!g_flagged) {
    cublasCreate(&g_flagged_handle);
    mark(&g_flagged);
  }
  const float two = 2.0f;
  cublasSscal(g_flagged_handle, n, &two, d_x, 1);
}

// A flag that starts true.
void starts_true(float *d_x, int n) {
  static cublasHandle_t h;
  static bool skip = true;
  if (!skip)
    cublasCreate(&h);
}

// A guard on the handle itself.
void guard_on_handle(float *d_x, int n) {
  static cublasHandle_t h;
  if (!h)
    cublasCreate(&h);
  const float two = 2.0f;
  cublasSscal(h, n, &two, d_x, 1);
}

// A global created once by its initialiser, with no guard: an initialiser
// called once is fine.
cublasHandle_t g_main_handle;
void init_handle() { cublasCreate(&g_main_handle); }

// A local flag is a fresh false on every call, but the handle is local too:
// the ordinary leak rules apply, not this one.

// --- A global created by a function that a loop calls ----------------------

static cublasHandle_t g_step_handle;
static void setup_step() {
  cublasCreate(&g_step_handle);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: global handle 'g_step_handle' is created on every call of 'setup_step', which is called in a loop, and the previous one is never destroyed: each call after the first leaks one; create it once (guard the create with 'if (!g_step_handle)') [cublas-handle-leak]
  // CHECK-NOTES: :[[@LINE+7]]:5: note: 'setup_step' is called in this loop
}

void run_steps(float *d_x, int n, int steps) {
  const float two = 2.0f;
  for (int s = 0; s < steps; ++s) {
    // Each step "sets up" again: the previous handle is lost.
    setup_step();
    cublasSscal(g_step_handle, n, &two, d_x, 1);
  }
}

// Not reported: a cleanup in the same file releases it.
static cublasHandle_t g_cycle;
static void open_cycle() { cublasCreate(&g_cycle); }
static void close_cycle() { cublasDestroy(g_cycle); }
void cycles(float *d_x, int n, int count) {
  const float two = 2.0f;
  for (int i = 0; i < count; ++i) {
    open_cycle();
    cublasSscal(g_cycle, n, &two, d_x, 1);
    close_cycle();
  }
}

// Not reported: one handle per device.
cublasHandle_t g_device_handles[8];
cublasHandle_t g_current;
static void open_device() { cublasCreate(&g_current); }
void open_all(int devices) {
  for (int d = 0; d < devices; ++d) {
    cudaSetDevice(d);
    open_device();
    g_device_handles[d] = g_current;
  }
}

// Not reported: an initialiser called once.
void setup_once() { init_handle(); }

// Not reported: each handle is kept elsewhere before the next create.
static cublasHandle_t g_kept;
cublasHandle_t g_kept_all[4];
static void open_kept() { cublasCreate(&g_kept); }
void keep_all() {
  for (int i = 0; i < 4; ++i) {
    open_kept();
    g_kept_all[i] = g_kept;
  }
}

// --- A global created by a function called twice ---------------------------

static cublasHandle_t g_module;
static void init_module() {
  cublasCreate(&g_module);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: global handle 'g_module' is created on every call of 'init_module', which is called twice, and the previous one is never destroyed: the second call leaks the first; create it once (guard the create with 'if (!g_module)') [cublas-handle-leak]
  // CHECK-NOTES: :[[@LINE+7]]:3: note: 'init_module' is called here
  // CHECK-NOTES: :[[@LINE+10]]:3: note: and again here
}

void run_twice(float *d_x, int n) {
  const float two = 2.0f;
  // Module setup, then a second setup pasted with the next stage.
  init_module();
  cublasSscal(g_module, n, &two, d_x, 1);

  // Stage two.
  init_module();
  cublasSscal(g_module, n, &two, d_x, 1);
}

// Not reported: one call or the other runs, never both.
static cublasHandle_t g_either;
static void init_either() { cublasCreate(&g_either); }
void either(bool fast, int mode) {
  if (fast)
    init_either();
  else
    init_either();
  switch (mode) {
  case 0:
    init_either();
    break;
  default:
    init_either();
    break;
  }
}

// Not reported: a retry after a failed create (nothing was created).
static cublasHandle_t g_retry;
static bool init_retry() {
  return cublasCreate(&g_retry) == CUBLAS_STATUS_SUCCESS;
}
bool retry() {
  if (!init_retry())
    return init_retry();
  return true;
}

// Not reported: the first handle is kept before the second create.
static cublasHandle_t g_per_device;
static void init_per_device() { cublasCreate(&g_per_device); }
cublasHandle_t g_device0, g_device1;
void two_devices() {
  cudaSetDevice(0);
  init_per_device();
  g_device0 = g_per_device;
  cudaSetDevice(1);
  init_per_device();
  g_device1 = g_per_device;
}
