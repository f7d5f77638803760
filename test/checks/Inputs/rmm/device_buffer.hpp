// RMM stand-in (see cuda_stream_view.hpp).
#pragma once
#include <cstddef>
#include <rmm/cuda_stream_view.hpp>
#include <rmm/mr/device_memory_resource.hpp>
namespace rmm {
class device_buffer {
public:
  device_buffer();
  device_buffer(std::size_t size, cuda_stream_view stream,
                device_async_resource_ref mr =
                    mr::get_current_device_resource());
  device_buffer(device_buffer &&) noexcept;
  device_buffer &operator=(device_buffer &&) noexcept;
  void *data() noexcept;
  const void *data() const noexcept;
  std::size_t size() const noexcept;
  void resize(std::size_t new_size, cuda_stream_view stream);
  void shrink_to_fit(cuda_stream_view stream);
};
} // namespace rmm
