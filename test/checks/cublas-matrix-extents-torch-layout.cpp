// REQUIRES: torch
// RUN: %check_clang_tidy %s cublas-matrix-extents %t -- -- %torch_flags

// A matrix operand that is a tensor's storage, when the source says the
// tensor is row-major (made by a factory, .contiguous(), or checked with
// TORCH_CHECK(x.is_contiguous())): read column-major, the storage of a
// row-major {R, C} tensor has leading dimension C, its last size. A leading
// dimension that is R describes another layout; so does one that treats a
// .t() view as if the view had moved the data (the real torch/extension.h
// of libtorch).

#include <torch/extension.h>
#include <cublas_v2.h>

#define CHECK_CUDA(x) TORCH_CHECK(x.is_cuda(), #x " must be a CUDA tensor")
#define CHECK_CONTIGUOUS(x) TORCH_CHECK(x.is_contiguous(), #x " must be contiguous")
#define CHECK_INPUT(x) CHECK_CUDA(x); CHECK_CONTIGUOUS(x)

// The row-major product as C^T = B^T * A^T, but A's leading dimension is its
// row count m; through a pointer local.
torch::Tensor rowCountAsLd(cublasHandle_t h, torch::Tensor a, torch::Tensor b) {
  CHECK_INPUT(a);
  CHECK_INPUT(b);
  const int m = a.size(0), k = a.size(1), n = b.size(1);
  auto c = torch::empty({m, n}, a.options());
  const float one = 1.f, zero = 0.f;
  float *pa = a.data_ptr<float>();
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one,
                          b.data_ptr<float>(), n, pa, m,
                          &zero, c.data_ptr<float>(), n) == CUBLAS_STATUS_SUCCESS);
  // CHECK-NOTES: :[[@LINE-2]]:55: warning: 'ldb' (m) is a.size(0), a size of the row-major 'a' other than its last: read column-major, its storage has leading dimension a.size(-1), its last size; cuBLAS reads the wrong elements unless the two are equal [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-10]]:3: note: 'a' is row-major (contiguous) here
  return c;
}

// Column-major thinking on an output that PyTorch reads row-major.
torch::Tensor columnMajorOutput(cublasHandle_t h, torch::Tensor a,
                                torch::Tensor b, int64_t m, int64_t n,
                                int64_t k) {
  auto c = torch::empty({m, n}, a.options());
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one,
                          a.data_ptr<float>(), m, b.data_ptr<float>(), k,
                          &zero, c.data_ptr<float>(), m) == CUBLAS_STATUS_SUCCESS);
  // CHECK-NOTES: :[[@LINE-1]]:55: warning: 'ldc' (m) is c.size(0), a size of the row-major 'c' other than its last: read column-major, its storage has leading dimension c.size(1) (n); cuBLAS reads the wrong elements unless the two are equal [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-6]]:12: note: 'c' is row-major (contiguous) here
  return c;
}

// .t() taken for a transpose of the data: bt is n x k, but its storage is
// b's k x n row-major one, whose leading dimension is n.
torch::Tensor transposedView(cublasHandle_t h, torch::Tensor a, torch::Tensor b) {
  CHECK_INPUT(a);
  TORCH_CHECK(b.dim() == 2, "b must be a matrix");
  auto bt = b.contiguous().t();
  const int64_t m = a.size(0), k = a.size(1), n = bt.size(0);
  auto c = torch::empty({m, n}, a.options());
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &one,
                          bt.data_ptr<float>(), bt.size(1), a.data_ptr<float>(), k,
                          &zero, c.data_ptr<float>(), n) == CUBLAS_STATUS_SUCCESS);
  // CHECK-NOTES: :[[@LINE-2]]:49: warning: 'lda' (bt.size(1)) is b.size(0), but 'bt' is a transposed view of the row-major 'b.contiguous()' and shares its storage, which, read column-major, has leading dimension b.size(1); a view swaps strides, not data: cuBLAS reads the wrong elements unless the two are equal [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-8]]:13: note: the view is made here; .contiguous() on it makes a row-major copy of the transpose
  return c;
}

// A linear layer, out = x @ w^T, with w.t() taken for a row-major {k, n}
// tensor; one check of both facts (is_cuda() && is_contiguous()).
#define CHECK_INPUT_BOTH(x) \
  TORCH_CHECK(x.is_cuda() && x.is_contiguous(), #x " must be a contiguous CUDA tensor")
torch::Tensor linear(cublasHandle_t h, torch::Tensor x, torch::Tensor w) {
  CHECK_INPUT_BOTH(x);
  CHECK_INPUT_BOTH(w);
  TORCH_CHECK(w.dim() == 2, "w must be a matrix");
  const int m = x.size(0), k = x.size(1), n = w.size(0);
  auto out = torch::empty({m, n}, x.options());
  auto wt = w.t();
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one,
                          wt.data_ptr<float>(), wt.size(1), x.data_ptr<float>(), k,
                          &zero, out.data_ptr<float>(), n) == CUBLAS_STATUS_SUCCESS);
  // CHECK-NOTES: :[[@LINE-2]]:49: warning: 'lda' (wt.size(1)) is w.size(0), but 'wt' is a transposed view of the row-major 'w' and shares its storage, which, read column-major, has leading dimension w.size(1); a view swaps strides, not data: cuBLAS reads the wrong elements unless the two are equal [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-6]]:13: note: the view is made here; .contiguous() on it makes a row-major copy of the transpose
  // CHECK-NOTES: :[[@LINE-11]]:3: note: 'w' is row-major (contiguous) here
  // The fixes: w itself transposed by the operation, or a row-major copy.
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &one,
                          w.data_ptr<float>(), k, x.data_ptr<float>(), k,
                          &zero, out.data_ptr<float>(), n) == CUBLAS_STATUS_SUCCESS);
  auto wtc = wt.contiguous();
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one,
                          wtc.data_ptr<float>(), n, x.data_ptr<float>(), k,
                          &zero, out.data_ptr<float>(), n) == CUBLAS_STATUS_SUCCESS);
  return out;
}

// permute({1, 0}) is t() under another name.
void permuted(cublasHandle_t h, torch::Tensor x, torch::Tensor w, torch::Tensor out) {
  CHECK_INPUT(w);
  const int m = x.size(0), k = x.size(1), n = w.size(0);
  auto wp = w.permute({1, 0});
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one,
                          wp.data_ptr<float>(), wp.size(1), x.data_ptr<float>(), k,
                          &zero, out.data_ptr<float>(), n) == CUBLAS_STATUS_SUCCESS);
  // CHECK-NOTES: :[[@LINE-2]]:49: warning: 'lda' (wp.size(1)) is w.size(0), but 'wp' is a transposed view of the row-major 'w' and shares its storage, which, read column-major, has leading dimension w.size(1); a view swaps strides, not data: cuBLAS reads the wrong elements unless the two are equal [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-6]]:13: note: the view is made here; .contiguous() on it makes a row-major copy of the transpose
  // CHECK-NOTES: :[[@LINE-9]]:3: note: 'w' is row-major (contiguous) here
}

// `x = x.contiguous()`, alone or under `if (!x.is_contiguous())`: x is
// row-major after it, with the same sizes. Assigned anything else, x is
// unknown.
torch::Tensor madeContiguous(cublasHandle_t h, torch::Tensor a, torch::Tensor b,
                             torch::Tensor v) {
  TORCH_CHECK(a.dim() == 2 && b.dim() == 2);
  if (!a.is_contiguous()) {
    a = a.contiguous();
  }
  b = b.contiguous();
  const int m = a.size(0), k = a.size(1), n = b.size(1);
  auto c = torch::empty({m, n}, a.options());
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one,
                          b.data_ptr<float>(), n, a.data_ptr<float>(), m,
                          &zero, c.data_ptr<float>(), n) == CUBLAS_STATUS_SUCCESS);
  // CHECK-NOTES: :[[@LINE-2]]:72: warning: 'ldb' (m) is a.size(0), a size of the row-major 'a' other than its last: read column-major, its storage has leading dimension a.size(1); cuBLAS reads the wrong elements unless the two are equal [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-10]]:5: note: 'a' is row-major (contiguous) here
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one,
                          b.data_ptr<float>(), n, a.data_ptr<float>(), k,
                          &zero, c.data_ptr<float>(), n) == CUBLAS_STATUS_SUCCESS);
  v = v.contiguous();
  v = v.t();
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, v.size(0), v.size(1), &one,
                          b.data_ptr<float>(), n, v.data_ptr<float>(), v.size(0),
                          &zero, c.data_ptr<float>(), n) == CUBLAS_STATUS_SUCCESS);
  return c;
}

// A helper on raw pointers, called with the storage of row-major tensors:
// the leading dimension the caller passes for a is its row count.
static void gemmRowMajor(cublasHandle_t h, int m, int n, int k, const float *a,
                         int lda, const float *b, int ldb, float *c, int ldc) {
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, ldb, a,
                          lda, &zero, c, ldc) == CUBLAS_STATUS_SUCCESS);
  // CHECK-NOTES: :[[@LINE-1]]:27: warning: 'ldb' (lda) is a.size(0), a size of the row-major 'a' other than its last: read column-major, its storage has leading dimension a.size(-1), its last size; cuBLAS reads the wrong elements unless the two are equal [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE+4]]:3: note: 'a' is row-major (contiguous) here
  // CHECK-NOTES: :[[@LINE+7]]:3: note: with the arguments of this call from 'viaHelper'
}
torch::Tensor viaHelper(cublasHandle_t h, torch::Tensor a, torch::Tensor b) {
  CHECK_INPUT(a);
  CHECK_INPUT(b);
  const int m = a.size(0), k = a.size(1), n = b.size(1);
  auto c = torch::empty({m, n}, a.options());
  gemmRowMajor(h, m, n, k, a.data_ptr<float>(), m, b.data_ptr<float>(), n,
               c.data_ptr<float>(), n);
  gemmRowMajor(h, m, n, k, a.data_ptr<float>(), k, b.data_ptr<float>(), n,
               c.data_ptr<float>(), n);
  return c;
}

// Batches of row-major matrices in a {batch, m, k} tensor: the leading
// dimension is k, not m.
void batched(cublasHandle_t h, torch::Tensor a, torch::Tensor b, torch::Tensor c) {
  CHECK_INPUT(a);
  TORCH_CHECK(a.dim() == 3);
  const int batch = a.size(0), m = a.size(1), k = a.size(2), n = b.size(2);
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one,
                                        b.data_ptr<float>(), n, k * n,
                                        a.data_ptr<float>(), m, m * k, &zero,
                                        c.data_ptr<float>(), n, m * n, batch) == CUBLAS_STATUS_SUCCESS);
  // CHECK-NOTES: :[[@LINE-2]]:62: warning: 'ldb' (m) is a.size(1), a size of the row-major 'a' other than its last: read column-major, its storage has leading dimension a.size(2); cuBLAS reads the wrong elements unless the two are equal [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-9]]:3: note: 'a' is row-major (contiguous) here
}

// Correct code that a rule on sizes alone would flag.
torch::Tensor correct(cublasHandle_t h, torch::Tensor a, torch::Tensor b,
                      torch::Tensor x, torch::Tensor u, int64_t n) {
  CHECK_INPUT(a);
  CHECK_INPUT(b);
  CHECK_INPUT(x);
  const int m = a.size(0), k = a.size(1), nb = b.size(1);
  const float one = 1.f, zero = 0.f;
  // The row-major product with the last sizes as leading dimensions.
  auto c = torch::empty({m, nb}, a.options());
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, nb, m, k, &one,
                          b.data_ptr<float>(), nb, a.data_ptr<float>(), k,
                          &zero, c.data_ptr<float>(), nb) == CUBLAS_STATUS_SUCCESS);
  // The strides, as written by those who know them.
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, nb, m, k, &one,
                          b.data_ptr<float>(), b.stride(0), a.data_ptr<float>(),
                          a.stride(0), &zero, c.data_ptr<float>(),
                          c.stride(0)) == CUBLAS_STATUS_SUCCESS);
  // A .t() view used as what it is: column-major, leading dimension
  // bt.size(0).
  auto bt = b.t();
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, nb, m, k, &one,
                          bt.data_ptr<float>(), bt.size(0), a.data_ptr<float>(),
                          k, &zero, c.data_ptr<float>(), nb) == CUBLAS_STATUS_SUCCESS);
  // A row-major copy of the transpose: its own last size.
  auto btc = b.t().contiguous();
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, nb, m, k, &one,
                          btc.data_ptr<float>(), btc.size(1), a.data_ptr<float>(),
                          k, &zero, c.data_ptr<float>(), nb) == CUBLAS_STATUS_SUCCESS);
  // A square tensor: both sizes are n.
  auto sq = torch::zeros({n, n}, a.options());
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one,
                          sq.data_ptr<float>(), n, sq.data_ptr<float>(), n,
                          &zero, sq.data_ptr<float>(), n) == CUBLAS_STATUS_SUCCESS);
  // A vector as an x.size(0) x 1 matrix: nothing shows x has two dimensions.
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, x.size(0), 1, 1, &one,
                          x.data_ptr<float>(), x.size(0), x.data_ptr<float>(), 1,
                          &zero, x.data_ptr<float>(), x.size(0)) == CUBLAS_STATUS_SUCCESS);
  // A matrix of one column takes any leading dimension from its row count
  // up: a {k, 1} tensor; b's first column with b.size(0).
  auto col = torch::empty({k, 1}, a.options());
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, 1, k, &one,
                          u.data_ptr<float>(), m, col.data_ptr<float>(), k,
                          &zero, c.data_ptr<float>(), m) == CUBLAS_STATUS_SUCCESS);
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, b.size(0), b.size(1), 1,
                          &one, b.data_ptr<float>(), b.size(0), u.data_ptr<float>(),
                          1, &zero, c.data_ptr<float>(), b.size(0)) == CUBLAS_STATUS_SUCCESS);
  // A tensor whose layout nothing states (u is not checked contiguous).
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, nb, m, k, &one,
                          b.data_ptr<float>(), nb, u.data_ptr<float>(), u.size(0),
                          &zero, c.data_ptr<float>(), nb) == CUBLAS_STATUS_SUCCESS);
  // Resized in place after it was made: its sizes are no longer {m, nb}.
  auto r = torch::empty({m, nb}, a.options());
  r.resize_({nb, m});
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, nb, m, k, &one,
                          b.data_ptr<float>(), nb, a.data_ptr<float>(), k,
                          &zero, r.data_ptr<float>(), m) == CUBLAS_STATUS_SUCCESS);
  return c;
}

// Sizes a check compares are equal: a weight TORCH_CHECKed square has
// w.size(0) as its last size too, whichever name the leading dimension
// takes; through a local, and with the number of dimensions unknown.
torch::Tensor squareWeight(cublasHandle_t h, torch::Tensor x, torch::Tensor w,
                           torch::Tensor v, torch::Tensor r) {
  CHECK_INPUT(x);
  CHECK_INPUT(w);
  CHECK_INPUT(v);
  CHECK_INPUT(r);
  TORCH_CHECK(w.dim() == 2 && w.size(0) == w.size(1), "w must be square");
  const int m = x.size(0), k = x.size(1);
  auto out = torch::empty({m, k}, x.options());
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, k, m, k, &one,
                          w.data_ptr<float>(), w.size(0), x.data_ptr<float>(), k,
                          &zero, out.data_ptr<float>(), k) == CUBLAS_STATUS_SUCCESS);
  const int64_t n = v.size(0);
  TORCH_CHECK(v.size(1) == n, "v must be square");
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, v.size(1), &one,
                          v.data_ptr<float>(), n, v.data_ptr<float>(), n,
                          &zero, out.data_ptr<float>(), n) == CUBLAS_STATUS_SUCCESS);
  // A comparison that is not an equality proves nothing: r.size(0) is
  // still not r's last size.
  TORCH_CHECK(r.dim() == 2 && r.size(0) <= r.size(1));
  TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, r.size(0), r.size(0), r.size(1),
                          &one, r.data_ptr<float>(), r.size(0), x.data_ptr<float>(), k,
                          &zero, out.data_ptr<float>(), k) == CUBLAS_STATUS_SUCCESS);
  // CHECK-NOTES: :[[@LINE-2]]:54: warning: 'lda' (r.size(0)), a size of the row-major 'r' other than its last: read column-major, its storage has leading dimension r.size(1); cuBLAS reads the wrong elements unless the two are equal [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-20]]:3: note: 'r' is row-major (contiguous) here
  return out;
}
