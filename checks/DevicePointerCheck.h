//===- DevicePointerCheck.h - cublas-device-pointer -----------------------===//

#ifndef CUBLAS_TIDY_CHECKS_DEVICEPOINTERCHECK_H
#define CUBLAS_TIDY_CHECKS_DEVICEPOINTERCHECK_H

#include "MemorySpaceCheck.h"

namespace clang::tidy::cublas {

/// Finds device memory passed where cuBLAS reads or writes host memory: the
/// host side of Set/Get routines, host arrays and scalars, and scalars under
/// the default CUBLAS_POINTER_MODE_HOST.
///
/// For the user-facing documentation see:
/// docs/checks/cublas-device-pointer.md
class DevicePointerCheck : public MemorySpaceCheck {
public:
  DevicePointerCheck(StringRef Name, ClangTidyContext *Context)
      : MemorySpaceCheck(Name, Context, cublas_tidy::MemoryKind::Device,
                         cublas_tidy::PointerMode::Host) {}

protected:
  std::optional<Expected>
  expectationFor(cublas_tidy::ParamRole Role) const override;
};

} // namespace clang::tidy::cublas

#endif
