// REQUIRES: torch
// RUN: %check_clang_tidy %s cublas-handle-leak %t -- -- %torch_flags

// A function that Python calls (a pybind11 binding, an op of PyTorch's
// dispatcher) has a caller that catches: the binding turns a C++ exception
// into a Python error, and the program goes on. A handle left behind by an
// exception out of such a function, or out of a function it calls, leaks
// each time.

#include <torch/extension.h>
#include <cublas_v2.h>

#include <stdexcept>

static void check_status(cublasStatus_t s) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error("cuBLAS failed");
}

// Registered with pybind11.
torch::Tensor scaleOp(torch::Tensor x) {
  cublasHandle_t handle;
  check_status(cublasCreate(&handle));
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: handle 'handle' created here is not destroyed on every path; call 'cublasDestroy' before it goes out of reach [cublas-handle-leak]
  const float two = 2.f;
  check_status(cublasSscal(handle, x.numel(), &two, x.data_ptr<float>(), 1));
  // CHECK-NOTES: :[[@LINE-1]]:3: note: leaks when 'check_status' throws here
  // CHECK-NOTES: :[[@LINE+57]]:3: note: 'scaleOp' is registered here for Python to call: the binding catches the exception and the program goes on
  check_status(cublasDestroy(handle));
  return x;
}

// An op of PyTorch's dispatcher, through a helper it calls.
static void scaleInPlace(float *data, int n) {
  cublasHandle_t handle;
  check_status(cublasCreate(&handle));
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: handle 'handle' created here is not destroyed on every path; call 'cublasDestroy' before it goes out of reach [cublas-handle-leak]
  const float two = 2.f;
  check_status(cublasSscal(handle, n, &two, data, 1));
  // CHECK-NOTES: :[[@LINE-1]]:3: note: leaks when 'check_status' throws here
  // CHECK-NOTES: :[[@LINE+35]]:3: note: 'libraryOp' is registered here for Python to call: the binding catches the exception and the program goes on
  check_status(cublasDestroy(handle));
}

torch::Tensor libraryOp(torch::Tensor x) {
  scaleInPlace(x.data_ptr<float>(), x.numel());
  return x;
}

// Registered for a dispatch key, through TORCH_FN.
torch::Tensor keyedOp(torch::Tensor x) {
  cublasHandle_t handle;
  check_status(cublasCreate(&handle));
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: handle 'handle' created here is not destroyed on every path; call 'cublasDestroy' before it goes out of reach [cublas-handle-leak]
  const float two = 2.f;
  check_status(cublasSscal(handle, x.numel(), &two, x.data_ptr<float>(), 1));
  // CHECK-NOTES: :[[@LINE-1]]:3: note: leaks when 'check_status' throws here
  // CHECK-NOTES: :[[@LINE+23]]:3: note: 'keyedOp' is registered here for Python to call: the binding catches the exception and the program goes on
  check_status(cublasDestroy(handle));
  return x;
}

// Called by a lambda that pybind11 registers.
void scaleForLambda(float *data, int n) {
  cublasHandle_t handle;
  check_status(cublasCreate(&handle));
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: handle 'handle' created here is not destroyed on every path; call 'cublasDestroy' before it goes out of reach [cublas-handle-leak]
  const float two = 2.f;
  check_status(cublasSscal(handle, n, &two, data, 1));
  // CHECK-NOTES: :[[@LINE-1]]:3: note: leaks when 'check_status' throws here
  // CHECK-NOTES: :[[@LINE+15]]:3: note: the lambda is registered here for Python to call: the binding catches the exception and the program goes on
  check_status(cublasDestroy(handle));
}

TORCH_LIBRARY(cublas_tidy_throwing, m) {
  m.def("library_op", &libraryOp);
  m.def("keyed_op(Tensor x) -> Tensor");
}

TORCH_LIBRARY_IMPL(cublas_tidy_throwing, CUDA, m) {
  m.impl("keyed_op", TORCH_FN(keyedOp));
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("scale", &scaleOp, "scales x in place");
  m.def("scale_lambda", [](torch::Tensor x) {
    scaleForLambda(x.data_ptr<float>(), x.numel());
    return x;
  });
}

// An op registered with torch::RegisterOperators in a global's initializer.
torch::Tensor registeredOp(torch::Tensor x) {
  cublasHandle_t handle;
  check_status(cublasCreate(&handle));
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: handle 'handle' created here is not destroyed on every path; call 'cublasDestroy' before it goes out of reach [cublas-handle-leak]
  const float two = 2.f;
  check_status(cublasSscal(handle, x.numel(), &two, x.data_ptr<float>(), 1));
  // CHECK-NOTES: :[[@LINE-1]]:3: note: leaks when 'check_status' throws here
  // CHECK-NOTES: :[[@LINE+4]]:24: note: 'registeredOp' is registered here for Python to call: the binding catches the exception and the program goes on
  check_status(cublasDestroy(handle));
  return x;
}
static auto registry = torch::RegisterOperators().op(
    "cublas_tidy_throwing::registered_op", &registeredOp);

// Not registered, and nothing here calls it: its callers are not known.
torch::Tensor notRegistered(torch::Tensor x) {
  cublasHandle_t handle;
  check_status(cublasCreate(&handle));
  const float two = 2.f;
  check_status(cublasSscal(handle, x.numel(), &two, x.data_ptr<float>(), 1));
  check_status(cublasDestroy(handle));
  return x;
}
