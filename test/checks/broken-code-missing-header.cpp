// RUN: %check_clang_tidy -expect-clang-tidy-error %s 'cublas-*' %t

// A header of a dependency that is missing on the analysing machine. Clang
// reports it as a fatal error and then nothing more; the checks still learn
// where the later errors are, so only the functions that use the missing
// header lose their findings. The user sees the one error clang shows
// without the checks, and not the errors that follow it.

#include <cublas_v2.h>
#include "no-such-dependency/matrix.h"
// CHECK-MESSAGES: :[[@LINE-1]]:10: error: 'no-such-dependency/matrix.h' file not found [clang-diagnostic-error]

// Uses the missing header: unknown names, and a statement clang drops.
int usesTheHeader(dep::Matrix &m) {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    return 1;
  dep::bind<float>(m, h);
  return 0;
}

// Does not use it: analysed as usual.
int leaky() {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: handle 'h' created here is never destroyed; call 'cublasDestroy' when it is no longer needed [cublas-handle-leak]
    return 1;
  return 0;
}

int discarded(cublasHandle_t h) {
  cublasSetStream(h, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasSetStream' is discarded; a failure here goes unnoticed [cublas-unchecked-status]
  return 0;
}
