// RUN: %check_clang_tidy %s cublas-handle-leak %t

// A class that creates a handle into a member, never destroys it, and gives
// it out through an accessor: what the accessor returns is only handed to
// cuBLAS in this file, so every object still leaks one. And the classes
// whose accessor's result may be destroyed.

#include <cublas_v2.h>
#include <cublasLt.h>

void check(cublasStatus_t);

// --- Reported -------------------------------------------------------------

class Blas {
public:
  Blas() { check(cublasCreate(&h_)); }
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: handle member 'h_' is created when a 'Blas' is constructed, but nothing destroys it: every 'Blas' object leaks one; call 'cublasDestroy' in '~Blas' [cublas-handle-leak]
  ~Blas() {}
  cublasHandle_t get() const { return h_; }
  // CHECK-NOTES: :[[@LINE-1]]:18: note: 'get' gives the handle out; nothing in this file destroys what it returns

private:
  cublasHandle_t h_;
};

void scale(float *x, int n) {
  Blas blas;
  // CHECK-NOTES: :[[@LINE-1]]:8: note: a 'Blas' is created here
  const float two = 2.0f;
  check(cublasSscal(blas.get(), n, &two, x, 1));
  cublasHandle_t h = blas.get();
  check(cublasSetStream(h, nullptr));
  check(cublasSscal(h, n, &two, x, 1));
}

struct Lt {
  Lt() { check(cublasLtCreate(&lt_)); }
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: handle member 'lt_' is created when a 'Lt' is constructed, but nothing destroys it: every 'Lt' object leaks one; call 'cublasLtDestroy' in '~Lt' [cublas-handle-leak]
  cublasLtHandle_t handle() { return lt_; }
  // CHECK-NOTES: :[[@LINE-1]]:20: note: 'handle' gives the handle out; nothing in this file destroys what it returns

private:
  cublasLtHandle_t lt_;
};

Lt *make_lt() {
  return new Lt;
  // CHECK-NOTES: :[[@LINE-1]]:14: note: a 'Lt' is created here
}

// --- Not reported ---------------------------------------------------------

// The accessor's result is destroyed, directly or through a variable.
class Destroyed {
public:
  Destroyed() { check(cublasCreate(&h_)); }
  cublasHandle_t get() const { return h_; }

private:
  cublasHandle_t h_;
};
void release(Destroyed &d) {
  cublasHandle_t h = d.get();
  check(cublasDestroy(h));
}
void use_destroyed() { Destroyed d; release(d); }

// Given to a function of the file: it may keep or destroy it.
class Handed {
public:
  Handed() { check(cublasCreate(&h_)); }
  cublasHandle_t get() const { return h_; }

private:
  cublasHandle_t h_;
};
void adopt(cublasHandle_t h);
void use_handed() { Handed h; adopt(h.get()); }

// Returned by reference: the caller may assign or reset it.
class ByReference {
public:
  ByReference() { check(cublasCreate(&h_)); }
  cublasHandle_t &get() { return h_; }

private:
  cublasHandle_t h_;
};
void use_by_reference() {
  ByReference r;
  check(cublasSetStream(r.get(), nullptr));
}

// The result is stored where this file cannot see its end.
cublasHandle_t g_saved;
class Stored {
public:
  Stored() { check(cublasCreate(&h_)); }
  cublasHandle_t get() const { return h_; }

private:
  cublasHandle_t h_;
};
void use_stored() {
  Stored s;
  g_saved = s.get();
}

// An RAII owner with an accessor.
class Owner {
public:
  Owner() { check(cublasCreate(&h_)); }
  ~Owner() { check(cublasDestroy(h_)); }
  cublasHandle_t get() const { return h_; }

private:
  cublasHandle_t h_;
};
void use_owner(float *x, int n) {
  Owner o;
  const float two = 2.0f;
  check(cublasSscal(o.get(), n, &two, x, 1));
}
