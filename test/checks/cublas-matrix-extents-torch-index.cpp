// REQUIRES: torch
// RUN: %check_clang_tidy %s cublas-matrix-extents %t -- -- %torch_flags

// Tensor::index() with basic indices (torch::indexing::Slice and integers)
// makes the same views as slice() and select(): a Slice of a dimension
// keeps its stride, an integer drops the dimension. Their rows stay the
// storage's rows apart (the real torch/extension.h).

#include <torch/extension.h>
#include <cublas_v2.h>

using torch::indexing::Ellipsis;
using torch::indexing::None;
using torch::indexing::Slice;

#define CHECK_INPUT(x)                                                        \
  TORCH_CHECK(x.is_cuda() && x.is_contiguous(), #x " must be contiguous")

// The key as a column block of a packed [T, 3C] projection.
void scores(cublasHandle_t h, torch::Tensor qkv, torch::Tensor out,
            int64_t C) {
  CHECK_INPUT(qkv);
  TORCH_CHECK(qkv.dim() == 2, "qkv: [T, 3C]");
  const int T = qkv.size(0);
  auto q = qkv.index({Slice(), Slice(None, C)});
  auto k = qkv.index({Slice(), Slice(C, 2 * C)});
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, T, T, C, &one,
                          k.data_ptr<float>(), C, q.data_ptr<float>(),
                          q.size(1), &zero, out.data_ptr<float>(),
                          T) == CUBLAS_STATUS_SUCCESS);
  // CHECK-NOTES: :[[@LINE-3]]:48: warning: 'lda' (C) is the last size of the view 'k', as if the view were packed, but 'k' narrows the row-major 'qkv' and shares its storage, where the view's rows are qkv.size(1) elements apart; cuBLAS reads the wrong elements unless the two are equal [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-7]]:12: note: the view is made here; .contiguous() on it makes a packed copy
  // CHECK-NOTES: :[[@LINE-12]]:3: note: 'qkv' is row-major (contiguous) here
  // CHECK-NOTES: :[[@LINE-5]]:27: warning: 'ldb' (q.size(1)) is the last size of the view 'q', as if the view were packed, but 'q' narrows the row-major 'qkv' and shares its storage, where the view's rows are qkv.size(1) elements apart; cuBLAS reads the wrong elements unless the two are equal [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-11]]:12: note: the view is made here; .contiguous() on it makes a packed copy
  // CHECK-NOTES: :[[@LINE-15]]:3: note: 'qkv' is row-major (contiguous) here
}

// One middle index of a [M, N, K] tensor: x.index({Slice(), i}) is
// [M, K] with rows N * K apart.
void rows(cublasHandle_t h, torch::Tensor x, torch::Tensor out, int64_t i) {
  CHECK_INPUT(x);
  TORCH_CHECK(x.dim() == 3, "x: [M, N, K]");
  const int M = x.size(0), K = x.size(2);
  auto row = x.index({Slice(), i});
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, K, K, M, &one,
                          row.data_ptr<float>(), K, row.data_ptr<float>(), K,
                          &zero, out.data_ptr<float>(),
                          K) == CUBLAS_STATUS_SUCCESS);
  // CHECK-NOTES: :[[@LINE-3]]:50: warning: 'lda' (K) is the last size of the view 'row', as if the view were packed, but 'row' selects from the row-major 'x' and shares its storage, where the view's rows are x.size(1)*x.size(2) elements apart; cuBLAS reads the wrong elements unless the two are equal [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-7]]:14: note: the view is made here; .contiguous() on it makes a packed copy
  // CHECK-NOTES: :[[@LINE-11]]:3: note: 'x' is row-major (contiguous) here
  // CHECK-NOTES: :[[@LINE-6]]:76: warning: 'ldb' (K) is the last size of the view 'row', as if the view were packed, but 'row' selects from the row-major 'x' and shares its storage, where the view's rows are x.size(1)*x.size(2) elements apart; cuBLAS reads the wrong elements unless the two are equal [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-10]]:14: note: the view is made here; .contiguous() on it makes a packed copy
  // CHECK-NOTES: :[[@LINE-14]]:3: note: 'x' is row-major (contiguous) here
}

// Correct code a rule on the view's sizes alone would flag, and indices
// whose view is not followed.
void correct(cublasHandle_t h, torch::Tensor qkv, torch::Tensor x,
             torch::Tensor idx, torch::Tensor out, int64_t C, int64_t i) {
  CHECK_INPUT(qkv);
  CHECK_INPUT(x);
  TORCH_CHECK(qkv.dim() == 2 && x.dim() == 3, "sizes");
  const int T = qkv.size(0), M = x.size(1), K = x.size(2);
  const float one = 1.f, zero = 0.f;
  // The storage's rows, or the view's own stride.
  auto q = qkv.index({Slice(), Slice(0, C)});
  auto k = qkv.index({Slice(), Slice(C, 2 * C)});
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, T, T, C, &one,
                          k.data_ptr<float>(), qkv.size(1),
                          q.data_ptr<float>(), q.stride(0), &zero,
                          out.data_ptr<float>(), T) == CUBLAS_STATUS_SUCCESS);
  // A block of rows is packed; so is a packed copy of the columns.
  auto top = qkv.index({Slice(0, T / 2)});
  auto qc = qkv.index({Slice(), Slice(0, C)}).contiguous();
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, T / 2, T, C, &one,
                          top.data_ptr<float>(), qkv.size(1),
                          qc.data_ptr<float>(), C, &zero,
                          out.data_ptr<float>(), T) == CUBLAS_STATUS_SUCCESS);
  // One batch entry: a packed [M, K] matrix.
  auto one_x = x.index({i});
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, M, M, K, &one,
                          one_x.data_ptr<float>(), K, one_x.data_ptr<float>(),
                          K, &zero, out.data_ptr<float>(),
                          M) == CUBLAS_STATUS_SUCCESS);
  // A step, an ellipsis, a new dimension and a tensor of indices (a copy):
  // not followed.
  auto stepped = qkv.index({Slice(), Slice(0, 2 * C, 2)});
  auto last = x.index({Ellipsis, Slice(0, C)});
  auto added = qkv.index({None, Slice(), Slice(0, C)});
  auto gathered = qkv.index({idx});
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, T, T, C, &one,
                          stepped.data_ptr<float>(), C,
                          last.data_ptr<float>(), C, &zero,
                          out.data_ptr<float>(), T) == CUBLAS_STATUS_SUCCESS);
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, T, T, C, &one,
                          added.data_ptr<float>(), C,
                          gathered.data_ptr<float>(), C, &zero,
                          out.data_ptr<float>(), T) == CUBLAS_STATUS_SUCCESS);
}
