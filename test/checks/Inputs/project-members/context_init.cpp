#include "contexts.h"

GemmContext::GemmContext() { cublasCreate(&handle_); }
LeakyContext::LeakyContext() { cublasCreate(&handle_); }

void step(float *X) {
  GemmContext Good;
  Good.scale(X, 4);
  LeakyContext Bad;
  Bad.scale(X, 4);
}
