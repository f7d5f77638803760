// REQUIRES: torch
// RUN: %check_clang_tidy %s cublas-integer-overflow %t -config='{CheckOptions: {cublas-integer-overflow.ReportUnproven: true}}' -- -- %torch_flags
// RUN: %check_clang_tidy -check-suffix=DEFAULT %s cublas-integer-overflow %t -- -- %torch_flags

// Extensions narrow a tensor's int64_t sizes to the int of the 32-bit API.
// A count the code computed (numel(), a product of sizes) is the one that
// outgrows 32 bits first and leads; with ReportUnproven single dimensions are
// reported too, each once, in one finding per call; a value the extension
// checks is not.

#include <torch/extension.h>
#include <cublas_v2.h>

void scaleAll(cublasHandle_t h, torch::Tensor x, float factor) {
  const int n = x.numel();
  TORCH_CHECK(cublasSscal(h, n, &factor, x.data_ptr<float>(), 1) ==
              CUBLAS_STATUS_SUCCESS);
  // CHECK-MESSAGES: :[[@LINE-2]]:30: warning: 'n' holds 'x.numel()' ('int64_t') narrowed to 'int', and is narrowed to the 'int' parameter 'n' of cublasSscal with nothing that bounds it: a value above 2147483647 wraps; cublasSscal_64 takes it as it is [cublas-integer-overflow]
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-3]]:30: warning: 'n' holds 'x.numel()' ('int64_t') narrowed to 'int', and is narrowed to the 'int' parameter 'n' of cublasSscal{{.*}} [cublas-integer-overflow]
}

void flattened(cublasHandle_t h, torch::Tensor x, torch::Tensor y) {
  const float one = 1.f;
  TORCH_CHECK(cublasSaxpy(h, x.size(0) * x.size(1), &one, x.data_ptr<float>(),
                          1, y.data_ptr<float>(), 1) == CUBLAS_STATUS_SUCCESS);
  // CHECK-MESSAGES: :[[@LINE-2]]:30: warning: 'x.size(0) * x.size(1)' ('int64_t') is narrowed to the 'int' parameter 'n' of cublasSaxpy with nothing that bounds it: a value above 2147483647 wraps; cublasSaxpy_64 takes it as it is [cublas-integer-overflow]
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-3]]:30: warning: 'x.size(0) * x.size(1)' ('int64_t') is narrowed to the 'int' parameter 'n' of cublasSaxpy{{.*}} [cublas-integer-overflow]
}

// Checked with TORCH_CHECK before the call: silent.
void checkedCount(cublasHandle_t h, torch::Tensor x, float factor) {
  TORCH_CHECK(x.numel() <= INT_MAX, "too many elements for cublasSscal");
  const int n = x.numel();
  TORCH_CHECK(cublasSscal(h, n, &factor, x.data_ptr<float>(), 1) ==
              CUBLAS_STATUS_SUCCESS);
}

// `int m = a.size(0)`: the narrowed sizes of a call are one finding.
void gemm(cublasHandle_t h, torch::Tensor a, torch::Tensor b, torch::Tensor c) {
  const int m = a.size(0), k = a.size(1), n = b.size(1);
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one,
                          b.data_ptr<float>(), n, a.data_ptr<float>(), k,
                          &zero, c.data_ptr<float>(), n) ==
              CUBLAS_STATUS_SUCCESS);
  // CHECK-MESSAGES: :[[@LINE-4]]:56: warning: 3 64-bit values are narrowed to the 'int' parameters of cublasSgemm with nothing that bounds them: 'n' ('b.size(1)') as 'm', 'm' ('a.size(0)') as 'n', 'k' ('a.size(1)') as 'k'; a value above 2147483647 wraps; cublasSgemm_64 takes them as they are [cublas-integer-overflow]
}

// Sizes the extension checks against INT_MAX: silent.
void checkedGemm(cublasHandle_t h, torch::Tensor a, torch::Tensor b,
                 torch::Tensor c) {
  TORCH_CHECK(a.size(0) <= INT_MAX && a.size(1) <= INT_MAX &&
              b.size(1) <= INT_MAX);
  const int m = a.size(0), k = a.size(1), n = b.size(1);
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one,
                          b.data_ptr<float>(), n, a.data_ptr<float>(), k,
                          &zero, c.data_ptr<float>(), n) ==
              CUBLAS_STATUS_SUCCESS);
}

// The _64 API: silent.
void scaleAll64(cublasHandle_t h, torch::Tensor x, float factor) {
  TORCH_CHECK(cublasSscal_64(h, x.numel(), &factor, x.data_ptr<float>(), 1) ==
              CUBLAS_STATUS_SUCCESS);
}
