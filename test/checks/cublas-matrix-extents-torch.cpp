// REQUIRES: torch
// RUN: %check_clang_tidy %s cublas-matrix-extents %t -- -- %torch_flags

// A tensor made with its sizes written out (`torch::empty({m, n}, ...)`)
// holds m * n elements: a GEMM that reaches past them writes or reads
// memory the tensor does not own (the real torch/extension.h of libtorch).

#include <torch/extension.h>
#include <cublas_v2.h>

// The output was sized for the old problem: 32 x 32 floats for a 64 x 64
// product.
void outputTooSmall(cublasHandle_t h, torch::Tensor a, torch::Tensor b) {
  auto c = torch::empty({32, 32}, a.options());
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 64, 64, 64, &one,
                          a.data_ptr<float>(), 64, b.data_ptr<float>(), 64,
                          &zero, c.data_ptr<float>(), 64) == CUBLAS_STATUS_SUCCESS);
  // CHECK-NOTES: :[[@LINE-1]]:34: warning: 'C' needs 4096 elements at ldc=64 but 'c.data_ptr<float>()' holds 1024 floats (tensor of size {32, 32}) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-6]]:12: note: 'c' is allocated here
}

// Correct code: the row-major product out = a @ b of an m x k and a k x n
// tensor, as C^T = B^T A^T with ldc = n; sizes from the inputs.
torch::Tensor rowMajor(cublasHandle_t h, torch::Tensor a, torch::Tensor b) {
  const int64_t m = a.size(0), k = a.size(1), n = b.size(1);
  auto out = torch::empty({m, n}, a.options()).contiguous();
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one,
                          b.data_ptr<float>(), n, a.data_ptr<float>(), k,
                          &zero, out.data_ptr<float>(), n) == CUBLAS_STATUS_SUCCESS);
  // A 64 x 64 output, made exactly that size.
  auto square = torch::zeros({64, 64}, a.options());
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 64, 64, 64, &one,
                          a.data_ptr<float>(), 64, b.data_ptr<float>(), 64,
                          &zero, square.data_ptr<float>(), 64) == CUBLAS_STATUS_SUCCESS);
  // A view: its storage may be larger than its sizes; nothing is said.
  auto view = torch::empty({64, 128}, a.options()).narrow(1, 0, 32);
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 64, 64, 64, &one,
                          a.data_ptr<float>(), 64, b.data_ptr<float>(), 64,
                          &zero, view.data_ptr<float>(), 64) == CUBLAS_STATUS_SUCCESS);
  return out;
}
