// REQUIRES: torch
// RUN: %check_clang_tidy %s 'cublas-handle-*,cublas-unchecked-status' %t -- -- %torch_flags

// Handles in a PyTorch extension (the real torch/extension.h and
// ATen/cuda/CUDAContext.h of libtorch): PyTorch's own handle must not be
// destroyed; an op that Python calls on every forward pass must not create
// a handle each time; TORCH_CHECK counts as checking a status.

#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cublas_v2.h>

torch::Tensor destroysTorchHandle(torch::Tensor x) {
  cublasHandle_t handle = at::cuda::getCurrentCUDABlasHandle();
  const float two = 2.f;
  TORCH_CHECK(cublasSscal(handle, x.numel(), &two, x.data_ptr<float>(), 1) ==
              CUBLAS_STATUS_SUCCESS);
  TORCH_CHECK(cublasDestroy(handle) == CUBLAS_STATUS_SUCCESS, "destroy");
  // CHECK-NOTES: :[[@LINE-1]]:15: warning: this destroys PyTorch's own handle (from 'at::cuda::getCurrentCUDABlasHandle'): PyTorch keeps using it for every later operation, which then fails or crashes; do not destroy a handle PyTorch gives out [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :[[@LINE-6]]:27: note: the handle comes from here
  return x;
}

static cublasHandle_t globalHandle, onceHandle;

// Created and destroyed on every call of an op.
torch::Tensor handlePerOp(torch::Tensor x) {
  cublasHandle_t handle;
  TORCH_CHECK(cublasCreate(&handle) == CUBLAS_STATUS_SUCCESS, "create");
  // CHECK-NOTES: :[[@LINE-1]]:15: warning: the cuBLAS handle 'handle' is created and destroyed on every call of 'handlePerOp', which an extension module registers for Python to call (each forward pass calls it); cublasCreate allocates a workspace and synchronizes the device each time: use PyTorch's handle (at::cuda::getCurrentCUDABlasHandle()) or create one once and reuse it [cublas-handle-per-call]
  // CHECK-NOTES: :[[@LINE+88]]:3: note: 'handlePerOp' is registered here
  TORCH_CHECK(cublasSetStream(handle, at::cuda::getCurrentCUDAStream()) ==
              CUBLAS_STATUS_SUCCESS);
  const float two = 2.f;
  TORCH_CHECK(cublasSscal(handle, x.numel(), &two, x.data_ptr<float>(), 1) ==
              CUBLAS_STATUS_SUCCESS);
  TORCH_CHECK(cublasDestroy(handle) == CUBLAS_STATUS_SUCCESS);
  return x;
}

// A create checked by TORCH_CHECK and never destroyed: every call leaks.
torch::Tensor leaksPerOp(torch::Tensor x) {
  cublasHandle_t handle;
  TORCH_CHECK(cublasCreate(&handle) == CUBLAS_STATUS_SUCCESS, "create");
  // CHECK-NOTES: :[[@LINE-1]]:15: warning: handle 'handle' created here is never destroyed; call 'cublasDestroy' when it is no longer needed [cublas-handle-leak]
  // CHECK-NOTES: :[[@LINE+4]]:3: note: leaks when this 'return' is taken
  const float two = 2.f;
  TORCH_CHECK(cublasSscal(handle, x.numel(), &two, x.data_ptr<float>(), 1) ==
              CUBLAS_STATUS_SUCCESS);
  return x;
}

// Correct code a naive rule would flag: PyTorch's handle used and left
// alone; one handle made on the first call and kept; a helper that makes a
// handle and is not an op (nothing says how often it runs).
torch::Tensor usesTorchHandle(torch::Tensor x) {
  auto handle = at::cuda::getCurrentCUDABlasHandle();
  const float two = 2.f;
  TORCH_CHECK(cublasSscal(handle, x.numel(), &two, x.data_ptr<float>(), 1) ==
              CUBLAS_STATUS_SUCCESS);
  return x;
}

static cublasHandle_t cached = nullptr;
torch::Tensor handleOnce(torch::Tensor x) {
  if (!cached)
    TORCH_CHECK(cublasCreate(&cached) == CUBLAS_STATUS_SUCCESS);
  const float two = 2.f;
  TORCH_CHECK(cublasSscal(cached, x.numel(), &two, x.data_ptr<float>(), 1) ==
              CUBLAS_STATUS_SUCCESS);
  return x;
}

void notAnOp(float *x) {
  cublasHandle_t handle;
  TORCH_CHECK(cublasCreate(&handle) == CUBLAS_STATUS_SUCCESS);
  const float two = 2.f;
  TORCH_CHECK(cublasSscal(handle, 4, &two, x, 1) == CUBLAS_STATUS_SUCCESS);
  TORCH_CHECK(cublasDestroy(handle) == CUBLAS_STATUS_SUCCESS);
}

// An op of PyTorch's dispatcher (TORCH_LIBRARY) runs as often.
torch::Tensor libraryOp(torch::Tensor x) {
  cublasHandle_t handle;
  TORCH_CHECK(cublasCreate(&handle) == CUBLAS_STATUS_SUCCESS);
  // CHECK-NOTES: :[[@LINE-1]]:15: warning: the cuBLAS handle 'handle' is created and destroyed on every call of 'libraryOp', which an extension module registers for Python to call (each forward pass calls it); cublasCreate allocates a workspace and synchronizes the device each time: use PyTorch's handle (at::cuda::getCurrentCUDABlasHandle()) or create one once and reuse it [cublas-handle-per-call]
  // CHECK-NOTES: :[[@LINE+22]]:3: note: 'libraryOp' is registered here
  const float two = 2.f;
  TORCH_CHECK(cublasSscal(handle, x.numel(), &two, x.data_ptr<float>(), 1) ==
              CUBLAS_STATUS_SUCCESS);
  TORCH_CHECK(cublasDestroy(handle) == CUBLAS_STATUS_SUCCESS);
  return x;
}

// The same op, registered through TORCH_FN for a dispatch key.
torch::Tensor keyedOp(torch::Tensor x) {
  cublasHandle_t handle;
  TORCH_CHECK(cublasCreate(&handle) == CUBLAS_STATUS_SUCCESS);
  // CHECK-NOTES: :[[@LINE-1]]:15: warning: the cuBLAS handle 'handle' is created and destroyed on every call of 'keyedOp', which an extension module registers for Python to call (each forward pass calls it); cublasCreate allocates a workspace and synchronizes the device each time: use PyTorch's handle (at::cuda::getCurrentCUDABlasHandle()) or create one once and reuse it [cublas-handle-per-call]
  // CHECK-NOTES: :[[@LINE+14]]:3: note: 'keyedOp' is registered here
  const float two = 2.f;
  TORCH_CHECK(cublasSscal(handle, x.numel(), &two, x.data_ptr<float>(), 1) ==
              CUBLAS_STATUS_SUCCESS);
  TORCH_CHECK(cublasDestroy(handle) == CUBLAS_STATUS_SUCCESS);
  return x;
}

TORCH_LIBRARY(cublas_tidy_test, m) {
  m.def("library_op", &libraryOp);
  m.def("keyed_op(Tensor x) -> Tensor");
}

TORCH_LIBRARY_IMPL(cublas_tidy_test, CUDA, m) {
  m.impl("keyed_op", TORCH_FN(keyedOp));
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("destroys_torch_handle", &destroysTorchHandle);
  m.def("handle_per_op", &handlePerOp, "scales x in place");
  m.def("leaks_per_op", leaksPerOp);
  m.def("uses_torch_handle", &usesTorchHandle);
  m.def("handle_once", &handleOnce);
  // A lambda registered where it is written is an op too.
  m.def("lambda_per_op", [](torch::Tensor x) {
    cublasHandle_t handle;
    TORCH_CHECK(cublasCreate(&handle) == CUBLAS_STATUS_SUCCESS);
    // CHECK-NOTES: :[[@LINE-1]]:17: warning: the cuBLAS handle 'handle' is created and destroyed on every call of the lambda that an extension module registers as 'lambda_per_op' (each forward pass calls it); cublasCreate allocates a workspace and synchronizes the device each time: use PyTorch's handle (at::cuda::getCurrentCUDABlasHandle()) or create one once and reuse it [cublas-handle-per-call]
    // CHECK-NOTES: :[[@LINE-4]]:3: note: the lambda is registered here
    const float two = 2.f;
    TORCH_CHECK(cublasSscal(handle, x.numel(), &two, x.data_ptr<float>(), 1) ==
                CUBLAS_STATUS_SUCCESS);
    TORCH_CHECK(cublasDestroy(handle) == CUBLAS_STATUS_SUCCESS);
    return x;
  });
  m.def("lambda_global_per_op", [](torch::Tensor x) {
    TORCH_CHECK(cublasCreate(&globalHandle) == CUBLAS_STATUS_SUCCESS);
    // CHECK-NOTES: :[[@LINE-1]]:17: warning: global handle 'globalHandle' is created on every call of the lambda that an extension module registers as 'lambda_global_per_op', and the previous one is never destroyed: each call after the first leaks one; create it once (guard the create with 'if (!globalHandle)') [cublas-handle-leak]
    // CHECK-NOTES: :[[@LINE-3]]:3: note: the lambda is registered here
    return x;
  });
  // Correct: a registered lambda on PyTorch's handle; a handle made once.
  m.def("lambda_torch_handle", [](torch::Tensor x) {
    cublasHandle_t handle = at::cuda::getCurrentCUDABlasHandle();
    const float two = 2.f;
    TORCH_CHECK(cublasSscal(handle, x.numel(), &two, x.data_ptr<float>(), 1) ==
                CUBLAS_STATUS_SUCCESS);
    return x;
  });
  m.def("lambda_guarded_global", [](torch::Tensor x) {
    if (!onceHandle)
      TORCH_CHECK(cublasCreate(&onceHandle) == CUBLAS_STATUS_SUCCESS);
    return x;
  });
}
