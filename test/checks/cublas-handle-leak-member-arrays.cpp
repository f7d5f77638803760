// RUN: %check_clang_tidy %s cublas-handle-leak %t

// A class that creates one handle per device into an array or a container
// member, and that nothing destroys: every object leaks the handles it
// holds. And the classes a naive rule would flag: destroyed in a loop, in a
// range-for, by a helper, or handed out.

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <vector>

// --- Reported -------------------------------------------------------------

class MultiGpu {
public:
  explicit MultiGpu(int devices) : devices_(devices) {
    for (int d = 0; d < devices; ++d) {
      cudaSetDevice(d);
      cublasCreate(&handles_[d]);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: handle member 'handles_' is created when a 'MultiGpu' is constructed, but nothing destroys it: every 'MultiGpu' object leaks the ones it holds; call 'cublasDestroy' on each in '~MultiGpu' [cublas-handle-leak]
    }
  }
  ~MultiGpu() {}
  void scale(int d, float *x, int n) {
    const float a = 2.0f;
    cublasSscal(handles_[d], n, &a, x, 1);
  }

private:
  int devices_;
  cublasHandle_t handles_[8];
};

void solve_multi(float *x, int n) {
  for (int step = 0; step < 10; ++step) {
    MultiGpu g(2);
    // CHECK-NOTES: :[[@LINE-1]]:14: note: a 'MultiGpu' is created here
    g.scale(0, x, n);
  }
}

class PerDevice {
public:
  explicit PerDevice(int devices) : handles_(devices) {
    for (int d = 0; d < devices; ++d) {
      cudaSetDevice(d);
      cublasCreate(&handles_[d]);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: handle member 'handles_' is created when a 'PerDevice' is constructed, but nothing destroys it: every 'PerDevice' object leaks the ones it holds; call 'cublasDestroy' on each in '~PerDevice' [cublas-handle-leak]
    }
  }
  void scale(int d, float *x, int n) {
    const float a = 2.0f;
    cublasSscal(handles_[d], n, &a, x, 1);
  }

private:
  std::vector<cublasHandle_t> handles_;
};

void solve_per_device(float *x, int n) {
  for (int step = 0; step < 10; ++step) {
    PerDevice p(2);
    // CHECK-NOTES: :[[@LINE-1]]:15: note: a 'PerDevice' is created here
    p.scale(0, x, n);
  }
}

// --- Not reported ---------------------------------------------------------

// Destroyed element by element in the destructor.
class Destroyed {
public:
  explicit Destroyed(int devices) : devices_(devices) {
    for (int d = 0; d < devices; ++d)
      cublasCreate(&handles_[d]);
  }
  ~Destroyed() {
    for (int d = 0; d < devices_; ++d)
      cublasDestroy(handles_[d]);
  }

private:
  int devices_;
  cublasHandle_t handles_[8];
};

// Destroyed in a range-for over the container.
class RangeDestroyed {
public:
  explicit RangeDestroyed(int devices) : handles_(devices) {
    for (int d = 0; d < devices; ++d)
      cublasCreate(&handles_[d]);
  }
  ~RangeDestroyed() {
    for (cublasHandle_t h : handles_)
      cublasDestroy(h);
  }

private:
  std::vector<cublasHandle_t> handles_;
};

// Handed to a helper of the file that destroys what it is given.
static void release(cublasHandle_t h) { cublasDestroy(h); }
class Released {
public:
  Released() {
    for (int d = 0; d < 2; ++d)
      cublasCreate(&handles_[d]);
  }
  ~Released() {
    release(handles_[0]);
    release(handles_[1]);
  }

private:
  cublasHandle_t handles_[2];
};

// Handed out: whoever takes the array may destroy them.
class HandsOut {
public:
  HandsOut() {
    for (int d = 0; d < 2; ++d)
      cublasCreate(&handles_[d]);
  }
  cublasHandle_t *all() { return handles_; }

private:
  cublasHandle_t handles_[2];
};

void use_all(float *x, int n) {
  Destroyed a(2);
  RangeDestroyed b(2);
  Released c;
  HandsOut d;
  (void)x;
  (void)n;
}
