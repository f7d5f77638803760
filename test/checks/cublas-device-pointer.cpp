// RUN: %check_clang_tidy %s cublas-device-pointer %t -- -- -isystem %S/Inputs

#include <cublasXt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <thrust_stub.h>
#include <vector>

//===--- Set/Get routines: the host side ------------------------------------===//

void setGet(int n) {
  std::vector<float> host(n);
  float *d, *d2;
  cudaMalloc(&d, n * sizeof(float));
  cudaMalloc(&d2, n * sizeof(float));
  // Correct: host memory on the host side, device memory on the other.
  cublasSetMatrix(n, 1, sizeof(float), host.data(), n, d, n);
  cublasGetMatrix(n, 1, sizeof(float), d, n, host.data(), n);
  cublasSetVector(n, sizeof(float), host.data(), 1, d, 1);
  cublasGetVectorAsync(n, sizeof(float), d, 1, host.data(), 1, 0);
  // Device memory on the host side.
  cublasSetMatrix(n, 1, sizeof(float), d2, n, d, n);
  // CHECK-NOTES: :[[@LINE-1]]:40: warning: 'd2' points to device memory from 'cudaMalloc', but argument 'A' of 'cublasSetMatrix' must point to host memory [cublas-device-pointer]
  // CHECK-NOTES: :[[@LINE-9]]:3: note: allocated by 'cudaMalloc' here
  cublasGetVector(n, sizeof(float), d, 1, d2 + 1, 1);
  // CHECK-NOTES: :[[@LINE-1]]:43: warning: 'd2 + 1' points to device memory from 'cudaMalloc', but argument 'y' of 'cublasGetVector' must point to host memory
  // CHECK-NOTES: :[[@LINE-12]]:3: note: allocated by 'cudaMalloc' here
  cublasSetVectorAsync(n, sizeof(float), d2, 1, d, 1, 0);
  // CHECK-NOTES: :[[@LINE-1]]:42: warning: 'd2' points to device memory from 'cudaMalloc', but argument 'hostPtr' of 'cublasSetVectorAsync' must point to host memory
  // CHECK-NOTES: :[[@LINE-15]]:3: note: allocated by 'cudaMalloc' here
}

// thrust::device_vector storage is device memory.
void thrustDevice(int n, float *d) {
  thrust::device_vector<float> dv(n);
  thrust::host_vector<float> hv(n);
  cublasGetVector(n, sizeof(float), d, 1, thrust::raw_pointer_cast(hv.data()), 1);
  cublasGetVector(n, sizeof(float), d, 1, thrust::raw_pointer_cast(dv.data()), 1);
  // CHECK-NOTES: :[[@LINE-1]]:43: warning: 'thrust::raw_pointer_cast(dv.data())' points to a thrust::device_vector's device storage, but argument 'y' of 'cublasGetVector' must point to host memory
  // CHECK-NOTES: :[[@LINE-5]]:32: note: 'dv' declared here (thrust::device_vector)
}

// Managed and pinned memory are host-accessible; parameters are unknown.
void fineOnTheHostSide(int n, float *d, float *unknown) {
  float *m, *p;
  cudaMallocManaged(&m, n * sizeof(float));
  cudaMallocHost(&p, n * sizeof(float));
  cublasSetVector(n, sizeof(float), m, 1, d, 1);
  cublasGetVector(n, sizeof(float), d, 1, p, 1);
  cublasGetVector(n, sizeof(float), d, 1, unknown, 1);
}

// Device memory on one path, host memory on the other.
void mixedPaths(int n, bool c, float *d) {
  std::vector<float> host(n);
  float *src = host.data();
  if (c)
    cudaMalloc(&src, n * sizeof(float));
  cublasSetVector(n, sizeof(float), src, 1, d, 1);
}

//===--- Scalars in the default host pointer mode ---------------------------===//

void scalars(int n, float *dX) {
  cublasHandle_t h;
  cublasCreate(&h);
  float *dAlpha, *dResult;
  cudaMalloc(&dAlpha, sizeof(float));
  cudaMalloc(&dResult, sizeof(float));
  float alpha = 2.0f, result;
  // Correct: host scalars in host mode.
  cublasSscal(h, n, &alpha, dX, 1);
  cublasSnrm2(h, n, dX, 1, &result);
  // Device scalars in the default host mode.
  cublasSscal(h, n, dAlpha, dX, 1);
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: 'dAlpha' points to device memory from 'cudaMalloc', but 'alpha' of 'cublasSscal' is read from host memory: the pointer mode of 'h' is CUBLAS_POINTER_MODE_HOST
  // CHECK-NOTES: :[[@LINE-9]]:3: note: allocated by 'cudaMalloc' here
  // CHECK-NOTES: :[[@LINE-12]]:3: note: 'h' is created here in the default CUBLAS_POINTER_MODE_HOST
  cublasSnrm2(h, n, dX, 1, dResult);
  // CHECK-NOTES: :[[@LINE-1]]:28: warning: 'dResult' points to device memory from 'cudaMalloc', but 'result' of 'cublasSnrm2' is written to host memory: the pointer mode of 'h' is CUBLAS_POINTER_MODE_HOST
  // CHECK-NOTES: :[[@LINE-12]]:3: note: allocated by 'cudaMalloc' here
  // CHECK-NOTES: :[[@LINE-16]]:3: note: 'h' is created here in the default CUBLAS_POINTER_MODE_HOST

  // Device mode: device scalars are right.
  cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
  cublasSscal(h, n, dAlpha, dX, 1);
  cublasSnrm2(h, n, dX, 1, dResult);

  // Back to host mode.
  cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
  cublasSscal(h, n, dAlpha, dX, 1);
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: 'dAlpha' points to device memory from 'cudaMalloc', but 'alpha' of 'cublasSscal' is read from host memory: the pointer mode of 'h' is CUBLAS_POINTER_MODE_HOST
  // CHECK-NOTES: :[[@LINE-25]]:3: note: allocated by 'cudaMalloc' here
  // CHECK-NOTES: :[[@LINE-4]]:3: note: pointer mode of 'h' set to CUBLAS_POINTER_MODE_HOST here

  // Managed and pinned scalars are host-accessible.
  float *managed, *pinned;
  cudaMallocManaged(&managed, sizeof(float));
  cudaMallocHost(&pinned, sizeof(float));
  cublasSscal(h, n, managed, dX, 1);
  cublasSnrm2(h, n, dX, 1, pinned);
  cublasDestroy(h);
}

// A handle from a parameter: its mode is unknown until set here.
void parameterHandle(cublasHandle_t h, int n, float *dX) {
  float *dAlpha;
  cudaMalloc(&dAlpha, sizeof(float));
  cublasSscal(h, n, dAlpha, dX, 1);
  cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
  cublasSscal(h, n, dAlpha, dX, 1);
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: 'dAlpha' points to device memory from 'cudaMalloc', but 'alpha' of 'cublasSscal' is read from host memory: the pointer mode of 'h' is CUBLAS_POINTER_MODE_HOST
  // CHECK-NOTES: :[[@LINE-5]]:3: note: allocated by 'cudaMalloc' here
  // CHECK-NOTES: :[[@LINE-4]]:3: note: pointer mode of 'h' set to CUBLAS_POINTER_MODE_HOST here
}

// A handle passed to a function of the user's may come back in any mode.
void configure(cublasHandle_t h);
void handedOver(int n, float *dX) {
  cublasHandle_t h;
  cublasCreate(&h);
  configure(h);
  float *dAlpha;
  cudaMalloc(&dAlpha, sizeof(float));
  cublasSscal(h, n, dAlpha, dX, 1);
  cublasDestroy(h);
}

// A handle stored where other code can reach it: its mode is unknown after a
// call to the user's code.
cublasHandle_t sharedHandle;
void configureShared();
void storedHandle(int n, float *dX) {
  cublasHandle_t h;
  cublasCreate(&h);
  sharedHandle = h;
  configureShared();
  float *dAlpha;
  cudaMalloc(&dAlpha, sizeof(float));
  cublasSscal(h, n, dAlpha, dX, 1);
  cublasDestroy(h);
}

//===--- Host arrays and cuBLASXt scalars -----------------------------------===//

void hostArrays(cublasHandle_t h, int n, float **dA, float **dB,
                int *devIpiv) {
  int *dInfo;
  cudaMalloc(&dInfo, sizeof(int));
  int info = 0;
  cublasSgetrsBatched(h, CUBLAS_OP_N, n, 1, dA, n, devIpiv, dB, n, &info, 4);
  cublasSgetrsBatched(h, CUBLAS_OP_N, n, 1, dA, n, devIpiv, dB, n, dInfo, 4);
  // CHECK-NOTES: :[[@LINE-1]]:68: warning: 'dInfo' points to device memory from 'cudaMalloc', but argument 'info' of 'cublasSgetrsBatched' must point to host memory
  // CHECK-NOTES: :[[@LINE-5]]:3: note: allocated by 'cudaMalloc' here
}

void xt(cublasXtHandle_t h, size_t n, float *a, float *b, float *c) {
  float *dOne;
  cudaMalloc(&dOne, sizeof(float));
  const float zero = 0.0f;
  cublasXtSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, dOne, a, n, b, n, &zero,
                c, n);
  // CHECK-NOTES: :[[@LINE-2]]:55: warning: 'dOne' points to device memory from 'cudaMalloc', but argument 'alpha' of 'cublasXtSgemm' must point to host memory
  // CHECK-NOTES: :[[@LINE-5]]:3: note: allocated by 'cudaMalloc' here
}
