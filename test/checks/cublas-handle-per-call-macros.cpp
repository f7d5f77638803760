// RUN: %check_clang_tidy -check-suffix=PERCALL %s cublas-handle-per-call %t.percall
// RUN: %check_clang_tidy -check-suffix=LEAK %s cublas-handle-leak %t.leak
// Checking macros around the create: a failure branch that ends the
// process (abort, exit, a [[noreturn]] function), throws or returns does not
// make the create conditional, whatever the macro's shape (do-while(0), a
// plain block, a bare if).
#include <cublas_v2.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#define CK_ABORT(x) do { if ((x) != CUBLAS_STATUS_SUCCESS) std::abort(); } while (0)
#define CK_EXIT(x) do { if ((x) != CUBLAS_STATUS_SUCCESS) { std::printf("failed\n"); std::exit(1); } } while (0)
#define CK_THROW(x) do { if ((x) != CUBLAS_STATUS_SUCCESS) throw std::runtime_error(#x); } while (false)
[[noreturn]] void report_failure(const char *what);
#define CK_NORETURN(x) do { if ((x) != CUBLAS_STATUS_SUCCESS) report_failure(#x); } while (0)
#define CK_BLOCK(x) { if ((x) != CUBLAS_STATUS_SUCCESS) std::abort(); }
#define CK_RETURN(x) do { if ((x) != CUBLAS_STATUS_SUCCESS) { std::printf("failed\n"); return; } } while (0)

static const float Two = 2.0f;

void scaleAbort(float *x, int n) {
  cublasHandle_t h;
  CK_ABORT(cublasCreate(&h));
  // CHECK-NOTES-PERCALL: :[[@LINE-1]]:12: warning: the cuBLAS handle 'h' is created and destroyed on every call of 'scaleAbort', which is called in a loop; cublasCreate allocates a workspace and synchronizes the device each time: create it once and pass it in, or keep one per thread and device [cublas-handle-per-call]
  // CHECK-NOTES-PERCALL: :{{[0-9]+}}:5: note: 'scaleAbort' is called in this loop
  CK_ABORT(cublasSscal(h, n, &Two, x, 1));
  CK_ABORT(cublasDestroy(h));
}

void scaleExit(float *x, int n) {
  cublasHandle_t h;
  CK_EXIT(cublasCreate(&h));
  // CHECK-NOTES-PERCALL: :[[@LINE-1]]:11: warning: the cuBLAS handle 'h' is created and destroyed on every call of 'scaleExit', which is called in a loop; cublasCreate allocates a workspace and synchronizes the device each time: create it once and pass it in, or keep one per thread and device [cublas-handle-per-call]
  // CHECK-NOTES-PERCALL: :{{[0-9]+}}:5: note: 'scaleExit' is called in this loop
  CK_EXIT(cublasSscal(h, n, &Two, x, 1));
  CK_EXIT(cublasDestroy(h));
}

void scaleThrow(float *x, int n) {
  cublasHandle_t h;
  CK_THROW(cublasCreate(&h));
  // CHECK-NOTES-PERCALL: :[[@LINE-1]]:12: warning: the cuBLAS handle 'h' is created and destroyed on every call of 'scaleThrow', which is called in a loop; cublasCreate allocates a workspace and synchronizes the device each time: create it once and pass it in, or keep one per thread and device [cublas-handle-per-call]
  // CHECK-NOTES-PERCALL: :{{[0-9]+}}:5: note: 'scaleThrow' is called in this loop
  // The handle leaks when the scal fails and throws only where a caller
  // catches: run() does not (cublas-handle-leak.cpp has one that does).
  CK_THROW(cublasSscal(h, n, &Two, x, 1));
  CK_THROW(cublasDestroy(h));
}

void scaleNoreturn(float *x, int n) {
  cublasHandle_t h;
  CK_NORETURN(cublasCreate(&h));
  // CHECK-NOTES-PERCALL: :[[@LINE-1]]:15: warning: the cuBLAS handle 'h' is created and destroyed on every call of 'scaleNoreturn', which is called in a loop; cublasCreate allocates a workspace and synchronizes the device each time: create it once and pass it in, or keep one per thread and device [cublas-handle-per-call]
  // CHECK-NOTES-PERCALL: :{{[0-9]+}}:5: note: 'scaleNoreturn' is called in this loop
  CK_NORETURN(cublasSscal(h, n, &Two, x, 1));
  CK_NORETURN(cublasDestroy(h));
}

void scaleBlock(float *x, int n) {
  cublasHandle_t h;
  CK_BLOCK(cublasCreate(&h));
  // CHECK-NOTES-PERCALL: :[[@LINE-1]]:12: warning: the cuBLAS handle 'h' is created and destroyed on every call of 'scaleBlock', which is called in a loop; cublasCreate allocates a workspace and synchronizes the device each time: create it once and pass it in, or keep one per thread and device [cublas-handle-per-call]
  // CHECK-NOTES-PERCALL: :{{[0-9]+}}:5: note: 'scaleBlock' is called in this loop
  CK_BLOCK(cublasSscal(h, n, &Two, x, 1));
  CK_BLOCK(cublasDestroy(h));
}

void scaleReturn(float *x, int n) {
  cublasHandle_t h;
  CK_RETURN(cublasCreate(&h));
  // CHECK-NOTES-PERCALL: :[[@LINE-1]]:13: warning: the cuBLAS handle 'h' is created and destroyed on every call of 'scaleReturn', which is called in a loop; cublasCreate allocates a workspace and synchronizes the device each time: create it once and pass it in, or keep one per thread and device [cublas-handle-per-call]
  // CHECK-NOTES-PERCALL: :{{[0-9]+}}:5: note: 'scaleReturn' is called in this loop
  // CHECK-NOTES-LEAK: :[[@LINE-3]]:13: warning: handle 'h' created here is not destroyed on every path; call 'cublasDestroy' before it goes out of reach [cublas-handle-leak]
  CK_RETURN(cublasSscal(h, n, &Two, x, 1));
  // CHECK-NOTES-LEAK: :[[@LINE-1]]:3: note: leaks when this 'return' is taken
  cublasDestroy(h);
}

// A create guarded by the handle's own test runs once: not per call.
static cublasHandle_t Cached;
void scaleCached(float *x, int n) {
  if (!Cached)
    CK_ABORT(cublasCreate(&Cached));
  CK_ABORT(cublasSscal(Cached, n, &Two, x, 1));
}

// A real loop in a macro still repeats (a retry loop is not a check).
void scaleRetry(float *x, int n) {
  cublasHandle_t h;
  int tries = 0;
  while (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS && ++tries < 3) {
  }
  CK_ABORT(cublasSscal(h, n, &Two, x, 1));
  CK_ABORT(cublasDestroy(h));
}

void run(float *x, int n) {
  for (int i = 0; i < 8; ++i) {
    scaleAbort(x, n);
    scaleExit(x, n);
    scaleThrow(x, n);
    scaleNoreturn(x, n);
    scaleBlock(x, n);
    scaleReturn(x, n);
    scaleCached(x, n);
  }
}


// One global for every device: a loop over devices creates into it again.
#include <cuda_runtime.h>
cublasHandle_t DeviceHandle;
void initDevice() { CK_ABORT(cublasCreate(&DeviceHandle)); }
// CHECK-NOTES-LEAK: :[[@LINE-1]]:30: warning: global handle 'DeviceHandle' is created on every call of 'initDevice', which is called once per device in a loop, and the previous one is never destroyed: each call after the first leaks one; keep one per device (an array indexed by the device), each created once [cublas-handle-leak]
// CHECK-NOTES-LEAK: :{{[0-9]+}}:5: note: 'initDevice' is called in this loop over devices
// The same through a function that the loop over devices calls: the
// clause and the notes name the path.
cublasHandle_t DeviceBlas;
void initDeviceBlas() { CK_ABORT(cublasCreate(&DeviceBlas)); }
// CHECK-NOTES-LEAK: :[[@LINE-1]]:34: warning: global handle 'DeviceBlas' is created on every call of 'initDeviceBlas', which is called once per device in a loop through 'initDeviceLibs', and the previous one is never destroyed: each call after the first leaks one; keep one per device (an array indexed by the device), each created once [cublas-handle-leak]
// CHECK-NOTES-LEAK: :[[@LINE+9]]:5: note: 'initDeviceLibs' is called in this loop over devices
// CHECK-NOTES-LEAK: :[[@LINE+1]]:25: note: 'initDeviceLibs' calls 'initDeviceBlas' here
void initDeviceLibs() { initDeviceBlas(); }
cublasHandle_t PerDevice[8];
void initOne(int d) { CK_ABORT(cublasCreate(&PerDevice[d])); }
void setup(int devices) {
  for (int d = 0; d < devices; ++d) {
    cudaSetDevice(d);
    initDevice();
    initDeviceLibs();
    initOne(d);
  }
}

// The global rule through every macro form: a create into a global in a
// function called in a loop leaks the previous one.
cublasHandle_t G1, G2, G3, G4, G5, G6;
void i1() { CK_ABORT(cublasCreate(&G1)); }
// CHECK-NOTES-LEAK: :[[@LINE-1]]:22: warning: global handle 'G1' is created on every call of 'i1', which is called in a loop, and the previous one is never destroyed: each call after the first leaks one; create it once (guard the create with 'if (!G1)') [cublas-handle-leak]
// CHECK-NOTES-LEAK: :{{[0-9]+}}:{{[0-9]+}}: note: 'i1' is called in this loop
void i2() { CK_EXIT(cublasCreate(&G2)); }
// CHECK-NOTES-LEAK: :[[@LINE-1]]:21: warning: global handle 'G2' is created on every call of 'i2', which is called in a loop, and the previous one is never destroyed: each call after the first leaks one; create it once (guard the create with 'if (!G2)') [cublas-handle-leak]
// CHECK-NOTES-LEAK: :{{[0-9]+}}:{{[0-9]+}}: note: 'i2' is called in this loop
void i3() { CK_THROW(cublasCreate(&G3)); }
// CHECK-NOTES-LEAK: :[[@LINE-1]]:22: warning: global handle 'G3' is created on every call of 'i3', which is called in a loop, and the previous one is never destroyed: each call after the first leaks one; create it once (guard the create with 'if (!G3)') [cublas-handle-leak]
// CHECK-NOTES-LEAK: :{{[0-9]+}}:{{[0-9]+}}: note: 'i3' is called in this loop
void i4() { CK_NORETURN(cublasCreate(&G4)); }
// CHECK-NOTES-LEAK: :[[@LINE-1]]:25: warning: global handle 'G4' is created on every call of 'i4', which is called in a loop, and the previous one is never destroyed: each call after the first leaks one; create it once (guard the create with 'if (!G4)') [cublas-handle-leak]
// CHECK-NOTES-LEAK: :{{[0-9]+}}:{{[0-9]+}}: note: 'i4' is called in this loop
void i5() { CK_BLOCK(cublasCreate(&G5)); }
// CHECK-NOTES-LEAK: :[[@LINE-1]]:22: warning: global handle 'G5' is created on every call of 'i5', which is called in a loop, and the previous one is never destroyed: each call after the first leaks one; create it once (guard the create with 'if (!G5)') [cublas-handle-leak]
// CHECK-NOTES-LEAK: :{{[0-9]+}}:{{[0-9]+}}: note: 'i5' is called in this loop
void i6() { CK_RETURN(cublasCreate(&G6)); }
// CHECK-NOTES-LEAK: :[[@LINE-1]]:23: warning: global handle 'G6' is created on every call of 'i6', which is called in a loop, and the previous one is never destroyed: each call after the first leaks one; create it once (guard the create with 'if (!G6)') [cublas-handle-leak]
// CHECK-NOTES-LEAK: :{{[0-9]+}}:{{[0-9]+}}: note: 'i6' is called in this loop
void globals(int n) {
  for (int i = 0; i < n; ++i) {
    i1(); i2(); i3(); i4(); i5(); i6();
  }
}
