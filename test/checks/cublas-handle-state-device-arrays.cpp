// RUN: %check_clang_tidy %s cublas-handle-state %t -- -- -std=c++17

// Arrays of handles that a class or the program keeps, one per device: the
// constructor or an init() creates element d while device d is current, and
// other functions use them. Element d belongs to device d wherever it is
// used.

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <vector>

// --- Reported -------------------------------------------------------------

// A class that keeps one handle per device; a method's loop over the
// devices uses device 0's handle on each.
class MultiGpu {
public:
  explicit MultiGpu(int devices) : handles_(devices) {
    for (int d = 0; d < devices; ++d) {
      cudaSetDevice(d);
      cublasCreate(&handles_[d]);
    }
  }
  ~MultiGpu() {
    for (int d = 0; d < (int)handles_.size(); ++d) {
      cudaSetDevice(d);
      cublasDestroy(handles_[d]);
    }
  }
  void scale_all(int n, float **x) {
    float alpha = 2.0f;
    for (int d = 0; d < (int)handles_.size(); ++d) {
      cudaSetDevice(d);
      cublasSscal(handles_[0], n, &alpha, x[d], 1);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: 'handles_[0]' belongs to device 0 (the handles of 'handles_' are created one per device, each while the device of its index is current), but the loop makes device 'd' current on each iteration before 'cublasSscal': every iteration but one calls on a device the handle does not belong to; index the handles with 'd' [cublas-handle-state]
      // CHECK-NOTES: :[[@LINE-15]]:7: note: the handles of 'handles_' are created here, one per device
      // CHECK-NOTES: :[[@LINE-4]]:7: note: device 'd' is made current here
    }
  }
  // Right: each device's own handle.
  void scale_each(int n, float **x) {
    float alpha = 2.0f;
    for (int d = 0; d < (int)handles_.size(); ++d) {
      cudaSetDevice(d);
      cublasSscal(handles_[d], n, &alpha, x[d], 1);
    }
  }
  // The device current here is not known: not judged.
  void scale_first(int n, float *x) {
    float alpha = 2.0f;
    cublasSscal(handles_[0], n, &alpha, x, 1);
  }

private:
  std::vector<cublasHandle_t> handles_;
};

// The program's handles for its two GPUs, made by init().
cublasHandle_t g_handles[2];

void init_handles() {
  cudaSetDevice(0);
  cublasCreate(&g_handles[0]);
  cudaSetDevice(1);
  cublasCreate(&g_handles[1]);
}

void scale_on_second(int n, float *x) {
  float alpha = 2.0f;
  cudaSetDevice(1);
  cublasSscal(g_handles[0], n, &alpha, x, 1);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'g_handles[0]' was created while device 0 was current, but device 1 is current at 'cublasSscal': a handle belongs to the device of its cublasCreate, and this call fails or runs on the wrong GPU; make device 0 current again, or use a handle created on device 1 [cublas-handle-state]
  // CHECK-NOTES: :[[@LINE-10]]:3: note: the handles of 'g_handles' are created here, one per device
  // CHECK-NOTES: :[[@LINE-4]]:3: note: device 1 is made current here
}

void scale_on_second_right(int n, float *x) {
  float alpha = 2.0f;
  cudaSetDevice(1);
  cublasSscal(g_handles[1], n, &alpha, x, 1);
}

// --- Not reported ---------------------------------------------------------

// One element given another handle: the array is not one per device.
class Reassigned {
public:
  explicit Reassigned(int devices) : handles_(devices) {
    for (int d = 0; d < devices; ++d) {
      cudaSetDevice(d);
      cublasCreate(&handles_[d]);
    }
  }
  void share_first() { handles_[1] = handles_[0]; }
  void scale(int n, float *x) {
    float alpha = 2.0f;
    cudaSetDevice(1);
    cublasSscal(handles_[0], n, &alpha, x, 1);
  }

private:
  std::vector<cublasHandle_t> handles_;
};

// Created without making the device of the index current.
class NoDevices {
public:
  explicit NoDevices(int count) : handles_(count) {
    for (int i = 0; i < count; ++i)
      cublasCreate(&handles_[i]);
  }
  void scale(int n, float *x) {
    float alpha = 2.0f;
    cudaSetDevice(1);
    cublasSscal(handles_[0], n, &alpha, x, 1);
  }

private:
  std::vector<cublasHandle_t> handles_;
};

// The array handed to code that may change it.
void refresh(std::vector<cublasHandle_t> &handles);
class Refreshed {
public:
  explicit Refreshed(int devices) : handles_(devices) {
    for (int d = 0; d < devices; ++d) {
      cudaSetDevice(d);
      cublasCreate(&handles_[d]);
    }
    refresh(handles_);
  }
  void scale(int n, float *x) {
    float alpha = 2.0f;
    cudaSetDevice(1);
    cublasSscal(handles_[0], n, &alpha, x, 1);
  }

private:
  std::vector<cublasHandle_t> handles_;
};

// A global array whose elements are created on one device each, but not by
// their index.
cublasHandle_t g_swapped[2];

void init_swapped() {
  cudaSetDevice(1);
  cublasCreate(&g_swapped[0]);
  cudaSetDevice(0);
  cublasCreate(&g_swapped[1]);
}

void scale_swapped(int n, float *x) {
  float alpha = 2.0f;
  cudaSetDevice(1);
  cublasSscal(g_swapped[0], n, &alpha, x, 1);
}
