// What every integration sample shares: how it reports what happened. The
// runner reads the lines a sample prints that start with
//
//   RESULT: OK | RESULT: WRONG      the sample's own check of its numbers
//   CUDA-ERROR: <cudaError_t name>  a CUDA runtime call failed
//   CUBLAS-ERROR: <status name>     a cuBLAS call whose status it checks failed
//
// See docs/integration.md. Nothing here may be flagged by a cublas-* check.
#ifndef CUBLAS_TIDY_INTEGRATION_SAMPLE_H
#define CUBLAS_TIDY_INTEGRATION_SAMPLE_H

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <initializer_list>
#include <vector>

// True when the CUDA runtime call succeeded; prints CUDA-ERROR otherwise.
inline bool cuda_ok(cudaError_t err, const char *what) {
  if (err == cudaSuccess)
    return true;
  std::printf("CUDA-ERROR: %s (%s)\n", cudaGetErrorName(err), what);
  return false;
}

// True when the cuBLAS call succeeded; prints CUBLAS-ERROR otherwise.
inline bool cublas_ok(cublasStatus_t status, const char *what) {
  if (status == CUBLAS_STATUS_SUCCESS)
    return true;
  std::printf("CUBLAS-ERROR: %s (%s)\n", cublasGetStatusName(status), what);
  return false;
}

// Waits for the device: a kernel that faulted shows up here.
inline bool device_ok(const char *what) {
  return cuda_ok(cudaDeviceSynchronize(), what);
}

// Prints the verdict on the sample's result; returns the exit code.
inline int report_result(bool ok) {
  std::printf("RESULT: %s\n", ok ? "OK" : "WRONG");
  return ok ? 0 : 1;
}

inline bool all_close(const std::vector<float> &got,
                      const std::vector<float> &want) {
  if (got.size() != want.size())
    return false;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!(std::fabs(got[i] - want[i]) <= 1e-3f * (1.0f + std::fabs(want[i]))))
      return false;
  return true;
}

// A device copy of `host` (cudaMalloc and cudaMemcpy); nullptr, after a
// CUDA-ERROR line, when that fails. T may be a pointer type: a device array
// of device pointers for a batched call.
template <class T> T *to_device(const std::vector<T> &host, const char *what) {
  T *device = nullptr;
  if (!cuda_ok(cudaMalloc(&device, host.size() * sizeof(T)), what))
    return nullptr;
  if (!cuda_ok(cudaMemcpy(device, host.data(), host.size() * sizeof(T),
                          cudaMemcpyHostToDevice),
               what)) {
    cuda_ok(cudaFree(device), what);
    return nullptr;
  }
  return device;
}

// n floats of device memory set to zero; nullptr when that fails.
inline float *device_zeros(std::size_t n, const char *what) {
  float *device = nullptr;
  if (!cuda_ok(cudaMalloc(&device, n * sizeof(float)), what))
    return nullptr;
  if (!cuda_ok(cudaMemset(device, 0, n * sizeof(float)), what)) {
    cuda_ok(cudaFree(device), what);
    return nullptr;
  }
  return device;
}

// Copies host.size() elements from the device into `host`.
template <class T>
bool to_host(std::vector<T> &host, const T *device, const char *what) {
  return cuda_ok(cudaMemcpy(host.data(), device, host.size() * sizeof(T),
                            cudaMemcpyDeviceToHost),
                 what);
}

// cudaFree of each pointer. A pointer copied into the braced list counts as
// escaping for the memory checks, which then say nothing about it anywhere
// in the function: free the buffers a sample's bug is about with cudaFree.
inline void free_device(std::initializer_list<const void *> pointers) {
  for (const void *p : pointers)
    cuda_ok(cudaFree(const_cast<void *>(p)), "cudaFree");
}

// C = A * B on the host, column-major: A is m x k (leading dimension m),
// B is k x n (leading dimension k), C is m x n (leading dimension m).
inline std::vector<float> host_gemm(int m, int n, int k,
                                    const std::vector<float> &a,
                                    const std::vector<float> &b) {
  std::vector<float> c(static_cast<std::size_t>(m) * n, 0.0f);
  for (int j = 0; j < n; ++j)
    for (int p = 0; p < k; ++p)
      for (int i = 0; i < m; ++i)
        c[i + static_cast<std::size_t>(j) * m] +=
            a[i + static_cast<std::size_t>(p) * m] *
            b[p + static_cast<std::size_t>(j) * k];
  return c;
}

// The verdict on C = A * B, computed on the device when `ok`.
inline int report_product(bool ok, int m, int n, int k,
                          const std::vector<float> &a,
                          const std::vector<float> &b,
                          const std::vector<float> &c) {
  return report_result(ok && all_close(c, host_gemm(m, n, k, a, b)));
}

// Whether batch i of C (m x n, at i * c_stride) is A_i * B_i for the
// batches of A (m x k) and B (k x n) stored one after the other.
inline bool batches_right(const std::vector<float> &a,
                          const std::vector<float> &b,
                          const std::vector<float> &c, int m, int n, int k,
                          int batch, std::size_t c_stride) {
  const std::size_t a_size = std::size_t(m) * k, b_size = std::size_t(k) * n;
  for (int i = 0; i < batch; ++i) {
    const std::vector<float> a_i(a.begin() + i * a_size,
                                 a.begin() + (i + 1) * a_size);
    const std::vector<float> b_i(b.begin() + i * b_size,
                                 b.begin() + (i + 1) * b_size);
    const std::vector<float> c_i(c.begin() + i * c_stride,
                                 c.begin() + i * c_stride + std::size_t(m) * n);
    if (!all_close(c_i, host_gemm(m, n, k, a_i, b_i)))
      return false;
  }
  return true;
}

// The same values as __half (exact for ramp() of small scales), and back.
inline std::vector<__half> to_half(const std::vector<float> &v) {
  std::vector<__half> h(v.size());
  for (std::size_t i = 0; i < v.size(); ++i)
    h[i] = __float2half(v[i]);
  return h;
}
inline std::vector<float> from_half(const std::vector<__half> &h) {
  std::vector<float> v(h.size());
  for (std::size_t i = 0; i < h.size(); ++i)
    v[i] = __half2float(h[i]);
  return v;
}

// Values that make wrong results visible: no two neighbours alike.
inline std::vector<float> ramp(std::size_t n, float scale) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = scale * static_cast<float>(i % 7 + 1);
  return v;
}

#endif
