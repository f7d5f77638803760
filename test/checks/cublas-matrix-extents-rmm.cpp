// RUN: %check_clang_tidy %s cublas-matrix-extents %t -- -- -isystem %S/Inputs

// RAPIDS code (cuML, cuGraph, raft) hands cuBLAS the storage of RMM's
// buffers (a stand-in of RMM's public API in Inputs/rmm). A local buffer
// made with its size and used only through methods that keep its storage
// holds that many elements: the extents are checked against it.

#include <cublas_v2.h>

#include <rmm/device_buffer.hpp>
#include <rmm/device_scalar.hpp>
#include <rmm/device_uvector.hpp>

void uvectorTooSmall(cublasHandle_t h, rmm::cuda_stream_view stream) {
  const int m = 64, n = 32, k = 16;
  rmm::device_uvector<float> a(m * k, stream), b(k * n, stream);
  rmm::device_uvector<float> c(m * (n - 1), stream);
  const float one = 1.f, zero = 0.f;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a.data(), m,
              b.data(), k, &zero, c.data(), m);
  // CHECK-NOTES: :[[@LINE-1]]:35: warning: 'C' needs 2048 elements at ldc=64 but 'c.data()' holds 1984 floats (rmm::device_uvector of 1984 float values) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-5]]:30: note: 'c' is allocated here
}

// Exactly big enough: nothing to say.
void uvectorExact(cublasHandle_t h, rmm::cuda_stream_view stream, int m,
                  int n, int k) {
  rmm::device_uvector<float> a(m * k, stream), b(k * n, stream),
      c(m * n, stream);
  const float one = 1.f, zero = 0.f;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a.data(), m,
              b.begin(), k, &zero, c.data(), m);
}

// Resized after it was made: its size is not the one it was made with.
void uvectorResized(cublasHandle_t h, rmm::cuda_stream_view stream) {
  rmm::device_uvector<float> x(10, stream), y(1000, stream);
  x.resize(1000, stream);
  const float a = 2.f;
  cublasSaxpy(h, 1000, &a, x.data(), 1, y.data(), 1);
}

// A buffer passed in: its size is the caller's.
void uvectorParameter(cublasHandle_t h, rmm::device_uvector<float> &x,
                      rmm::device_uvector<float> &y) {
  const float a = 2.f;
  cublasSaxpy(h, 1000, &a, x.data(), 1, y.data(), 1);
}

// size() is the size the buffer was made with.
void sizeAsLength(cublasHandle_t h, rmm::cuda_stream_view stream, int n) {
  rmm::device_uvector<float> x(n, stream), y(n, stream), z(n - 1, stream);
  const float a = 2.f;
  cublasSaxpy(h, x.size(), &a, x.data(), 1, y.data(), 1);
  cublasSaxpy(h, x.size(), &a, x.data(), 1, z.data(), 1);
  // CHECK-NOTES: :[[@LINE-1]]:45: warning: 'y' needs n elements at incy=1 but 'z.data()' holds n - 1 floats (rmm::device_uvector of n - 1 float values) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-5]]:58: note: 'z' is allocated here
}

// element_ptr(i) points i elements in.
void elementPointer(cublasHandle_t h, rmm::cuda_stream_view stream) {
  rmm::device_uvector<float> x(100, stream), y(100, stream);
  const float a = 2.f;
  cublasSaxpy(h, 99, &a, x.element_ptr(1), 1, y.data(), 1);
  cublasSaxpy(h, 100, &a, x.element_ptr(1), 1, y.data(), 1);
  // CHECK-NOTES: :[[@LINE-1]]:27: warning: 'x' needs 100 elements at incx=1 but 'x.element_ptr(1)' holds 99 floats (rmm::device_uvector of 100 float values, from element 1) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-5]]:30: note: 'x' is allocated here
}

// device_buffer counts bytes.
void bufferBytes(cublasHandle_t h, rmm::cuda_stream_view stream) {
  const int n = 256;
  rmm::device_buffer half(n / 2 * sizeof(float), stream);
  rmm::device_buffer whole(n * sizeof(float), stream);
  rmm::device_uvector<float> y(n, stream);
  const float a = 2.f;
  cublasSaxpy(h, n, &a, static_cast<const float *>(whole.data()), 1,
              y.data(), 1);
  cublasSaxpy(h, n, &a, static_cast<const float *>(half.data()), 1,
              y.data(), 1);
  // CHECK-NOTES: :[[@LINE-2]]:25: warning: 'x' needs 256 elements at incx=1 but 'static_cast<const float *>(half.data())' holds 128 floats (rmm::device_buffer of 512 bytes) [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-9]]:22: note: 'half' is allocated here
}

// A device_scalar holds one element: a dot product's result fits.
void scalarResult(cublasHandle_t h, rmm::cuda_stream_view stream) {
  rmm::device_uvector<float> x(100, stream), y(100, stream);
  rmm::device_scalar<float> result(stream);
  cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
  cublasSdot(h, 100, x.data(), 1, y.data(), 1, result.data());
}
