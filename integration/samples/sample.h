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
#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <cstdio>
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

// Values that make wrong results visible: no two neighbours alike.
inline std::vector<float> ramp(std::size_t n, float scale) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = scale * static_cast<float>(i % 7 + 1);
  return v;
}

#endif
