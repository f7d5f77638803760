// RUN: %check_clang_tidy %s 'cublas-host-pointer,cublas-device-pointer' %t -- -- -isystem %S/Inputs

// RMM's buffers (a stand-in of RMM's public API in Inputs/rmm) are device
// memory from the current device resource; one made with a memory
// resource of its own may be managed or host memory, and is left alone.

#include <cublas_v2.h>

#include <rmm/device_scalar.hpp>
#include <rmm/device_uvector.hpp>

#include <vector>

void hostSideOfGet(const float *d, int n, rmm::cuda_stream_view stream) {
  rmm::device_uvector<float> v(n, stream);
  cublasGetVector(n, sizeof(float), d, 1, v.data(), 1);
  // CHECK-NOTES: :[[@LINE-1]]:43: warning: 'v.data()' points to a rmm::device_uvector's device storage, but argument 'y' of 'cublasGetVector' must point to host memory [cublas-device-pointer]
  // CHECK-NOTES: :[[@LINE-3]]:30: note: 'v' declared here (rmm::device_uvector)
}

// A resource of its own (managed memory here): not known to be device
// memory.
void ownResource(const float *d, int n, rmm::cuda_stream_view stream) {
  rmm::mr::managed_memory_resource managed;
  rmm::device_uvector<float> v(n, stream, &managed);
  cublasGetVector(n, sizeof(float), d, 1, v.data(), 1);
}

// RMM's storage is where a GEMM needs it; the std::vector beside it is not.
void operands(cublasHandle_t h, int n, rmm::cuda_stream_view stream) {
  rmm::device_uvector<float> x(n, stream);
  std::vector<float> y(n);
  const float a = 2.f;
  cublasSaxpy(h, n, &a, x.data(), 1, y.data(), 1);
  // CHECK-NOTES: :[[@LINE-1]]:38: warning: 'y.data()' points to a std::vector's host storage, but argument 'y' of 'cublasSaxpy' must point to device memory [cublas-host-pointer]
  // CHECK-NOTES: :[[@LINE-4]]:22: note: 'y' declared here (std::vector)
}

// A dot product into a device_scalar: right in device pointer mode, a
// device address read as a host one in host mode.
void scalarResult(int n, rmm::cuda_stream_view stream) {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    return;
  rmm::device_uvector<float> x(n, stream);
  rmm::device_scalar<float> result(stream);
  cublasSdot(h, n, x.data(), 1, x.data(), 1, result.data());
  // CHECK-NOTES: :[[@LINE-1]]:46: warning: 'result.data()' points to a rmm::device_scalar's device storage, but 'result' of 'cublasSdot' is written to host memory: the pointer mode of 'h' is CUBLAS_POINTER_MODE_HOST [cublas-device-pointer]
  // CHECK-NOTES: :[[@LINE-3]]:29: note: 'result' declared here (rmm::device_scalar)
  // CHECK-NOTES: :[[@LINE-7]]:7: note: 'h' is created here in the default CUBLAS_POINTER_MODE_HOST
  cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
  cublasSdot(h, n, x.data(), 1, x.data(), 1, result.data());
  cublasDestroy(h);
}
