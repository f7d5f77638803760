// RUN: %check_clang_tidy -check-suffix=MACRO %s cublas-unchecked-status %t.macro \
// RUN:   -config="{CheckOptions: {cublas-unchecked-status.CheckMacro: CUBLAS_CHECK}}"
// RUN: %check_clang_tidy -check-suffix=STRICT %s cublas-unchecked-status %t.strict \
// RUN:   -config="{CheckOptions: {cublas-unchecked-status.AllowCastToVoid: false, cublas-unchecked-status.IgnoredFunctions: 'cublasDestroy;cublasSetStream_v2', cublas-unchecked-status.CheckedFunctions: 'legacy::.*_call'}}"

#include <cublas_v2.h>

[[noreturn]] void die(cublasStatus_t);
#define CUBLAS_CHECK(call)                                                     \
  do {                                                                         \
    cublasStatus_t s_ = (call);                                                \
    if (s_ != CUBLAS_STATUS_SUCCESS)                                           \
      die(s_);                                                                 \
  } while (0)
#define FORWARD(x) x

namespace legacy {
int gemm_call(cublasHandle_t);
int other(cublasHandle_t);
} // namespace legacy

void f(cublasHandle_t h, const float *x, float *y, int n, bool c) {
  const float one = 1.0f;
  cublasSaxpy(h, n, &one, x, 1, y, 1);
  // CHECK-MESSAGES-MACRO: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasSaxpy' is discarded
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:3: warning: the cublasStatus_t returned by 'cublasSaxpy' is discarded
  // CHECK-FIXES-MACRO: {{^}}  CUBLAS_CHECK(cublasSaxpy(h, n, &one, x, 1, y, 1));{{$}}
  if (c)
    cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
  // CHECK-MESSAGES-MACRO: :[[@LINE-1]]:5: warning: the cublasStatus_t returned by 'cublasSetPointerMode' is discarded
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:5: warning: the cublasStatus_t returned by 'cublasSetPointerMode' is discarded
  // CHECK-FIXES-MACRO: {{^}}    CUBLAS_CHECK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));{{$}}

  // Not a whole statement, or not written out in the file: no fix.
  c ? cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST) : CUBLAS_STATUS_SUCCESS;
  // CHECK-MESSAGES-MACRO: :[[@LINE-1]]:7: warning: the cublasStatus_t returned by 'cublasSetPointerMode' is discarded
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:7: warning: the cublasStatus_t returned by 'cublasSetPointerMode' is discarded
  // CHECK-FIXES-MACRO: {{^}}  c ? cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST) : CUBLAS_STATUS_SUCCESS;{{$}}
  FORWARD(cublasSaxpy(h, n, &one, x, 1, y, 1));
  // CHECK-MESSAGES-MACRO: :[[@LINE-1]]:11: warning: the cublasStatus_t returned by 'cublasSaxpy' is discarded
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:11: warning: the cublasStatus_t returned by 'cublasSaxpy' is discarded
  // CHECK-FIXES-MACRO: {{^}}  FORWARD(cublasSaxpy(h, n, &one, x, 1, y, 1));{{$}}

  // IgnoredFunctions matches the name as written and the real symbol.
  cublasDestroy(h);
  // CHECK-MESSAGES-MACRO: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
  // CHECK-FIXES-MACRO: {{^}}  CUBLAS_CHECK(cublasDestroy(h));{{$}}
  cublasSetStream(h, nullptr);
  // CHECK-MESSAGES-MACRO: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasSetStream' is discarded

  // AllowCastToVoid=false reports explicit discards.
  (void)cublasSaxpy(h, n, &one, x, 1, y, 1);
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:9: warning: the cublasStatus_t returned by 'cublasSaxpy' is explicitly discarded

  // CheckedFunctions adds functions that do not return cublasStatus_t.
  legacy::gemm_call(h);
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:3: warning: the status returned by 'gemm_call' is discarded
  int code = legacy::gemm_call(h);
  // CHECK-MESSAGES-STRICT: :[[@LINE-1]]:14: warning: the status returned by 'gemm_call' is stored in 'code' but never read
  legacy::other(h);
}

void no_statement_macro_in_headers(cublasHandle_t h, int n) {
  for (cublasCreate(&h); n > 0; --n) {
  }
  // CHECK-MESSAGES-MACRO: :[[@LINE-2]]:8: warning: the cublasStatus_t returned by 'cublasCreate' is discarded
  // CHECK-MESSAGES-STRICT: :[[@LINE-3]]:8: warning: the cublasStatus_t returned by 'cublasCreate' is discarded
  // CHECK-FIXES-MACRO: {{^}}  for (cublasCreate(&h); n > 0; --n) {{{$}}
}
