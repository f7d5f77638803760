// RUN: %check_clang_tidy -expect-clang-tidy-error %s 'cublas-*' %t

// Code that does not compile. In a function with errors, the flow facts are
// unknown: a leak or a stored-and-never-read status is not reported there,
// only what one error-free statement proves alone (a discarded status).
// Functions without errors are analysed as usual. Nothing crashes.

#include <cublas_v2.h>
#include <cublasLt.h>
#include <utility>

// An unknown type makes the declaration invalid; the status assigned to it
// is not "stored but never read", and nothing crashes.
void unknownType(cublasHandle_t *h) {
  int32 ret;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: unknown type name 'int32' [clang-diagnostic-error]
  if ((ret = cublasCreate(h)) != 0) { }
}

// A header that is not included: the call of find_best has errors; the
// layout may be destroyed by it as far as anyone knows, so no leak.
std::pair<int, int> find_best(const cublasLtHandle_t &h,
                              const std::vector<int> &banned,
  // CHECK-MESSAGES: :[[@LINE-1]]:42: error: no template named 'vector' in namespace 'std' [clang-diagnostic-error]
                              cublasLtMatrixLayout_t d);
int missingInclude(const cublasLtHandle_t &handle) {
  cublasLtMatrixLayout_t A = nullptr;
  if (cublasLtMatrixLayoutCreate(&A, CUDA_R_8I, 4, 4, 4) != CUBLAS_STATUS_SUCCESS)
    return 1;
  auto result = find_best(handle, {20}, A);
  if (result.first == 0) {
    return result.first;
  }
  // The statement compiles: its status is discarded, whatever else is wrong
  // (CUBLASLT_MATRIX_LAYOUT_ROWS is a uint64_t: an int's size fails).
  int rows = 4;
  cublasLtMatrixLayoutSetAttribute(A, CUBLASLT_MATRIX_LAYOUT_ROWS, &rows, sizeof(rows));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasLtMatrixLayoutSetAttribute' is discarded; a failure here goes unnoticed [cublas-unchecked-status]
  // A layout's destroy cannot fail: cublasLt.h documents only success.
  cublasLtMatrixLayoutDestroy(A);
  return 0;
}

// Statements clang could not parse are dropped from the AST without a
// trace: the destroys below are gone, and the handle would seem leaked.
int droppedStatements(int n) {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    return 1;
  if (n > 0) {
    ns::release<3>(h);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: error: use of undeclared identifier 'ns' [clang-diagnostic-error]
    return 2;
  }
  release(h;
  // CHECK-MESSAGES: :[[@LINE-1]]:12: error: expected ')' [clang-diagnostic-error]
  return 0;
}

// A call the user is still typing: the error right after it means the
// statement is not finished, so its status is not called discarded.
int typing(cublasHandle_t h, float *x, int n) {
  int status = 0;
  cublasSscal(h, n, nullptr, x, 1)
  // CHECK-MESSAGES: :[[@LINE-1]]:35: error: expected ';' after expression [clang-diagnostic-error]
  return status;
}

// A status stored and never read in a function with errors: not reported.
int storedInBroken(cublasHandle_t h) {
  cublasStatus_t st = cublasSetStream(h, undeclaredStream);
  // CHECK-MESSAGES: :[[@LINE-1]]:42: error: use of undeclared identifier 'undeclaredStream' [clang-diagnostic-error]
  st = cublasSetStream(h, 0);
  return 0;
}

// A cuBLAS call whose own arguments have errors: nothing is said about it.
void brokenCall(cublasHandle_t h, float *x) {
  cublasSscal(h, 4, &undeclaredAlpha, x, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: error: use of undeclared identifier 'undeclaredAlpha' [clang-diagnostic-error]
}

// The same file's functions without errors get their findings.
int leaky() {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: handle 'h' created here is never destroyed; call 'cublasDestroy' when it is no longer needed [cublas-handle-leak]
    return 1;
  return 0;
}

int usedAfterDestroy() {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    return 1;
  if (cublasDestroy(h) != CUBLAS_STATUS_SUCCESS)
    return 2;
  return cublasSetStream(h, 0) == CUBLAS_STATUS_SUCCESS ? 0 : 3;
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: handle 'h' is used after it was destroyed [cublas-handle-use-after-destroy]
}

void hostPointer(cublasHandle_t h) {
  float x[16];
  cublasStatus_t st = cublasSscal(h, 16, nullptr, x, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:51: warning: {{.*}} [cublas-host-pointer]
  (void)st;
}
