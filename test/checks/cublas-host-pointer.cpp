// RUN: %check_clang_tidy %s cublas-host-pointer %t -- -- -isystem %S/Inputs

#include <cublasLt.h>
#include <cublasXt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <stdlib.h>
#include <memory>
#include <thrust_stub.h>
#include <vector>

void init(float **p);

//===--- Operands in host memory --------------------------------------------===//

void vectors(cublasHandle_t h, int n) {
  std::vector<float> x(n), y(n);
  float *dY;
  cudaMalloc(&dY, n * sizeof(float));
  const float alpha = 2.0f;
  cublasSaxpy(h, n, &alpha, x.data(), 1, dY, 1);
  // CHECK-NOTES: :[[@LINE-1]]:29: warning: 'x.data()' points to a std::vector's host storage, but argument 'x' of 'cublasSaxpy' must point to device memory [cublas-host-pointer]
  // CHECK-NOTES: :[[@LINE-6]]:22: note: 'x' declared here (std::vector)
  cublasSaxpy(h, n, &alpha, dY, 1, &y[0], 1);
  // CHECK-NOTES: :[[@LINE-1]]:36: warning: '&y[0]' points to a std::vector's host storage, but argument 'y' of 'cublasSaxpy' must point to device memory
  // CHECK-NOTES: :[[@LINE-9]]:28: note: 'y' declared here (std::vector)
}

void matrices(cublasHandle_t h, int n) {
  float *hA = (float *)malloc(n * n * sizeof(float));
  float *hB = new float[n * n];
  float hC[64];
  float *dA, *dB, *dC;
  cudaMalloc((void **)&dA, n * n * sizeof(float));
  cudaMalloc(&dB, n * n * sizeof(float));
  cudaMalloc(&dC, n * n * sizeof(float));
  const float one = 1.0f, zero = 0.0f;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, hA, n, dB, n, &zero,
              dC, n);
  // CHECK-NOTES: :[[@LINE-2]]:59: warning: 'hA' points to host memory from 'malloc', but argument 'A' of 'cublasSgemm' must point to device memory
  // CHECK-NOTES: :[[@LINE-11]]:24: note: allocated by 'malloc' here
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dA, n, hB, n, &zero,
              dC, n);
  // CHECK-NOTES: :[[@LINE-2]]:66: warning: 'hB' points to host memory from 'new[]', but argument 'B' of 'cublasSgemm' must point to device memory
  // CHECK-NOTES: :[[@LINE-14]]:15: note: allocated by 'new[]' here
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dA, n, dB, n, &zero,
              hC, n);
  // CHECK-NOTES: :[[@LINE-1]]:15: warning: 'hC' points to a host array on the stack, but argument 'C' of 'cublasSgemm' must point to device memory
  // CHECK-NOTES: :[[@LINE-17]]:9: note: 'hC' declared here

  // Correct: every operand in device memory, scalars on the host in the
  // default pointer mode.
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dA, n, dB, n, &zero,
              dC, n);
}

// The pointer goes through a variable: the note shows where the host storage
// was taken.
void throughVariable(cublasHandle_t h, int n, float *dY) {
  std::vector<float> v(n);
  float *hx = v.data();
  const float a = 1.0f;
  cublasSaxpy(h, n, &a, hx, 1, dY, 1);
  // CHECK-NOTES: :[[@LINE-1]]:25: warning: 'hx' points to a std::vector's host storage, but argument 'x' of 'cublasSaxpy' must point to device memory
  // CHECK-NOTES: :[[@LINE-4]]:15: note: storage of std::vector 'v' taken here
}

// What a std::unique_ptr with the default deleter holds came from new.
void ownedBySmartPointer(cublasHandle_t h, int n, float *dY) {
  std::unique_ptr<float[]> x(new float[n]);
  const float a = 1.0f;
  cublasSaxpy(h, n, &a, x.get(), 1, dY, 1);
  // CHECK-NOTES: :[[@LINE-1]]:25: warning: 'x.get()' points to a std::unique_ptr's host storage, but argument 'x' of 'cublasSaxpy' must point to device memory
  // CHECK-NOTES: :[[@LINE-4]]:28: note: 'x' declared here (std::unique_ptr)
}

// Pointer arithmetic keeps the memory: device stays device, host stays host.
void arithmetic(cublasHandle_t h, int n) {
  float *d;
  cudaMalloc(&d, 2 * n * sizeof(float));
  float *second = d + n;
  const float a = 1.0f;
  cublasSaxpy(h, n, &a, d + 1, 1, second, 1);
  cublasSaxpy(h, n, &a, &d[n], 1, second - 1, 1);
  std::vector<float> v(2 * n);
  cublasSaxpy(h, n, &a, d, 1, v.data() + n, 1);
  // CHECK-NOTES: :[[@LINE-1]]:31: warning: 'v.data() + n' points to a std::vector's host storage, but argument 'y' of 'cublasSaxpy' must point to device memory
  // CHECK-NOTES: :[[@LINE-3]]:22: note: 'v' declared here (std::vector)
}

//===--- Set/Get routines: the device side ----------------------------------===//

void setGet(int n) {
  std::vector<float> host(n), other(n);
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  // Correct: the host side is host memory.
  cublasSetVector(n, sizeof(float), host.data(), 1, d, 1);
  cublasGetVector(n, sizeof(float), d, 1, host.data(), 1);
  cublasSetMatrix(n, 1, sizeof(float), host.data(), n, d, n);
  cublasGetMatrix(n, 1, sizeof(float), d, n, host.data(), n);
  // Host memory on the device side.
  cublasSetVector(n, sizeof(float), host.data(), 1, other.data(), 1);
  // CHECK-NOTES: :[[@LINE-1]]:53: warning: 'other.data()' points to a std::vector's host storage, but argument 'devicePtr' of 'cublasSetVector' must point to device memory
  // CHECK-NOTES: :[[@LINE-11]]:31: note: 'other' declared here (std::vector)
  cublasGetMatrix(n, 1, sizeof(float), other.data(), n, host.data(), n);
  // CHECK-NOTES: :[[@LINE-1]]:40: warning: 'other.data()' points to a std::vector's host storage, but argument 'A' of 'cublasGetMatrix' must point to device memory
  // CHECK-NOTES: :[[@LINE-14]]:31: note: 'other' declared here (std::vector)
  cublasSetMatrixAsync(n, 1, sizeof(float), host.data(), n, other.data(), n, 0);
  // CHECK-NOTES: :[[@LINE-1]]:61: warning: 'other.data()' points to a std::vector's host storage, but argument 'B' of 'cublasSetMatrixAsync' must point to device memory
  // CHECK-NOTES: :[[@LINE-17]]:31: note: 'other' declared here (std::vector)
}

//===--- Memory that is fine ------------------------------------------------===//

// Managed and pinned memory are device-accessible.
void managedAndPinned(cublasHandle_t h, int n) {
  float *m, *p, *q;
  cudaMallocManaged(&m, n * sizeof(float));
  cudaMallocHost(&p, n * sizeof(float));
  cudaHostAlloc(&q, n * sizeof(float), cudaHostAllocDefault);
  const float a = 1.0f;
  cublasSaxpy(h, n, &a, m, 1, p, 1);
  cublasSaxpy(h, n, &a, q, 1, m, 1);
  // Registered host memory is pinned too.
  std::vector<float> v(n);
  cudaHostRegister(v.data(), n * sizeof(float), cudaHostRegisterDefault);
  cublasSaxpy(h, n, &a, v.data(), 1, m, 1);
}

// Pointers from parameters, members and functions: unknown, so silent.
struct Buffers {
  float *x;
};
float *lookup(int i);
void unknownPointers(cublasHandle_t h, int n, float *x, Buffers *b) {
  const float a = 1.0f;
  cublasSaxpy(h, n, &a, x, 1, b->x, 1);
  cublasSaxpy(h, n, &a, lookup(0), 1, lookup(1), 1);
}

// A pointer that is host memory on one path and device memory on another.
void mixedPaths(cublasHandle_t h, int n, bool onDevice, float *dY) {
  std::vector<float> v(n);
  float *x;
  if (onDevice)
    cudaMalloc(&x, n * sizeof(float));
  else
    x = v.data();
  const float a = 1.0f;
  cublasSaxpy(h, n, &a, x, 1, dY, 1);
  float *y = onDevice ? dY : v.data();
  cublasSaxpy(h, n, &a, dY, 1, y, 1);
}

// Reassigned from host to device memory before the call.
void reassigned(cublasHandle_t h, int n, float *dY) {
  std::vector<float> v(n);
  float *x = v.data();
  cudaMalloc(&x, n * sizeof(float));
  const float a = 1.0f;
  cublasSaxpy(h, n, &a, x, 1, dY, 1);
  float *y = v.data();
  y = dY;
  cublasSaxpy(h, n, &a, x, 1, y, 1);
}

// Passed to a function that may change it: unknown after the call.
void escapes(cublasHandle_t h, int n, float *dY) {
  std::vector<float> v(n);
  float *x = v.data();
  init(&x);
  const float a = 1.0f;
  cublasSaxpy(h, n, &a, x, 1, dY, 1);
}

//===--- Arrays of pointers of batched routines -----------------------------===//

void batched(cublasHandle_t h, int n, float *dA0, float *dA1) {
  const float one = 1.0f, zero = 0.0f;
  // A host array of device pointers: the array itself must be on the device.
  const float *hostArray[2] = {dA0, dA1};
  float *dPtrs[2] = {dA0, dA1};
  float **dArray;
  cudaMalloc(&dArray, 2 * sizeof(float *));
  cudaMemcpy(dArray, hostArray, sizeof(hostArray), cudaMemcpyHostToDevice);
  cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, hostArray, n,
                     dArray, n, &zero, dArray, n, 2);
  // CHECK-NOTES: :[[@LINE-2]]:66: warning: 'hostArray' points to a host array on the stack, but the array of pointers 'Aarray' of 'cublasSgemmBatched' must itself be in device memory
  // CHECK-NOTES: :[[@LINE-8]]:16: note: 'hostArray' declared here
  std::vector<float *> ptrs = {dA0, dA1};
  cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dArray, n,
                     dArray, n, &zero, ptrs.data(), n, 2);
  // CHECK-NOTES: :[[@LINE-1]]:40: warning: 'ptrs.data()' points to a std::vector's host storage, but the array of pointers 'Carray' of 'cublasSgemmBatched' must itself be in device memory
  // CHECK-NOTES: :[[@LINE-4]]:24: note: 'ptrs' declared here (std::vector)
  // A device array of device pointers: correct.
  cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dArray, n,
                     dArray, n, &zero, dArray, n, 2);
  (void)dPtrs;
}

//===--- Scalars and the pointer mode ---------------------------------------===//

void pointerMode(int n, float *dX, float *dAlpha) {
  cublasHandle_t h;
  cublasCreate(&h);
  float alpha = 2.0f;
  float result;
  // The default host mode: host scalars are right.
  cublasSscal(h, n, &alpha, dX, 1);
  cublasSnrm2(h, n, dX, 1, &result);

  cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
  cublasSscal(h, n, &alpha, dX, 1);
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: '&alpha' points to a variable on the host stack, but 'alpha' of 'cublasSscal' is read from device memory: the pointer mode of 'h' is CUBLAS_POINTER_MODE_DEVICE
  // CHECK-NOTES: :[[@LINE-9]]:9: note: 'alpha' declared here
  // CHECK-NOTES: :[[@LINE-4]]:3: note: pointer mode of 'h' set to CUBLAS_POINTER_MODE_DEVICE here
  cublasSnrm2(h, n, dX, 1, &result);
  // CHECK-NOTES: :[[@LINE-1]]:28: warning: '&result' points to a variable on the host stack, but 'result' of 'cublasSnrm2' is written to device memory: the pointer mode of 'h' is CUBLAS_POINTER_MODE_DEVICE
  // CHECK-NOTES: :[[@LINE-12]]:9: note: 'result' declared here
  // CHECK-NOTES: :[[@LINE-8]]:3: note: pointer mode of 'h' set to CUBLAS_POINTER_MODE_DEVICE here
  cublasSscal(h, n, dAlpha, dX, 1);

  // Back to host mode: host scalars are right again.
  cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
  cublasSscal(h, n, &alpha, dX, 1);
  cublasDestroy(h);
}

// A handle from a parameter: its mode is known only once set here.
void parameterHandle(cublasHandle_t h, int n, float *dX, bool c) {
  float alpha = 2.0f;
  cublasSscal(h, n, &alpha, dX, 1);
  cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
  if (c) {
    cublasSscal(h, n, &alpha, dX, 1);
    // CHECK-NOTES: :[[@LINE-1]]:23: warning: '&alpha' points to a variable on the host stack, but 'alpha' of 'cublasSscal' is read from device memory: the pointer mode of 'h' is CUBLAS_POINTER_MODE_DEVICE
    // CHECK-NOTES: :[[@LINE-6]]:9: note: 'alpha' declared here
    // CHECK-NOTES: :[[@LINE-5]]:3: note: pointer mode of 'h' set to CUBLAS_POINTER_MODE_DEVICE here
  }
  // Pinned and managed scalars are device-accessible.
  float *pinned, *managed;
  cudaMallocHost(&pinned, sizeof(float));
  cudaMallocManaged(&managed, sizeof(float));
  cublasSscal(h, n, pinned, dX, 1);
  cublasSscal(h, n, managed, dX, 1);
}

// A mode that is not a constant, or set on one path only: unknown.
void unknownMode(cublasHandle_t h, cublasPointerMode_t mode, bool c, int n,
                 float *dX) {
  float alpha = 2.0f;
  cublasSetPointerMode(h, mode);
  cublasSscal(h, n, &alpha, dX, 1);
  cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
  if (c)
    cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
  cublasSscal(h, n, &alpha, dX, 1);
}

//===--- cuBLASLt, the workspace, cuBLASXt ----------------------------------===//

void lt(cublasLtHandle_t lt, cublasLtMatmulDesc_t desc,
        cublasLtMatrixLayout_t layout, float *dA, float *dB, float *dC,
        size_t wsSize) {
  std::vector<float> hostC(64);
  char workspace[1024];
  const float one = 1.0f, zero = 0.0f;
  cublasLtMatmul(lt, desc, &one, dA, layout, dB, layout, &zero, hostC.data(),
                 layout, dC, layout, nullptr, workspace, sizeof(workspace), 0);
  // CHECK-NOTES: :[[@LINE-2]]:65: warning: 'hostC.data()' points to a std::vector's host storage, but argument 'C' of 'cublasLtMatmul' must point to device memory
  // CHECK-NOTES: :[[@LINE-6]]:22: note: 'hostC' declared here (std::vector)
  // CHECK-NOTES: :[[@LINE-3]]:47: warning: 'workspace' points to a host array on the stack, but argument 'workspace' of 'cublasLtMatmul' must point to device memory
  // CHECK-NOTES: :[[@LINE-7]]:8: note: 'workspace' declared here
  void *dWorkspace;
  cudaMalloc(&dWorkspace, wsSize);
  cublasLtMatmul(lt, desc, &one, dA, layout, dB, layout, &zero, dC, layout, dC,
                 layout, nullptr, dWorkspace, wsSize, 0);
  // No workspace at all is fine.
  cublasLtMatmul(lt, desc, &one, dA, layout, dB, layout, &zero, dC, layout, dC,
                 layout, nullptr, nullptr, 0, 0);
}

void workspace(cublasHandle_t h) {
  static char hostBuffer[1 << 20];
  cublasSetWorkspace(h, hostBuffer, sizeof(hostBuffer));
  // CHECK-NOTES: :[[@LINE-1]]:25: warning: 'hostBuffer' points to a host array, but argument 'workspace' of 'cublasSetWorkspace' must point to device memory
  // CHECK-NOTES: :[[@LINE-3]]:15: note: 'hostBuffer' declared here
}

// cuBLASXt takes host or device memory.
void xt(cublasXtHandle_t h, size_t n) {
  std::vector<float> a(n * n), b(n * n), c(n * n);
  const float one = 1.0f, zero = 0.0f;
  cublasXtSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a.data(), n,
                b.data(), n, &zero, c.data(), n);
}

//===--- thrust (a stand-in: the real headers need a CUDA parse) ----------===//

void withThrust(cublasHandle_t h, int n) {
  thrust::device_vector<float> dx(n), dy(n);
  thrust::host_vector<float> hx(n);
  const float a = 1.0f;
  cublasSaxpy(h, n, &a, thrust::raw_pointer_cast(dx.data()), 1,
              thrust::raw_pointer_cast(&dy[0]), 1);
  cublasSaxpy(h, n, &a, thrust::raw_pointer_cast(hx.data()), 1,
              dy.data().get(), 1);
  // CHECK-NOTES: :[[@LINE-2]]:25: warning: 'thrust::raw_pointer_cast(hx.data())' points to a thrust::host_vector's host storage, but argument 'x' of 'cublasSaxpy' must point to device memory
  // CHECK-NOTES: :[[@LINE-7]]:30: note: 'hx' declared here (thrust::host_vector)
}

//===--- Macros -------------------------------------------------------------===//

#define CHECK(call)                                                            \
  do {                                                                         \
    if ((call) != CUBLAS_STATUS_SUCCESS)                                       \
      abort();                                                                 \
  } while (0)

void inMacro(cublasHandle_t h, int n, float *dY) {
  std::vector<float> x(n);
  const float a = 1.0f;
  CHECK(cublasSaxpy(h, n, &a, x.data(), 1, dY, 1));
  // CHECK-NOTES: :[[@LINE-1]]:31: warning: 'x.data()' points to a std::vector's host storage, but argument 'x' of 'cublasSaxpy' must point to device memory
  // CHECK-NOTES: :[[@LINE-4]]:22: note: 'x' declared here (std::vector)
}

// Templates: reported once, not per instantiation.
template <class T> void templated(cublasHandle_t h, int n, float *dY) {
  std::vector<float> x(n);
  const float a = 1.0f;
  cublasSaxpy(h, n, &a, x.data(), 1, dY, 1);
  // CHECK-NOTES: :[[@LINE-1]]:25: warning: 'x.data()' points to a std::vector's host storage, but argument 'x' of 'cublasSaxpy' must point to device memory
  // CHECK-NOTES: :[[@LINE-4]]:22: note: 'x' declared here (std::vector)
}
template void templated<float>(cublasHandle_t, int, float *);
template void templated<double>(cublasHandle_t, int, float *);
