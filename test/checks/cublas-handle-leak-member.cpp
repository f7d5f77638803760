// RUN: %check_clang_tidy %s cublas-handle-leak %t

// A handle kept in a class member, created when an object is constructed
// and never destroyed: every object leaks one. And the classes a naive rule
// would flag.

#include <cublas_v2.h>
#include <cublasLt.h>
#include <cusolverDn.h>
#include <memory>

// --- Reported -------------------------------------------------------------

class Gemm {
public:
  Gemm() { cublasCreate(&handle_); }
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: handle member 'handle_' is created when a 'Gemm' is constructed, but nothing destroys it: every 'Gemm' object leaks one; call 'cublasDestroy' in '~Gemm' [cublas-handle-leak]
  void run(const float *A, float *C, int n) {
    const float one = 1.0f, zero = 0.0f;
    cublasSgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, A, n,
                &zero, C, n);
  }

private:
  cublasHandle_t handle_;
};

void layer(const float *A, float *C, int n) {
  Gemm g;
  // CHECK-NOTES: :[[@LINE-1]]:8: note: a 'Gemm' is created here
  g.run(A, C, n);
}

struct LtRunner {
  LtRunner() { init(); }
  void init() { cublasLtCreate(&lt); }
  // CHECK-NOTES: :[[@LINE-1]]:17: warning: handle member 'lt' is created when a 'LtRunner' is constructed, but nothing destroys it: every 'LtRunner' object leaks one; call 'cublasLtDestroy' in '~LtRunner' [cublas-handle-leak]
  ~LtRunner() {}
  cublasLtHandle_t lt;
};

LtRunner *make_runner() {
  return new LtRunner();
  // CHECK-NOTES: :[[@LINE-1]]:14: note: a 'LtRunner' is created here
}

// One cuSOLVER handle is one, as a cuBLAS handle is (not "the ones it
// holds", the words for an array of them).
class Solver {
public:
  Solver() { cusolverDnCreate(&h_); }
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: handle member 'h_' is created when a 'Solver' is constructed, but nothing destroys it: every 'Solver' object leaks one; call 'cusolverDnDestroy' in '~Solver' [cublas-handle-leak]
  cusolverDnHandle_t h_ = nullptr;
};
void solve() {
  Solver s;
  // CHECK-NOTES: :[[@LINE-1]]:10: note: a 'Solver' is created here
}

// Objects made by std::make_unique and std::make_shared are constructed
// inside the standard library: the call is where the file makes them.
struct Scaler {
  Scaler() { cublasCreate(&h); }
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: handle member 'h' is created when a 'Scaler' is constructed, but nothing destroys it: every 'Scaler' object leaks one; call 'cublasDestroy' in '~Scaler' [cublas-handle-leak]
  cublasHandle_t h;
};
void scale_request(float *x, int n) {
  auto s = std::make_unique<Scaler>();
  // CHECK-NOTES: :[[@LINE-1]]:12: note: a 'Scaler' is created here
  const float two = 2.0f;
  cublasSscal(s->h, n, &two, x, 1);
}
struct SharedScaler {
  SharedScaler() { cublasCreate(&h); }
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: handle member 'h' is created when a 'SharedScaler' is constructed, but nothing destroys it: every 'SharedScaler' object leaks one; call 'cublasDestroy' in '~SharedScaler' [cublas-handle-leak]
  cublasHandle_t h;
};
std::shared_ptr<SharedScaler> shared_scaler() {
  return std::make_shared<SharedScaler>();
  // CHECK-NOTES: :[[@LINE-1]]:10: note: a 'SharedScaler' is created here
}

// A helper of the file that only gives the handle it is given to cuBLAS
// keeps it: the member still leaks with each object.
static void gemm_into(cublasHandle_t h, const float *A, float *C, int n) {
  const float one = 1.0f, zero = 0.0f;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, A, n, &zero,
              C, n);
}
class Layer {
public:
  Layer() { cublasCreate(&h_); }
  // CHECK-NOTES: :[[@LINE-1]]:13: warning: handle member 'h_' is created when a 'Layer' is constructed, but nothing destroys it: every 'Layer' object leaks one; call 'cublasDestroy' in '~Layer' [cublas-handle-leak]
  void forward(const float *A, float *C, int n) { gemm_into(h_, A, C, n); }

private:
  cublasHandle_t h_;
};
void run_layer(const float *A, float *C, int n) {
  Layer l;
  // CHECK-NOTES: :[[@LINE-1]]:9: note: a 'Layer' is created here
  l.forward(A, C, n);
}

// --- Not reported ---------------------------------------------------------

// A destructor, or another function of the class, defined in another file:
// it may destroy the member there.
class DestroyedElsewhere {
public:
  DestroyedElsewhere() { cublasCreate(&handle_); }
  ~DestroyedElsewhere();
  cublasHandle_t get() { return nullptr; }
private:
  cublasHandle_t handle_;
};
class ShutdownElsewhere {
public:
  ShutdownElsewhere() { cublasCreate(&handle_); }
  void shutdown();
private:
  cublasHandle_t handle_;
};
void use_defined_elsewhere() {
  DestroyedElsewhere a;
  ShutdownElsewhere b;
}

class Owned {
public:
  Owned() { cublasCreate(&h_); }
  ~Owned() { cublasDestroy(h_); }
  void scale(float *x, int n) {
    const float two = 2.0f;
    cublasSscal(h_, n, &two, x, 1);
  }

private:
  cublasHandle_t h_;
};
void use_owned(float *x, int n) {
  Owned o;
  o.scale(x, n);
}

// Released by a member function the destructor calls.
class Released {
public:
  Released() { cublasCreate(&h_); }
  ~Released() { release(); }
  void release() {
    if (h_)
      cublasDestroy(h_);
    h_ = nullptr;
  }
  cublasHandle_t h_ = nullptr;
};
void use_released() { Released r; }

// Handed out by a getter: whoever gets it may destroy it.
class Getter {
public:
  Getter() { cublasCreate(&h_); }
  cublasHandle_t get() const { return h_; }

private:
  cublasHandle_t h_;
};
void use_getter() { Getter g; cublasDestroy(g.get()); }

// A helper that keeps the handle somewhere, one that destroys it, and one
// the file does not define: each may release it.
cublasHandle_t g_kept;
static void keep(cublasHandle_t h) { g_kept = h; }
static void finish(cublasHandle_t h) { cublasDestroy(h); }
void unseen_helper(cublasHandle_t h);
class Kept {
public:
  Kept() { cublasCreate(&h_); }
  void park() { keep(h_); }
private:
  cublasHandle_t h_;
};
class Finished {
public:
  Finished() { cublasCreate(&h_); }
  void done() { finish(h_); }
private:
  cublasHandle_t h_;
};
class Unseen {
public:
  Unseen() { cublasCreate(&h_); }
  void hand() { unseen_helper(h_); }
private:
  cublasHandle_t h_;
};
void use_helpers() {
  Kept k;
  k.park();
  Finished f;
  f.done();
  Unseen u;
  u.hand();
}

// A process-wide singleton: lives until the process ends.
class Context {
public:
  static Context &instance() {
    static Context c;
    return c;
  }
  void scale(float *x, int n) {
    const float two = 2.0f;
    cublasSscal(h_, n, &two, x, 1);
  }

private:
  Context() { cublasCreate(&h_); }
  cublasHandle_t h_;
};

// The same singleton made once by std::make_unique into a static.
struct LazyContext {
  LazyContext() { cublasCreate(&h); }
  cublasHandle_t h;
};
LazyContext &lazy_context() {
  static std::unique_ptr<LazyContext> c = std::make_unique<LazyContext>();
  return *c;
}

void use_context(float *x, int n) { Context::instance().scale(x, n); }

// A class never instantiated in this file.
class Unused {
public:
  Unused() { cublasCreate(&h_); }
  cublasHandle_t h_;
};

// A private member released by a friend function of the class.
class Befriended {
public:
  Befriended() { cublasCreate(&h_); }
  friend void release(Befriended &b);

private:
  cublasHandle_t h_;
};
void release(Befriended &b) { cublasDestroy(b.h_); }
void use_befriended() {
  Befriended b;
  release(b);
}

// ... by a lambda in a member function, and by a nested class.
class ViaLambda {
public:
  ViaLambda() { cublasCreate(&h_); }
  ~ViaLambda() {
    auto done = [this] { cublasDestroy(h_); };
    done();
  }

private:
  cublasHandle_t h_;
};
void use_via_lambda() { ViaLambda v; }

class ViaNested {
public:
  ViaNested() { cublasCreate(&h_); }
  struct Closer {
    void close(ViaNested &v) { cublasDestroy(v.h_); }
  };

private:
  cublasHandle_t h_;
};
void use_via_nested() {
  ViaNested v;
  ViaNested::Closer().close(v);
}

// --- Reported: a cuBLASLt descriptor member, and an empty destructor -----
struct Described {
  Described() { cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F); }
  // CHECK-NOTES: :[[@LINE-1]]:17: warning: descriptor member 'op' is created when a 'Described' is constructed, but nothing destroys it: every 'Described' object leaks one; call 'cublasLtMatmulDescDestroy' in '~Described' [cublas-handle-leak]
  ~Described() {}
  cublasLtMatmulDesc_t op;
};
void makeDescribed() { Described d; }
// CHECK-NOTES: :[[@LINE-1]]:34: note: a 'Described' is created here
