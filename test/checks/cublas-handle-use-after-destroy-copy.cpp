// RUN: %check_clang_tidy %s cublas-handle-use-after-destroy %t -- -- -std=c++17

// A class that creates a handle and destroys it in its destructor, copied
// by a copy operation the compiler writes: both objects hold the same
// handle and both destroy it. And the classes a naive rule would flag.

#include <cublas_v2.h>
#include <cublasLt.h>
#include <memory>
#include <utility>

// --- Reported -------------------------------------------------------------

class Gemm {
public:
  Gemm() { cublasCreate(&handle_); }
  ~Gemm() { cublasDestroy(handle_); }
  void run(const float *A, float *C, int n) const {
    const float one = 1.0f, zero = 0.0f;
    cublasSgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, A, n,
                &zero, C, n);
  }

private:
  cublasHandle_t handle_;
};

void copy_constructed(const float *A, float *C, int n) {
  Gemm a;
  Gemm b = a;
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: this copy of a 'Gemm' shares its handle member 'handle_' with the original: both destroy it in '~Gemm', so it is destroyed twice and the one left is used after destroy; delete the copy operations of 'Gemm' or give each object its own handle [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :[[@LINE-15]]:13: note: 'handle_' is destroyed here when each 'Gemm' is destroyed
  b.run(A, C, n);
  a.run(A, C, n);
}

void by_value(Gemm g, const float *A, float *C, int n) { g.run(A, C, n); }

void passed_by_value(const float *A, float *C, int n) {
  Gemm a;
  by_value(a, A, C, n);
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: this copy of a 'Gemm' shares its handle member 'handle_' with the original: both destroy it in '~Gemm', so it is destroyed twice and the one left is used after destroy; delete the copy operations of 'Gemm' or give each object its own handle [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :[[@LINE-26]]:13: note: 'handle_' is destroyed here when each 'Gemm' is destroyed
  a.run(A, C, n);
}

void assigned() {
  Gemm a;
  Gemm b;
  b = a;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: this assignment of a 'Gemm' shares its handle member 'handle_' with the original: both destroy it in '~Gemm', so it is destroyed twice and the one left is used after destroy; delete the copy operations of 'Gemm' or give each object its own handle [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :[[@LINE-35]]:13: note: 'handle_' is destroyed here when each 'Gemm' is destroyed
}

// Destroyed by a release function the destructor calls; the copy
// constructor written as '= default' copies like the implicit one.
struct LtContext {
  LtContext() { cublasLtCreate(&lt); }
  LtContext(const LtContext &) = default;
  ~LtContext() { release(); }
  void release() {
    if (lt)
      cublasLtDestroy(lt);
    lt = nullptr;
  }
  cublasLtHandle_t lt = nullptr;
};

LtContext clone(const LtContext &c) {
  return c;
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: this copy of a 'LtContext' shares its handle member 'lt' with the original: both destroy it in '~LtContext', so it is destroyed twice and the one left is used after destroy; delete the copy operations of 'LtContext' or give each object its own handle [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :[[@LINE-9]]:7: note: 'lt' is destroyed here when each 'LtContext' is destroyed
}

// A class that holds one by value copies it with its own copy.
struct Layer {
  Gemm gemm;
  int width = 0;
};

void copy_layer(const Layer &l) {
  Layer other(l);
  // CHECK-NOTES: :[[@LINE-1]]:9: warning: this copy of a 'Layer' shares the handle member 'handle_' of its 'Gemm' with the original: both destroy it in '~Gemm', so it is destroyed twice and the one left is used after destroy; delete the copy operations of 'Gemm' or give each object its own handle [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :[[@LINE-67]]:13: note: 'handle_' is destroyed here when each 'Gemm' is destroyed
  (void)other;
}

// A destructor with other cleanup under its own conditions.
class WithWorkspace {
public:
  WithWorkspace() {
    cublasCreate(&h_);
    cudaMalloc(&ws_, 1 << 20);
  }
  ~WithWorkspace() {
    if (ws_)
      cudaFree(ws_);
    cublasDestroy(h_);
  }

private:
  cublasHandle_t h_;
  void *ws_ = nullptr;
};

void with_workspace(const WithWorkspace &w) {
  WithWorkspace copy = w;
  // CHECK-NOTES: :[[@LINE-1]]:24: warning: this copy of a 'WithWorkspace' shares its handle member 'h_' with the original: both destroy it in '~WithWorkspace', so it is destroyed twice and the one left is used after destroy; delete the copy operations of 'WithWorkspace' or give each object its own handle [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :[[@LINE-11]]:5: note: 'h_' is destroyed here when each 'WithWorkspace' is destroyed
  (void)copy;
}

// A project's check macro around the destroy: it throws after the destroy,
// and the destroy itself runs on every destruction.
#define CHECK_CUBLAS(call)                                                     \
  do {                                                                         \
    cublasStatus_t status_ = (call);                                           \
    if (status_ != CUBLAS_STATUS_SUCCESS)                                      \
      throw status_;                                                           \
  } while (0)

struct Checked {
  cublasHandle_t h;
  Checked() { CHECK_CUBLAS(cublasCreate(&h)); }
  ~Checked() noexcept(false) { CHECK_CUBLAS(cublasDestroy(h)); }
  operator cublasHandle_t() const { return h; }
};

void checked(const Checked &c) {
  Checked copy(c);
  // CHECK-NOTES: :[[@LINE-1]]:11: warning: this copy of a 'Checked' shares its handle member 'h' with the original: both destroy it in '~Checked', so it is destroyed twice and the one left is used after destroy; delete the copy operations of 'Checked' or give each object its own handle [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :[[@LINE-7]]:45: note: 'h' is destroyed here when each 'Checked' is destroyed
  (void)copy;
}

// --- Not reported ---------------------------------------------------------

// The destructor may leave before the destroy, on a condition of its own.
class EarlyOut {
public:
  EarlyOut() { cublasCreate(&h_); }
  ~EarlyOut() {
    if (borrowed_)
      return;
    cublasDestroy(h_);
  }

private:
  cublasHandle_t h_;
  bool borrowed_ = false;
};

void early_out(const EarlyOut &e) {
  EarlyOut copy = e;
  (void)copy;
}

// An ownership flag decides: whether the copy owns it is unclear.
class View {
public:
  View() : owns_(true) { cublasCreate(&h_); }
  ~View() {
    if (owns_)
      cublasDestroy(h_);
  }

private:
  cublasHandle_t h_;
  bool owns_;
};

void view(const View &v) {
  View copy = v;
  (void)copy;
}

// The release function is called only for the owner.
class Releaser {
public:
  Releaser() { cublasCreate(&h_); }
  ~Releaser() {
    if (owner_)
      release();
  }
  void release() { cublasDestroy(h_); }

private:
  cublasHandle_t h_;
  bool owner_ = true;
};

void releaser(const Releaser &r) {
  Releaser copy = r;
  (void)copy;
}

// Copies deleted; a move that takes the handle and leaves null behind.
class MoveOnly {
public:
  MoveOnly() { cublasCreate(&h_); }
  MoveOnly(const MoveOnly &) = delete;
  MoveOnly &operator=(const MoveOnly &) = delete;
  MoveOnly(MoveOnly &&o) noexcept : h_(o.h_) { o.h_ = nullptr; }
  ~MoveOnly() {
    if (h_)
      cublasDestroy(h_);
  }

private:
  cublasHandle_t h_ = nullptr;
};

MoveOnly make_move_only() {
  MoveOnly m;
  return m;
}

void moved() {
  MoveOnly a;
  MoveOnly b = std::move(a);
  MoveOnly c = make_move_only();
  (void)b;
  (void)c;
}

// A copy constructor that creates a handle of its own.
class OwnCopy {
public:
  OwnCopy() { cublasCreate(&h_); }
  OwnCopy(const OwnCopy &) { cublasCreate(&h_); }
  OwnCopy &operator=(const OwnCopy &) { return *this; }
  ~OwnCopy() { cublasDestroy(h_); }

private:
  cublasHandle_t h_;
};

void own_copy() {
  OwnCopy a;
  OwnCopy b = a;
  b = a;
}

// The handle behind a unique_ptr with a deleter: the class cannot be copied.
struct HandleDeleter {
  void operator()(cublasContext *h) const { cublasDestroy(h); }
};
class Unique {
public:
  Unique() {
    cublasHandle_t h;
    cublasCreate(&h);
    h_.reset(h);
  }

private:
  std::unique_ptr<cublasContext, HandleDeleter> h_;
};

void unique() {
  Unique a;
  Unique b = std::move(a);
  (void)b;
}

// Shared ownership: the destructor decides on a count it does not own
// alone; the implicit copy is how sharing works here.
class Shared {
public:
  Shared() : refs_(std::make_shared<int>(0)) { cublasCreate(&h_); }
  ~Shared() {
    if (refs_.use_count() == 1)
      cublasDestroy(h_);
  }

private:
  cublasHandle_t h_;
  std::shared_ptr<int> refs_;
};

void shared() {
  Shared a;
  Shared b = a;
  (void)b;
}

// A borrowed handle: the class never creates it.
class Borrowed {
public:
  explicit Borrowed(cublasHandle_t h) : h_(h) {}
  ~Borrowed() { cublasDestroy(h_); }

private:
  cublasHandle_t h_;
};

void borrowed(cublasHandle_t h) {
  Borrowed a(h);
  Borrowed b = a;
  (void)b;
}

// Returned by value from where it was made: the copy is elided (NRVO).
Gemm make_gemm() {
  Gemm g;
  return g;
}
Gemm make_gemm_temporary() { return Gemm(); }

void elided() {
  Gemm g = make_gemm();
  Gemm t = make_gemm_temporary();
  (void)g;
  (void)t;
}
