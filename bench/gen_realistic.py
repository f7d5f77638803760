#!/usr/bin/env python3
"""Writes a translation unit of realistic cuBLAS host code.

    gen_realistic.py --units N > tu.cpp

Each unit is a handful of functions in the shapes cuBLAS code takes in
practice: a GEMM wrapper that creates its handle and checks every status, a
batched loop over device buffers, a templated wrapper dispatching to
Sgemm/Dgemm, a cublasLt matmul with its descriptors, a strided-batched call,
a goto-cleanup function, host <-> device copies with std::vector storage, a
pointer-mode switch with device scalars, and an RAII context class. Names are
numbered so that units do not collide; sizes vary with the unit number. The
code compiles against the real CUDA headers and is mostly correct, with a few
of the bugs the checks look for, as real code has.
"""
import argparse

PRELUDE = r'''#include <cublas_v2.h>
#include <cublasLt.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <vector>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(e_));                                    \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)
#define CUBLAS_CHECK(call)                                                     \
  do {                                                                         \
    cublasStatus_t s_ = (call);                                                \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                         \
      std::fprintf(stderr, "%s:%d: cuBLAS %d\n", __FILE__, __LINE__, (int)s_); \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

namespace bench {

template <typename T> struct Blas;
template <> struct Blas<float> {
  static cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t ta,
                             cublasOperation_t tb, int m, int n, int k,
                             const float *alpha, const float *A, int lda,
                             const float *B, int ldb, const float *beta,
                             float *C, int ldc) {
    return cublasSgemm(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
  }
};
template <> struct Blas<double> {
  static cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t ta,
                             cublasOperation_t tb, int m, int n, int k,
                             const double *alpha, const double *A, int lda,
                             const double *B, int ldb, const double *beta,
                             double *C, int ldc) {
    return cublasDgemm(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
  }
};

class Context {
public:
  Context() { CUBLAS_CHECK(cublasCreate(&handle_)); }
  ~Context() { cublasDestroy(handle_); }
  cublasHandle_t get() const { return handle_; }

private:
  cublasHandle_t handle_;
};

} // namespace bench
'''

UNIT = r'''
namespace bench {{

// ---- unit {u} ----

int gemm_{u}(const float *dA, const float *dB, float *dC, int m, int n, int k) {{
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return -1;
  const float alpha = 1.0f, beta = 0.0f;
  cublasStatus_t st = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k,
                                  &alpha, dA, m, dB, k, &beta, dC, m);
  if (st != CUBLAS_STATUS_SUCCESS) {{
    std::fprintf(stderr, "sgemm failed: %d\n", (int)st);
    cublasDestroy(handle);
    return -2;
  }}
  CUBLAS_CHECK(cublasDestroy(handle));
  return 0;
}}

double batched_{u}(const Context &ctx, int batches, int n) {{
  const int size = {n};
  std::vector<float> host(size * size, 1.0f);
  float *dA = nullptr, *dC = nullptr;
  CUDA_CHECK(cudaMalloc(&dA, size * size * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dC, size * size * sizeof(float)));
  CUBLAS_CHECK(cublasSetMatrix(size, size, sizeof(float), host.data(), size,
                               dA, size));
  double total = 0;
  const float alpha = 0.5f, beta = 1.0f;
  for (int b = 0; b < batches; ++b) {{
    CUBLAS_CHECK(cublasSgemm(ctx.get(), CUBLAS_OP_N, CUBLAS_OP_T, size, size,
                             size, &alpha, dA, size, dA, size, &beta, dC,
                             size));
    if (b % {mod} == 0) {{
      CUBLAS_CHECK(cublasGetMatrix(size, size, sizeof(float), dC, size,
                                   host.data(), size));
      for (float v : host)
        total += v;
    }}
  }}
  CUDA_CHECK(cudaFree(dA));
  CUDA_CHECK(cudaFree(dC));
  return total + n;
}}

template <typename T>
int typed_gemm_{u}(cublasHandle_t h, const T *A, const T *B, T *C, int n,
                   bool transposed) {{
  const T one = T(1), zero = T(0);
  cublasOperation_t op = transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasStatus_t st = Blas<T>::gemm(h, op, op, n, n, n, &one, A, n, B, n,
                                    &zero, C, n);
  return st == CUBLAS_STATUS_SUCCESS ? 0 : 1;
}}

int instantiate_{u}(cublasHandle_t h, float *fA, double *dA, int n) {{
  return typed_gemm_{u}<float>(h, fA, fA, fA, n, n > 64) +
         typed_gemm_{u}<double>(h, dA, dA, dA, n, false);
}}

int lt_matmul_{u}(cublasLtHandle_t lt, const float *A, const float *B, float *C,
                 void *workspace, size_t workspaceSize, cudaStream_t stream) {{
  const int m = {m}, n = {n}, k = {k};
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
  int rc = 1;
  const float alpha = 1.0f, beta = 0.0f;
  if (cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F) !=
      CUBLAS_STATUS_SUCCESS)
    return 1;
  if (cublasLtMatrixLayoutCreate(&a, CUDA_R_32F, m, k, m) != CUBLAS_STATUS_SUCCESS)
    goto out_op;
  if (cublasLtMatrixLayoutCreate(&b, CUDA_R_32F, k, n, k) != CUBLAS_STATUS_SUCCESS)
    goto out_a;
  if (cublasLtMatrixLayoutCreate(&c, CUDA_R_32F, m, n, m) != CUBLAS_STATUS_SUCCESS)
    goto out_b;
  if (cublasLtMatmul(lt, op, &alpha, A, a, B, b, &beta, C, c, C, c, nullptr,
                     workspace, workspaceSize, stream) == CUBLAS_STATUS_SUCCESS)
    rc = 0;
  cublasLtMatrixLayoutDestroy(c);
out_b:
  cublasLtMatrixLayoutDestroy(b);
out_a:
  cublasLtMatrixLayoutDestroy(a);
out_op:
  cublasLtMatmulDescDestroy(op);
  return rc;
}}

int strided_{u}(cublasHandle_t h, const float *A, const float *B, float *C,
               int batch) {{
  const int n = {n};
  const long long stride = (long long)n * n;
  const float alpha = 1.0f, beta = 0.0f;
  cublasStatus_t st = cublasSgemmStridedBatched(
      h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, A, n, stride, B, n, stride,
      &beta, C, n, stride, batch);
  switch (st) {{
  case CUBLAS_STATUS_SUCCESS:
    return 0;
  case CUBLAS_STATUS_INVALID_VALUE:
    std::fprintf(stderr, "invalid strided batch\n");
    return 2;
  default:
    return 1;
  }}
}}

float dot_device_{u}(cublasHandle_t h, const float *dx, const float *dy, int n) {{
  float *dResult = nullptr;
  float result = 0.0f;
  CUDA_CHECK(cudaMalloc(&dResult, sizeof(float)));
  CUBLAS_CHECK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
  CUBLAS_CHECK(cublasSdot(h, n, dx, 1, dy, 1, dResult));
  CUBLAS_CHECK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
  CUDA_CHECK(cudaMemcpy(&result, dResult, sizeof(float),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(dResult));
  return result;
}}

void axpy_loop_{u}(cublasHandle_t h, float *dy, const float *dx, int n,
                   int rounds) {{
  const float alpha = {alpha}f;
  for (int r = 0; r < rounds; ++r) {{
    if (r & 1)
      cublasSaxpy(h, n, &alpha, dx, 1, dy, 1);
    else
      CUBLAS_CHECK(cublasSscal(h, n, &alpha, dy, 1));
  }}
}}

cublasStatus_t copy_in_{u}(const std::vector<double> &host, double *dev, int rows,
                          int cols) {{
  if ((int)host.size() < rows * cols)
    throw std::invalid_argument("host matrix too small");
  return cublasSetMatrix(rows, cols, sizeof(double), host.data(), rows, dev,
                         rows);
}}

}} // namespace bench
'''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--units", type=int, default=10)
    args = ap.parse_args()
    out = [PRELUDE]
    for u in range(args.units):
        out.append(UNIT.format(u=u, n=64 + 16 * (u % 7), m=32 + 8 * (u % 5),
                               k=16 + 4 * (u % 3), mod=2 + u % 4,
                               alpha="%d.5" % (u % 3)))
    print("".join(out))


if __name__ == "__main__":
    main()
