// RMM stand-in (see cuda_stream_view.hpp).
#pragma once
#include <cstddef>
#include <rmm/device_buffer.hpp>
namespace rmm {
template <typename T> class device_uvector {
public:
  using value_type = T;
  using size_type = std::size_t;
  using pointer = T *;
  using const_pointer = T const *;
  device_uvector() = delete;
  device_uvector(device_uvector const &) = delete;
  device_uvector(device_uvector &&) noexcept = default;
  device_uvector &operator=(device_uvector &&) noexcept = default;
  explicit device_uvector(std::size_t size, cuda_stream_view stream,
                          device_async_resource_ref mr =
                              mr::get_current_device_resource());
  pointer data() noexcept;
  const_pointer data() const noexcept;
  pointer begin() noexcept;
  pointer end() noexcept;
  pointer element_ptr(std::size_t element_index) noexcept;
  std::size_t size() const noexcept;
  void resize(std::size_t new_size, cuda_stream_view stream);
  device_buffer release() noexcept;
  void set_element_to_zero_async(std::size_t element_index,
                                 cuda_stream_view stream);
};
} // namespace rmm
