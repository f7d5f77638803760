// RUN: %check_clang_tidy %s cublas-matrix-extents %t -- -- -isystem %S/Inputs

// thrust's vectors are sized containers; the raw pointers cuBLAS takes come
// from thrust::raw_pointer_cast or device_ptr::get() of their data() or
// &v[i] (a stand-in of thrust in Inputs/thrust_stub.h).

#include <cublas_v2.h>

#include <thrust_stub.h>

void rawPointerCast(cublasHandle_t h) {
  thrust::device_vector<float> x(100), y(100);
  const float a = 2.f;
  cublasSaxpy(h, 100, &a, thrust::raw_pointer_cast(x.data()), 1,
              thrust::raw_pointer_cast(y.data()), 1);
  cublasSaxpy(h, 100, &a, thrust::raw_pointer_cast(&x[1]), 1,
              thrust::raw_pointer_cast(y.data()), 1);
  // CHECK-NOTES: :[[@LINE-2]]:27: warning: 'x' needs 100 elements at incx=1 but 'thrust::raw_pointer_cast(&x[1])' holds 99 floats (thrust::device_vector of 100 float values, from element 1) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-7]]:32: note: 'x' is allocated here
}

void devicePtrGet(cublasHandle_t h) {
  thrust::device_vector<float> x(64), y(32);
  const float a = 2.f;
  cublasSaxpy(h, 64, &a, x.data().get(), 1, y.data().get(), 1);
  // CHECK-NOTES: :[[@LINE-1]]:45: warning: 'y' needs 64 elements at incy=1 but 'y.data().get()' holds 32 floats (thrust::device_vector of 32 float values) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-4]]:39: note: 'y' is allocated here
  cublasSaxpy(h, 32, &a, x.data().get(), 1, y.data().get(), 1);
}
