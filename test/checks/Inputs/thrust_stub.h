// A stand-in for the parts of thrust the pointer checks know, for tests of
// C++ files: the real thrust headers parse only as CUDA (.cu, host-only).
// Same names and shapes: data() of a device_vector is a device_ptr,
// operator[] a device_reference whose operator& is a device_ptr.
#ifndef CUBLAS_TIDY_TEST_THRUST_STUB_H
#define CUBLAS_TIDY_TEST_THRUST_STUB_H
#include <memory>
namespace thrust {
template <class T> class device_ptr {
public:
  T *get() const;
};
template <class T> class device_reference {
public:
  device_ptr<T> operator&() const;
};
template <class T> class device_allocator {};
template <class T, class Alloc = device_allocator<T>> class device_vector {
public:
  device_vector();
  explicit device_vector(unsigned long n);
  device_ptr<T> data();
  device_reference<T> operator[](unsigned long);
};
template <class T, class Alloc = std::allocator<T>> class host_vector {
public:
  host_vector();
  explicit host_vector(unsigned long n);
  T *data();
  T &operator[](unsigned long);
};
template <class T> T *raw_pointer_cast(device_ptr<T>);
template <class T> T *raw_pointer_cast(T *);
} // namespace thrust
#endif
