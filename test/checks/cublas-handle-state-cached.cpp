// RUN: %check_clang_tidy %s cublas-handle-state %t

// A GEMM wrapper that remembers the stream and the workspace it gave its
// handle, and calls cublasSetStream and cublasSetWorkspace only when they
// change. The stream change resets the workspace to cuBLAS's default pool,
// but the cache still holds the old workspace: a call on a new stream with
// the same workspace skips cublasSetWorkspace and the GEMM runs without
// it. And the caches that stay right.

#include <cublas_v2.h>

// --- Reported -------------------------------------------------------------

class Gemm {
public:
  void run(cudaStream_t stream, void *ws, size_t bytes, int n, const float *a,
           const float *b, float *c) {
    if (stream != stream_) {
      cublasSetStream(handle_, stream);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: 'cublasSetStream' resets the workspace of 'handle_' to cuBLAS's default pool, but 'cublasSetWorkspace' runs again only when 'ws' differs from the cached 'workspace_': on a new stream with the same workspace 'cublasSgemm' runs without it; set the workspace again after each stream change, or clear 'workspace_' there [cublas-handle-state]
      stream_ = stream;
    }
    if (ws != workspace_) {
      cublasSetWorkspace(handle_, ws, bytes);
      // CHECK-NOTES: :[[@LINE-1]]:7: note: the workspace is set only when the cache misses
      workspace_ = ws;
    }
    const float one = 1.f, zero = 0.f;
    cublasSgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n,
                &zero, c, n);
    // CHECK-NOTES: :[[@LINE-2]]:5: note: runs with the default workspace
  }

private:
  cublasHandle_t handle_;
  cudaStream_t stream_ = nullptr;
  void *workspace_ = nullptr;
};

// The stream set on every call, the workspace only when it changes.
cublasHandle_t g_blas;
void *g_last_ws;

void gemm_on(cudaStream_t s, void *ws, int n, const float *a, float *c) {
  cublasSetStream(g_blas, s);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'cublasSetStream' resets the workspace of 'g_blas' to cuBLAS's default pool, but 'cublasSetWorkspace' runs again only when 'ws' differs from the cached 'g_last_ws': on a new stream with the same workspace 'cublasSgemm' runs without it; set the workspace again after each stream change, or clear 'g_last_ws' there [cublas-handle-state]
  if (g_last_ws != ws) {
    cublasSetWorkspace(g_blas, ws, 1 << 22);
    // CHECK-NOTES: :[[@LINE-1]]:5: note: the workspace is set only when the cache misses
    g_last_ws = ws;
  }
  const float one = 1.f, zero = 0.f;
  cublasSgemm(g_blas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, a, n,
              &zero, c, n);
  // CHECK-NOTES: :[[@LINE-2]]:3: note: runs with the default workspace
}

// --- Not reported ----------------------------------------------------------

// The cache cleared where the stream changes: the next test misses.
class GemmCleared {
public:
  void run(cudaStream_t stream, void *ws, size_t bytes, int n, const float *a,
           float *c) {
    if (stream != stream_) {
      cublasSetStream(handle_, stream);
      stream_ = stream;
      workspace_ = nullptr;
    }
    if (ws != workspace_) {
      cublasSetWorkspace(handle_, ws, bytes);
      workspace_ = ws;
    }
    const float one = 1.f, zero = 0.f;
    cublasSgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, a, n,
                &zero, c, n);
  }

private:
  cublasHandle_t handle_;
  cudaStream_t stream_ = nullptr;
  void *workspace_ = nullptr;
};

// The workspace set again inside the stream branch.
class GemmBoth {
public:
  void run(cudaStream_t stream, void *ws, size_t bytes, int n, const float *a,
           float *c) {
    if (stream != stream_) {
      cublasSetStream(handle_, stream);
      cublasSetWorkspace(handle_, ws, bytes);
      stream_ = stream;
      workspace_ = ws;
    }
    if (ws != workspace_) {
      cublasSetWorkspace(handle_, ws, bytes);
      workspace_ = ws;
    }
    const float one = 1.f, zero = 0.f;
    cublasSgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, a, n,
                &zero, c, n);
  }

private:
  cublasHandle_t handle_;
  cudaStream_t stream_ = nullptr;
  void *workspace_ = nullptr;
};

// The test asks about the stream too: a new stream always sets the
// workspace.
class GemmKeyed {
public:
  void run(cudaStream_t stream, void *ws, size_t bytes, int n, const float *a,
           float *c) {
    bool new_stream = stream != stream_;
    if (new_stream) {
      cublasSetStream(handle_, stream);
      stream_ = stream;
    }
    if (new_stream || ws != workspace_) {
      cublasSetWorkspace(handle_, ws, bytes);
      workspace_ = ws;
    }
    const float one = 1.f, zero = 0.f;
    cublasSgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, a, n,
                &zero, c, n);
  }

private:
  cublasHandle_t handle_;
  cudaStream_t stream_ = nullptr;
  void *workspace_ = nullptr;
};

// The workspace set on every call after the stream: no cache.
void gemm_every_time(cudaStream_t s, void *ws, int n, const float *a,
                     float *c) {
  cublasSetStream(g_blas, s);
  cublasSetWorkspace(g_blas, ws, 1 << 22);
  const float one = 1.f, zero = 0.f;
  cublasSgemm(g_blas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, a, n,
              &zero, c, n);
}

// A guard that is no cache: the size decides, and no variable remembers
// the workspace.
void gemm_sized(cudaStream_t s, void *ws, size_t bytes, int n, const float *a,
                float *c) {
  cublasSetStream(g_blas, s);
  if (bytes > 0) {
    cublasSetWorkspace(g_blas, ws, bytes);
  }
  const float one = 1.f, zero = 0.f;
  cublasSgemm(g_blas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, a, n,
              &zero, c, n);
}

// A local is no cache: it forgets between calls, so the workspace is set
// on every call.
void gemm_local(cudaStream_t s, void *ws, int n, const float *a, float *c) {
  void *prev = nullptr;
  cublasSetStream(g_blas, s);
  if (ws != prev) {
    cublasSetWorkspace(g_blas, ws, 1 << 22);
    prev = ws;
  }
  const float one = 1.f, zero = 0.f;
  cublasSgemm(g_blas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, a, n,
              &zero, c, n);
}

// The workspace looked up by the stream: one per stream, so a new stream
// never comes with the cached workspace.
void *workspace_for(cudaStream_t s);
void gemm_per_stream(cudaStream_t s, int n, const float *a, float *c) {
  cublasSetStream(g_blas, s);
  void *ws = workspace_for(s);
  if (ws != g_last_ws) {
    cublasSetWorkspace(g_blas, ws, 1 << 22);
    g_last_ws = ws;
  }
  const float one = 1.f, zero = 0.f;
  cublasSgemm(g_blas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, a, n,
              &zero, c, n);
}
