//===- HostPointerCheck.cpp - cublas-host-pointer -------------------------===//

#include "HostPointerCheck.h"

using namespace cublas_tidy;

namespace clang::tidy::cublas {

std::optional<MemorySpaceCheck::Expected>
HostPointerCheck::expectationFor(ParamRole Role) const {
  // Pinned and managed memory are device-accessible: only pageable host
  // memory is wrong.
  switch (Role) {
  case ParamRole::DeviceMatrix:
  case ParamRole::DeviceVector:
  case ParamRole::DeviceWorkspace:
    return Expected::DeviceMemory;
  case ParamRole::DevicePointerArray:
    return Expected::DevicePointerArray;
  default:
    return std::nullopt;
  }
}

} // namespace clang::tidy::cublas
