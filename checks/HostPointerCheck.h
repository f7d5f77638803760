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
      : MemorySpaceCheck(Name, Context) {}

protected:
  void checkCall(const CallExpr *Call, const cublas_tidy::FunctionInfo &F,
                 const cublas_tidy::PointerProvenance &P,
                 ASTContext &Ctx) override;
};

} // namespace clang::tidy::cublas

#endif
