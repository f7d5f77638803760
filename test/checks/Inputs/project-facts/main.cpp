#include "project.h"

// The destroy is in another file: no leak.
void destroyedElsewhere(float *X) {
  cublasHandle_t H;
  if (cublasCreate(&H) != CUBLAS_STATUS_SUCCESS)
    return;
  useOnly(H, X, 4);
  shutdown(H);
}

// The function in another file only uses the handle: it leaks here.
void usedElsewhere(float *X) {
  cublasHandle_t H;
  if (cublasCreate(&H) != CUBLAS_STATUS_SUCCESS)
    return;
  useOnly(H, X, 4);
}

// Kept by the other file: not a leak here.
void keptElsewhere() {
  cublasHandle_t H;
  if (cublasCreate(&H) == CUBLAS_STATUS_SUCCESS)
    stash(H);
}

// Two definitions of release: unknown.
void releasedTwice() {
  cublasHandle_t H;
  if (cublasCreate(&H) == CUBLAS_STATUS_SUCCESS)
    release(H);
}

// A static function of another file is not this one: unknown.
void releaseStatic(cublasHandle_t H);
void releasedByStatic() {
  cublasHandle_t H;
  if (cublasCreate(&H) == CUBLAS_STATUS_SUCCESS)
    releaseStatic(H);
}

// Recursion across files: unknown, and no endless summary.
void pong(cublasHandle_t H, int N) { ping(H, N); }
void recursive() {
  cublasHandle_t H;
  if (cublasCreate(&H) == CUBLAS_STATUS_SUCCESS)
    ping(H, 3);
}

// A wrapper defined in another file: its status is lost.
void wrapperDiscarded(cublasHandle_t H, float *X) {
  scaleWrapper(H, 4, X);
}

// Through the checker: seen.
void wrapperChecked(cublasHandle_t H, float *X) {
  checkStatus(scaleWrapper(H, 4, X));
}

// A host array given to a wrapper that gives it to cuBLAS.
void hostThroughWrapper(cublasHandle_t H) {
  float Host[4] = {1, 2, 3, 4};
  checkStatus(scaleWrapper(H, 4, Host));
}

// Device memory through the wrapper: right.
void deviceThroughWrapper(cublasHandle_t H) {
  float *Device = nullptr;
  if (cudaMalloc(reinterpret_cast<void **>(&Device), 4 * sizeof(float)) != cudaSuccess)
    return;
  checkStatus(scaleWrapper(H, 4, Device));
  cudaFree(Device);
}

// A wrapper that copies the host data to its own device buffer: right.
void hostToCopyingWrapper(cublasHandle_t H) {
  float Host[4] = {1, 2, 3, 4};
  checkStatus(scaleCopy(H, 4, Host));
}

// Device memory given to the wrapper that reads host memory.
void deviceToCopyingWrapper(cublasHandle_t H) {
  float *Device = nullptr;
  if (cudaMalloc(reinterpret_cast<void **>(&Device), 4 * sizeof(float)) != cudaSuccess)
    return;
  checkStatus(scaleCopy(H, 4, Device));
  cudaFree(Device);
}

// A function of another file that makes a handle per call, called per
// batch.
void perBatch(float *X, int Batches) {
  for (int B = 0; B < Batches; ++B)
    prepareOnce(X);
}

// Called once; or selecting a device on each call: nothing to say.
void once(float *X) { prepareOnce(X); }
void perDevice(float *X, int Devices) {
  for (int D = 0; D < Devices; ++D)
    prepareOnDevice(D, X);
}

// Used after a destroy in another file; a handle given to a function of
// another file that only uses it stays alive.
void usedAfterShutdown(float *X) {
  cublasHandle_t H;
  if (cublasCreate(&H) != CUBLAS_STATUS_SUCCESS)
    return;
  useOnly(H, X, 4);
  shutdown(H);
  useOnly(H, X, 4);
  const float A = 2.0f;
  checkStatus(cublasSscal(H, 4, &A, X, 1));
}
