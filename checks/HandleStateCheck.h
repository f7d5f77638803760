//===- HandleStateCheck.h - cublas-handle-state ---------------------------===//

#ifndef CUBLAS_TIDY_CHECKS_HANDLESTATECHECK_H
#define CUBLAS_TIDY_CHECKS_HANDLESTATECHECK_H

#include "CublasCheck.h"
#include "facts/HandleDevices.h"

namespace clang::tidy::cublas {

/// Finds a handle's configuration changed where other work pays for it: a
/// workspace reset by a later cublasSetStream, the device pointer mode left
/// on a handle the function does not own, a handle reconfigured by threads
/// that share it.
///
/// For the user-facing documentation see:
/// docs/checks/cublas-handle-state.md
class HandleStateCheck : public CublasCheck {
public:
  using CublasCheck::CublasCheck;

private:
  /// Where a member or global handle gets its workspace may be a function
  /// matched later: everything is decided at the end of the unit.
  void checkUnit(ASTContext &Ctx) override;
  void clearUnit() override { Analysable.clear(); }
  void reportWorkspaces(const Decl *Callable);
  void reportPointerModes(const Decl *Callable);
  void reportRaces();
  void reportDevices(const Decl *Callable,
                     const cublas_tidy::UnitHandleArrays &Arrays);

  /// The callables of the unit with a body to analyse.
  std::vector<const Decl *> Analysable;
};

} // namespace clang::tidy::cublas

#endif
