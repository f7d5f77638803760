// Two classes that keep a handle: constructed in context_init.cpp, their
// other member functions in context_fini.cpp.
#include <cublas_v2.h>

class GemmContext {
public:
  GemmContext();
  ~GemmContext(); // destroys the handle
  void scale(float *X, int N);
private:
  cublasHandle_t handle_;
};

class LeakyContext {
public:
  LeakyContext();
  ~LeakyContext(); // forgets the handle
  void scale(float *X, int N);
private:
  cublasHandle_t handle_;
};
