// RUN: %check_clang_tidy %s cublas-handle-state %t

// A handle's configuration changed where other work pays for it; and the
// correct code that a naive rule would flag.

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cstdlib>
#include <stdexcept>

// --- Workspace lost to a stream change --------------------------------------

void workspaceThenStream(cublasHandle_t handle, cudaStream_t stream,
                         void *ws, size_t wsSize, int n, const float *alpha,
                         const float *x, float *y) {
  cublasSetWorkspace(handle, ws, wsSize);
  cublasSetStream(handle, stream);
// CHECK-NOTES: :[[@LINE-1]]:3: warning: 'cublasSetStream' resets the workspace of 'handle' to cuBLAS's default pool: the workspace that 'cublasSetWorkspace' gave it before is lost, and 'cublasSaxpy' runs without it; set the stream first and the workspace after it [cublas-handle-state]
// CHECK-NOTES: :[[@LINE-3]]:3: note: the workspace that is lost
// CHECK-NOTES: :[[@LINE+1]]:3: note: runs with the default workspace
  cublasSaxpy(handle, n, alpha, x, 1, y, 1);
}

void localHandleLosesWorkspace(cudaStream_t stream, void *ws, size_t wsSize,
                               int n, const float *alpha, const float *x,
                               float *y) {
  cublasHandle_t h;
  cublasCreate(&h);
  cublasSetWorkspace(h, ws, wsSize);
  if (stream)
    cublasSetStream(h, stream);
// CHECK-NOTES: :[[@LINE-1]]:5: warning: 'cublasSetStream' resets the workspace of 'h' to cuBLAS's default pool: the workspace that 'cublasSetWorkspace' gave it before is lost, and 'cublasSaxpy' runs without it; set the stream first and the workspace after it [cublas-handle-state]
// CHECK-NOTES: :[[@LINE-4]]:3: note: the workspace that is lost
// CHECK-NOTES: :[[@LINE+1]]:3: note: runs with the default workspace
  cublasSaxpy(h, n, alpha, x, 1, y, 1);
  cublasDestroy(h);
}

// The PyTorch order: stream first, then workspace.
void streamThenWorkspace(cublasHandle_t handle, cudaStream_t stream, void *ws,
                         size_t wsSize, int n, const float *alpha,
                         const float *x, float *y) {
  cublasSetStream(handle, stream);
  cublasSetWorkspace(handle, ws, wsSize);
  cublasSaxpy(handle, n, alpha, x, 1, y, 1);
}

// The workspace set again after the stream.
void workspaceAgain(cublasHandle_t handle, cudaStream_t stream, void *ws,
                    size_t wsSize, int n, const float *alpha, const float *x,
                    float *y) {
  cublasSetWorkspace(handle, ws, wsSize);
  cublasSetStream(handle, stream);
  cublasSetWorkspace(handle, ws, wsSize);
  cublasSaxpy(handle, n, alpha, x, 1, y, 1);
}

// Different handles.
void differentHandles(cublasHandle_t a, cublasHandle_t b, cudaStream_t stream,
                      void *ws, size_t wsSize, int n, const float *alpha,
                      const float *x, float *y) {
  cublasSetWorkspace(a, ws, wsSize);
  cublasSetStream(b, stream);
  cublasSaxpy(a, n, alpha, x, 1, y, 1);
  cublasSaxpy(b, n, alpha, x, 1, y, 1);
}

// Only on some paths before the stream: no finding (the rule wants every
// path).
void workspaceSometimes(cublasHandle_t handle, cudaStream_t stream, void *ws,
                        size_t wsSize, bool useWs, int n, const float *alpha,
                        const float *x, float *y) {
  if (useWs)
    cublasSetWorkspace(handle, ws, wsSize);
  cublasSetStream(handle, stream);
  cublasSaxpy(handle, n, alpha, x, 1, y, 1);
}

// A member handle given its workspace where it is created.
class Engine {
public:
  Engine(void *ws, size_t size) {
    cublasCreate(&handle_);
    cublasSetWorkspace(handle_, ws, size);
  }
  ~Engine() { cublasDestroy(handle_); }
  void run(cudaStream_t s, int n, const float *alpha, const float *x,
           float *y) {
    cublasSetStream(handle_, s);
// CHECK-NOTES: :[[@LINE-1]]:5: warning: 'cublasSetStream' resets the workspace of 'handle_' to cuBLAS's default pool: the workspace that 'Engine::Engine' gives it with 'cublasSetWorkspace' is lost for every call on 'handle_' after this one; call 'cublasSetWorkspace' again after each stream change [cublas-handle-state]
// CHECK-NOTES: :[[@LINE-7]]:5: note: the workspace set where the handle is created
// CHECK-NOTES: :[[@LINE+1]]:5: note: runs with the default workspace
    cublasSaxpy(handle_, n, alpha, x, 1, y, 1);
  }
private:
  cublasHandle_t handle_;
};

// The same, with the workspace set again after each stream change.
class GoodEngine {
public:
  GoodEngine(void *ws, size_t size) : ws_(ws), size_(size) {
    cublasCreate(&handle_);
    cublasSetWorkspace(handle_, ws_, size_);
  }
  ~GoodEngine() { cublasDestroy(handle_); }
  void run(cudaStream_t s, int n, const float *alpha, const float *x,
           float *y) {
    cublasSetStream(handle_, s);
    cublasSetWorkspace(handle_, ws_, size_);
    cublasSaxpy(handle_, n, alpha, x, 1, y, 1);
  }
private:
  cublasHandle_t handle_;
  void *ws_;
  size_t size_;
};

// A stream reset just before the handle is destroyed: nothing runs on it
// afterwards, directly, through a helper that destroys it, or for a member.
static cublasHandle_t gBlas;
static void *gBlasWs;
void setupBlas(cudaStream_t s) {
  cublasCreate(&gBlas);
  cudaMalloc(&gBlasWs, 1 << 22);
  cublasSetStream(gBlas, s);
  cublasSetWorkspace(gBlas, gBlasWs, 1 << 22);
}
void shutdownBlas() {
  cublasSetStream(gBlas, 0);
  cublasDestroy(gBlas);
  cudaFree(gBlasWs);
}
static void releaseBlas() { cublasDestroy(gBlas); }
void shutdownBlasThroughHelper() {
  cublasSetStream(gBlas, 0);
  releaseBlas();
}
class ClosingEngine {
public:
  ClosingEngine(void *ws, size_t size) {
    cublasCreate(&handle_);
    cublasSetWorkspace(handle_, ws, size);
  }
  void close() {
    cublasSetStream(handle_, 0);
    cublasDestroy(handle_);
  }
private:
  cublasHandle_t handle_;
};

// --- Pointer mode left on a handle the function does not own ----------------

cublasStatus_t dotDevice(cublasHandle_t handle, int n, const float *x,
                         const float *y, float *result) {
  cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE);
// CHECK-NOTES: :[[@LINE-1]]:3: warning: 'handle' (a parameter: the caller's handle) is left in CUBLAS_POINTER_MODE_DEVICE when 'dotDevice' returns: the next call on it with a host alpha or beta has them read as device addresses; set the mode back on every way out (save it with 'cublasGetPointerMode' first, or set CUBLAS_POINTER_MODE_HOST) [cublas-handle-state]
// CHECK-NOTES: :[[@LINE+3]]:5: note: returns with the device pointer mode still set
  cublasStatus_t st = cublasSdot(handle, n, x, 1, y, 1, result);
  if (st != CUBLAS_STATUS_SUCCESS)
    return st;
  cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST);
  return CUBLAS_STATUS_SUCCESS;
}

cublasHandle_t gHandle;

void neverRestored(int n, const float *x, const float *y, float *result) {
  cublasSetPointerMode(gHandle, CUBLAS_POINTER_MODE_DEVICE);
// CHECK-NOTES: :[[@LINE-1]]:3: warning: 'gHandle' (a global handle) is left in CUBLAS_POINTER_MODE_DEVICE when 'neverRestored' returns: the next call on it with a host alpha or beta has them read as device addresses; set the mode back on every way out (save it with 'cublasGetPointerMode' first, or set CUBLAS_POINTER_MODE_HOST) [cublas-handle-state]
// CHECK-NOTES: :[[@LINE+3]]:1: note: ends with the device pointer mode still set
// CHECK-NOTES: :[[@LINE+7]]:3: note: 'scaleGlobal' passes a host scalar on the same handle and sets no mode of its own
  cublasSdot(gHandle, n, x, 1, y, 1, result);
}

// The other code that pays: host scalars on the same global handle.
void scaleGlobal(int n, float *x) {
  const float two = 2.0f;
  cublasSscal(gHandle, n, &two, x, 1);
}

void throwsWithDevice(cublasHandle_t handle, int n, const float *x,
                      const float *y, float *result) {
  cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE);
// CHECK-NOTES: :[[@LINE-1]]:3: warning: 'handle' (a parameter: the caller's handle) is left in CUBLAS_POINTER_MODE_DEVICE when 'throwsWithDevice' returns: the next call on it with a host alpha or beta has them read as device addresses; set the mode back on every way out (save it with 'cublasGetPointerMode' first, or set CUBLAS_POINTER_MODE_HOST) [cublas-handle-state]
// CHECK-NOTES: :[[@LINE+2]]:5: note: throws with the device pointer mode still set
  if (cublasSdot(handle, n, x, 1, y, 1, result) != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error("dot failed");
  cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST);
}

// The same throw inside a checking function of the file.
static void checkBlas(cublasStatus_t st) {
  if (st != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error("cublas");
}
void throwsInChecker(cublasHandle_t handle, int n, float *x, float *norm) {
  checkBlas(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE));
// CHECK-NOTES: :[[@LINE-1]]:13: warning: 'handle' (a parameter: the caller's handle) is left in CUBLAS_POINTER_MODE_DEVICE when 'throwsInChecker' returns: the next call on it with a host alpha or beta has them read as device addresses; set the mode back on every way out (save it with 'cublasGetPointerMode' first, or set CUBLAS_POINTER_MODE_HOST) [cublas-handle-state]
// CHECK-NOTES: :[[@LINE+1]]:3: note: may throw here with the device pointer mode still set
  checkBlas(cublasSnrm2(handle, n, x, 1, norm));
  checkBlas(cublasSscal(handle, n, norm, x, 1));
  checkBlas(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST));
}
// Caught inside the function, which sets the mode back: silent. So is a
// checker that cannot throw.
void caughtInside(cublasHandle_t handle, int n, float *x, float *norm) {
  checkBlas(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE));
  try {
    checkBlas(cublasSnrm2(handle, n, x, 1, norm));
  } catch (const std::exception &) {
  }
  checkBlas(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST));
}
static void logBlas(cublasStatus_t st) noexcept {
  if (st != CUBLAS_STATUS_SUCCESS)
    std::abort();
}
void checkerCannotThrow(cublasHandle_t handle, int n, float *x, float *norm) {
  logBlas(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE));
  logBlas(cublasSnrm2(handle, n, x, 1, norm));
  logBlas(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST));
}

// Restored on every path.
cublasStatus_t restoredEverywhere(cublasHandle_t handle, int n, const float *x,
                                  const float *y, float *result) {
  cublasPointerMode_t old;
  cublasGetPointerMode(handle, &old);
  cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE);
  cublasStatus_t st = cublasSdot(handle, n, x, 1, y, 1, result);
  cublasSetPointerMode(handle, old);
  return st;
}

// A handle the function creates and destroys.
void ownHandle(int n, const float *x, const float *y, float *result) {
  cublasHandle_t h;
  cublasCreate(&h);
  cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
  cublasSdot(h, n, x, 1, y, 1, result);
  cublasDestroy(h);
}

// Host mode set: nothing to restore.
void hostMode(cublasHandle_t handle, int n, const float *x, const float *y,
              float *result) {
  cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST);
  cublasSdot(handle, n, x, 1, y, 1, result);
}

// An RAII guard restores it.
struct PointerModeGuard {
  PointerModeGuard(cublasHandle_t h) : h(h) { cublasGetPointerMode(h, &old); }
  ~PointerModeGuard() { cublasSetPointerMode(h, old); }
  cublasHandle_t h;
  cublasPointerMode_t old;
};

cublasStatus_t guarded(cublasHandle_t handle, int n, const float *x,
                       const float *y, float *result) {
  PointerModeGuard guard(handle);
  cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE);
  cublasStatus_t st = cublasSdot(handle, n, x, 1, y, 1, result);
  if (st != CUBLAS_STATUS_SUCCESS)
    return st;
  return cublasSdot(handle, n, x, 1, y, 1, result);
}

// The same condition chooses the mode and the restore.
void correlated(cublasHandle_t handle, bool onDevice, int n, const float *x,
                const float *y, float *result) {
  if (onDevice)
    cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE);
  cublasSdot(handle, n, x, 1, y, 1, result);
  if (onDevice)
    cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST);
}

// The set itself failing returns before any work: nothing changed.
#define CHECK_CUBLAS(call)                                                     \
  do {                                                                         \
    cublasStatus_t s_ = (call);                                                \
    if (s_ != CUBLAS_STATUS_SUCCESS)                                           \
      return s_;                                                               \
  } while (0)

#define CHECK_VOID(call)                                                       \
  do {                                                                         \
    if ((call) != CUBLAS_STATUS_SUCCESS)                                       \
      return;                                                                  \
  } while (0)

cublasStatus_t checkedSet(cublasHandle_t handle, int n, const float *x,
                          const float *y, float *result) {
  CHECK_CUBLAS(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE));
  cublasStatus_t st = cublasSdot(handle, n, x, 1, y, 1, result);
  CHECK_CUBLAS(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST));
  return st;
}

// A member handle: the class uses the device mode for all its calls, set
// where it creates the handle.
class DeviceScalars {
public:
  DeviceScalars() {
    cublasCreate(&h_);
    cublasSetPointerMode(h_, CUBLAS_POINTER_MODE_DEVICE);
  }
  ~DeviceScalars() { cublasDestroy(h_); }
private:
  cublasHandle_t h_;
};

// Ends the process on error: no way out.
void abortsOnError(cublasHandle_t handle, int n, const float *x,
                   const float *y, float *result) {
  cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE);
  if (cublasSdot(handle, n, x, 1, y, 1, result) != CUBLAS_STATUS_SUCCESS)
    abort();
  cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST);
}

// The stream changes after the workspace, but nothing uses the handle
// again before it is destroyed.
void noUseAfter(cudaStream_t stream, void *ws, size_t wsSize) {
  cublasHandle_t h;
  cublasCreate(&h);
  cublasSetWorkspace(h, ws, wsSize);
  cublasSetStream(h, stream);
  cublasDestroy(h);
}

// A lambda restores the mode on the way out.
template <typename F> struct OnExit {
  F f;
  ~OnExit() { f(); }
};
template <typename F> OnExit<F> onExit(F f) { return {f}; }

cublasStatus_t lambdaRestores(cublasHandle_t handle, int n, const float *x,
                              const float *y, float *result) {
  auto restore = onExit(
      [&] { cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST); });
  cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE);
  return cublasSdot(handle, n, x, 1, y, 1, result);
}

// A member handle whose creating function sets the stream through the
// member function that would be reported: the workspace comes after.
class Ordered {
public:
  Ordered(void *ws, size_t size, cudaStream_t s) {
    cublasCreate(&handle_);
    bind(s);
    cublasSetWorkspace(handle_, ws, size);
  }
  ~Ordered() { cublasDestroy(handle_); }
  void bind(cudaStream_t s) { cublasSetStream(handle_, s); }
private:
  cublasHandle_t handle_;
};

// A helper that sets the mode back.
void restoreHost(cublasHandle_t h) {
  cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
}
void helperRestores(cublasHandle_t handle, int n, const float *x,
                    const float *y, float *result) {
  cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE);
  cublasSdot(handle, n, x, 1, y, 1, result);
  restoreHost(handle);
}

// Through a local copy of the caller's handle, restored through another.
void throughCopies(cublasHandle_t handle, int n, const float *x,
                   const float *y, float *result) {
  cublasHandle_t a = handle;
  cublasHandle_t b = handle;
  cublasSetPointerMode(a, CUBLAS_POINTER_MODE_DEVICE);
  cublasSdot(b, n, x, 1, y, 1, result);
  cublasSetPointerMode(b, CUBLAS_POINTER_MODE_HOST);
}

// A device mode left through a local copy of a member handle.
struct Context {
  cublasHandle_t handle;
};
void leftThroughCopy(Context *ctx, int n, const float *x, const float *y,
                     float *result) {
  cublasHandle_t h = ctx->handle;
  cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
// CHECK-NOTES: :[[@LINE-1]]:3: warning: 'h' (a member handle that other code uses) is left in CUBLAS_POINTER_MODE_DEVICE when 'leftThroughCopy' returns: the next call on it with a host alpha or beta has them read as device addresses; set the mode back on every way out (save it with 'cublasGetPointerMode' first, or set CUBLAS_POINTER_MODE_HOST) [cublas-handle-state]
// CHECK-NOTES: :[[@LINE+3]]:1: note: ends with the device pointer mode still set
// CHECK-NOTES: :[[@LINE+5]]:3: note: 'axpyOnContext' passes a host scalar on the same handle and sets no mode of its own
  cublasSdot(h, n, x, 1, y, 1, result);
}
void axpyOnContext(Context *ctx, int n, const float *x, float *y) {
  const float alpha = 1.0f;
  cublasSaxpy(ctx->handle, n, &alpha, x, 1, y, 1);
}

// A member handle whose every user sets the mode it needs: correct.
class Solver {
public:
  void norm(int n, const float *x, float *d_result) {
    cublasSetPointerMode(h_, CUBLAS_POINTER_MODE_DEVICE);
    cublasSnrm2(h_, n, x, 1, d_result);
  }
  void scale(int n, float *x) {
    const float half = 0.5f;
    cublasSetPointerMode(h_, CUBLAS_POINTER_MODE_HOST);
    cublasSscal(h_, n, &half, x, 1);
  }
private:
  cublasHandle_t h_;
};

// A member handle set to the device mode, and a helper of the class that
// sets the workspace again after the stream.
class Refreshing {
public:
  Refreshing(void *ws, size_t size) : ws_(ws), size_(size) {
    cublasCreate(&handle_);
    cublasSetWorkspace(handle_, ws_, size_);
  }
  ~Refreshing() { cublasDestroy(handle_); }
  void bind(cudaStream_t s) {
    cublasSetStream(handle_, s);
    applyWorkspace();
  }
private:
  void applyWorkspace() { cublasSetWorkspace(handle_, ws_, size_); }
  cublasHandle_t handle_;
  void *ws_;
  size_t size_;
};

// The code that pays may be a result written to a host address: in the
// device mode, cublasSnrm2 writes 'norm' through a device address.
cublasHandle_t gNorms;
void dotOnDevice(int n, const float *x, const float *y, float *d_result) {
  cublasSetPointerMode(gNorms, CUBLAS_POINTER_MODE_DEVICE);
// CHECK-NOTES: :[[@LINE-1]]:3: warning: 'gNorms' (a global handle) is left in CUBLAS_POINTER_MODE_DEVICE when 'dotOnDevice' returns: the next call on it with a host alpha or beta has them read as device addresses; set the mode back on every way out (save it with 'cublasGetPointerMode' first, or set CUBLAS_POINTER_MODE_HOST) [cublas-handle-state]
// CHECK-NOTES: :[[@LINE+3]]:1: note: ends with the device pointer mode still set
// CHECK-NOTES: :[[@LINE+5]]:3: note: 'normOnHost' passes a host scalar on the same handle and sets no mode of its own
  cublasSdot(gNorms, n, x, 1, y, 1, d_result);
}
float normOnHost(int n, const float *x) {
  float norm = 0.0f;
  cublasSnrm2(gNorms, n, x, 1, &norm);
  return norm;
}

// A result written to device memory on the same handle pays nothing.
cublasHandle_t gDeviceResults;
void dotOnDeviceToo(int n, const float *x, const float *y, float *d_result) {
  cublasSetPointerMode(gDeviceResults, CUBLAS_POINTER_MODE_DEVICE);
  cublasSdot(gDeviceResults, n, x, 1, y, 1, d_result);
}
void normToDevice(int n, const float *x, float *d_norm) {
  cublasSnrm2(gDeviceResults, n, x, 1, d_norm);
}

// A guard for a library whose global handle lives in device mode: its
// constructor switches to the host mode, its destructor back to the device
// mode, and every function that passes host scalars holds one.
cublasHandle_t gDeviceMode;
class HostScalarsGuard {
public:
  HostScalarsGuard() {
    cublasSetPointerMode(gDeviceMode, CUBLAS_POINTER_MODE_HOST);
  }
  ~HostScalarsGuard() {
    cublasSetPointerMode(gDeviceMode, CUBLAS_POINTER_MODE_DEVICE);
  }
};
void useGuard(int n, float *x) {
  HostScalarsGuard guard;
  const float two = 2.0f;
  cublasSscal(gDeviceMode, n, &two, x, 1);
}

// A helper whose callers are in this file: the one caller sets the mode it
// needs itself, so nothing pays.
static void normDevice(cublasHandle_t h, int n, const float *x, float *d) {
  cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
  cublasSnrm2(h, n, x, 1, d);
}
void callerSetsItsMode(cublasHandle_t h, int n, float *x, float *d) {
  normDevice(h, n, x, d);
  const float half = 0.5f;
  cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
  cublasSscal(h, n, &half, x, 1);
}

// The same helper, and a caller that passes a host scalar after it.
static void normDeviceToo(cublasHandle_t h, int n, const float *x, float *d) {
  cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
// CHECK-NOTES: :[[@LINE-1]]:3: warning: 'h' (a parameter: the caller's handle) is left in CUBLAS_POINTER_MODE_DEVICE when 'normDeviceToo' returns: the next call on it with a host alpha or beta has them read as device addresses; set the mode back on every way out (save it with 'cublasGetPointerMode' first, or set CUBLAS_POINTER_MODE_HOST) [cublas-handle-state]
// CHECK-NOTES: :[[@LINE+3]]:1: note: ends with the device pointer mode still set
// CHECK-NOTES: :[[@LINE+6]]:3: note: 'callerPays' passes a host scalar on the same handle and sets no mode of its own
  cublasSnrm2(h, n, x, 1, d);
}
void callerPays(cublasHandle_t h, int n, float *x, float *d) {
  normDeviceToo(h, n, x, d);
  const float half = 0.5f;
  cublasSscal(h, n, &half, x, 1);
}

// Handles from accessors: what the context hands out is shared with the
// other code that asks it.
class BlasContext {
public:
  cublasHandle_t handle() const { return handle_; }
private:
  cublasHandle_t handle_;
};
void nrm2Accessor(BlasContext &ctx, int n, const float *x, float *d) {
  cublasHandle_t h = ctx.handle();
  cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
// CHECK-NOTES: :[[@LINE-1]]:3: warning: 'h' (the shared handle that 'BlasContext::handle' returns) is left in CUBLAS_POINTER_MODE_DEVICE when 'nrm2Accessor' returns: the next call on it with a host alpha or beta has them read as device addresses; set the mode back on every way out (save it with 'cublasGetPointerMode' first, or set CUBLAS_POINTER_MODE_HOST) [cublas-handle-state]
// CHECK-NOTES: :[[@LINE+3]]:1: note: ends with the device pointer mode still set
// CHECK-NOTES: :[[@LINE+5]]:3: note: 'scaleAccessor' passes a host scalar on the same handle and sets no mode of its own
  cublasSnrm2(h, n, x, 1, d);
}
void scaleAccessor(BlasContext &ctx, int n, float *x) {
  const float half = 0.5f;
  cublasSscal(ctx.handle(), n, &half, x, 1);
}

// A singleton's accessor asked of the one object it always returns.
struct Blas {
  static Blas &instance() {
    static Blas one;
    return one;
  }
  cublasHandle_t handle() const { return h_; }
  cublasHandle_t h_;
};
void nrm2Singleton(int n, const float *x, float *d) {
  cublasSetPointerMode(Blas::instance().handle(), CUBLAS_POINTER_MODE_DEVICE);
// CHECK-NOTES: :[[@LINE-1]]:3: warning: 'Blas::instance().handle()' (the shared handle that 'Blas::handle' returns) is left in CUBLAS_POINTER_MODE_DEVICE when 'nrm2Singleton' returns: the next call on it with a host alpha or beta has them read as device addresses; set the mode back on every way out (save it with 'cublasGetPointerMode' first, or set CUBLAS_POINTER_MODE_HOST) [cublas-handle-state]
// CHECK-NOTES: :[[@LINE+3]]:1: note: ends with the device pointer mode still set
// CHECK-NOTES: :[[@LINE+5]]:3: note: 'scaleSingleton' passes a host scalar on the same handle and sets no mode of its own
  cublasSnrm2(Blas::instance().handle(), n, x, 1, d);
}
void scaleSingleton(int n, float *x) {
  const float half = 0.5f;
  cublasSscal(Blas::instance().handle(), n, &half, x, 1);
}
// A function that makes a new object each time is no singleton.
struct Fresh {
  static Fresh make() { return Fresh(); }
  cublasHandle_t handle() const { return h_; }
  cublasHandle_t h_;
};
void nrm2Fresh(int n, const float *x, float *d) {
  cublasSetPointerMode(Fresh::make().handle(), CUBLAS_POINTER_MODE_DEVICE);
  cublasSnrm2(Fresh::make().handle(), n, x, 1, d);
}
void scaleFresh(int n, float *x) {
  const float half = 0.5f;
  cublasSscal(Fresh::make().handle(), n, &half, x, 1);
}

// A factory: the handle it returns is the caller's own.
cublasHandle_t makeHandle() {
  cublasHandle_t h;
  cublasCreate(&h);
  return h;
}
void nrm2Factory(int n, const float *x, float *d) {
  cublasHandle_t h = makeHandle();
  cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
  cublasSnrm2(h, n, x, 1, d);
  cublasDestroy(h);
}
void scaleFactory(int n, float *x) {
  const float half = 0.5f;
  cublasHandle_t h = makeHandle();
  cublasSscal(h, n, &half, x, 1);
  cublasDestroy(h);
}

// The default pool given back before the stream: nothing of the user's is
// lost.
void defaultPoolAgain(cublasHandle_t h, cudaStream_t s, int n,
                      const float *alpha, const float *x, float *y) {
  cublasSetWorkspace(h, nullptr, 0);
  cublasSetStream(h, s);
  cublasSaxpy(h, n, alpha, x, 1, y, 1);
}

// A stream setter whose one caller sets the workspace after it.
class Bound {
public:
  Bound(void *ws, size_t size) : ws_(ws), size_(size) {
    cublasCreate(&handle_);
    cublasSetWorkspace(handle_, ws_, size_);
  }
  ~Bound() { cublasDestroy(handle_); }
  void bind(cudaStream_t s) {
    setStream(s);
    setWorkspace();
  }
private:
  void setStream(cudaStream_t s) { cublasSetStream(handle_, s); }
  void setWorkspace() { cublasSetWorkspace(handle_, ws_, size_); }
  cublasHandle_t handle_;
  void *ws_;
  size_t size_;
};

// Every call inside the checking macro: reported all the same.
void workspaceThenStreamChecked(cublasHandle_t handle, cudaStream_t stream,
                                void *ws, size_t wsSize, int n,
                                const float *alpha, const float *x,
                                float *y) {
  CHECK_VOID(cublasSetWorkspace(handle, ws, wsSize));
  CHECK_VOID(cublasSetStream(handle, stream));
// CHECK-NOTES: :[[@LINE-1]]:14: warning: 'cublasSetStream' resets the workspace of 'handle' to cuBLAS's default pool: the workspace that 'cublasSetWorkspace' gave it before is lost, and 'cublasSaxpy' runs without it; set the stream first and the workspace after it [cublas-handle-state]
// CHECK-NOTES: :[[@LINE-3]]:14: note: the workspace that is lost
// CHECK-NOTES: :[[@LINE+1]]:14: note: runs with the default workspace
  CHECK_VOID(cublasSaxpy(handle, n, alpha, x, 1, y, 1));
}
