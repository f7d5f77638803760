// RUN: %check_clang_tidy %s cublas-handle-state %t

// The device pointer mode left on one handle of an array or a container of
// handles (one per device, a pool), set inside a lambda or a loop, paid for
// by another function that passes a host scalar on a handle of the same
// array. And what stays silent: another array's handles paying, a handle
// per thread or per device reconfigured by index, a workspace and a stream
// set on different elements.

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <array>
#include <thread>
#include <unordered_map>
#include <vector>

std::vector<cublasHandle_t> g_pool;
cublasHandle_t g_perDevice[8];

// A lambda run over the pool leaves every handle in device mode.
void dotsOnPool(int n, const float *x, const float *y, float *d_res, int k) {
  auto run = [&](int i) {
    cublasSetPointerMode(g_pool[i], CUBLAS_POINTER_MODE_DEVICE);
// CHECK-NOTES: :[[@LINE-1]]:5: warning: 'g_pool[i]' (one of the global handles of 'g_pool') is left in CUBLAS_POINTER_MODE_DEVICE when the lambda returns: the next call on it with a host alpha or beta has them read as device addresses; set the mode back on every way out (save it with 'cublasGetPointerMode' first, or set CUBLAS_POINTER_MODE_HOST) [cublas-handle-state]
// CHECK-NOTES: :[[@LINE+2]]:3: note: ends with the device pointer mode still set
    cublasSdot(g_pool[i], n, x, 1, y, 1, d_res + i);
  };
  for (int i = 0; i < k; ++i)
    run(i);
}

void scaleOnPool(int n, float *x, int i) {
  float a = 2.f;
  cublasSscal(g_pool[i], n, &a, x, 1);
// CHECK-NOTES: :[[@LINE-1]]:3: note: 'scaleOnPool' passes a host scalar on the same handle and sets no mode of its own
}

// A raw array, one handle per device, set in a loop.
void dotsPerDevice(int n, const float *x, const float *y, float *d_res,
                   int devices) {
  for (int d = 0; d < devices; ++d) {
    cublasSetPointerMode(g_perDevice[d], CUBLAS_POINTER_MODE_DEVICE);
// CHECK-NOTES: :[[@LINE-1]]:5: warning: 'g_perDevice[d]' (one of the global handles of 'g_perDevice') is left in CUBLAS_POINTER_MODE_DEVICE when 'dotsPerDevice' returns: the next call on it with a host alpha or beta has them read as device addresses; set the mode back on every way out (save it with 'cublasGetPointerMode' first, or set CUBLAS_POINTER_MODE_HOST) [cublas-handle-state]
// CHECK-NOTES: :[[@LINE+3]]:1: note: ends with the device pointer mode still set
    cublasSdot(g_perDevice[d], n, x, 1, y, 1, d_res + d);
  }
}

void axpyPerDevice(int n, const float *x, float *y, int d) {
  const float alpha = 0.5f;
  cublasSaxpy(g_perDevice[d], n, &alpha, x, 1, y, 1);
// CHECK-NOTES: :[[@LINE-1]]:3: note: 'axpyPerDevice' passes a host scalar on the same handle and sets no mode of its own
}

// A member array of the handles a class keeps for its devices.
class MultiGpu {
public:
  void norms(int n, const float *const *x, float *d_res, int devices) {
    for (int d = 0; d < devices; ++d) {
      cublasSetPointerMode(handles_[d], CUBLAS_POINTER_MODE_DEVICE);
// CHECK-NOTES: :[[@LINE-1]]:7: warning: 'handles_[d]' (one of the handles of the member 'handles_', which other code uses) is left in CUBLAS_POINTER_MODE_DEVICE when 'MultiGpu::norms' returns: the next call on it with a host alpha or beta has them read as device addresses; set the mode back on every way out (save it with 'cublasGetPointerMode' first, or set CUBLAS_POINTER_MODE_HOST) [cublas-handle-state]
// CHECK-NOTES: :[[@LINE+3]]:3: note: ends with the device pointer mode still set
      cublasSnrm2(handles_[d], n, x[d], 1, d_res + d);
    }
  }
  void scale(int n, float *x, int d) {
    float a = 3.f;
    cublasSscal(handles_[d], n, &a, x, 1);
// CHECK-NOTES: :[[@LINE-1]]:5: note: 'MultiGpu::scale' passes a host scalar on the same handle and sets no mode of its own
  }

private:
  cublasHandle_t handles_[8];
};

// A map of handles by device, set in a lambda of a member function and
// paid by `at()`; a local copy of one handle of a std::array.
class DevicePool {
public:
  void dot(int dev, int n, const float *x, const float *y, float *d_res) {
    auto job = [&, this]() {
      cublasSetPointerMode(byDevice_[dev], CUBLAS_POINTER_MODE_DEVICE);
// CHECK-NOTES: :[[@LINE-1]]:7: warning: 'byDevice_[dev]' (one of the handles of the member 'byDevice_', which other code uses) is left in CUBLAS_POINTER_MODE_DEVICE when the lambda returns: the next call on it with a host alpha or beta has them read as device addresses; set the mode back on every way out (save it with 'cublasGetPointerMode' first, or set CUBLAS_POINTER_MODE_HOST) [cublas-handle-state]
// CHECK-NOTES: :[[@LINE+2]]:5: note: ends with the device pointer mode still set
      cublasSdot(byDevice_[dev], n, x, 1, y, 1, d_res);
    };
    job();
  }
  void scaleByDevice(int dev, int n, float *x) {
    float a = 2.f;
    cublasSscal(byDevice_.at(dev), n, &a, x, 1);
// CHECK-NOTES: :[[@LINE-1]]:5: note: 'DevicePool::scaleByDevice' passes a host scalar on the same handle and sets no mode of its own
  }
  void nrm(int dev, int n, const float *x, float *d_res) {
    cublasHandle_t h = fixed_[dev];
    cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
// CHECK-NOTES: :[[@LINE-1]]:5: warning: 'h' (one of the handles of the member 'fixed_', which other code uses) is left in CUBLAS_POINTER_MODE_DEVICE when 'DevicePool::nrm' returns: the next call on it with a host alpha or beta has them read as device addresses; set the mode back on every way out (save it with 'cublasGetPointerMode' first, or set CUBLAS_POINTER_MODE_HOST) [cublas-handle-state]
// CHECK-NOTES: :[[@LINE+2]]:3: note: ends with the device pointer mode still set
    cublasSnrm2(h, n, x, 1, d_res);
  }
  void scaleFixed(int dev, int n, float *x) {
    float a = 2.f;
    cublasSscal(fixed_[dev], n, &a, x, 1);
// CHECK-NOTES: :[[@LINE-1]]:5: note: 'DevicePool::scaleFixed' passes a host scalar on the same handle and sets no mode of its own
  }

private:
  std::unordered_map<int, cublasHandle_t> byDevice_;
  std::array<cublasHandle_t, 8> fixed_;
};

// Silent: the host scalars are passed on another container's handles.
std::vector<cublasHandle_t> g_devicePool;
std::vector<cublasHandle_t> g_hostPool;

void dotsOnDevicePool(int n, const float *x, const float *y, float *d_res,
                      int k) {
  for (int i = 0; i < k; ++i) {
    cublasSetPointerMode(g_devicePool[i], CUBLAS_POINTER_MODE_DEVICE);
    cublasSdot(g_devicePool[i], n, x, 1, y, 1, d_res + i);
  }
}

void scaleOnHostPool(int n, float *x, int i) {
  float a = 2.f;
  cublasSscal(g_hostPool[i], n, &a, x, 1);
}

// Silent: the mode set back on each element.
cublasHandle_t g_restored[8];

void dotsRestored(int n, const float *x, const float *y, float *d_res,
                  int devices) {
  for (int d = 0; d < devices; ++d) {
    cublasSetPointerMode(g_restored[d], CUBLAS_POINTER_MODE_DEVICE);
    cublasSdot(g_restored[d], n, x, 1, y, 1, d_res + d);
    cublasSetPointerMode(g_restored[d], CUBLAS_POINTER_MODE_HOST);
  }
}

void scaleRestored(int n, float *x, int d) {
  float a = 2.f;
  cublasSscal(g_restored[d], n, &a, x, 1);
}

// Silent: an array the caller gives; which element its callers use is not
// followed.
void dotsGiven(cublasHandle_t *handles, int n, const float *x, const float *y,
               float *d_res, int d) {
  cublasSetPointerMode(handles[d], CUBLAS_POINTER_MODE_DEVICE);
  cublasSdot(handles[d], n, x, 1, y, 1, d_res);
}

// Silent: each thread reconfigures its own handle, picked by its index.
cublasHandle_t g_perThread[4];
std::vector<cublasHandle_t> g_perThreadVec;

void worker(int tid, cudaStream_t s, int n, const float *alpha,
            const float *x, float *y) {
  cublasSetStream(g_perThread[tid], s);
  cublasSaxpy(g_perThread[tid], n, alpha, x, 1, y, 1);
  cublasSetStream(g_perThreadVec[tid], s);
  cublasSaxpy(g_perThreadVec[tid], n, alpha, x, 1, y, 1);
}

void runThreads(cudaStream_t *streams, int n, const float *alpha,
                const float *x, float *y) {
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back(worker, i, streams[i], n, alpha, x, y);
  for (auto &t : threads)
    t.join();
}

// Silent: the workspace of one device's handle, the stream of another's.
cublasHandle_t g_configured[2];

void configureTwo(cudaStream_t s, void *ws) {
  cublasSetWorkspace(g_configured[0], ws, 1 << 20);
  cublasSetStream(g_configured[1], s);
  float a = 1.f;
  cublasSscal(g_configured[0], 4, &a, nullptr, 1);
}
