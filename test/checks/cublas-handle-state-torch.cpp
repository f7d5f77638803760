// REQUIRES: torch
// RUN: %check_clang_tidy %s cublas-handle-state %t -- -- %torch_flags

// PyTorch's current handle in an extension: PyTorch's own GEMMs use it
// after the op returns, with host alpha and beta.

#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cublas_v2.h>

torch::Tensor dotOnDevice(torch::Tensor x, torch::Tensor y) {
  auto out = torch::empty({1}, x.options());
  cublasHandle_t handle = at::cuda::getCurrentCUDABlasHandle();
  cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE);
// CHECK-NOTES: :[[@LINE-1]]:3: warning: 'handle' (PyTorch's current handle) is left in CUBLAS_POINTER_MODE_DEVICE when 'dotOnDevice' returns: PyTorch's own GEMMs on it then read their host alpha and beta as device addresses; set the mode back on every way out (save it with 'cublasGetPointerMode' first, or set CUBLAS_POINTER_MODE_HOST) [cublas-handle-state]
// CHECK-NOTES: :[[@LINE+4]]:3: note: returns with the device pointer mode still set
  TORCH_CHECK(cublasSdot(handle, x.numel(), x.data_ptr<float>(), 1,
                         y.data_ptr<float>(), 1, out.data_ptr<float>()) ==
              CUBLAS_STATUS_SUCCESS);
  return out;
}

// Restored on every way out, TORCH_CHECK's throw included.
torch::Tensor dotRestored(torch::Tensor x, torch::Tensor y) {
  auto out = torch::empty({1}, x.options());
  cublasHandle_t handle = at::cuda::getCurrentCUDABlasHandle();
  cublasPointerMode_t old;
  cublasGetPointerMode(handle, &old);
  cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE);
  cublasStatus_t st = cublasSdot(handle, x.numel(), x.data_ptr<float>(), 1,
                                 y.data_ptr<float>(), 1, out.data_ptr<float>());
  cublasSetPointerMode(handle, old);
  TORCH_CHECK(st == CUBLAS_STATUS_SUCCESS, "dot failed");
  return out;
}

// Setting the stream of PyTorch's handle: PyTorch set both its stream and
// its workspace where the extension cannot see; not this rule's to judge.
torch::Tensor scaleOnStream(torch::Tensor x) {
  cublasHandle_t handle = at::cuda::getCurrentCUDABlasHandle();
  cublasSetStream(handle, at::cuda::getCurrentCUDAStream());
  const float two = 2.f;
  TORCH_CHECK(cublasSscal(handle, x.numel(), &two, x.data_ptr<float>(), 1) ==
              CUBLAS_STATUS_SUCCESS);
  return x;
}
