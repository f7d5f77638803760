// RMM stand-in (see cuda_stream_view.hpp).
#pragma once
#include <rmm/device_uvector.hpp>
namespace rmm {
template <typename T> class device_scalar {
public:
  using value_type = T;
  explicit device_scalar(cuda_stream_view stream,
                         device_async_resource_ref mr =
                             mr::get_current_device_resource());
  explicit device_scalar(T const &initial_value, cuda_stream_view stream,
                         device_async_resource_ref mr =
                             mr::get_current_device_resource());
  T value(cuda_stream_view stream) const;
  void set_value_async(T const &value, cuda_stream_view stream);
  T *data() noexcept;
  T const *data() const noexcept;
};
} // namespace rmm
