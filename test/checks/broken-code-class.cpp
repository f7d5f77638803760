// RUN: %check_clang_tidy -expect-clang-tidy-error %s cublas-handle-leak,cublas-handle-per-call,cublas-handle-use-after-destroy %t

// While the user types the destructor that destroys a member handle, or the
// cleanup of a global, the file does not compile. The rules that look at the
// whole file (a member nothing destroys, a global re-created in a loop, a
// copy that shares a handle) must not take the broken function's silence
// for the absence of a destroy or of a copy constructor.

#include <cublas_v2.h>

class Gemm {
public:
  Gemm() { cublasCreate(&handle_); }
  ~Gemm() { cublasDestroy(handle_) undeclared_name; }
  // CHECK-MESSAGES: :[[@LINE-1]]:35: error: expected ';' after expression [clang-diagnostic-error]
  // CHECK-MESSAGES: :[[@LINE-2]]:36: error: use of undeclared identifier 'undeclared_name' [clang-diagnostic-error]
  void run(float *x, int n) {
    const float two = 2.0f;
    cublasSscal(handle_, n, &two, x, 1);
  }

private:
  cublasHandle_t handle_;
};

void layer(float *x, int n) {
  Gemm g;
  g.run(x, n);
}

// And a guard flag whose setter is being typed.
static cublasHandle_t g_guarded;
static bool g_ready;
void use_guarded(float *x, int n) {
  if (!g_ready)
    cublasCreate(&g_guarded);
  const float two = 2.0f;
  cublasSscal(g_guarded, n, &two, x, 1);
}
void mark_ready() { g_ready = true undeclared_too; }
// CHECK-MESSAGES: :[[@LINE-1]]:35: error: expected ';' after expression [clang-diagnostic-error]
// CHECK-MESSAGES: :[[@LINE-2]]:36: error: use of undeclared identifier 'undeclared_too' [clang-diagnostic-error]

static cublasHandle_t g_step;
static void setup_step() { cublasCreate(&g_step); }
static void teardown_step() { cublasDestroy(g_step) + ; }
// CHECK-MESSAGES: :[[@LINE-1]]:55: error: expected expression [clang-diagnostic-error]

void steps(float *x, int n, int count) {
  const float two = 2.0f;
  for (int i = 0; i < count; ++i) {
    setup_step();
    cublasSscal(g_step, n, &two, x, 1);
    teardown_step();
  }
}

// A copy constructor being typed: the copy below must not be taken for
// the implicit one.
class Copied {
public:
  Copied() { cublasCreate(&h_); }
  Copied(const Copied &o;
  // CHECK-MESSAGES: :[[@LINE-1]]:25: error: expected ')' [clang-diagnostic-error]
  ~Copied() { cublasDestroy(h_); }

private:
  cublasHandle_t h_;
};

void copy(const Copied &c) {
  Copied other = c;
  (void)other;
}
