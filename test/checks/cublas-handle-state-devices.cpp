// RUN: %check_clang_tidy %s cublas-handle-state %t -- -- -std=c++17

// A cuBLAS handle belongs to the device current at its cublasCreate: a call
// on it while another device is current fails or runs on the wrong GPU.

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <vector>

void check(cublasStatus_t s);

// --- Reported -------------------------------------------------------------

void other_device(int n, float *x) {
  cudaSetDevice(0);
  cublasHandle_t h;
  cublasCreate(&h);
  float alpha = 2.0f;
  cudaSetDevice(1);
  cublasSscal(h, n, &alpha, x, 1);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'h' was created while device 0 was current, but device 1 is current at 'cublasSscal': a handle belongs to the device of its cublasCreate, and this call fails or runs on the wrong GPU; make device 0 current again, or use a handle created on device 1 [cublas-handle-state]
  // CHECK-NOTES: :[[@LINE-5]]:3: note: 'h' is created here
  // CHECK-NOTES: :[[@LINE-4]]:3: note: device 1 is made current here
  cublasDestroy(h);
}

// One handle, created before the loop over the devices, used on each.
void device_loop(int devices, int n, float **x) {
  cublasHandle_t h;
  cublasCreate(&h);
  float alpha = 2.0f;
  for (int d = 0; d < devices; ++d) {
    cudaSetDevice(d);
    check(cublasSscal(h, n, &alpha, x[d], 1));
    // CHECK-NOTES: :[[@LINE-1]]:11: warning: 'h' is created once, before the loop over the devices, but the loop makes device 'd' current on each iteration before 'cublasSscal': a handle belongs to the device of its cublasCreate, and the calls on the other devices fail or run on the wrong GPU; create one handle per device [cublas-handle-state]
    // CHECK-NOTES: :[[@LINE-6]]:3: note: 'h' is created here
    // CHECK-NOTES: :[[@LINE-4]]:5: note: device 'd' is made current here
  }
  cublasDestroy(h);
}

void device_list(const std::vector<int> &devices, int n, float *x) {
  cublasHandle_t h;
  cublasCreate(&h);
  for (int dev : devices) {
    cudaSetDevice(dev);
    cublasSswap(h, n, x, 1, x, 1);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'h' is created once, before the loop over the devices, but the loop makes device 'dev' current on each iteration before 'cublasSswap': a handle belongs to the device of its cublasCreate, and the calls on the other devices fail or run on the wrong GPU; create one handle per device [cublas-handle-state]
    // CHECK-NOTES: :[[@LINE-5]]:3: note: 'h' is created here
    // CHECK-NOTES: :[[@LINE-4]]:5: note: device 'dev' is made current here
  }
  cublasDestroy(h);
}

// A helper of the file that calls cuBLAS with the handle it is given, and
// selects no device of its own.
static void scale(cublasHandle_t handle, int n, float *x) {
  float alpha = 2.0f;
  cublasSscal(handle, n, &alpha, x, 1);
}
void helper_in_device_loop(int devices, int n, float **x) {
  cublasHandle_t h;
  cublasCreate(&h);
  for (int d = 0; d < devices; ++d) {
    cudaSetDevice(d);
    scale(h, n, x[d]);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'h' is created once, before the loop over the devices, but the loop makes device 'd' current on each iteration before 'scale': a handle belongs to the device of its cublasCreate, and the calls on the other devices fail or run on the wrong GPU; create one handle per device [cublas-handle-state]
    // CHECK-NOTES: :[[@LINE-5]]:3: note: 'h' is created here
    // CHECK-NOTES: :[[@LINE-4]]:5: note: device 'd' is made current here
    // CHECK-NOTES: :[[@LINE-11]]:3: note: 'scale' calls 'cublasSscal' with the handle here
  }
  cublasDestroy(h);
}

// A stream of another device given to the handle.
void stream_of_other_device(int n, float *x) {
  cudaSetDevice(0);
  cublasHandle_t h;
  cublasCreate(&h);
  cudaSetDevice(1);
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaSetDevice(0);
  cublasSetStream(h, s);
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: stream 's' was created while device 1 was current, but 'h' belongs to device 0: its calls would be queued on a stream of another device; create the stream while device 0 is current [cublas-handle-state]
  // CHECK-NOTES: :[[@LINE-7]]:3: note: 'h' is created here
  // CHECK-NOTES: :[[@LINE-5]]:3: note: 's' is created here
  cublasScopy(h, n, x, 1, x, 1);
  cublasDestroy(h);
}

// One handle per device, but the loop over the devices uses device 0's.
void per_device_first_handle(int devices, int n, float **x) {
  std::vector<cublasHandle_t> handles(devices);
  for (int d = 0; d < devices; ++d) {
    cudaSetDevice(d);
    cublasCreate(&handles[d]);
  }
  float alpha = 2.0f;
  for (int d = 0; d < devices; ++d) {
    cudaSetDevice(d);
    cublasSscal(handles[0], n, &alpha, x[d], 1);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'handles[0]' belongs to device 0 (the handles of 'handles' are created one per device, each while the device of its index is current), but the loop makes device 'd' current on each iteration before 'cublasSscal': every iteration but one calls on a device the handle does not belong to; index the handles with 'd' [cublas-handle-state]
    // CHECK-NOTES: :[[@LINE-7]]:5: note: the handles of 'handles' are created here, one per device
    // CHECK-NOTES: :[[@LINE-4]]:5: note: device 'd' is made current here
  }
}

// Two devices' handles in an array; device 1 current, device 0's handle.
void per_device_other_index(int n, float *x) {
  cublasHandle_t h[2];
  cudaSetDevice(0);
  cublasCreate(&h[0]);
  cudaSetDevice(1);
  cublasCreate(&h[1]);
  float alpha = 2.0f;
  cublasSscal(h[0], n, &alpha, x, 1);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'h[0]' was created while device 0 was current, but device 1 is current at 'cublasSscal': a handle belongs to the device of its cublasCreate, and this call fails or runs on the wrong GPU; make device 0 current again, or use a handle created on device 1 [cublas-handle-state]
  // CHECK-NOTES: :[[@LINE-6]]:3: note: the handles of 'h' are created here, one per device
  // CHECK-NOTES: :[[@LINE-6]]:3: note: device 1 is made current here
}

// --- Not reported ---------------------------------------------------------

// One handle per device, indexed by the device.
void handle_per_device(int devices, int n, float **x) {
  std::vector<cublasHandle_t> handles(devices);
  for (int d = 0; d < devices; ++d) {
    cudaSetDevice(d);
    cublasCreate(&handles[d]);
  }
  float alpha = 2.0f;
  for (int d = 0; d < devices; ++d) {
    cudaSetDevice(d);
    cublasSscal(handles[d], n, &alpha, x[d], 1);
  }
}

// A handle created in each iteration, after its device is made current.
void handle_per_iteration(int devices, int n, float **x) {
  float alpha = 2.0f;
  for (int d = 0; d < devices; ++d) {
    cudaSetDevice(d);
    cublasHandle_t h;
    cublasCreate(&h);
    cublasSscal(h, n, &alpha, x[d], 1);
    cublasDestroy(h);
  }
}

// The handle's device made current again before the call.
void set_back(int n, float *x, float *y) {
  cudaSetDevice(0);
  cublasHandle_t h;
  cublasCreate(&h);
  cudaSetDevice(1);
  cudaMemset(y, 0, n * sizeof(float));
  cudaSetDevice(0);
  cublasScopy(h, n, x, 1, x, 1);
  cublasDestroy(h);
}

// The device at the create is not known: it may be device 1.
void unknown_create_device(int n, float *x) {
  cublasHandle_t h;
  cublasCreate(&h);
  cudaSetDevice(1);
  cublasScopy(h, n, x, 1, x, 1);
  cublasDestroy(h);
}

// The same device variable at the create and at the call.
void same_variable(int dev, int n, float *x) {
  cudaSetDevice(dev);
  cublasHandle_t h;
  cublasCreate(&h);
  cudaSetDevice(dev);
  cublasScopy(h, n, x, 1, x, 1);
  cublasDestroy(h);
}

// Another device on one path only: which device is current is not known.
void one_path(bool other, int n, float *x) {
  cudaSetDevice(0);
  cublasHandle_t h;
  cublasCreate(&h);
  if (other)
    cudaSetDevice(1);
  cublasScopy(h, n, x, 1, x, 1);
  cublasDestroy(h);
}

// A function of the user's may make any device current.
void select_home();
void helper_between(int n, float *x) {
  cudaSetDevice(0);
  cublasHandle_t h;
  cublasCreate(&h);
  cudaSetDevice(1);
  select_home();
  cublasScopy(h, n, x, 1, x, 1);
  cublasDestroy(h);
}

// A loop over the devices that makes the handle's device current again
// before its call.
void loop_with_home(int devices, int n, float *x, float **y) {
  cudaSetDevice(0);
  cublasHandle_t h;
  cublasCreate(&h);
  for (int d = 1; d < devices; ++d) {
    cudaSetDevice(d);
    cudaMemset(y[d], 0, n * sizeof(float));
    cudaSetDevice(0);
    cublasScopy(h, n, x, 1, x, 1);
  }
  cublasDestroy(h);
}

// A stream created on the handle's device.
void stream_of_same_device(int n, float *x, float *y) {
  cudaSetDevice(1);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cublasHandle_t h;
  cublasCreate(&h);
  cudaSetDevice(0);
  cudaMemset(y, 0, n * sizeof(float));
  cudaSetDevice(1);
  cublasSetStream(h, s);
  cublasScopy(h, n, x, 1, x, 1);
  cublasDestroy(h);
}

// A helper that selects the device itself.
static void scale_on(cublasHandle_t handle, int device, int n, float *x) {
  cudaSetDevice(device);
  float alpha = 2.0f;
  cublasSscal(handle, n, &alpha, x, 1);
}
void helper_selects(int devices, int n, float **x) {
  cudaSetDevice(0);
  cublasHandle_t h;
  cublasCreate(&h);
  for (int d = 0; d < devices; ++d) {
    cudaSetDevice(d);
    scale_on(h, 0, n, x[d]);
  }
  cublasDestroy(h);
}

// A helper that does not give the handle to cuBLAS.
static void log_handle(cublasHandle_t handle) {}
void helper_without_cublas(int devices) {
  cublasHandle_t h;
  cublasCreate(&h);
  for (int d = 0; d < devices; ++d) {
    cudaSetDevice(d);
    log_handle(h);
  }
  cublasDestroy(h);
}

// Per-device arrays used right: by the device's index, after making a
// constant device current again, or with an index whose device is unknown;
// and an array whose elements are not created one per device.
void per_device_right(int devices, int n, float *x, int k) {
  cublasHandle_t h[2];
  cudaSetDevice(0);
  cublasCreate(&h[0]);
  cudaSetDevice(1);
  cublasCreate(&h[1]);
  float alpha = 2.0f;
  cublasSscal(h[1], n, &alpha, x, 1);
  cublasSscal(h[k], n, &alpha, x, 1);
  cudaSetDevice(0);
  cublasSscal(h[0], n, &alpha, x, 1);
  cublasHandle_t same[2];
  cudaSetDevice(0);
  cublasCreate(&same[0]);
  cublasCreate(&same[1]);
  cudaSetDevice(1);
  cublasSscal(same[0], n, &alpha, x, 1);
}

// An array handed to a helper may hold other handles after it.
void init_all(std::vector<cublasHandle_t> &handles);
void per_device_reinit(int devices, int n, float **x) {
  std::vector<cublasHandle_t> handles(devices);
  for (int d = 0; d < devices; ++d) {
    cudaSetDevice(d);
    cublasCreate(&handles[d]);
  }
  init_all(handles);
  float alpha = 2.0f;
  for (int d = 0; d < devices; ++d) {
    cudaSetDevice(d);
    cublasSscal(handles[0], n, &alpha, x[d], 1);
  }
}
