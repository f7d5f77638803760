// RUN: %check_clang_tidy %s cublas-unchecked-status %t

// A call that reads a setting into a local the code gave a value first
// writes nothing when it fails: what is read after is that value, chosen
// by the code (a math mode read into CUBLAS_DEFAULT_MATH reads the
// default). Its status may go unread. An output with no value before the
// call, or one the code does not read after it, is still a failure that
// goes unnoticed.

#include <cublas_v2.h>

void use(int);
void useStream(cudaStream_t);

// --- Reported -------------------------------------------------------------

int version_unset(cublasHandle_t h) {
  int version;
  cublasGetVersion(h, &version);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasGetVersion' is discarded; a failure here goes unnoticed [cublas-unchecked-status]
  return version / 1000;
}

// Set once before the loop: after a failure, a round reads the round
// before's value.
void mode_set_before_loop(cublasHandle_t *hs, int n) {
  cublasMath_t mode = CUBLAS_DEFAULT_MATH;
  for (int i = 0; i < n; ++i) {
    cublasGetMathMode(hs[i], &mode);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the cublasStatus_t returned by 'cublasGetMathMode' is discarded; a failure here goes unnoticed [cublas-unchecked-status]
    use(mode);
  }
}

// Not a local of the function: what it holds is not known here.
struct Settings {
  cublasPointerMode_t mode = CUBLAS_POINTER_MODE_HOST;
  void read(cublasHandle_t h) {
    cublasGetPointerMode(h, &mode);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the cublasStatus_t returned by 'cublasGetPointerMode' is discarded; a failure here goes unnoticed [cublas-unchecked-status]
  }
};

// Written again before it is read: the call's result is not what is read.
int version_overwritten(cublasHandle_t h) {
  int version = 0;
  cublasGetVersion(h, &version);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasGetVersion' is discarded; a failure here goes unnoticed [cublas-unchecked-status]
  version = 12000;
  return version;
}

// A transfer of data is not a setting.
void vector_back(const float *d, int n) {
  float host[4] = {0, 0, 0, 0};
  cublasGetVector(n, sizeof(float), d, 1, host, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasGetVector' is discarded; a failure here goes unnoticed [cublas-unchecked-status]
  use(static_cast<int>(host[0]));
}

// --- Not reported ---------------------------------------------------------

bool tensor_ops_enabled(cublasHandle_t h) {
  cublasMath_t actual = CUBLAS_DEFAULT_MATH;
  cublasGetMathMode(h, &actual);
  return actual == CUBLAS_TENSOR_OP_MATH;
}

void stream_or_default(cublasHandle_t h) {
  cudaStream_t s = nullptr;
  cublasGetStream(h, &s);
  useStream(s);
}

int version_assigned(cublasHandle_t h, bool fresh) {
  int version;
  if (fresh) {
    version = -1;
    cublasGetVersion(h, &version);
    return version;
  }
  return 0;
}

void mode_per_round(cublasHandle_t *hs, int n) {
  for (int i = 0; i < n; ++i) {
    cublasMath_t mode = CUBLAS_DEFAULT_MATH;
    cublasGetMathMode(hs[i], &mode);
    use(mode);
  }
}

// A status stored and never read is a discard too: silent where the
// output keeps a fallback, reported where it does not.
void stream_stored(cublasHandle_t h) {
  cudaStream_t s = nullptr;
  cublasStatus_t st = cublasGetStream(h, &s);
  useStream(s);
}

int version_stored_unset(cublasHandle_t h) {
  int version;
  cublasStatus_t st = cublasGetVersion(h, &version);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: the cublasStatus_t returned by 'cublasGetVersion' is stored in 'st' but never read [cublas-unchecked-status]
  return version;
}
