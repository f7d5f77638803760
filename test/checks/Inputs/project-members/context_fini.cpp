#include "contexts.h"

GemmContext::~GemmContext() { cublasDestroy(handle_); }
void GemmContext::scale(float *X, int N) {
  const float Two = 2.0f;
  cublasSscal(handle_, N, &Two, X, 1);
}

LeakyContext::~LeakyContext() {}
void LeakyContext::scale(float *X, int N) {
  const float Two = 2.0f;
  cublasSscal(handle_, N, &Two, X, 1);
}
