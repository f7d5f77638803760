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

// The workspace handed over in a struct, its size cached beside it: the
// test asks only about the caches, so a new stream with the same workspace
// and size still skips the set.
struct Workspace {
  void *partials;
  size_t partials_size;
};

class Kernel {
public:
  int launch(int n, const float *a, float *c, Workspace &workspace,
             cudaStream_t stream) {
    if (stream_ != stream) {
      cublasSetStream(handle_, stream);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: 'cublasSetStream' resets the workspace of 'handle_' to cuBLAS's default pool, but 'cublasSetWorkspace' runs again only when 'workspace.partials' differs from the cached 'workspace_': on a new stream with the same workspace 'cublasSgemm' runs without it; set the workspace again after each stream change, or clear 'workspace_' there [cublas-handle-state]
      stream_ = stream;
    }
    if (workspace_ != workspace.partials ||
        workspace_size_ != workspace.partials_size) {
      cublasSetWorkspace(handle_, workspace.partials, workspace.partials_size);
      // CHECK-NOTES: :[[@LINE-1]]:7: note: the workspace is set only when the cache misses
      workspace_ = workspace.partials;
      workspace_size_ = workspace.partials_size;
    }
    const float one = 1.f, zero = 0.f;
    return cublasSgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n,
                       a, n, &zero, c, n);
    // CHECK-NOTES: :[[@LINE-2]]:12: note: runs with the default workspace
  }

private:
  cublasHandle_t handle_;
  cudaStream_t stream_{};
  void *workspace_{};
  size_t workspace_size_{};
};

// The stream changed by one method, the workspace cached by another: a
// set_stream() between two calls of run() with the same workspace leaves
// run()'s GEMM on the default pool.
class SplitGemm {
public:
  void set_stream(cudaStream_t s) {
    cublasSetStream(handle_, s);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'cublasSetStream' resets the workspace of 'handle_' to cuBLAS's default pool, but 'SplitGemm::run' sets it again only when 'ws' differs from the cached 'workspace_': the next call of 'SplitGemm::run' with the same workspace runs 'cublasSgemm' without it; clear 'workspace_' here, or set the workspace again [cublas-handle-state]
  }
  void run(void *ws, size_t bytes, int n, const float *a, float *c) {
    if (ws != workspace_) {
      cublasSetWorkspace(handle_, ws, bytes);
      // CHECK-NOTES: :[[@LINE-1]]:7: note: the workspace is set only when the cache misses
      workspace_ = ws;
    }
    const float one = 1.f, zero = 0.f;
    cublasSgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, a, n,
                &zero, c, n);
    // CHECK-NOTES: :[[@LINE-2]]:5: note: runs with the default workspace
  }

private:
  cublasHandle_t handle_;
  void *workspace_ = nullptr;
};

// The same with a global handle and cache, and a caller that binds the
// stream and then runs.
cublasHandle_t g_split;
void *g_split_ws;

void split_stream(cudaStream_t s) {
  cublasSetStream(g_split, s);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'cublasSetStream' resets the workspace of 'g_split' to cuBLAS's default pool, but 'split_run' sets it again only when 'ws' differs from the cached 'g_split_ws': the next call of 'split_run' with the same workspace runs 'cublasSscal' without it; clear 'g_split_ws' here, or set the workspace again [cublas-handle-state]
}

void split_run(void *ws, int n, float *x) {
  if (g_split_ws != ws) {
    cublasSetWorkspace(g_split, ws, 1 << 22);
    // CHECK-NOTES: :[[@LINE-1]]:5: note: the workspace is set only when the cache misses
    g_split_ws = ws;
  }
  const float two = 2.f;
  cublasSscal(g_split, n, &two, x, 1);
  // CHECK-NOTES: :[[@LINE-1]]:3: note: runs with the default workspace
}

void split_step(cudaStream_t s, void *ws, int n, float *x) {
  split_stream(s);
  split_run(ws, n, x);
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

// The size cache cleared where the stream changes: the next test misses.
class KernelSizeCleared {
public:
  int launch(int n, const float *a, float *c, Workspace &workspace,
             cudaStream_t stream) {
    if (stream_ != stream) {
      cublasSetStream(handle_, stream);
      stream_ = stream;
      workspace_size_ = 0;
    }
    if (workspace_ != workspace.partials ||
        workspace_size_ != workspace.partials_size) {
      cublasSetWorkspace(handle_, workspace.partials, workspace.partials_size);
      workspace_ = workspace.partials;
      workspace_size_ = workspace.partials_size;
    }
    const float one = 1.f, zero = 0.f;
    return cublasSgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n,
                       a, n, &zero, c, n);
  }

private:
  cublasHandle_t handle_;
  cudaStream_t stream_{};
  void *workspace_{};
  size_t workspace_size_{};
};

// A test that also asks whether the stream changed (not a cache).
class KernelKeyed {
public:
  int launch(int n, const float *a, float *c, Workspace &workspace,
             cudaStream_t stream) {
    bool changed = stream_ != stream;
    if (changed) {
      cublasSetStream(handle_, stream);
      stream_ = stream;
    }
    if (changed || workspace_ != workspace.partials) {
      cublasSetWorkspace(handle_, workspace.partials, workspace.partials_size);
      workspace_ = workspace.partials;
    }
    const float one = 1.f, zero = 0.f;
    return cublasSgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n,
                       a, n, &zero, c, n);
  }

private:
  cublasHandle_t handle_;
  cudaStream_t stream_{};
  void *workspace_{};
};

// A workspace that belongs to the stream: looked up into a local struct,
// so a new stream brings its own workspace.
Workspace workspace_of(cudaStream_t s);
class KernelPerStream {
public:
  int launch(int n, const float *a, float *c, cudaStream_t stream) {
    cublasSetStream(handle_, stream);
    Workspace w = workspace_of(stream);
    if (workspace_ != w.partials) {
      cublasSetWorkspace(handle_, w.partials, w.partials_size);
      workspace_ = w.partials;
    }
    const float one = 1.f, zero = 0.f;
    return cublasSgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n,
                       a, n, &zero, c, n);
  }

private:
  cublasHandle_t handle_;
  void *workspace_{};
};

// The stream method clears the other method's cache.
class SplitCleared {
public:
  void set_stream(cudaStream_t s) {
    cublasSetStream(handle_, s);
    workspace_ = nullptr;
  }
  void run(void *ws, size_t bytes, int n, const float *a, float *c) {
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
  void *workspace_ = nullptr;
};

// The stream method sets the remembered workspace again itself.
class SplitRestored {
public:
  void set_stream(cudaStream_t s) {
    cublasSetStream(handle_, s);
    if (workspace_)
      cublasSetWorkspace(handle_, workspace_, bytes_);
  }
  void run(void *ws, size_t bytes, int n, const float *a, float *c) {
    if (ws != workspace_) {
      cublasSetWorkspace(handle_, ws, bytes);
      workspace_ = ws;
      bytes_ = bytes;
    }
    const float one = 1.f, zero = 0.f;
    cublasSgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, a, n,
                &zero, c, n);
  }

private:
  cublasHandle_t handle_;
  void *workspace_ = nullptr;
  size_t bytes_ = 0;
};

// Another class's cache says nothing of this handle.
class StreamOnly {
public:
  void set_stream(cudaStream_t s) { cublasSetStream(handle_, s); }

private:
  cublasHandle_t handle_;
};

// A caller that sets the workspace itself after the stream change.
cublasHandle_t g_bound;
void *g_bound_ws;
void bound_stream(cudaStream_t s) { cublasSetStream(g_bound, s); }
void bound_run(void *ws, int n, float *x) {
  if (g_bound_ws != ws) {
    cublasSetWorkspace(g_bound, ws, 1 << 22);
    g_bound_ws = ws;
  }
  const float two = 2.f;
  cublasSscal(g_bound, n, &two, x, 1);
}
void bound_step(cudaStream_t s, void *ws, int n, float *x) {
  bound_stream(s);
  cublasSetWorkspace(g_bound, ws, 1 << 22);
  g_bound_ws = ws;
  bound_run(ws, n, x);
}
