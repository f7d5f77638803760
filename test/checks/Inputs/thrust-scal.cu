#include <thrust/device_vector.h>
#include <cublas_v2.h>
int f(cublasHandle_t h) {
  thrust::device_vector<float> v(16);
  float *p = thrust::raw_pointer_cast(v.data());
  const float a = 2.0f;
  cublasSscal(h, 16, &a, p, 1);
  return 0;
}
