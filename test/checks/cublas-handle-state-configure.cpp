// RUN: %check_clang_tidy %s cublas-handle-state %t

// A helper that sets a handle's workspace and then its stream, and returns:
// the stream change threw the workspace away, and every call its caller
// makes on the handle runs on cuBLAS's default pool. The handle outlives
// the helper (a global, a parameter, a member), so the use is elsewhere.
// And the helpers a naive rule would flag.

#include <cublas_v2.h>

cublasHandle_t g_blas;
void *g_ws;

// --- Reported -------------------------------------------------------------

void setup(cudaStream_t s) {
  cublasSetWorkspace(g_blas, g_ws, 1 << 22);
  cublasSetStream(g_blas, s);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'cublasSetStream' resets the workspace of 'g_blas' to cuBLAS's default pool: the workspace that 'cublasSetWorkspace' gave it before is lost, and every call on 'g_blas' after 'setup' returns runs without it; set the stream first and the workspace after it [cublas-handle-state]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the workspace that is lost
}

void configure(cublasHandle_t h, cudaStream_t s, void *ws, size_t bytes) {
  cublasSetWorkspace(h, ws, bytes);
  cublasSetStream(h, s);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'cublasSetStream' resets the workspace of 'h' to cuBLAS's default pool: the workspace that 'cublasSetWorkspace' gave it before is lost, and every call on 'h' after 'configure' returns runs without it; set the stream first and the workspace after it [cublas-handle-state]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the workspace that is lost
}

struct Engine {
  cublasHandle_t handle;
  void bind(cudaStream_t s, void *ws) {
    cublasSetWorkspace(handle, ws, 1 << 22);
    cublasSetStream(handle, s);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'cublasSetStream' resets the workspace of 'handle' to cuBLAS's default pool: the workspace that 'cublasSetWorkspace' gave it before is lost, and every call on 'handle' after 'Engine::bind' returns runs without it; set the stream first and the workspace after it [cublas-handle-state]
    // CHECK-NOTES: :[[@LINE-3]]:5: note: the workspace that is lost
  }
};

// A caller in the file that calls the helper and then works on the handle:
// the helper's own call is no workspace set by the caller.
static void attach(cublasHandle_t h, cudaStream_t s, void *ws) {
  cublasSetWorkspace(h, ws, 1 << 22);
  cublasSetStream(h, s);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'cublasSetStream' resets the workspace of 'h' to cuBLAS's default pool: the workspace that 'cublasSetWorkspace' gave it before is lost, and every call on 'h' after 'attach' returns runs without it; set the stream first and the workspace after it [cublas-handle-state]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the workspace that is lost
}
void attach_and_run(cublasHandle_t h, cudaStream_t s, void *ws,
                    const float *A, float *C, int n) {
  attach(h, s, ws);
  const float one = 1.f, zero = 0.f;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, A, n, &zero,
              C, n);
}

// --- Not reported ----------------------------------------------------------

// The PyTorch order: stream first, workspace after it.
void setup_right(cudaStream_t s) {
  cublasSetStream(g_blas, s);
  cublasSetWorkspace(g_blas, g_ws, 1 << 22);
}

// A local handle destroyed before the function returns: nothing outlives
// it.
void local_handle(cudaStream_t s, void *ws) {
  cublasHandle_t h;
  cublasCreate(&h);
  cublasSetWorkspace(h, ws, 1 << 22);
  cublasSetStream(h, s);
  cublasDestroy(h);
}

// The default pool given back first (a null workspace): nothing to lose.
void reset(cublasHandle_t h, cudaStream_t s) {
  cublasSetWorkspace(h, nullptr, 0);
  cublasSetStream(h, s);
}

// A caller that sets the workspace again after the helper's stream change.
static void stream_only(cublasHandle_t h, cudaStream_t s, void *ws) {
  cublasSetWorkspace(h, ws, 1 << 20);
  cublasSetStream(h, s);
}
void caller_sets_workspace(cublasHandle_t h, cudaStream_t s, void *ws) {
  stream_only(h, s, ws);
  cublasSetWorkspace(h, ws, 1 << 20);
}

// The workspace set again after the stream on every path.
void set_again(cudaStream_t s, bool big) {
  cublasSetWorkspace(g_blas, g_ws, 1 << 20);
  cublasSetStream(g_blas, s);
  if (big)
    cublasSetWorkspace(g_blas, g_ws, 1 << 22);
  else
    cublasSetWorkspace(g_blas, g_ws, 1 << 20);
}
