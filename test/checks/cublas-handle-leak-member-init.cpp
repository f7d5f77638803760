// RUN: %check_clang_tidy %s cublas-handle-leak %t

// A class whose handle member is created by a method the user calls after
// construction (`init()`, `setup()`), and that nothing destroys: every
// object the file makes and initialises leaks one. And the classes and
// objects a naive rule would flag.

#include <cublas_v2.h>
#include <memory>

// --- Reported -------------------------------------------------------------

class Layer {
public:
  void setup() { cublasCreate(&h_); }
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: handle member 'h_' is created in 'Layer::setup', but nothing destroys it: every 'Layer' object it runs on leaks one; call 'cublasDestroy' in '~Layer' [cublas-handle-leak]
  void forward(float *x, int n) {
    const float two = 2.0f;
    cublasSscal(h_, n, &two, x, 1);
  }

private:
  cublasHandle_t h_;
};

void step(float *x, int n) {
  Layer l;
  l.setup();
  // CHECK-NOTES: :[[@LINE-1]]:3: note: 'setup' runs on a 'Layer' here
  l.forward(x, n);
}

struct Solver {
  bool init() {
    if (h)
      return true;
    return cublasCreate(&h) == CUBLAS_STATUS_SUCCESS;
    // CHECK-NOTES: :[[@LINE-1]]:12: warning: handle member 'h' is created in 'Solver::init', but nothing destroys it: every 'Solver' object it runs on leaks one; call 'cublasDestroy' in '~Solver' [cublas-handle-leak]
  }
  cublasHandle_t h = nullptr;
};

void solve(float *x, int n) {
  auto s = std::make_unique<Solver>();
  if (!s->init())
    // CHECK-NOTES: :[[@LINE-1]]:8: note: 'init' runs on a 'Solver' here
    return;
  const float two = 2.0f;
  cublasSscal(s->h, n, &two, x, 1);
}

// --- Not reported ---------------------------------------------------------

// Destroyed by a method of the class.
class Closed {
public:
  void open() { cublasCreate(&h_); }
  void close() { cublasDestroy(h_); }

private:
  cublasHandle_t h_;
};
void use_closed() {
  Closed c;
  c.open();
  c.close();
}

// Initialised only on a global object: one handle for the process.
class Global {
public:
  void init() { cublasCreate(&h_); }

private:
  cublasHandle_t h_;
};
Global g_global;
void start() { g_global.init(); }

// Initialised on an object the function is given: whose it is, and what
// becomes of it, is the caller's.
class Given {
public:
  void init() { cublasCreate(&h_); }

private:
  cublasHandle_t h_;
};
void start_given(Given &g) { g.init(); }

// A destructor defined in another file.
class Elsewhere {
public:
  ~Elsewhere();
  void init() { cublasCreate(&h_); }

private:
  cublasHandle_t h_;
};
void use_elsewhere() {
  Elsewhere e;
  e.init();
}
