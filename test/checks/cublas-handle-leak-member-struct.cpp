// RUN: %check_clang_tidy %s cublas-handle-leak %t

// C-style contexts: a struct whose handle member a function of the file
// creates through a pointer or a reference (`ctx_create(&ctx)`), and that
// nothing destroys: every context the file makes and sets up leaks one.
// And the contexts a naive rule would flag.

#include <cublas_v2.h>
#include <cuda_runtime.h>

// --- Reported -------------------------------------------------------------

struct BlasCtx {
  cublasHandle_t handle = nullptr;
  cudaStream_t stream = nullptr;
};

bool ctx_create(BlasCtx *ctx) {
  if (cudaStreamCreate(&ctx->stream) != cudaSuccess)
    return false;
  if (cublasCreate(&ctx->handle) != CUBLAS_STATUS_SUCCESS)
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: handle member 'handle' is created in 'ctx_create', but nothing destroys it: every 'BlasCtx' it runs on leaks one; call 'cublasDestroy' where a 'BlasCtx' is released [cublas-handle-leak]
    return false;
  cublasSetStream(ctx->handle, ctx->stream);
  return true;
}

void ctx_destroy(BlasCtx *ctx) { cudaStreamDestroy(ctx->stream); }

int run_job(const float *x, float *y, int n) {
  BlasCtx ctx;
  if (!ctx_create(&ctx))
    // CHECK-NOTES: :[[@LINE-1]]:8: note: 'ctx_create' runs on a 'BlasCtx' here
    return 1;
  const float a = 2.0f;
  cublasSaxpy(ctx.handle, n, &a, x, 1, y, 1);
  ctx_destroy(&ctx);
  return 0;
}

struct Solver {
  cublasHandle_t h;
};
void solver_init(Solver &s) { cublasCreate(&s.h); }
// CHECK-NOTES: :[[@LINE-1]]:31: warning: handle member 'h' is created in 'solver_init', but nothing destroys it: every 'Solver' it runs on leaks one; call 'cublasDestroy' where a 'Solver' is released [cublas-handle-leak]
void solve(float *x, int n) {
  Solver s;
  solver_init(s);
  // CHECK-NOTES: :[[@LINE-1]]:3: note: 'solver_init' runs on a 'Solver' here
  const float two = 2.0f;
  cublasSscal(s.h, n, &two, x, 1);
}

// --- Not reported ---------------------------------------------------------

// Destroyed by the file's release function.
struct Owned {
  cublasHandle_t h;
};
void owned_init(Owned *o) { cublasCreate(&o->h); }
void owned_free(Owned *o) { cublasDestroy(o->h); }
void use_owned() {
  Owned o;
  owned_init(&o);
  owned_free(&o);
}

// A release function of another file may destroy it.
struct Remote {
  cublasHandle_t h;
};
void remote_init(Remote *r) { cublasCreate(&r->h); }
void remote_free(Remote *r);
void use_remote() {
  Remote r;
  remote_init(&r);
  remote_free(&r);
}

// Set up once, in main: the process ends with it.
struct Once {
  cublasHandle_t h;
};
void once_init(Once *o) { cublasCreate(&o->h); }
int main() {
  Once o;
  once_init(&o);
  return 0;
}

// Set up on a context the function is given: the caller's.
struct Given {
  cublasHandle_t h;
};
void given_init(Given *g) { cublasCreate(&g->h); }
void setup_given(Given *g) { given_init(g); }

// Handed to a function of the file that keeps it somewhere.
struct Kept {
  cublasHandle_t h;
};
cublasHandle_t g_kept;
void kept_init(Kept *k) { cublasCreate(&k->h); }
void use_kept() {
  Kept k;
  kept_init(&k);
  g_kept = k.h;
}
