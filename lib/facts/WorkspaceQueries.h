//===- WorkspaceQueries.h - The _bufferSize query of a routine ------------===//
//
// cuSOLVER and cuSPARSE size a routine's workspace with a query of the same
// name and the suffix _bufferSize (cusolverDnSgetrf_bufferSize before
// cusolverDnSgetrf, cusparseSpMV_bufferSize before cusparseSpMV). The query
// writes the size to a variable; the legacy cuSOLVER API counts it in
// elements of the routine's type, the 64-bit API and cuSPARSE in bytes.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_WORKSPACEQUERIES_H
#define CUBLAS_TIDY_LIB_FACTS_WORKSPACEQUERIES_H

#include "facts/SymExpr.h"
#include "model/CublasApi.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <optional>

namespace cublas_tidy {

struct WorkspaceQuery {
  const clang::CallExpr *Call = nullptr;
  const FunctionInfo *Query = nullptr;
  /// The argument the size is written through, `&lwork`.
  const clang::Expr *Out = nullptr;
  /// The local variable the query writes the size to (`&lwork`).
  const clang::VarDecl *Size = nullptr;
  /// Bytes per unit of that size: 1 for bytes, the element size of the
  /// routine's type for the legacy cuSOLVER API.
  unsigned UnitBytes = 0;

  /// The bytes the routine uses: what the query wrote, by name (the value
  /// the facts give the variable after it, an opaque definition), times
  /// UnitBytes. Adds that value to `Bounds` as positive: every routine
  /// needs some workspace.
  std::optional<SymExpr> neededBytes(SymbolBounds &Bounds) const;
};

/// A workspace size given to a routine (`Size`, in units of `UnitBytes`),
/// in bytes. A size of elements (UnitBytes > 1) that is one symbol is added
/// to `Bounds` as positive: a workspace of elements holds at least one.
std::optional<SymExpr> workspaceBytes(const SymExpr &Size, unsigned UnitBytes,
                                      SymbolBounds &Bounds);

/// The last query for `Compute` (a call of `F`) before it in `Callable`'s
/// body, whose size is written to a local variable that nothing between the
/// two writes again; nullopt when there is none, or when the size's unit is
/// unknown.
std::optional<WorkspaceQuery> workspaceQueryFor(const clang::CallExpr *Compute,
                                                const FunctionInfo &F,
                                                const clang::Decl *Callable);

} // namespace cublas_tidy

#endif
