// REQUIRES: torch
// RUN: %check_clang_tidy %s cublas-matrix-extents %t -- -- %torch_flags

// Views that narrow, slice, select or expand a row-major tensor share its
// storage: their rows stay the storage's rows apart (an expanded
// dimension: 0 apart). A leading dimension that is the view's last size,
// or a batch stride that is one packed matrix of the view, reads it as if
// it were packed (the real torch/extension.h).

#include <torch/extension.h>
#include <cublas_v2.h>

#define CHECK_INPUT(x)                                                        \
  TORCH_CHECK(x.is_cuda() && x.is_contiguous(), #x " must be contiguous")

// Q, K and V side by side in one [T, 3C] projection: the query and the key
// are column blocks of it, whose rows stay qkv.size(1) elements apart.
void scores(cublasHandle_t h, torch::Tensor qkv, torch::Tensor out,
            int64_t C) {
  CHECK_INPUT(qkv);
  TORCH_CHECK(qkv.dim() == 2, "qkv: [T, 3C]");
  const int T = qkv.size(0);
  auto q = qkv.narrow(1, 0, C);
  auto k = qkv.narrow(1, C, C);
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

// One row of a [M, N, K] tensor per middle index: select(1, i) is [M, K]
// with rows N * K apart; slice(1, 0, k) keeps the first k columns.
void rows(cublasHandle_t h, torch::Tensor x, torch::Tensor y,
          torch::Tensor out, int64_t i, int64_t k) {
  CHECK_INPUT(x);
  CHECK_INPUT(y);
  TORCH_CHECK(x.dim() == 3 && y.dim() == 2, "x: [M, N, K], y: [M, N]");
  const int M = x.size(0), K = x.size(2);
  auto row = x.select(1, i);
  auto first = y.slice(1, 0, k);
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, K, k, M, &one,
                          row.data_ptr<float>(), K, first.data_ptr<float>(),
                          k, &zero, out.data_ptr<float>(),
                          K) == CUBLAS_STATUS_SUCCESS);
  // CHECK-NOTES: :[[@LINE-3]]:50: warning: 'lda' (K) is the last size of the view 'row', as if the view were packed, but 'row' selects from the row-major 'x' and shares its storage, where the view's rows are x.size(1)*x.size(2) elements apart; cuBLAS reads the wrong elements unless the two are equal [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-8]]:14: note: the view is made here; .contiguous() on it makes a packed copy
  // CHECK-NOTES: :[[@LINE-13]]:3: note: 'x' is row-major (contiguous) here
  // CHECK-NOTES: :[[@LINE-5]]:27: warning: 'ldb' (k) is the last size of the view 'first', as if the view were packed, but 'first' narrows the row-major 'y' and shares its storage, where the view's rows are y.size(1) elements apart; cuBLAS reads the wrong elements unless the two are equal [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-10]]:16: note: the view is made here; .contiguous() on it makes a packed copy
  // CHECK-NOTES: :[[@LINE-15]]:3: note: 'y' is row-major (contiguous) here
}

// One weight for every batch entry: expand() repeats w's storage without
// copying it, so its batch stride is 0, not one matrix.
void shared_weight(cublasHandle_t h, torch::Tensor x, torch::Tensor w,
                   torch::Tensor out, int64_t B) {
  CHECK_INPUT(x);
  CHECK_INPUT(w);
  TORCH_CHECK(w.dim() == 2, "w: [N, K]");
  const int N = w.size(0), K = w.size(1), M = x.size(1);
  auto wb = w.expand({B, N, K});
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasSgemmStridedBatched(
                  h, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &one,
                  wb.data_ptr<float>(), K, (long long)N * K,
                  x.data_ptr<float>(), K, (long long)M * K, &zero,
                  out.data_ptr<float>(), N, (long long)M * N,
                  B) == CUBLAS_STATUS_SUCCESS);
  // CHECK-NOTES: :[[@LINE-4]]:44: warning: 'strideA' ((long long)N * K) is the size of one matrix of the view 'wb', as if the view were packed, but in the storage of the row-major 'w' that it shares, its matrices are 0 elements apart; expand() repeats the same elements without copying them, and cuBLAS reads past them [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-9]]:13: note: the view is made here; .contiguous() on it makes a packed copy
  // CHECK-NOTES: :[[@LINE-13]]:3: note: 'w' is row-major (contiguous) here
}

// Correct code a rule on the view's sizes alone would flag.
void correct(cublasHandle_t h, torch::Tensor qkv, torch::Tensor x,
             torch::Tensor w, torch::Tensor out, int64_t C, int64_t B,
             int64_t i) {
  CHECK_INPUT(qkv);
  CHECK_INPUT(x);
  CHECK_INPUT(w);
  TORCH_CHECK(qkv.dim() == 2 && x.dim() == 3 && w.dim() == 2, "sizes");
  const int T = qkv.size(0), M = x.size(1), K = x.size(2);
  const float one = 1.f, zero = 0.f;
  // The rows the storage has: its last size, or the view's own stride.
  auto q = qkv.narrow(1, 0, C);
  auto k = qkv.narrow(1, C, C);
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, T, T, C, &one,
                          k.data_ptr<float>(), qkv.size(1),
                          q.data_ptr<float>(), q.stride(0), &zero,
                          out.data_ptr<float>(), T) == CUBLAS_STATUS_SUCCESS);
  // A block of rows is packed; so is a packed copy of the columns, and a
  // view a check proves contiguous.
  auto top = qkv.narrow(0, 0, T / 2);
  auto qc = qkv.narrow(1, 0, C).contiguous();
  auto kc = qkv.narrow(1, C, C);
  TORCH_CHECK(kc.is_contiguous(), "k must be contiguous");
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, T / 2, T, C, &one,
                          top.data_ptr<float>(), qkv.size(1),
                          qc.data_ptr<float>(), C, &zero,
                          out.data_ptr<float>(), T) == CUBLAS_STATUS_SUCCESS);
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, T, T, C, &one,
                          kc.data_ptr<float>(), C, qc.data_ptr<float>(), C,
                          &zero, out.data_ptr<float>(),
                          T) == CUBLAS_STATUS_SUCCESS);
  // One batch entry selected: a packed [M, K] matrix.
  auto one_x = x.select(0, i);
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, M, M, K, &one,
                          one_x.data_ptr<float>(), K, one_x.data_ptr<float>(),
                          K, &zero, out.data_ptr<float>(),
                          M) == CUBLAS_STATUS_SUCCESS);
  // The shared weight with batch stride 0.
  auto wb = w.expand({B, w.size(0), w.size(1)});
  TORCH_CHECK(cublasSgemmStridedBatched(
                  h, CUBLAS_OP_T, CUBLAS_OP_N, w.size(0), M, K, &one,
                  wb.data_ptr<float>(), K, 0, x.data_ptr<float>(), K,
                  (long long)M * K, &zero, out.data_ptr<float>(), w.size(0),
                  (long long)M * w.size(0), B) == CUBLAS_STATUS_SUCCESS);
  // A copy of a narrowed view is packed (or, with nothing to change, the
  // view itself): not judged.
  auto copy = qkv.narrow(1, 0, C).clone();
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, T, T, C, &one,
                          copy.data_ptr<float>(), C, copy.data_ptr<float>(),
                          C, &zero, out.data_ptr<float>(),
                          T) == CUBLAS_STATUS_SUCCESS);
}
