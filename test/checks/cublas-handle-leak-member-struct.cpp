// RUN: %check_clang_tidy %s cublas-handle-leak %t

// C-style contexts: a struct whose handle member a function of the file
// creates through a pointer or a reference (`ctx_create(&ctx)`), or in a
// context it makes and returns (`ctx = ctx_new()`), and that nothing
// destroys: every context the file makes and sets up leaks one. And the
// contexts a naive rule would flag.

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cstdlib>

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

// --- Factories: a function that makes the context and returns it ----------

// Reported: the release function frees the context but not its handle; a
// context made on every call of `solve_step`.
typedef struct {
  cublasHandle_t handle;
  float *work;
  int n;
} gemm_ctx;

gemm_ctx *gemm_ctx_new(int n) {
  gemm_ctx *c = (gemm_ctx *)malloc(sizeof(gemm_ctx));
  if (!c)
    return nullptr;
  if (cublasCreate(&c->handle) != CUBLAS_STATUS_SUCCESS) {
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: handle member 'handle' is created in 'gemm_ctx_new', but nothing destroys it: every 'gemm_ctx' it returns leaks one; call 'cublasDestroy' where a 'gemm_ctx' is released [cublas-handle-leak]
    free(c);
    return nullptr;
  }
  c->n = n;
  c->work = nullptr;
  return c;
}

void gemm_ctx_free(gemm_ctx *c) { free(c); }

int solve_step(float *x, int n) {
  gemm_ctx *c = gemm_ctx_new(n);
  // CHECK-NOTES: :[[@LINE-1]]:17: note: 'gemm_ctx_new' makes a 'gemm_ctx' here
  if (!c)
    return 1;
  const float a = 0.5f;
  cublasSscal(c->handle, n, &a, x, 1);
  gemm_ctx_free(c);
  return 0;
}

// Reported: a C++ factory with new, the object deleted without destroying.
struct Engine {
  cublasHandle_t h;
};
Engine *make_engine() {
  Engine *e = new Engine;
  cublasCreate(&e->h);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: handle member 'h' is created in 'make_engine', but nothing destroys it: every 'Engine' it returns leaks one; call 'cublasDestroy' where a 'Engine' is released [cublas-handle-leak]
  return e;
}
void run_engine(float *x, int n) {
  Engine *e;
  e = make_engine();
  // CHECK-NOTES: :[[@LINE-1]]:7: note: 'make_engine' makes a 'Engine' here
  const float a = 2.0f;
  cublasSscal(e->h, n, &a, x, 1);
  delete e;
}

// Not reported: the release function destroys the handle.
typedef struct {
  cublasHandle_t handle;
} owned_ctx;
owned_ctx *owned_ctx_new() {
  owned_ctx *c = (owned_ctx *)malloc(sizeof(owned_ctx));
  cublasCreate(&c->handle);
  return c;
}
void owned_ctx_free(owned_ctx *c) {
  cublasDestroy(c->handle);
  free(c);
}
void use_owned_ctx() {
  owned_ctx *c = owned_ctx_new();
  owned_ctx_free(c);
}

// Not reported: released by a function of another file.
typedef struct {
  cublasHandle_t handle;
} remote_ctx;
remote_ctx *remote_ctx_new() {
  remote_ctx *c = (remote_ctx *)malloc(sizeof(remote_ctx));
  cublasCreate(&c->handle);
  return c;
}
void remote_ctx_free(remote_ctx *c);
void use_remote_ctx() {
  remote_ctx *c = remote_ctx_new();
  remote_ctx_free(c);
}

// Not reported: one context for the process, kept in a global.
typedef struct {
  cublasHandle_t handle;
} global_ctx;
global_ctx *g_ctx;
global_ctx *global_ctx_new() {
  global_ctx *c = (global_ctx *)malloc(sizeof(global_ctx));
  cublasCreate(&c->handle);
  return c;
}
void setup_global() { g_ctx = global_ctx_new(); }

// Not reported: a function that returns what the factory made hands it to
// its caller.
typedef struct {
  cublasHandle_t handle;
} passed_ctx;
passed_ctx *passed_ctx_new() {
  passed_ctx *c = (passed_ctx *)malloc(sizeof(passed_ctx));
  cublasCreate(&c->handle);
  return c;
}
passed_ctx *open_passed() { return passed_ctx_new(); }

// Not reported: a factory that returns another object than the one whose
// handle it creates.
struct Inner {
  cublasHandle_t h;
};
struct Outer {
  Inner *inner;
};
Inner g_inner;
Outer *make_outer() {
  Inner *in = &g_inner;
  cublasCreate(&in->h);
  Outer *o = new Outer;
  o->inner = in;
  return o;
}
void use_outer() {
  Outer *o = make_outer();
  delete o;
}
