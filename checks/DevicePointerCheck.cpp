//===- DevicePointerCheck.cpp - cublas-device-pointer ---------------------===//

#include "DevicePointerCheck.h"

using namespace cublas_tidy;

namespace clang::tidy::cublas {

std::optional<MemorySpaceCheck::Expected>
DevicePointerCheck::expectationFor(ParamRole Role) const {
  // The host pointer mode of scalars is known only for a handle created in
  // the function (the default) or set to it there.
  switch (Role) {
  case ParamRole::HostMatrix:
  case ParamRole::HostVector:
  case ParamRole::HostArray:
  case ParamRole::HostScalar:
    return Expected::HostMemory;
  default:
    return std::nullopt;
  }
}

} // namespace clang::tidy::cublas
