// RUN: %check_clang_tidy %s cublas-handle-per-call %t

// A handle made on every call of a function whose loop is further up: a
// training step that a loop of main calls, through a layer function.

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

void check(cublasStatus_t);

// --- Reported -------------------------------------------------------------

static void matmul_forward(float *out, const float *in, int n) {
  cublasHandle_t handle;
  check(cublasCreate(&handle));
  // CHECK-NOTES: :[[@LINE-1]]:9: warning: the cuBLAS handle 'handle' is created and destroyed on every call of 'matmul_forward', which is called in a loop through 'train_step' and 'layer_forward'; cublasCreate allocates a workspace and synchronizes the device each time: create it once and pass it in, or keep one per thread and device [cublas-handle-per-call]
  // CHECK-NOTES: :[[@LINE+24]]:5: note: 'train_step' is called in this loop
  // CHECK-NOTES: :[[@LINE+16]]:3: note: 'train_step' calls 'layer_forward' here
  // CHECK-NOTES: :[[@LINE+11]]:3: note: 'layer_forward' calls 'matmul_forward' here
  const float one = 1.0f, zero = 0.0f;
  check(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, in, n, in,
                    n, &zero, out, n));
  check(cublasDestroy(handle));
}

static void layer_forward(float *out, const float *in, int n) {
  check(cudaMemset(out, 0, sizeof(float) * n * n) == cudaSuccess
            ? CUBLAS_STATUS_SUCCESS
            : CUBLAS_STATUS_EXECUTION_FAILED);
  matmul_forward(out, in, n);
}

static void train_step(float *out, const float *in, int n) {
  layer_forward(out, in, n);
}

int main() {
  float *out = nullptr, *in = nullptr;
  const int n = 64;
  for (int step = 0; step < 100; ++step)
    train_step(out, in, n);
  return 0;
}

// --- Not reported ---------------------------------------------------------

// The layer calls the function only on its first call.
static void setup_gemm(float *out, const float *in, int n) {
  cublasHandle_t handle;
  check(cublasCreate(&handle));
  const float one = 1.0f;
  check(cublasSscal(handle, n, &one, out, 1));
  check(cublasDestroy(handle));
  (void)in;
}
static void warm_layer(float *out, const float *in, int n, bool first) {
  if (first)
    setup_gemm(out, in, n);
}
void warm(float *out, const float *in, int n) {
  for (int i = 0; i < 10; ++i)
    warm_layer(out, in, n, i == 0);
}

// The step selects a device: one handle per device.
static void device_gemm(float *out, int n) {
  cublasHandle_t handle;
  check(cublasCreate(&handle));
  const float one = 1.0f;
  check(cublasSscal(handle, n, &one, out, 1));
  check(cublasDestroy(handle));
}
static void device_step(float *out, int n, int device) {
  cudaSetDevice(device);
  device_gemm(out, n);
}
void all_devices(float *out, int n, int devices) {
  for (int d = 0; d < devices; ++d)
    device_step(out, n, d);
}

// --- Reported: through a member function ----------------------------------

struct Model {
  void forward(float *out, int n);
};
static void scale_all(float *out, int n) {
  cublasHandle_t handle;
  check(cublasCreate(&handle));
  // CHECK-NOTES: :[[@LINE-1]]:9: warning: the cuBLAS handle 'handle' is created and destroyed on every call of 'scale_all', which is called in a loop through 'forward'; cublasCreate allocates a workspace and synchronizes the device each time: create it once and pass it in, or keep one per thread and device [cublas-handle-per-call]
  // CHECK-NOTES: :[[@LINE+9]]:5: note: 'forward' is called in this loop
  // CHECK-NOTES: :[[@LINE+5]]:42: note: 'forward' calls 'scale_all' here
  const float two = 2.0f;
  check(cublasSscal(handle, n, &two, out, 1));
  check(cublasDestroy(handle));
}
void Model::forward(float *out, int n) { scale_all(out, n); }
void run_model(Model &m, float *out, int n) {
  for (int i = 0; i < n; ++i)
    m.forward(out, n);
}
