//===- HostPointerCheck.h - cublas-host-pointer ---------------------------===//

#ifndef CUBLAS_TIDY_CHECKS_HOSTPOINTERCHECK_H
#define CUBLAS_TIDY_CHECKS_HOSTPOINTERCHECK_H

#include "MemorySpaceCheck.h"

namespace clang::tidy::cublas {

/// Finds host memory passed where cuBLAS needs device memory: matrix and
/// vector operands, the device side of Set/Get routines, cuBLASLt operands
/// and workspaces, the arrays of pointers of batched routines, and scalars
/// under CUBLAS_POINTER_MODE_DEVICE.
///
/// For the user-facing documentation see:
/// docs/checks/cublas-host-pointer.md
class HostPointerCheck : public MemorySpaceCheck {
public:
  HostPointerCheck(StringRef Name, ClangTidyContext *Context)
      : MemorySpaceCheck(Name, Context, cublas_tidy::MemoryKind::PageableHost,
                         cublas_tidy::PointerMode::Device) {}

protected:
  std::optional<Expected>
  expectationFor(cublas_tidy::ParamRole Role) const override;
};

} // namespace clang::tidy::cublas

#endif
