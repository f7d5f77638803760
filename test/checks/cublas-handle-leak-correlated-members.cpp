// RUN: %check_clang_tidy %s cublas-handle-leak %t

// A handle created and destroyed under the same test of a field of a local
// options object (`if (opts.use_gpu)` twice), as benchmarks and perf tests
// write it after parsing their command line into the object: the path that
// creates without destroying cannot run. And the same shape where the
// field or the object changes in between, which must stay reported.

#include <cublas_v2.h>

struct Options {
  bool use_cublas = false;
  bool verbose = false;
  int repeat = 1;
};

int parse(Options &opts, int argc, char **argv);
void describe(const Options &opts);
void reset(Options &opts);
void work(const float *x);

// Silent: parsed by reference before the create; nothing changes it after.
void run_parsed(int argc, char **argv, float *x, int n) {
  Options opts;
  parse(opts, argc, argv);
  cublasHandle_t h;
  if (opts.use_cublas)
    cublasCreate(&h);
  for (int r = 0; r < opts.repeat; ++r) {
    if (opts.use_cublas) {
      const float a = 2.0f;
      cublasSscal(h, n, &a, x, 1);
    }
    describe(opts); // a const reference: a read
  }
  if (opts.verbose)
    work(x);
  if (opts.use_cublas)
    cublasDestroy(h);
}

// Silent: a parameter object taken by value.
void run_by_value(Options opts, float *x) {
  cublasHandle_t h;
  if (opts.use_cublas)
    cublasCreate(&h);
  work(x);
  if (opts.use_cublas)
    cublasDestroy(h);
}

// Reported: the field is assigned between the create and the destroy.
void run_assigned(float *x) {
  Options opts;
  opts.use_cublas = true;
  cublasHandle_t h;
  if (opts.use_cublas)
    cublasCreate(&h);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: handle 'h' created here is not destroyed on every path; call 'cublasDestroy' before it goes out of reach [cublas-handle-leak]
  work(x);
  opts.use_cublas = false;
  if (opts.use_cublas)
    cublasDestroy(h);
}
// CHECK-NOTES: :[[@LINE-1]]:1: note: leaks when the function returns here

// Reported: the object is given by reference to a function that may
// change it between the create and the destroy.
void run_reset(int argc, char **argv, float *x) {
  Options opts;
  parse(opts, argc, argv);
  cublasHandle_t h;
  if (opts.use_cublas)
    cublasCreate(&h);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: handle 'h' created here is not destroyed on every path; call 'cublasDestroy' before it goes out of reach [cublas-handle-leak]
  reset(opts);
  if (opts.use_cublas)
    cublasDestroy(h);
}
// CHECK-NOTES: :[[@LINE-1]]:1: note: leaks when the function returns here

// Reported: another field is tested around the destroy.
void run_other_field(Options opts, float *x) {
  cublasHandle_t h;
  if (opts.use_cublas)
    cublasCreate(&h);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: handle 'h' created here is not destroyed on every path; call 'cublasDestroy' before it goes out of reach [cublas-handle-leak]
  work(x);
  if (opts.verbose)
    cublasDestroy(h);
}
// CHECK-NOTES: :[[@LINE-1]]:1: note: leaks when the function returns here

// Reported: a pointer to the object is kept, and a write through it is not
// followed.
void run_aliased(float *x) {
  Options opts;
  Options *p = &opts;
  cublasHandle_t h;
  if (opts.use_cublas)
    cublasCreate(&h);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: handle 'h' created here is not destroyed on every path; call 'cublasDestroy' before it goes out of reach [cublas-handle-leak]
  p->use_cublas = false;
  if (opts.use_cublas)
    cublasDestroy(h);
}
// CHECK-NOTES: :[[@LINE-1]]:1: note: leaks when the function returns here
