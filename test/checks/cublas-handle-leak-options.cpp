// RUN: %check_clang_tidy %s cublas-handle-leak %t \
// RUN:   -config="{CheckOptions: {cublas-handle-leak.ResourcePairs: 'cusolverDnCreate:cusolverDnDestroy;myPoolOpen:myPoolClose;tryOpen:myPoolClose2;openOrDie:myPoolClose3'}}"

// The user's own resources through ResourcePairs. cusolverDnCreate and
// cusolverDnDestroy are a pair of the API model: naming them again, as a
// configuration written before the model knew cuSOLVER does, is accepted
// (no configuration error) and they stay a handle's pair.
#include <cublas_v2.h>

struct cusolverDnContext;
typedef struct cusolverDnContext *cusolverDnHandle_t;
typedef int cusolverStatus_t;
extern "C" cusolverStatus_t cusolverDnCreate(cusolverDnHandle_t *handle);
extern "C" cusolverStatus_t cusolverDnDestroy(cusolverDnHandle_t handle);

struct Pool;
int myPoolOpen(int size, Pool **out);
void myPoolClose(Pool *p);

int solver(bool early) {
  cusolverDnHandle_t s;
  if (cusolverDnCreate(&s) != 0)
    return -1;
  // CHECK-NOTES: :[[@LINE-2]]:7: warning: handle 's' created here is not destroyed on every path; call 'cusolverDnDestroy' before it goes out of reach [cublas-handle-leak]
  if (early)
    return 1;
  // CHECK-NOTES: :[[@LINE-1]]:5: note: leaks when this 'return' is taken
  cusolverDnDestroy(s);
  return 0;
}

void pool() {
  Pool *p;
  myPoolOpen(64, &p);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: resource 'p' created here is never destroyed; call 'myPoolClose'
}
// CHECK-NOTES: :[[@LINE-1]]:1: note: leaks when the function returns here

bool tryOpen(Pool **out);
void myPoolClose2(Pool *p);
void openOrDie(Pool **out);
void myPoolClose3(Pool *p);

int bool_result() {
  // true means success: the early return is the failure path.
  Pool *p;
  if (!tryOpen(&p))
    return -1;
  myPoolClose2(p);
  Pool *q;
  openOrDie(&q);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: resource 'q' created here is never destroyed; call 'myPoolClose3'
  return 0;
  // CHECK-NOTES: :[[@LINE-1]]:3: note: leaks when this 'return' is taken
}

void pool_closed() {
  Pool *p;
  if (myPoolOpen(64, &p) == 0)
    myPoolClose(p);
}

void still_cublas() {
  cublasHandle_t h;
  cublasCreate(&h);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: handle 'h' created here is never destroyed
}
// CHECK-NOTES: :[[@LINE-1]]:1: note: leaks when the function returns here
