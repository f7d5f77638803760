// REQUIRES: torch
// RUN: %check_clang_tidy %s 'cublas-host-pointer,cublas-device-pointer' %t -- -- %torch_flags

// A PyTorch extension hands cuBLAS the storage of tensors. Where a tensor
// lives is in the source where it is made: the checks read it there (the
// real torch/extension.h of libtorch).

#include <torch/extension.h>
#include <cublas_v2.h>

#define CHECK_CUDA(x) TORCH_CHECK(x.device().is_cuda(), #x " must be a CUDA tensor")

// A factory whose options name no device makes a CPU tensor.
void cpuFactory(cublasHandle_t h, torch::Tensor a) {
  CHECK_CUDA(a);
  auto b = torch::zeros({64, 64});
  auto c = torch::empty({64, 64}, a.options());
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 64, 64, 64, &one,
                          a.data_ptr<float>(), 64, b.data_ptr<float>(), 64,
                          &zero, c.data_ptr<float>(), 64) == CUBLAS_STATUS_SUCCESS);
  // CHECK-NOTES: :[[@LINE-2]]:52: warning: 'b.data_ptr<float>()' points to the host storage of CPU tensor 'b', but argument 'B' of 'cublasSgemm' must point to device memory [cublas-host-pointer]
  // CHECK-NOTES: :[[@LINE-7]]:12: note: 'b' is made here on the CPU: its options name no device
}

// .cpu() and .to(torch::kCPU) move a tensor to the host; options with a
// dtype only (torch::kFloat converted to TensorOptions) name no device.
void explicitCpu(cublasHandle_t h, torch::Tensor a, torch::Tensor y) {
  CHECK_CUDA(a);
  CHECK_CUDA(y);
  auto host = a.cpu();
  auto moved = a.to(torch::kCPU).contiguous();
  auto typed = torch::ones({64}, torch::kFloat);
  TORCH_CHECK(cublasSaxpy(h, 64, nullptr, host.data_ptr<float>(), 1,
                          y.data_ptr<float>(), 1) == CUBLAS_STATUS_SUCCESS);
  // CHECK-NOTES: :[[@LINE-2]]:43: warning: 'host.data_ptr<float>()' points to the host storage of CPU tensor 'host', but argument 'x' of 'cublasSaxpy' must point to device memory [cublas-host-pointer]
  // CHECK-NOTES: :[[@LINE-6]]:15: note: 'host' is a CPU tensor: its device is set here
  TORCH_CHECK(cublasSaxpy(h, 64, nullptr, moved.data_ptr<float>(), 1,
                          y.data_ptr<float>(), 1) == CUBLAS_STATUS_SUCCESS);
  // CHECK-NOTES: :[[@LINE-2]]:43: warning: 'moved.data_ptr<float>()' points to the host storage of CPU tensor 'moved', but argument 'x' of 'cublasSaxpy' must point to device memory [cublas-host-pointer]
  // CHECK-NOTES: :[[@LINE-9]]:21: note: 'moved' is a CPU tensor: its device is set here
  TORCH_CHECK(cublasSaxpy(h, 64, nullptr, typed.data_ptr<float>(), 1,
                          y.data_ptr<float>(), 1) == CUBLAS_STATUS_SUCCESS);
  // CHECK-NOTES: :[[@LINE-2]]:43: warning: 'typed.data_ptr<float>()' points to the host storage of CPU tensor 'typed', but argument 'x' of 'cublasSaxpy' must point to device memory [cublas-host-pointer]
  // CHECK-NOTES: :[[@LINE-12]]:16: note: 'typed' is made here on the CPU: its options name no device
}

// A device written as a string: at::Device("cpu") is the host,
// at::Device("cuda:0") a GPU.
void stringDevices(cublasHandle_t h, torch::Tensor y) {
  CHECK_CUDA(y);
  auto host = torch::zeros({64}, torch::TensorOptions().device(at::Device("cpu")));
  auto dev = torch::zeros({64}, torch::TensorOptions().device(at::Device("cuda:0")));
  TORCH_CHECK(cublasSaxpy(h, 64, nullptr, host.data_ptr<float>(), 1,
                          y.data_ptr<float>(), 1) == CUBLAS_STATUS_SUCCESS);
  // CHECK-NOTES: :[[@LINE-2]]:43: warning: 'host.data_ptr<float>()' points to the host storage of CPU tensor 'host', but argument 'x' of 'cublasSaxpy' must point to device memory [cublas-host-pointer]
  // CHECK-NOTES: :[[@LINE-5]]:15: note: 'host' is a CPU tensor: its device is set here
  TORCH_CHECK(cublasSaxpy(h, 64, nullptr, dev.data_ptr<float>(), 1,
                          y.data_ptr<float>(), 1) == CUBLAS_STATUS_SUCCESS);
}

// A CUDA tensor where cuBLAS reads host memory: alpha in the default host
// pointer mode of a handle made here.
void deviceAlpha(torch::Tensor x) {
  CHECK_CUDA(x);
  cublasHandle_t h;
  TORCH_CHECK(cublasCreate(&h) == CUBLAS_STATUS_SUCCESS);
  auto alpha = torch::full({1}, 2.0, x.options());
  TORCH_CHECK(cublasSscal(h, x.numel(), alpha.data_ptr<float>(),
                          x.data_ptr<float>(), 1) == CUBLAS_STATUS_SUCCESS);
  // CHECK-NOTES: :[[@LINE-2]]:41: warning: 'alpha.data_ptr<float>()' points to the device storage of CUDA tensor 'alpha', but 'alpha' of 'cublasSscal' is read from host memory: the pointer mode of 'h' is CUBLAS_POINTER_MODE_HOST [cublas-device-pointer]
  // CHECK-NOTES: :[[@LINE-4]]:16: note: 'alpha' is a CUDA tensor: its device is set here
  // CHECK-NOTES: :[[@LINE-6]]:15: note: 'h' is created here in the default CUBLAS_POINTER_MODE_HOST
  TORCH_CHECK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE) == CUBLAS_STATUS_SUCCESS);
  // Device mode: the same call is right.
  TORCH_CHECK(cublasSscal(h, x.numel(), alpha.data_ptr<float>(),
                          x.data_ptr<float>(), 1) == CUBLAS_STATUS_SUCCESS);
  TORCH_CHECK(cublasDestroy(h) == CUBLAS_STATUS_SUCCESS);
}

// Correct code that a naive rule would flag: every one of these tensors is
// on the GPU, or where it is cannot be told.
void correct(cublasHandle_t h, torch::Tensor a, torch::Tensor unknown,
             const torch::Tensor &ref) {
  TORCH_CHECK(a.is_cuda(), "a must be on the GPU");
  auto like = torch::empty_like(a);                      // a's device
  auto opts = torch::empty({64}, a.options().dtype(torch::kFloat));
  auto dev = torch::zeros({64}, torch::TensorOptions().device(torch::kCUDA));
  auto named = torch::zeros({64}, torch::TensorOptions().device(at::Device("cuda:0")));
  auto moved = torch::zeros({64}).to(a.device());        // moved to a's device
  auto cuda = torch::zeros({64}).cuda().contiguous();
  auto pinned = torch::empty({64}, torch::TensorOptions().pinned_memory(true));
  auto later = torch::zeros({64});
  later = later.cuda();                                  // assigned again
  auto byRef = torch::zeros({64});
  auto fill = [](torch::Tensor &t) { t = t.cuda(); };
  fill(byRef);                                           // may move it
  const float *views[] = {like.data_ptr<float>(), opts.data_ptr<float>(),
                          dev.data_ptr<float>(), named.data_ptr<float>(),
                          moved.data_ptr<float>(), cuda.data_ptr<float>()};
  for (const float *x : views)
    TORCH_CHECK(cublasSaxpy(h, 64, nullptr, x, 1, a.data_ptr<float>(), 1) ==
                CUBLAS_STATUS_SUCCESS);
  TORCH_CHECK(cublasSaxpy(h, 64, nullptr, like.data_ptr<float>(), 1,
                          opts.data_ptr<float>(), 1) == CUBLAS_STATUS_SUCCESS);
  TORCH_CHECK(cublasSaxpy(h, 64, nullptr, dev.data_ptr<float>(), 1,
                          named.data_ptr<float>(), 1) == CUBLAS_STATUS_SUCCESS);
  TORCH_CHECK(cublasSaxpy(h, 64, nullptr, moved.data_ptr<float>(), 1,
                          cuda.data_ptr<float>(), 1) == CUBLAS_STATUS_SUCCESS);
  // Page-locked host memory is device-accessible.
  TORCH_CHECK(cublasSaxpy(h, 64, nullptr, pinned.data_ptr<float>(), 1,
                          a.data_ptr<float>(), 1) == CUBLAS_STATUS_SUCCESS);
  TORCH_CHECK(cublasSaxpy(h, 64, nullptr, later.data_ptr<float>(), 1,
                          byRef.data_ptr<float>(), 1) == CUBLAS_STATUS_SUCCESS);
  // Parameters: nothing says where they are.
  TORCH_CHECK(cublasSaxpy(h, 64, nullptr, unknown.data_ptr<float>(), 1,
                          ref.data_ptr<float>(), 1) == CUBLAS_STATUS_SUCCESS);
  // The handle's pointer mode is unknown (a parameter): a CUDA alpha may be
  // right.
  TORCH_CHECK(cublasSscal(h, 64, like.data_ptr<float>(), a.data_ptr<float>(),
                          1) == CUBLAS_STATUS_SUCCESS);
}
