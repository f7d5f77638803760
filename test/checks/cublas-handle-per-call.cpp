// RUN: %check_clang_tidy %s cublas-handle-per-call %t

// Handles created and destroyed around cuBLAS work on every iteration of a
// loop, or on every call of a function called in a loop; and the correct
// code that a naive rule would flag.

#include <cublas_v2.h>
#include <cublasLt.h>
#include <cuda_runtime.h>
#include <vector>

// --- Reported -------------------------------------------------------------

void scale_all(float **d_x, int batches, int n) {
  const float two = 2.0f;
  for (int b = 0; b < batches; ++b) {
    cublasHandle_t h;
    cublasCreate(&h);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: the cuBLAS handle 'h' is created and destroyed on every iteration of a loop; cublasCreate allocates a workspace and synchronizes the device each time: create it once before the loop and reuse it [cublas-handle-per-call]
    // CHECK-NOTES: :[[@LINE-4]]:3: note: the loop that repeats it
    cublasSscal(h, n, &two, d_x[b], 1);
    cublasDestroy(h);
  }
}

void checked_in_while(float *d_x, int n, int steps) {
  const float half = 0.5f;
  while (steps-- > 0) {
    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
      // CHECK-NOTES: :[[@LINE-1]]:9: warning: the cuBLAS handle 'h' is created and destroyed on every iteration of a loop; {{.*}}
      // CHECK-NOTES: :[[@LINE-4]]:3: note: the loop that repeats it
      return;
    if (cublasSscal(h, n, &half, d_x, 1) != CUBLAS_STATUS_SUCCESS) {
      cublasDestroy(h);
      return;
    }
    cublasDestroy(h);
  }
}

// A GEMM wrapper that makes its own handle, called from a training loop.
static void gemm(const float *A, const float *B, float *C, int n) {
  const float one = 1.0f, zero = 0.0f;
  cublasHandle_t handle;
  cublasCreate(&handle);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the cuBLAS handle 'handle' is created and destroyed on every call of 'gemm', which is called in a loop; cublasCreate allocates a workspace and synchronizes the device each time: create it once and pass it in, or keep one per thread and device [cublas-handle-per-call]
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, B, n,
              &zero, C, n);
  cublasDestroy(handle);
}

void train(const float *A, const float *B, float *C, int n, int steps) {
  for (int step = 0; step < steps; ++step)
    gemm(A, B, C, n);
  // CHECK-NOTES: :[[@LINE-1]]:5: note: 'gemm' is called in this loop
}

// cuBLASLt: a handle per matmul.
void lt_matmul_each(cublasLtMatmulDesc_t desc, const void *alpha,
                    const void *A, cublasLtMatrixLayout_t a,
                    const void *beta, void *C, cublasLtMatrixLayout_t c,
                    const std::vector<int> &jobs) {
  for (int job : jobs) {
    (void)job;
    cublasLtHandle_t lt;
    cublasLtCreate(&lt);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: the cuBLASLt handle 'lt' is created and destroyed on every iteration of a loop; cublasLtCreate allocates {{.*}}
    // CHECK-NOTES: :[[@LINE-5]]:3: note: the loop that repeats it
    cublasLtMatmul(lt, desc, alpha, A, a, A, a, beta, C, c, C, c, nullptr,
                   nullptr, 0, 0);
    cublasLtDestroy(lt);
  }
}

// --- Not reported ---------------------------------------------------------

// Created once before the loop and reused.
void reused(float **d_x, int batches, int n) {
  const float two = 2.0f;
  cublasHandle_t h;
  cublasCreate(&h);
  for (int b = 0; b < batches; ++b)
    cublasSscal(h, n, &two, d_x[b], 1);
  cublasDestroy(h);
}

// One handle per device: NVIDIA's guidance.
void per_device(float **d_x, int devices, int n) {
  const float two = 2.0f;
  for (int d = 0; d < devices; ++d) {
    cudaSetDevice(d);
    cublasHandle_t h;
    cublasCreate(&h);
    cublasSscal(h, n, &two, d_x[d], 1);
    cublasDestroy(h);
  }
}

// A retry loop: it stops at the first success.
void retry(float *d_x, int n) {
  const float two = 2.0f;
  for (int attempt = 0; attempt < 3; ++attempt) {
    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
      continue;
    cublasSscal(h, n, &two, d_x, 1);
    cublasDestroy(h);
    break;
  }
}

// Created only on the first iteration: a condition on the counter.
void first_iteration_only(float *d_x, int n, int steps) {
  const float two = 2.0f;
  for (int i = 0; i < steps; ++i) {
    if (i == 0) {
      cublasHandle_t h;
      cublasCreate(&h);
      cublasSscal(h, n, &two, d_x, 1);
      cublasDestroy(h);
    }
  }
}

// Created in the loop, destroyed after it: not a per-call pattern (the
// leak check's business).
void created_in_loop_kept(cublasHandle_t *out, int n) {
  for (int i = 0; i < n; ++i)
    if (!*out)
      cublasCreate(out);
}

// A create and destroy with no cuBLAS work between them (a probe).
bool probe(int devices) {
  for (int d = 0; d < devices; ++d) {
    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
      return false;
    cublasDestroy(h);
  }
  return true;
}

// A wrapper called once, and one called only outside loops.
static void solve_once(float *d_x, int n) {
  const float two = 2.0f;
  cublasHandle_t h;
  cublasCreate(&h);
  cublasSscal(h, n, &two, d_x, 1);
  cublasDestroy(h);
}

void run_once(float *d_x, int n) { solve_once(d_x, n); }

// A wrapper whose callers are not in this file: nothing is known.
void exported_gemm(const float *A, float *C, int n) {
  const float one = 1.0f, zero = 0.0f;
  cublasHandle_t h;
  cublasCreate(&h);
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, &one, A, n, A, n, &zero,
              C, n);
  cublasDestroy(h);
}

// A handle per thread of a pool: the loop starts workers, it does not
// call the function.
void worker(float *d_x, int n) {
  const float two = 2.0f;
  cublasHandle_t h;
  cublasCreate(&h);
  cublasSscal(h, n, &two, d_x, 1);
  cublasDestroy(h);
}
void start(void (*spawn)(void (*)(float *, int), float *, int), float **d_x,
           int workers, int n) {
  for (int w = 0; w < workers; ++w)
    spawn(worker, d_x[w], n);
}

int main() {
  // main is entered once.
  float *d_x = nullptr;
  const float two = 2.0f;
  cublasHandle_t h;
  cublasCreate(&h);
  cublasSscal(h, 16, &two, d_x, 1);
  cublasDestroy(h);
  run_once(d_x, 16);
  return 0;
}
