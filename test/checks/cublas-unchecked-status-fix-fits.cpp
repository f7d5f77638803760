// RUN: %check_clang_tidy %s cublas-unchecked-status %t \
// RUN:   -config="{CheckOptions: {cublas-unchecked-status.CheckMacro: CK}}" -- -- -fno-exceptions

// CheckMacro's fix is offered only where the macro's expansion compiles:
// a macro that returns a value is not put in a function that returns void,
// a constructor, or one whose return type the value does not convert to;
// one that throws, not where exceptions are off. A note says why.

#include <cublas_v2.h>

#define RET_CK(call)                                                           \
  do {                                                                         \
    if ((call) != CUBLAS_STATUS_SUCCESS)                                       \
      return -1;                                                               \
  } while (0)
#define STATUS_CK(call)                                                        \
  do {                                                                         \
    cublasStatus_t s_ = (call);                                                \
    if (s_ != CUBLAS_STATUS_SUCCESS)                                           \
      return s_;                                                               \
  } while (0)
#define THROW_CK(call)                                                         \
  do {                                                                         \
    if ((call) != CUBLAS_STATUS_SUCCESS)                                       \
      throw 1;                                                                 \
  } while (0)

#define CK(call) RET_CK(call)
void inVoid(cublasHandle_t h) {
  cublasSetStream(h, nullptr);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasSetStream' is discarded
  // CHECK-NOTES: :[[@LINE-2]]:3: note: no fix: 'CK' returns a value, and 'inVoid' returns void
  // CHECK-FIXES: {{^}}  cublasSetStream(h, nullptr);{{$}}
}
int inInt(cublasHandle_t h) {
  cublasSetStream(h, nullptr);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasSetStream' is discarded
  // CHECK-NOTES: :[[@LINE-2]]:3: note: FIX-IT applied suggested code changes
  // CHECK-NOTES: :[[@LINE-3]]:30: note: FIX-IT applied suggested code changes
  // CHECK-FIXES: {{^}}  CK(cublasSetStream(h, nullptr));{{$}}
  return 0;
}
cublasStatus_t inStatus(cublasHandle_t h) {
  cublasSetStream(h, nullptr);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasSetStream' is discarded
  // CHECK-NOTES: :[[@LINE-2]]:3: note: no fix: 'CK' returns a literal that is not a 'cublasStatus_t', which 'inStatus' returns
  // CHECK-FIXES: {{^}}  cublasSetStream(h, nullptr);{{$}}
  return CUBLAS_STATUS_SUCCESS;
}
// 'return -1' in a bool function returns true, which callers read as
// success.
bool inBool(cublasHandle_t h) {
  cublasSetStream(h, nullptr);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasSetStream' is discarded
  // CHECK-NOTES: :[[@LINE-2]]:3: note: no fix: 'CK' returns a number, and 'inBool' returns bool: the number converts to true
  // CHECK-FIXES: {{^}}  cublasSetStream(h, nullptr);{{$}}
  return true;
}
// One edit serves every instantiation of a template: where the return
// type depends on a parameter, one of them may not take the value
// (T = void *).
template <typename T> T inTemplate(cublasHandle_t h) {
  cublasSetStream(h, nullptr);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasSetStream' is discarded
  // CHECK-NOTES: :[[@LINE-2]]:3: note: no fix: 'CK' returns a value, and the return type of 'inTemplate' depends on a template parameter
  // CHECK-FIXES: {{^}}  cublasSetStream(h, nullptr);{{$}}
  return T();
}
void *useTemplate(cublasHandle_t h) {
  inTemplate<int>(h);
  return inTemplate<void *>(h);
}
// A template whose return type does not depend on its parameters is fixed.
template <typename T> int inPlainTemplate(cublasHandle_t h, T) {
  cublasSetStream(h, nullptr);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasSetStream' is discarded
  // CHECK-NOTES: :[[@LINE-2]]:3: note: FIX-IT applied suggested code changes
  // CHECK-NOTES: :[[@LINE-3]]:30: note: FIX-IT applied suggested code changes
  // CHECK-FIXES: {{^}}  CK(cublasSetStream(h, nullptr));{{$}}
  return 0;
}
int usePlainTemplate(cublasHandle_t h) { return inPlainTemplate(h, 1.0f); }
struct Holder {
  Holder(cublasHandle_t h) {
    cublasSetStream(h, nullptr);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: the cublasStatus_t returned by 'cublasSetStream' is discarded
    // CHECK-NOTES: :[[@LINE-2]]:5: note: no fix: 'CK' returns a value, in a constructor
    // CHECK-FIXES: {{^}}    cublasSetStream(h, nullptr);{{$}}
  }
};
#undef CK

#define CK(call) STATUS_CK(call)
cublasStatus_t passOn(cublasHandle_t h) {
  cublasSetStream(h, nullptr);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasSetStream' is discarded
  // CHECK-NOTES: :[[@LINE-2]]:3: note: FIX-IT applied suggested code changes
  // CHECK-NOTES: :[[@LINE-3]]:30: note: FIX-IT applied suggested code changes
  // CHECK-FIXES: {{^}}  CK(cublasSetStream(h, nullptr));{{$}}
  return CUBLAS_STATUS_SUCCESS;
}
#undef CK

#define CK(call) THROW_CK(call)
void throwing(cublasHandle_t h) {
  cublasSetStream(h, nullptr);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasSetStream' is discarded
  // CHECK-NOTES: :[[@LINE-2]]:3: note: no fix: 'CK' throws, and exceptions are off
  // CHECK-FIXES: {{^}}  cublasSetStream(h, nullptr);{{$}}
}
