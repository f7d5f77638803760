// Broken code: the AST is partial. Every check must finish and stay silent.
#include <cublas_v2.h>

struct Incomplete;
void f(Incomplete *p, cublasHandle_t h) {
  cublasCreate(&undeclared_handle);
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 2, 3, p->alpha, p, 4
  cublasDestroy(h)
  int x = ;
  for (int i = 0; i < ; ++i) cublasSetStream(h, i.stream);
}
cublasStatus_t g(cublasHandle_t h) { return cublasDestroy(h, 1); }
void (int);
