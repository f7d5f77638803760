// RUN: %check_clang_tidy -check-suffix=THROW %s cublas-handle-leak %t.throw -- -- -DTHROW
// RUN: %check_clang_tidy -check-suffix=FAILCODE %s cublas-handle-leak %t.failcode -- -- -DFAILCODE
// RUN: %check_clang_tidy -check-suffix=NEVER %s cublas-handle-leak %t.never -- -- -DNEVER
// RUN: %check_clang_tidy -check-suffix=SUCCESS %s cublas-handle-leak %t.success -- -- -DSUCCESS
// RUN: %check_clang_tidy -check-suffix=CAUGHT %s cublas-handle-leak %t.caught -- -- -DCAUGHT
// RUN: %check_clang_tidy -check-suffix=ONLYMAIN %s cublas-handle-leak %t.onlymain -- -- -DONLYMAIN
// RUN: %check_clang_tidy -check-suffix=ALSOOTHER %s cublas-handle-leak %t.alsoother -- -- -DALSOOTHER
// RUN: %check_clang_tidy -check-suffix=TEMPLATEONLYMAIN %s cublas-handle-leak %t.templateonlymain -- -- -DTEMPLATEONLYMAIN
// RUN: %check_clang_tidy -check-suffix=INLINEONLYMAIN %s cublas-handle-leak %t.inlineonlymain -- -- -DINLINEONLYMAIN
// RUN: %check_clang_tidy -check-suffix=TEMPLATEALSO %s cublas-handle-leak %t.templatealso -- -- -DTEMPLATEALSO
// RUN: %check_clang_tidy -check-suffix=TEMPLATEEXPLICIT %s cublas-handle-leak %t.templateexplicit -- -- -DTEMPLATEEXPLICIT

// Paths that end the process are not leaks: an exception that leaves main
// uncaught, main returning a failure code after a failed check. (exit(),
// abort() and [[noreturn]] calls are tested in cublas-handle-leak.cpp.)

#include <cublas_v2.h>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#define CUBLAS_CHECK(err)                                                      \
  do {                                                                         \
    cublasStatus_t err_ = (err);                                               \
    if (err_ != CUBLAS_STATUS_SUCCESS) {                                       \
      std::printf("cublas error %d\n", err_);                                  \
      throw std::runtime_error("cublas error");                                \
    }                                                                          \
  } while (0)

void work(cublasHandle_t);

#ifdef THROW
// The sample programs' shape: every failure throws out of main.
int main() {
  cublasHandle_t h = nullptr;
  CUBLAS_CHECK(cublasCreate(&h));
  CUBLAS_CHECK(cublasSetStream(h, nullptr));
  work(h);
  CUBLAS_CHECK(cublasDestroy(h));
  return EXIT_SUCCESS;
}
#endif

#ifdef FAILCODE
int main() {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    return EXIT_FAILURE;
  if (cublasSetStream(h, nullptr) != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "cublasSetStream failed\n");
    return EXIT_FAILURE;
  }
  work(h);
  cublasDestroy(h);
  return 0;
}
#endif

#ifdef NEVER
// The normal path never destroys the handle: reported.
int main() {
  cublasHandle_t h;
  CUBLAS_CHECK(cublasCreate(&h));
  // CHECK-MESSAGES-NEVER: :[[@LINE-1]]:16: warning: handle 'h' created here is never destroyed; call 'cublasDestroy' when it is no longer needed [cublas-handle-leak]
  CUBLAS_CHECK(cublasSetStream(h, nullptr));
  return 0;
}
#endif

#ifdef SUCCESS
// Returning success early without the destroy: reported.
int main(int argc, char **) {
  cublasHandle_t h;
  CUBLAS_CHECK(cublasCreate(&h));
  // CHECK-MESSAGES-SUCCESS: :[[@LINE-1]]:16: warning: handle 'h' created here is not destroyed on every path; call 'cublasDestroy' before it goes out of reach [cublas-handle-leak]
  if (argc > 1)
    return 0;
  work(h);
  cublasDestroy(h);
  return 0;
}
#endif

#ifdef CAUGHT
// A helper that throws is not main: its exception may be caught and the
// program go on, so the leak is reported there.
int helper() {
  cublasHandle_t h;
  CUBLAS_CHECK(cublasCreate(&h));
  // CHECK-MESSAGES-CAUGHT: :[[@LINE-1]]:16: warning: handle 'h' created here is not destroyed on every path; call 'cublasDestroy' before it goes out of reach [cublas-handle-leak]
  CUBLAS_CHECK(cublasSetStream(h, nullptr));
  cublasDestroy(h);
  return 0;
}
int main() {
  try {
    return helper();
  } catch (const std::exception &) {
    return 1;
  }
}
#endif

#ifdef ONLYMAIN
// A static helper that only main calls, outside any try: its exception
// leaves main too and ends the process, as a throw in main does.
static int setup() {
  cublasHandle_t h;
  CUBLAS_CHECK(cublasCreate(&h));
  CUBLAS_CHECK(cublasSetStream(h, nullptr));
  cublasDestroy(h);
  return 0;
}
int main() { return setup(); }
#endif

#ifdef ALSOOTHER
// Called from another function too, which catches the exception and goes
// on: reported. (A caller that no one is known to catch in is silent, as
// TEMPLATEEXPLICIT shows.)
static int setup() {
  cublasHandle_t h;
  CUBLAS_CHECK(cublasCreate(&h));
  // CHECK-MESSAGES-ALSOOTHER: :[[@LINE-1]]:16: warning: handle 'h' created here is not destroyed on every path; call 'cublasDestroy' before it goes out of reach [cublas-handle-leak]
  CUBLAS_CHECK(cublasSetStream(h, nullptr));
  cublasDestroy(h);
  return 0;
}
int retry() {
  try {
    return setup();
  } catch (const std::exception &) {
    return -1;
  }
}
int main() { return setup(); }
#endif


#ifdef TEMPLATEONLYMAIN
// A function template of the main file that only main instantiates and
// calls: no other unit can call it (it would need the definition), so the
// exception ends the process as from a static helper.
template <typename T> int run_example(int n) {
  cublasHandle_t h;
  CUBLAS_CHECK(cublasCreate(&h));
  if (n < 0)
    throw std::invalid_argument("n");
  CUBLAS_CHECK(cublasSetStream(h, nullptr));
  cublasDestroy(h);
  return 0;
}
int main() { return run_example<float>(4) + run_example<double>(4); }
#endif

#ifdef INLINEONLYMAIN
// The same for an inline function of the main file.
inline int setup() {
  cublasHandle_t h;
  CUBLAS_CHECK(cublasCreate(&h));
  CUBLAS_CHECK(cublasSetStream(h, nullptr));
  cublasDestroy(h);
  return 0;
}
int main() { return setup(); }
#endif

#ifdef TEMPLATEALSO
// Called from another template too, instantiated for a function that
// catches: reported.
template <typename T> int run_example() {
  cublasHandle_t h;
  CUBLAS_CHECK(cublasCreate(&h));
  // CHECK-MESSAGES-TEMPLATEALSO: :[[@LINE-1]]:16: warning: handle 'h' created here is not destroyed on every path; call 'cublasDestroy' before it goes out of reach [cublas-handle-leak]
  CUBLAS_CHECK(cublasSetStream(h, nullptr));
  cublasDestroy(h);
  return 0;
}
template <typename T> int retry() { return run_example<T>(); }
int retry_float() {
  try {
    return retry<float>();
  } catch (...) {
    return -1;
  }
}
int main() { return run_example<float>(); }
#endif

#ifdef TEMPLATEEXPLICIT
// An explicit instantiation definition: other units may call it, but none
// is known to catch what its checking macro throws on a failed call, so the
// unit cannot tell that the program goes on: silent. (Project mode knows
// the other files' catches: test/frontends/project-exceptions.test.)
template <typename T> int run_example() {
  cublasHandle_t h;
  CUBLAS_CHECK(cublasCreate(&h));
  CUBLAS_CHECK(cublasSetStream(h, nullptr));
  cublasDestroy(h);
  return 0;
}
template int run_example<float>();
int main() { return run_example<float>(); }
#endif
