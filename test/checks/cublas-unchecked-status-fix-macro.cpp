// RUN: %check_clang_tidy %s cublas-unchecked-status %t \
// RUN:   -config="{CheckOptions: {cublas-unchecked-status.CheckMacro: CK}}"
// RUN: %check_clang_tidy -check-suffix=VARIADIC %s cublas-unchecked-status %t.variadic \
// RUN:   -config="{CheckOptions: {cublas-unchecked-status.CheckMacro: VCK}}" -- -- -DVARIADIC

// CheckMacro's fix wraps a discarded call only where the macro is defined
// and takes one argument: a fixed file must still compile.

#include <cublas_v2.h>

[[noreturn]] void die(cublasStatus_t);

// Before the macro is defined: warned, not fixed.
void before(cublasHandle_t h) {
  cublasSetStream(h, nullptr);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasSetStream' is discarded
  // CHECK-FIXES: {{^}}  cublasSetStream(h, nullptr);{{$}}
  // CHECK-MESSAGES-VARIADIC: :[[@LINE-3]]:3: warning: the cublasStatus_t returned by 'cublasSetStream' is discarded
  // CHECK-FIXES-VARIADIC: {{^}}  cublasSetStream(h, nullptr);{{$}}
}

#define CK(call)                                                               \
  do {                                                                         \
    cublasStatus_t s_ = (call);                                                \
    if (s_ != CUBLAS_STATUS_SUCCESS)                                           \
      die(s_);                                                                 \
  } while (0)
#ifdef VARIADIC
#define VCK(...) CK((__VA_ARGS__))
#endif

// Defined: fixed.
void defined(cublasHandle_t h) {
  cublasSetStream(h, nullptr);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasSetStream' is discarded
  // CHECK-FIXES: {{^}}  CK(cublasSetStream(h, nullptr));{{$}}
  // CHECK-MESSAGES-VARIADIC: :[[@LINE-3]]:3: warning: the cublasStatus_t returned by 'cublasSetStream' is discarded
  // CHECK-FIXES-VARIADIC: {{^}}  VCK(cublasSetStream(h, nullptr));{{$}}
}

#undef CK
#undef VCK

// Undefined again: not fixed.
void undefined(cublasHandle_t h) {
  cublasDestroy(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
  // CHECK-FIXES: {{^}}  cublasDestroy(h);{{$}}
  // CHECK-MESSAGES-VARIADIC: :[[@LINE-3]]:3: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
  // CHECK-FIXES-VARIADIC: {{^}}  cublasDestroy(h);{{$}}
}

// An object-like macro of that name, or one that takes two arguments: a
// call does not fit it.
#define CK 0
#define VCK(a, b) ((a), (b))
void objectLike(cublasHandle_t h) {
  cublasDestroy(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
  // CHECK-FIXES: {{^}}  cublasDestroy(h);{{$}}
  // CHECK-MESSAGES-VARIADIC: :[[@LINE-3]]:3: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
  // CHECK-FIXES-VARIADIC: {{^}}  cublasDestroy(h);{{$}}
}
