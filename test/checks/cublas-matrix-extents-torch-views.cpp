// REQUIRES: torch
// RUN: %check_clang_tidy %s cublas-matrix-extents %t -- -- %torch_flags

// A view that reorders the dimensions of a row-major tensor of three or
// more (transpose(i, j), permute(...)) shares its storage: its data_ptr()
// is the storage of the tensor it was taken from, whose strides are not
// those of a packed tensor of the view's sizes. A leading dimension that is
// the view's last size, or a batch stride that is the size of one of its
// matrices, reads it as if it were packed (the real torch/extension.h).

#include <torch/extension.h>
#include <cublas_v2.h>

#define CHECK_INPUT(x)                                                        \
  TORCH_CHECK(x.is_cuda() && x.is_contiguous(), #x " must be contiguous")

// Attention scores over [B, S, H, D] projections, with the heads moved
// forward by a view: q.transpose(1, 2) is [B, H, S, D], but in q's storage
// its rows (along S) are H * D apart and its matrices (along H) D apart.
void scores(cublasHandle_t h, torch::Tensor q, torch::Tensor k,
            torch::Tensor out) {
  CHECK_INPUT(q);
  CHECK_INPUT(k);
  TORCH_CHECK(q.dim() == 4 && k.dim() == 4, "[B, S, H, D]");
  const int B = q.size(0), S = q.size(1), H = q.size(2), D = q.size(3);
  auto qh = q.transpose(1, 2);
  auto kh = k.permute({0, 2, 1, 3});
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasSgemmStridedBatched(
                  h, CUBLAS_OP_T, CUBLAS_OP_N, S, S, D, &one,
                  kh.data_ptr<float>(), kh.size(3), kh.size(2) * kh.size(3),
                  qh.data_ptr<float>(), D, (long long)S * D, &zero,
                  out.data_ptr<float>(), S, (long long)S * S,
                  B * H) == CUBLAS_STATUS_SUCCESS);
  // CHECK-NOTES: :[[@LINE-4]]:41: warning: 'lda' (kh.size(3)) is the last size of the view 'kh', as if the view were packed, but 'kh' reorders the dimensions of the row-major 'k' and shares its storage, where the view's rows are k.size(2)*k.size(3) elements apart; cuBLAS reads the wrong elements unless the two are equal [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-9]]:13: note: the view is made here; .contiguous() on it makes a packed copy
  // CHECK-NOTES: :[[@LINE-14]]:3: note: 'k' is row-major (contiguous) here
  // CHECK-NOTES: :[[@LINE-7]]:53: warning: 'strideA' (kh.size(2) * kh.size(3)) is the size of one matrix of the view 'kh', as if the view were packed, but in the storage of the row-major 'k' that it shares, its matrices are k.size(3) elements apart; cuBLAS reads the wrong elements unless the two are equal [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-12]]:13: note: the view is made here; .contiguous() on it makes a packed copy
  // CHECK-NOTES: :[[@LINE-17]]:3: note: 'k' is row-major (contiguous) here
  // CHECK-NOTES: :[[@LINE-9]]:41: warning: 'ldb' (D) is the last size of the view 'qh', as if the view were packed, but 'qh' reorders the dimensions of the row-major 'q' and shares its storage, where the view's rows are q.size(2)*q.size(3) elements apart; cuBLAS reads the wrong elements unless the two are equal [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-16]]:13: note: the view is made here; .contiguous() on it makes a packed copy
  // CHECK-NOTES: :[[@LINE-21]]:3: note: 'q' is row-major (contiguous) here
  // CHECK-NOTES: :[[@LINE-12]]:44: warning: 'strideB' ((long long)S * D) is the size of one matrix of the view 'qh', as if the view were packed, but in the storage of the row-major 'q' that it shares, its matrices are q.size(3) elements apart; cuBLAS reads the wrong elements unless the two are equal [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-19]]:13: note: the view is made here; .contiguous() on it makes a packed copy
  // CHECK-NOTES: :[[@LINE-24]]:3: note: 'q' is row-major (contiguous) here
}

// Correct code a rule on the view's sizes alone would flag.
void correct(cublasHandle_t h, torch::Tensor q, torch::Tensor k,
             torch::Tensor out, torch::Tensor x) {
  CHECK_INPUT(q);
  CHECK_INPUT(k);
  CHECK_INPUT(x);
  TORCH_CHECK(q.dim() == 4 && k.dim() == 4 && x.dim() == 3, "sizes");
  const int B = q.size(0), S = q.size(1), H = q.size(2), D = q.size(3);
  const float one = 1.f, zero = 0.f;
  // A packed copy of the view.
  auto qc = q.transpose(1, 2).contiguous();
  auto kc = k.permute({0, 2, 1, 3}).contiguous();
  TORCH_CHECK(cublasSgemmStridedBatched(
                  h, CUBLAS_OP_T, CUBLAS_OP_N, S, S, D, &one,
                  kc.data_ptr<float>(), D, (long long)S * D,
                  qc.data_ptr<float>(), D, (long long)S * D, &zero,
                  out.data_ptr<float>(), S, (long long)S * S,
                  B * H) == CUBLAS_STATUS_SUCCESS);
  // The view read with the strides of the storage it shares, one batch
  // entry of B at a time: rows H * D apart, heads D apart.
  auto qh = q.transpose(1, 2);
  auto kh = k.transpose(1, 2);
  for (int b = 0; b < B; ++b)
    TORCH_CHECK(cublasSgemmStridedBatched(
                    h, CUBLAS_OP_T, CUBLAS_OP_N, S, S, D, &one,
                    kh.data_ptr<float>() + (long long)b * S * H * D, H * D, D,
                    qh.data_ptr<float>() + (long long)b * S * H * D, H * D, D,
                    &zero, out.data_ptr<float>(), S, (long long)S * S,
                    H) == CUBLAS_STATUS_SUCCESS);
  // The strides asked of the view itself.
  TORCH_CHECK(cublasSgemmStridedBatched(
                  h, CUBLAS_OP_T, CUBLAS_OP_N, S, S, D, &one,
                  kh.data_ptr<float>(), kh.stride(2), kh.stride(1),
                  qh.data_ptr<float>(), qh.stride(2), qh.stride(1), &zero,
                  out.data_ptr<float>(), S, (long long)S * S,
                  H) == CUBLAS_STATUS_SUCCESS);
  // A permutation that keeps the last dimension last and moves nothing
  // the matrices need: x.permute({0, 1, 2}) is x.
  auto same = x.permute({0, 1, 2});
  const int M = x.size(1), K = x.size(2);
  TORCH_CHECK(cublasSgemmStridedBatched(
                  h, CUBLAS_OP_N, CUBLAS_OP_N, K, M, K, &one,
                  same.data_ptr<float>(), K, (long long)M * K,
                  same.data_ptr<float>(), K, (long long)M * K, &zero,
                  out.data_ptr<float>(), K, (long long)M * K,
                  x.size(0)) == CUBLAS_STATUS_SUCCESS);
  // A tensor whose layout nothing states: not judged.
  auto unknown = out.transpose(1, 2);
  TORCH_CHECK(cublasSgemmStridedBatched(
                  h, CUBLAS_OP_N, CUBLAS_OP_N, D, S, D, &one,
                  unknown.data_ptr<float>(), D, (long long)S * D,
                  unknown.data_ptr<float>(), D, (long long)S * D, &zero,
                  out.data_ptr<float>(), D, (long long)S * D,
                  B * H) == CUBLAS_STATUS_SUCCESS);
}

// The heads split from a packed projection by a view, then moved forward:
// view() of a row-major tensor is a row-major tensor of the sizes written.
void fromView(cublasHandle_t h, torch::Tensor x, torch::Tensor out, int64_t B,
              int64_t S, int64_t H, int64_t D) {
  CHECK_INPUT(x);
  auto q = x.view({B, S, H, D}).transpose(1, 2);
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasSgemmStridedBatched(
                  h, CUBLAS_OP_T, CUBLAS_OP_N, S, S, D, &one,
                  q.data_ptr<float>(), D, S * D, q.data_ptr<float>(), D, S * D,
                  &zero, out.data_ptr<float>(), S, S * S,
                  B * H) == CUBLAS_STATUS_SUCCESS);
  // CHECK-NOTES: :[[@LINE-3]]:40: warning: 'lda' (D) is the last size of the view 'q', as if the view were packed, but 'q' reorders the dimensions of the row-major 'x.view({B, S, H, D})' and shares its storage, where the view's rows are H*D elements apart; cuBLAS reads the wrong elements unless the two are equal [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-8]]:12: note: the view is made here; .contiguous() on it makes a packed copy
  // CHECK-NOTES: :[[@LINE-5]]:43: warning: 'strideA' (S * D) is the size of one matrix of the view 'q', as if the view were packed, but in the storage of the row-major 'x.view({B, S, H, D})' that it shares, its matrices are D elements apart; cuBLAS reads the wrong elements unless the two are equal [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-10]]:12: note: the view is made here; .contiguous() on it makes a packed copy
  // CHECK-NOTES: :[[@LINE-7]]:71: warning: 'ldb' (D) is the last size of the view 'q', as if the view were packed, but 'q' reorders the dimensions of the row-major 'x.view({B, S, H, D})' and shares its storage, where the view's rows are H*D elements apart; cuBLAS reads the wrong elements unless the two are equal [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-12]]:12: note: the view is made here; .contiguous() on it makes a packed copy
  // CHECK-NOTES: :[[@LINE-9]]:74: warning: 'strideB' (S * D) is the size of one matrix of the view 'q', as if the view were packed, but in the storage of the row-major 'x.view({B, S, H, D})' that it shares, its matrices are D elements apart; cuBLAS reads the wrong elements unless the two are equal [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-14]]:12: note: the view is made here; .contiguous() on it makes a packed copy
  // A size the view infers (-1) is unknown: not judged.
  auto r = x.view({B, -1, H, D}).transpose(1, 2);
  TORCH_CHECK(cublasSgemmStridedBatched(
                  h, CUBLAS_OP_T, CUBLAS_OP_N, S, S, D, &one,
                  r.data_ptr<float>(), D, S * D, r.data_ptr<float>(), D, S * D,
                  &zero, out.data_ptr<float>(), S, S * S,
                  B * H) == CUBLAS_STATUS_SUCCESS);
  // The packed copy.
  auto c = x.view({B, S, H, D}).transpose(1, 2).contiguous();
  TORCH_CHECK(cublasSgemmStridedBatched(
                  h, CUBLAS_OP_T, CUBLAS_OP_N, S, S, D, &one,
                  c.data_ptr<float>(), D, S * D, c.data_ptr<float>(), D, S * D,
                  &zero, out.data_ptr<float>(), S, S * S,
                  B * H) == CUBLAS_STATUS_SUCCESS);
}
