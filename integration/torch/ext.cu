// PyTorch extension ops with the bugs the cublas-* checks report in
// extensions (docs/pytorch.md), one per op. integration/torch/run.py builds
// it with torch.utils.cpp_extension and runs each op on the GPU in a process
// of its own to confirm what the bug does; test/frontends/torch-integration.test
// checks that the checks flag each op.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cublas_v2.h>

#define CHECK_CUDA(x) TORCH_CHECK(x.is_cuda(), #x " must be a CUDA tensor")

static int status(cublasStatus_t s) { return static_cast<int>(s); }

// cublas-host-pointer: `ones` is made on the CPU and read by the GEMV on
// the device. Returns the GEMV's status; the caller synchronizes.
torch::Tensor row_sums(torch::Tensor x) {
  CHECK_CUDA(x);
  const int rows = x.size(0), cols = x.size(1);
  auto ones = torch::ones({cols});
  auto sums = torch::zeros({rows}, x.options());
  cublasHandle_t handle = at::cuda::getCurrentCUDABlasHandle();
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasSgemv(handle, CUBLAS_OP_T, cols, rows, &one,
                          x.data_ptr<float>(), cols, ones.data_ptr<float>(), 1,
                          &zero, sums.data_ptr<float>(), 1) == CUBLAS_STATUS_SUCCESS,
              "cublasSgemv");
  return sums;
}

// cublas-device-pointer: alpha is a CUDA tensor, read on the host by a
// handle in the default host pointer mode.
torch::Tensor scale(torch::Tensor x) {
  CHECK_CUDA(x);
  auto alpha = torch::full({1}, 2.0, x.options());
  cublasHandle_t handle;
  TORCH_CHECK(cublasCreate(&handle) == CUBLAS_STATUS_SUCCESS);
  TORCH_CHECK(cublasSetStream(handle, at::cuda::getCurrentCUDAStream()) ==
              CUBLAS_STATUS_SUCCESS);
  cublasStatus_t s = cublasSscal(handle, x.numel(), alpha.data_ptr<float>(),
                                 x.data_ptr<float>(), 1);
  TORCH_CHECK(cublasDestroy(handle) == CUBLAS_STATUS_SUCCESS);
  TORCH_CHECK(s == CUBLAS_STATUS_SUCCESS, "cublasSscal: ", status(s));
  return x;
}

// cublas-data-type: out is a float tensor that the GEMM is told holds
// halves. out = a @ b for row-major half a (m x k) and b (k x n).
torch::Tensor half_gemm(torch::Tensor a, torch::Tensor b) {
  CHECK_CUDA(a);
  CHECK_CUDA(b);
  const int m = a.size(0), k = a.size(1), n = b.size(1);
  auto out = torch::zeros({m, n}, a.options().dtype(torch::kFloat));
  cublasHandle_t handle = at::cuda::getCurrentCUDABlasHandle();
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one,
                           b.data_ptr(), CUDA_R_16F, n, a.data_ptr(), CUDA_R_16F, k,
                           &zero, out.data_ptr(), CUDA_R_16F, n, CUBLAS_COMPUTE_32F,
                           CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS,
              "cublasGemmEx");
  return out;
}

// cublas-handle-use-after-destroy: destroys PyTorch's own handle.
torch::Tensor norm_then_destroy(torch::Tensor x) {
  CHECK_CUDA(x);
  cublasHandle_t handle = at::cuda::getCurrentCUDABlasHandle();
  auto result = torch::zeros({1}, x.options());
  TORCH_CHECK(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE) ==
              CUBLAS_STATUS_SUCCESS);
  TORCH_CHECK(cublasSnrm2(handle, x.numel(), x.data_ptr<float>(), 1,
                          result.data_ptr<float>()) == CUBLAS_STATUS_SUCCESS);
  TORCH_CHECK(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST) ==
              CUBLAS_STATUS_SUCCESS);
  TORCH_CHECK(cublasDestroy(handle) == CUBLAS_STATUS_SUCCESS);
  return result;
}

// cublas-matrix-extents: the output tensor holds 32 x 32 floats; the GEMM
// writes 64 x 64.
torch::Tensor small_output(torch::Tensor a, torch::Tensor b) {
  CHECK_CUDA(a);
  CHECK_CUDA(b);
  auto c = torch::zeros({32, 32}, a.options());
  cublasHandle_t handle = at::cuda::getCurrentCUDABlasHandle();
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, 64, 64, 64, &one,
                          a.data_ptr<float>(), 64, b.data_ptr<float>(), 64,
                          &zero, c.data_ptr<float>(), 64) == CUBLAS_STATUS_SUCCESS,
              "cublasSgemm");
  return c;
}

// cublas-matrix-extents: out = x @ w^T with w.t() taken for a row-major
// {k, n} tensor; its storage is w's {n, k}, leading dimension k, not n.
torch::Tensor linear_view(torch::Tensor x, torch::Tensor w) {
  CHECK_CUDA(x);
  TORCH_CHECK(w.is_cuda() && w.is_contiguous() && w.dim() == 2);
  const int m = x.size(0), k = x.size(1), n = w.size(0);
  auto out = torch::zeros({m, n}, x.options());
  auto wt = w.t();
  cublasHandle_t handle = at::cuda::getCurrentCUDABlasHandle();
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one,
                          wt.data_ptr<float>(), wt.size(1), x.contiguous().data_ptr<float>(), k,
                          &zero, out.data_ptr<float>(), n) == CUBLAS_STATUS_SUCCESS,
              "cublasSgemm");
  return out;
}

// cublas-matrix-extents: attention scores over [B, S, H, D] projections,
// the heads moved forward by transpose(1, 2) but the views' storage read as
// if packed: in q's storage the rows of a head are H * D apart and its
// heads D apart, not D and S * D.
torch::Tensor head_scores(torch::Tensor q, torch::Tensor k) {
  TORCH_CHECK(q.is_cuda() && q.is_contiguous() && q.dim() == 4);
  TORCH_CHECK(k.is_cuda() && k.is_contiguous() && k.dim() == 4);
  const int B = q.size(0), S = q.size(1), H = q.size(2), D = q.size(3);
  auto qh = q.transpose(1, 2), kh = k.transpose(1, 2);
  auto out = torch::zeros({B, H, S, S}, q.options());
  cublasHandle_t handle = at::cuda::getCurrentCUDABlasHandle();
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasSgemmStridedBatched(
                  handle, CUBLAS_OP_T, CUBLAS_OP_N, S, S, D, &one,
                  kh.data_ptr<float>(), kh.size(3), kh.size(2) * kh.size(3),
                  qh.data_ptr<float>(), qh.size(3), qh.size(2) * qh.size(3),
                  &zero, out.data_ptr<float>(), S, (long long)S * S,
                  B * H) == CUBLAS_STATUS_SUCCESS,
              "cublasSgemmStridedBatched");
  return out;
}

// cublas-matrix-extents: the key as a column block of a packed [T, 3C]
// projection, narrow(1, C, C), read with the leading dimension of a packed
// [T, C] tensor: its rows are 3C elements apart in qkv's storage.
torch::Tensor block_scores(torch::Tensor qkv, int64_t C) {
  TORCH_CHECK(qkv.is_cuda() && qkv.is_contiguous() && qkv.dim() == 2);
  const int T = qkv.size(0);
  auto q = qkv.narrow(1, 0, C), k = qkv.narrow(1, C, C);
  auto out = torch::zeros({T, T}, qkv.options());
  cublasHandle_t handle = at::cuda::getCurrentCUDABlasHandle();
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, T, T, C, &one,
                          k.data_ptr<float>(), C, q.data_ptr<float>(),
                          qkv.size(1), &zero, out.data_ptr<float>(),
                          T) == CUBLAS_STATUS_SUCCESS,
              "cublasSgemm");
  return out;
}

// cublas-matrix-extents: one [N, K] weight for a batch of B inputs,
// expand()ed to [B, N, K] but given the batch stride of a packed tensor:
// the batches after the first read past w's N * K elements.
torch::Tensor shared_weight(torch::Tensor x, torch::Tensor w) {
  TORCH_CHECK(x.is_cuda() && x.is_contiguous() && x.dim() == 3);
  TORCH_CHECK(w.is_cuda() && w.is_contiguous() && w.dim() == 2);
  const int B = x.size(0), M = x.size(1), N = w.size(0), K = w.size(1);
  TORCH_CHECK(x.size(2) == K, "x: [B, M, K], w: [N, K]");
  auto wb = w.expand({B, -1, -1});
  auto out = torch::zeros({B, M, N}, x.options());
  cublasHandle_t handle = at::cuda::getCurrentCUDABlasHandle();
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasSgemmStridedBatched(
                  handle, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &one,
                  wb.data_ptr<float>(), K, (long long)N * K,
                  x.data_ptr<float>(), K, (long long)M * K, &zero,
                  out.data_ptr<float>(), N, (long long)M * N,
                  B) == CUBLAS_STATUS_SUCCESS,
              "cublasSgemmStridedBatched");
  return out;
}

// cublas-matrix-extents: block_scores with the blocks taken by index():
// qkv.index({Slice(), Slice(C, 2 * C)}) is the same view as narrow(1, C, C),
// its rows 3C elements apart, read with lda = C.
torch::Tensor index_scores(torch::Tensor qkv, int64_t C) {
  using torch::indexing::Slice;
  TORCH_CHECK(qkv.is_cuda() && qkv.is_contiguous() && qkv.dim() == 2);
  const int T = qkv.size(0);
  auto q = qkv.index({Slice(), Slice(0, C)});
  auto k = qkv.index({Slice(), Slice(C, 2 * C)});
  auto out = torch::zeros({T, T}, qkv.options());
  cublasHandle_t handle = at::cuda::getCurrentCUDABlasHandle();
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, T, T, C, &one,
                          k.data_ptr<float>(), C, q.data_ptr<float>(),
                          qkv.size(1), &zero, out.data_ptr<float>(),
                          T) == CUBLAS_STATUS_SUCCESS,
              "cublasSgemm");
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("row_sums", &row_sums);
  m.def("scale", &scale);
  m.def("half_gemm", &half_gemm);
  m.def("norm_then_destroy", &norm_then_destroy);
  m.def("small_output", &small_output);
  m.def("linear_view", &linear_view);
  m.def("head_scores", &head_scores);
  m.def("block_scores", &block_scores);
  m.def("shared_weight", &shared_weight);
  m.def("index_scores", &index_scores);
}
