// REQUIRES: clang-tidy-plugin-host
// RUN: not %clang_tidy_plugin -checks='-*,cublas-*' %s -- -std=c++17 \
// RUN:   -isystem %cuda_include -ferror-limit=2 2>&1 | %FileCheck %s

// At clang's error limit the plugin says what clang says and reports no
// error after it, but still analyses the functions without errors. (Each
// clang-tidy the plugin is built for runs this: the "too many errors"
// diagnostic is made differently before clang 20, lib/ast/ClangCompat.h.)

#include <cublas_v2.h>

void broken() {
  undeclared1();
  undeclared2();
  undeclared3();
}

void fine(cublasHandle_t h) {
  cublasDestroy(h);
}

// CHECK-DAG: :13:3: error: use of undeclared identifier 'undeclared1' [clang-diagnostic-error]
// CHECK-DAG: :14:3: error: use of undeclared identifier 'undeclared2' [clang-diagnostic-error]
// CHECK-DAG: error: too many errors emitted, stopping now [clang-diagnostic-error]
// CHECK-DAG: :19:3: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded; a failure here goes unnoticed [cublas-unchecked-status]
// CHECK-NOT: undeclared3
