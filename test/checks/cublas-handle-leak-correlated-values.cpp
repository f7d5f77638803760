// RUN: %check_clang_tidy %s cublas-handle-leak %t

// Tests of one variable, or one field of a local object, against different
// constants: a path on which `format == CSR` held cannot take a later
// `format == CSC` (a format dispatch that creates a descriptor in one
// branch and, by a slip in the nesting, creates it again in a branch that
// tests another format). And the shapes where the value is not known to
// differ, which must stay reported.

#include <cusparse.h>

enum Format { CSR = 1, CSC = 2, ELL = 3 };
enum Major { ColMajor = 101, RowMajor = 102 };

struct Matrix {
  Format format;
  Major major;
  int rows;
};

void check(cusparseStatus_t);
void report(const char *);
void reformat(Matrix *m);

// Silent: the second create sits under `m.format == CSC`, inside the
// branch taken only when `m.format == CSR`.
int spmm_dispatch(Matrix m, Major xmajor) {
  cusparseMatDescr_t descr = nullptr;
  if (m.format == CSR) {
    check(cusparseCreateMatDescr(&descr));
    if (xmajor == ColMajor) {
      report("col");
    } else if (xmajor == RowMajor) {
      report("row");
    } else if (m.format == CSC) {
      check(cusparseCreateMatDescr(&descr));
    }
  } else if (m.format == ELL) {
    report("ell");
  }
  cusparseDestroyMatDescr(descr);
  return 0;
}

// Silent: a plain variable, and a switch that fixes the value.
int by_kind(int kind) {
  cusparseMatDescr_t descr = nullptr;
  switch (kind) {
  case 1:
    check(cusparseCreateMatDescr(&descr));
    if (kind == 2)
      check(cusparseCreateMatDescr(&descr));
    break;
  default:
    break;
  }
  if (kind == 3)
    report("three");
  cusparseDestroyMatDescr(descr);
  return 0;
}

// Reported: the same constant: the path that creates twice is real.
int same_value(Matrix m, bool again) {
  cusparseMatDescr_t descr = nullptr;
  if (m.format == CSR) {
    check(cusparseCreateMatDescr(&descr));
    // CHECK-NOTES: :[[@LINE-1]]:11: warning: descriptor 'descr' created here is not destroyed on every path; call 'cusparseDestroyMatDescr' before it goes out of reach [cublas-handle-leak]
    if (again && m.format == CSR)
      check(cusparseCreateMatDescr(&descr));
    // CHECK-NOTES: :[[@LINE-1]]:13: note: leaks when 'descr' is created again here
  }
  cusparseDestroyMatDescr(descr);
  return 0;
}

// Reported: the object changes between the two tests.
int changed(Matrix m) {
  cusparseMatDescr_t descr = nullptr;
  if (m.format == CSR) {
    check(cusparseCreateMatDescr(&descr));
    // CHECK-NOTES: :[[@LINE-1]]:11: warning: descriptor 'descr' created here is not destroyed on every path; call 'cusparseDestroyMatDescr' before it goes out of reach [cublas-handle-leak]
    m.format = CSC;
    if (m.format == CSC)
      check(cusparseCreateMatDescr(&descr));
    // CHECK-NOTES: :[[@LINE-1]]:13: note: leaks when 'descr' is created again here
  }
  cusparseDestroyMatDescr(descr);
  return 0;
}

// Reported: `!=` another constant says nothing against the next test.
int not_equal(int kind) {
  cusparseMatDescr_t descr = nullptr;
  if (kind != 1) {
    check(cusparseCreateMatDescr(&descr));
    // CHECK-NOTES: :[[@LINE-1]]:11: warning: descriptor 'descr' created here is not destroyed on every path; call 'cusparseDestroyMatDescr' before it goes out of reach [cublas-handle-leak]
    if (kind == 2)
      check(cusparseCreateMatDescr(&descr));
    // CHECK-NOTES: :[[@LINE-1]]:13: note: leaks when 'descr' is created again here
  }
  cusparseDestroyMatDescr(descr);
  return 0;
}
