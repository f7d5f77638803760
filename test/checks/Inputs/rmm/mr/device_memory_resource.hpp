// RMM stand-in (see ../cuda_stream_view.hpp).
#pragma once
#include <cstddef>
namespace rmm::mr {
class device_memory_resource {
public:
  virtual ~device_memory_resource() = default;
};
class managed_memory_resource : public device_memory_resource {};
device_memory_resource *get_current_device_resource();
} // namespace rmm::mr
namespace rmm {
class device_async_resource_ref {
public:
  device_async_resource_ref(mr::device_memory_resource *);
};
} // namespace rmm
