// REQUIRES: torch
// RUN: %check_clang_tidy %s cublas-data-type %t -- -- %torch_flags

// The type-erased `t.data_ptr()` holds what the tensor's dtype says, where
// the source says it (the real torch/extension.h of libtorch).

#include <torch/extension.h>
#include <cublas_v2.h>

// A half-precision tensor declared CUDA_R_32F.
void halfAsFloat(cublasHandle_t h, torch::Tensor a, torch::Tensor c) {
  auto x = a.to(torch::kCUDA).to(torch::kHalf);
  auto y = torch::empty({64, 64}, torch::dtype(torch::kHalf).device(torch::kCUDA));
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 64, 64, 64, &one,
                           x.data_ptr(), CUDA_R_32F, 64, y.data_ptr(), CUDA_R_16F, 64,
                           &zero, c.data_ptr(), CUDA_R_32F, 64, CUBLAS_COMPUTE_32F,
                           CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS);
  // CHECK-NOTES: :[[@LINE-3]]:28: warning: 'x.data_ptr()' (A) points to a Half tensor ('c10::Half', 2 bytes) but Atype is CUDA_R_32F (4-byte floats): cuBLAS reads the data as floats, twice the bytes it holds, and computes garbage [cublas-data-type]
  // CHECK-NOTES: :[[@LINE-8]]:12: note: the tensor's dtype is Half from here
}

// A parameter checked to be half, declared CUDA_R_32F; scalar_type() and
// dtype() alike. A check of two dtypes (||) says neither.
void checkedHalf(cublasHandle_t h, torch::Tensor a, torch::Tensor b,
                 torch::Tensor c) {
  TORCH_CHECK(a.scalar_type() == at::ScalarType::Half, "a must be half");
  TORCH_CHECK(b.is_cuda() && b.dtype() == torch::kHalf);
  TORCH_CHECK(c.scalar_type() == at::kHalf || c.scalar_type() == at::kFloat);
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 64, 64, 64, &one,
                           a.data_ptr(), CUDA_R_16F, 64, b.data_ptr(), CUDA_R_32F, 64,
                           &zero, c.data_ptr(), CUDA_R_32F, 64, CUBLAS_COMPUTE_32F,
                           CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS);
  // CHECK-NOTES: :[[@LINE-3]]:58: warning: 'b.data_ptr()' (B) points to a Half tensor ('c10::Half', 2 bytes) but Btype is CUDA_R_32F (4-byte floats): cuBLAS reads the data as floats, twice the bytes it holds, and computes garbage [cublas-data-type]
  // CHECK-NOTES: :[[@LINE-8]]:3: note: the tensor's dtype is Half from here
  TORCH_CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 64, 64, 64, &one,
                           a.data_ptr(), CUDA_R_32F, 64, a.data_ptr(), CUDA_R_16F, 64,
                           &zero, c.data_ptr(), CUDA_R_32F, 64, CUBLAS_COMPUTE_32F,
                           CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS);
  // CHECK-NOTES: :[[@LINE-3]]:28: warning: 'a.data_ptr()' (A) points to a Half tensor ('c10::Half', 2 bytes) but Atype is CUDA_R_32F (4-byte floats): cuBLAS reads the data as floats, twice the bytes it holds, and computes garbage [cublas-data-type]
  // CHECK-NOTES: :[[@LINE-15]]:3: note: the tensor's dtype is Half from here
}

// A float tensor made from another's options with a new dtype, declared
// CUDA_R_16BF.
void floatAsBf16(cublasHandle_t h, torch::Tensor a) {
  auto out = torch::empty({64, 64}, a.options().dtype(torch::kFloat32));
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 64, 64, 64, &one,
                           a.data_ptr(), CUDA_R_16BF, 64, a.data_ptr(), CUDA_R_16BF, 64,
                           &zero, out.data_ptr(), CUDA_R_16BF, 64, CUBLAS_COMPUTE_32F,
                           CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS);
  // CHECK-NOTES: :[[@LINE-2]]:35: warning: 'out.data_ptr()' (C) points to a Float tensor ('float', 4 bytes) but Ctype is CUDA_R_16BF (2-byte __nv_bfloat16 values): cuBLAS reads the data as __nv_bfloat16 values and computes garbage [cublas-data-type]
  // CHECK-NOTES: :[[@LINE-7]]:55: note: the tensor's dtype is Float from here
}

// The tensor an op returns (moved into the result at the return) keeps what
// is known of it.
torch::Tensor returned(cublasHandle_t h, torch::Tensor a) {
  auto out = torch::empty({64, 64}, a.options().dtype(torch::kFloat));
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 64, 64, 64, &one,
                           a.data_ptr(), CUDA_R_16F, 64, a.data_ptr(), CUDA_R_16F, 64,
                           &zero, out.data_ptr(), CUDA_R_16F, 64, CUBLAS_COMPUTE_32F,
                           CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS);
  // CHECK-NOTES: :[[@LINE-2]]:35: warning: 'out.data_ptr()' (C) points to a Float tensor ('float', 4 bytes) but Ctype is CUDA_R_16F (2-byte __half values): cuBLAS reads the data as __half values and computes garbage [cublas-data-type]
  // CHECK-NOTES: :[[@LINE-7]]:55: note: the tensor's dtype is Float from here
  return out;
}

// Correct code a naive rule would flag.
void correct(cublasHandle_t h, torch::Tensor a, torch::Tensor b) {
  TORCH_CHECK(a.scalar_type() == at::kHalf);
  auto x = a.to(torch::kHalf);
  auto y = torch::empty({64, 64}, a.options().dtype(at::ScalarType::Half));
  // The dtype left to the default: Python's torch.set_default_dtype can
  // change it, so nothing is said.
  auto z = torch::empty({64, 64}, torch::TensorOptions().device(torch::kCUDA));
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 64, 64, 64, &one,
                           x.data_ptr(), CUDA_R_16F, 64, y.data_ptr(), CUDA_R_16F, 64,
                           &zero, z.data_ptr(), CUDA_R_16F, 64, CUBLAS_COMPUTE_32F,
                           CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS);
  // A typed pointer says what it holds: the cast is the author's word.
  TORCH_CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 64, 64, 64, &one,
                           reinterpret_cast<__half *>(x.data_ptr<at::Half>()),
                           CUDA_R_16F, 64, y.data_ptr<at::Half>(), CUDA_R_16F, 64,
                           &zero, b.data_ptr(), CUDA_R_32F, 64, CUBLAS_COMPUTE_32F,
                           CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS);
}
