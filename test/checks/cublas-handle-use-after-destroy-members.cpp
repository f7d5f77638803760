// RUN: %check_clang_tidy %s cublas-handle-use-after-destroy %t

// A handle kept in a member: of `this`, or of an object the function is
// given or holds (`e.h`, `e->h`). Destroyed on every path, directly or by a
// helper of the file (`release()`, `engine_release(e)`), and then used or
// destroyed again. And the code a naive rule would flag: the member created
// again or cleared, another object's member, a destroy on one path only, an
// object that a call may change.

#include <cublas_v2.h>

struct Engine {
  cublasHandle_t h;
  float *buf;
  int n;
};

void engine_release(Engine &e) { cublasDestroy(e.h); }
void engine_release_ptr(Engine *e) { cublasDestroy(e->h); }
void engine_log(const Engine &e);
void engine_reset(Engine &e);

// --- Reported -------------------------------------------------------------

void direct(Engine &e) {
  cublasDestroy(e.h);
  const float a = 0.5f;
  cublasSscal(e.h, e.n, &a, e.buf, 1);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: handle 'e.h' is used after it was destroyed [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: 'e.h' was destroyed here
}

void through_pointer(Engine *e) {
  cublasDestroy(e->h);
  const float a = 0.5f;
  cublasSscal(e->h, e->n, &a, e->buf, 1);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: handle 'e->h' is used after it was destroyed [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: 'e->h' was destroyed here
}

void after_a_helper(Engine &e) {
  engine_release(e);
  engine_log(e);
  const float a = 0.5f;
  cublasSscal(e.h, e.n, &a, e.buf, 1);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: handle 'e.h' is used after it was destroyed [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :[[@LINE-5]]:3: note: 'e.h' was destroyed here, in 'engine_release'
}

void released_twice(Engine *e) {
  engine_release_ptr(e);
  cublasDestroy(e->h);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: handle 'e->h' is destroyed again after it was destroyed [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'e->h' was destroyed here, in 'engine_release_ptr'
}

void local_object(int n, float *x) {
  Engine e{};
  cublasCreate(&e.h);
  e.n = n;
  e.buf = x;
  engine_release(e);
  cublasHandle_t h = e.h;
  const float a = 0.5f;
  cublasSscal(h, e.n, &a, e.buf, 1);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: handle 'e.h' is used after it was destroyed [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :[[@LINE-5]]:3: note: 'e.h' was destroyed here, in 'engine_release'
}

class Model {
public:
  void finish() {
    release();
    const float a = 0.5f;
    cublasSscal(h_, n_, &a, buf_, 1);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: handle 'h_' is used after it was destroyed [cublas-handle-use-after-destroy]
    // CHECK-NOTES: :[[@LINE-4]]:5: note: 'h_' was destroyed here, in 'Model::release'
  }
  void direct() {
    cublasDestroy(h_);
    const float a = 0.5f;
    cublasSscal(this->h_, n_, &a, buf_, 1);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: handle 'h_' is used after it was destroyed [cublas-handle-use-after-destroy]
    // CHECK-NOTES: :[[@LINE-4]]:5: note: 'h_' was destroyed here
  }
  void logged() {
    release();
    note_size();
    const float a = 0.5f;
    cublasSscal(h_, n_, &a, buf_, 1);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: handle 'h_' is used after it was destroyed [cublas-handle-use-after-destroy]
    // CHECK-NOTES: :[[@LINE-5]]:5: note: 'h_' was destroyed here, in 'Model::release'
  }

  // --- Not reported ---------------------------------------------------------

  void recreated() {
    release();
    cublasCreate(&h_);
    const float a = 0.5f;
    cublasSscal(h_, n_, &a, buf_, 1);
  }
  void by_init() {
    release();
    init();
    const float a = 0.5f;
    cublasSscal(h_, n_, &a, buf_, 1);
  }
  void cleared() {
    cublasDestroy(h_);
    h_ = nullptr;
    if (h_)
      cublasDestroy(h_);
  }
  void one_path(bool last) {
    if (last)
      release();
    const float a = 0.5f;
    cublasSscal(h_, n_, &a, buf_, 1);
  }
  void other_object(Model &m) {
    m.release();
    const float a = 0.5f;
    cublasSscal(h_, n_, &a, buf_, 1);
  }
  void unseen() {
    release();
    reopen();
    const float a = 0.5f;
    cublasSscal(h_, n_, &a, buf_, 1);
  }
  ~Model() { release(); }

private:
  void release() { cublasDestroy(h_); }
  void init() { cublasCreate(&h_); }
  void note_size() { last_n_ = n_; }
  void reopen();
  cublasHandle_t h_;
  float *buf_;
  int n_;
  int last_n_;
};

void reset_by_a_call(Engine &e) {
  engine_release(e);
  engine_reset(e);
  const float a = 0.5f;
  cublasSscal(e.h, e.n, &a, e.buf, 1);
}

void another_engine(Engine &e, Engine &f) {
  engine_release(e);
  const float a = 0.5f;
  cublasSscal(f.h, f.n, &a, f.buf, 1);
}

void reassigned(Engine &e, const Engine &next) {
  cublasDestroy(e.h);
  e = next;
  const float a = 0.5f;
  cublasSscal(e.h, e.n, &a, e.buf, 1);
}

void each_engine(Engine *engines, int count) {
  for (int i = 0; i < count; ++i) {
    Engine &e = engines[i];
    const float a = 0.5f;
    cublasSscal(e.h, e.n, &a, e.buf, 1);
    cublasDestroy(e.h);
  }
}

void walk_list(Engine *e, Engine *(*next)(Engine *)) {
  while (e) {
    cublasDestroy(e->h);
    e = next(e);
    const float a = 0.5f;
    if (e)
      cublasSscal(e->h, e->n, &a, e->buf, 1);
  }
}

void destroyed_on_one_path(Engine &e, bool owns) {
  if (owns)
    cublasDestroy(e.h);
  const float a = 0.5f;
  cublasSscal(e.h, e.n, &a, e.buf, 1);
}

void each_worker(Engine (&workers)[4]) {
  for (Engine &w : workers)
    cublasDestroy(w.h);
  for (Engine &w : workers) {
    cublasCreate(&w.h);
    cublasDestroy(w.h);
  }
}

// A virtual release may be overridden by one that keeps the handle.
class Base {
public:
  virtual ~Base() = default;
  void finish() {
    release();
    const float a = 0.5f;
    cublasSscal(h_, 1, &a, nullptr, 1);
  }

protected:
  virtual void release() { cublasDestroy(h_); }
  cublasHandle_t h_;
};

// A function of the file that works on the member on every path from its
// entry, called after the release: the use is inside it.
struct Net {
  void forward(float *x, int n) {
    const float a = 0.5f;
    cublasSscal(h, n, &a, x, 1);
  }
  void maybe_forward(float *x, int n) {
    if (!ready)
      return;
    const float a = 0.5f;
    cublasSscal(h, n, &a, x, 1);
  }
  void reopen_and_forward(float *x, int n) {
    if (!ready)
      cublasCreate(&h);
    const float a = 0.5f;
    cublasSscal(h, n, &a, x, 1);
  }
  void close() {
    cublasDestroy(h);
    ready = false;
  }
  cublasHandle_t h;
  bool ready = false;
};
void net_scale(Net &net, float *x, int n) {
  const float a = 2.0f;
  cublasSscal(net.h, n, &a, x, 1);
}

void serve_after_close(Net &net, float *x, int n) {
  net.close();
  net.forward(x, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: handle 'net.h' is used, in 'Net::forward', after it was destroyed [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'net.h' was destroyed here, in 'Net::close'
}

void scale_after_close(Net &net, float *x, int n) {
  net.close();
  net_scale(net, x, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: handle 'net.h' is used, in 'net_scale', after it was destroyed [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'net.h' was destroyed here, in 'Net::close'
}

// A close that destroys on every path, called twice: the second call
// destroys again.
void closed_twice(Net &net) {
  net.close();
  net.close();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: handle 'net.h' is destroyed again, in 'Net::close', after it was destroyed [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'net.h' was destroyed here, in 'Net::close'
}
// A close that forgets the handle it destroys may run twice.
struct Once {
  void close() {
    if (h) {
      cublasDestroy(h);
      h = nullptr;
    }
  }
  cublasHandle_t h = nullptr;
};
void closed_once_twice(Once &o) {
  o.close();
  o.close();
}

// A destructor that destroys the member on every path runs at the end of
// the scope: after a close() that did not forget the handle, it destroys
// it again. A close() that forgets it, and a destructor that tests it
// first, are right.
struct Owner {
  Owner() { cublasCreate(&h); }
  ~Owner() { cublasDestroy(h); }
  void close() { cublasDestroy(h); }
  cublasHandle_t h;
};
void closed_then_destructed() {
  Owner o;
  o.close();
}
// CHECK-NOTES: :[[@LINE-1]]:1: warning: handle 'o.h' is destroyed again, in 'Owner::~Owner', which runs when 'o' goes out of scope here, after it was destroyed [cublas-handle-use-after-destroy]
// CHECK-NOTES: :[[@LINE-3]]:3: note: 'o.h' was destroyed here, in 'Owner::close'
struct Careful {
  ~Careful() {
    if (h)
      cublasDestroy(h);
  }
  void close() {
    cublasDestroy(h);
    h = nullptr;
  }
  cublasHandle_t h = nullptr;
};
void careful_closed_then_destructed() {
  Careful c;
  c.close();
}

// Not reported: the callee may return before the use, or create the
// handle again first.
void guarded_after_close(Net &net, float *x, int n) {
  net.close();
  net.maybe_forward(x, n);
}
void reopened_after_close(Net &net, float *x, int n) {
  net.close();
  net.reopen_and_forward(x, n);
}
