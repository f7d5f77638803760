// Dependent cuBLAS calls, in templates never or partly instantiated.
#include <cublas_v2.h>

template <typename T> struct Traits;
template <> struct Traits<float> {
  static cublasStatus_t gemm(cublasHandle_t h, int n, const float *a,
                             const float *A, const float *B, const float *b,
                             float *C) {
    return cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, a, A, n, B, n, b,
                       C, n);
  }
};

template <typename T, int N> cublasStatus_t run(cublasHandle_t h, T *A) {
  T one = 1;
  auto st = Traits<T>::gemm(h, N, &one, A, A, &one, A);
  if constexpr (N > 4)
    return st;
  else
    return cublasSetStream(h, nullptr);
}

template <typename H> void never_instantiated(H h, typename H::type *p) {
  cublasCreate(&h);
  h.gemm(p);
  cublasDestroy(h);
}

template <typename... Args> cublasStatus_t forward(Args... args) {
  return cublasSgemm(args...);
}

int main() {
  cublasHandle_t h = nullptr;
  float *A = nullptr;
  int r = run<float, 8>(h, A) + run<float, 2>(h, A);
  return r + (forward(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, A, A, 1, A, 1, A,
                      A, 1) == CUBLAS_STATUS_SUCCESS);
}
