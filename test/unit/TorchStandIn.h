//===- TorchStandIn.h - A small stand-in of PyTorch's C++ API for tests ---===//
//
// The pieces of ATen's public API that lib/facts reads (c10::TensorOptions,
// at::TensorBase and at::Tensor, the factories, TORCH_CHECK), declared as
// libtorch declares them, small enough to parse in every unit test: the
// real torch/extension.h takes seconds. Code given to buildAST() starts
// with `TorchStandIn`.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_TEST_UNIT_TORCHSTANDIN_H
#define CUBLAS_TIDY_TEST_UNIT_TORCHSTANDIN_H

namespace cublas_tidy::test {

inline const char TorchStandIn[] = R"(
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <cublas_v2.h>

namespace c10 {
enum class DeviceType : int8_t { CPU = 0, CUDA = 1 };
constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
enum class ScalarType : int8_t { Byte, Char, Short, Int, Long, Half, Float,
                                 Double };
constexpr ScalarType kFloat = ScalarType::Float;
constexpr ScalarType kHalf = ScalarType::Half;
constexpr ScalarType kDouble = ScalarType::Double;
constexpr ScalarType kByte = ScalarType::Byte;
struct Half { unsigned short x; };
struct Device {
  Device(DeviceType type, int8_t index = -1);
  Device(const std::string &device_string);
  bool is_cuda() const;
};
template <typename T> class ArrayRef {
public:
  ArrayRef(std::initializer_list<T> list);
  const T &operator[](size_t index) const;
  size_t size() const;
};
using IntArrayRef = ArrayRef<int64_t>;
struct TensorOptions {
  TensorOptions();
  TensorOptions(Device device);
  TensorOptions(DeviceType device);
  TensorOptions(ScalarType dtype);
  TensorOptions device(Device device) const;
  TensorOptions dtype(ScalarType dtype) const;
  TensorOptions pinned_memory(bool pinned) const;
  TensorOptions requires_grad(bool requires) const;
};
namespace detail {
[[noreturn]] void torchCheckFail(const char *func, const char *file,
                                 unsigned line, const char *msg);
} // namespace detail
} // namespace c10

namespace at {
using c10::Device;
using c10::DeviceType;
using c10::IntArrayRef;
using c10::ScalarType;
using c10::TensorOptions;
using c10::kCPU;
using c10::kCUDA;
using c10::kDouble;
using c10::kFloat;
using c10::kHalf;
namespace indexing {
class TensorIndex;
} // namespace indexing
class TensorBase {
public:
  template <typename T> T *data_ptr() const;
  void *data_ptr() const;
  int64_t size(int64_t dim) const;
  IntArrayRef sizes() const;
  int64_t dim() const;
  bool is_cuda() const;
  bool is_contiguous() const;
  c10::Device device() const;
  TensorOptions options() const;
  ScalarType scalar_type() const;
};
class Tensor : public TensorBase {
public:
  Tensor();
  Tensor(const Tensor &);
  Tensor(Tensor &&);
  Tensor &operator=(const Tensor &) &;
  Tensor &operator=(Tensor &&) &;
  Tensor contiguous() const;
  Tensor t() const;
  Tensor transpose(int64_t dim0, int64_t dim1) const;
  Tensor view(IntArrayRef size) const;
  Tensor narrow(int64_t dim, int64_t start, int64_t length) const;
  Tensor select(int64_t dim, int64_t index) const;
  Tensor slice(int64_t dim = 0, std::optional<int64_t> start = std::nullopt,
               std::optional<int64_t> end = std::nullopt,
               int64_t step = 1) const;
  Tensor expand(IntArrayRef size, bool implicit = false) const;
  Tensor index(std::initializer_list<indexing::TensorIndex> indices) const;
  Tensor as_strided(IntArrayRef size, IntArrayRef stride,
                    std::optional<int64_t> storage_offset = std::nullopt) const;
  Tensor clone() const;
  Tensor cuda() const;
  Tensor cpu() const;
  Tensor to(ScalarType dtype) const;
  Tensor to(c10::Device device, ScalarType dtype) const;
  Tensor to(TensorOptions options) const;
  Tensor half() const;
  Tensor &zero_();
  const Tensor &resize_(IntArrayRef size) const;
};
Tensor empty(IntArrayRef size, TensorOptions options = {});
Tensor zeros(IntArrayRef size, TensorOptions options = {});
Tensor ones(IntArrayRef size, TensorOptions options = {});
Tensor empty_like(const Tensor &self);
Tensor empty_like(const Tensor &self, TensorOptions options);
Tensor matmul(const Tensor &self, const Tensor &other);
namespace cuda {
cublasHandle_t getCurrentCUDABlasHandle();
} // namespace cuda
namespace indexing {
struct EllipsisIndexType {};
constexpr EllipsisIndexType Ellipsis;
constexpr std::nullopt_t None = std::nullopt;
class Slice {
public:
  Slice(std::optional<int64_t> start = std::nullopt,
        std::optional<int64_t> stop = std::nullopt,
        std::optional<int64_t> step = std::nullopt);
};
class TensorIndex {
public:
  TensorIndex(std::nullopt_t);
  TensorIndex(EllipsisIndexType);
  TensorIndex(int64_t integer);
  TensorIndex(int integer);
  TensorIndex(bool boolean);
  TensorIndex(Slice slice);
  TensorIndex(const Tensor &tensor);
};
} // namespace indexing
} // namespace at

namespace torch {
namespace indexing = at::indexing;
using at::Tensor;
using at::TensorOptions;
using at::empty;
using at::empty_like;
using at::kCPU;
using at::kCUDA;
using at::kDouble;
using at::kFloat;
using at::kHalf;
using at::ones;
using at::zeros;
at::TensorOptions device(c10::Device device);
at::TensorOptions dtype(c10::ScalarType dtype);
} // namespace torch

#define TORCH_CHECK(cond, ...)                                                 \
  if (__builtin_expect(static_cast<bool>(!(cond)), 0)) {                       \
    ::c10::detail::torchCheckFail(__func__, __FILE__, __LINE__, #cond);        \
  }
)";

} // namespace cublas_tidy::test

#endif
