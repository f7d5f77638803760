//===- HandlePerCallCheck.h - cublas-handle-per-call ----------------------===//

#ifndef CUBLAS_TIDY_CHECKS_HANDLEPERCALLCHECK_H
#define CUBLAS_TIDY_CHECKS_HANDLEPERCALLCHECK_H

#include "CublasCheck.h"
#include "facts/RepeatedHandles.h"

#include <optional>

namespace clang::tidy::cublas {

/// Finds cuBLAS and cuBLASLt handles created and destroyed around cuBLAS
/// work on every iteration of a loop, or on every call of a function that
/// the translation unit calls from a loop.
///
/// For the user-facing documentation see:
/// docs/checks/cublas-handle-per-call.md
class HandlePerCallCheck : public CublasCheck {
public:
  using CublasCheck::CublasCheck;

private:
  /// Whether a function runs in a loop depends on callers the matchers may
  /// not have reached yet: everything is decided at the end of the unit.
  void checkUnit(ASTContext &Ctx) override;
  /// The functions of other units that make a handle per call
  /// (facts/Summaries.h), called repeatedly here.
  void checkProjectCalls(std::optional<cublas_tidy::OpRegistrations> &Ops);
};

} // namespace clang::tidy::cublas

#endif
