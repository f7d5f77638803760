// RUN: %check_clang_tidy -check-suffix=WRONG %s cublas-handle-state %t.wrong -- -- -DWRONG
// RUN: %check_clang_tidy -check-suffix=VISIBLE %s cublas-handle-state %t.visible -- -- -DVISIBLE
// RUN: %check_clang_tidy -check-suffix=AGAIN %s cublas-handle-state %t.again -- -- -DAGAIN
// RUN: %check_clang_tidy -check-suffix=UNSEEN %s cublas-handle-state %t.unseen -- -- -DUNSEEN
// RUN: %check_clang_tidy -check-suffix=BRANCH %s cublas-handle-state %t.branch -- -- -DBRANCH

// A handle created in `main` before any cudaSetDevice belongs to device 0:
// every host thread starts with device 0 current. Used after `main` makes
// device 1 current, its calls fail or run on the wrong GPU. One `main` per
// variant; each run compiles one.

#include <cublas_v2.h>
#include <cuda_runtime.h>

void init_gpu();

#ifdef WRONG
// Reported: created on device 0, used on device 1.
int main() {
  cublasHandle_t h;
  cublasCreate(&h);
  float *x = nullptr;
  cudaSetDevice(1);
  cudaMalloc(&x, 1024 * sizeof(float));
  const float three = 3.0f;
  cublasSscal(h, 1024, &three, x, 1);
  // CHECK-NOTES-WRONG: :[[@LINE-1]]:3: warning: 'h' was created while device 0 was current, but device 1 is current at 'cublasSscal': a handle belongs to the device of its cublasCreate, and this call fails or runs on the wrong GPU; make device 0 current again, or use a handle created on device 1 [cublas-handle-state]
  // CHECK-NOTES-WRONG: :[[@LINE-7]]:3: note: 'h' is created here, before 'main' selects any device: device 0, the device a program starts on, is current
  // CHECK-NOTES-WRONG: :[[@LINE-6]]:3: note: device 1 is made current here
  cublasDestroy(h);
  return 0;
}
#endif

#ifdef VISIBLE
// Not reported: the handle is created after device 1 is made current.
int main() {
  cudaSetDevice(1);
  cublasHandle_t h;
  cublasCreate(&h);
  float *x = nullptr;
  cudaMalloc(&x, 1024 * sizeof(float));
  const float three = 3.0f;
  cublasSscal(h, 1024, &three, x, 1);
  cublasDestroy(h);
  return 0;
}
#endif

#ifdef AGAIN
// Not reported: device 0 is made current again before the call.
int main() {
  cublasHandle_t h;
  cublasCreate(&h);
  float *x = nullptr;
  cudaSetDevice(1);
  cudaMalloc(&x, 1024 * sizeof(float));
  cudaSetDevice(0);
  const float three = 3.0f;
  cublasSscal(h, 1024, &three, x, 1);
  cublasDestroy(h);
  return 0;
}
#endif

#ifdef UNSEEN
// Not reported: a function the file does not define runs first and may
// select a device; the device at the create is not known.
int main() {
  init_gpu();
  cublasHandle_t h;
  cublasCreate(&h);
  float *x = nullptr;
  cudaSetDevice(1);
  cudaMalloc(&x, 1024 * sizeof(float));
  const float three = 3.0f;
  cublasSscal(h, 1024, &three, x, 1);
  cublasDestroy(h);
  return 0;
}
#endif

#ifdef BRANCH
// Not reported: device 1 is made current on one path only.
int main(int argc, char **argv) {
  cublasHandle_t h;
  cublasCreate(&h);
  float *x = nullptr;
  if (argc > 1)
    cudaSetDevice(1);
  cudaMalloc(&x, 1024 * sizeof(float));
  const float three = 3.0f;
  cublasSscal(h, 1024, &three, x, 1);
  cublasDestroy(h);
  return 0;
}
#endif
