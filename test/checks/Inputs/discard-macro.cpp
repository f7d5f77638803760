#include <cublas_v2.h>

[[noreturn]] void fail(cublasStatus_t);
#define MY_CHECK(call)                                                         \
  do {                                                                         \
    cublasStatus_t s_ = (call);                                                \
    if (s_ != CUBLAS_STATUS_SUCCESS)                                           \
      fail(s_);                                                                \
  } while (0)

void shutdown(cublasHandle_t handle) {
  // The status of the last call is dropped.
  cublasDestroy(handle);
}
