#include <cublas_v2.h>

void shutdown(cublasHandle_t handle) {
  // The status of the last call is dropped.
  cublasDestroy(handle);
}
