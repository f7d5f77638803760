//===- WorkspaceQueries.h - The _bufferSize query of a routine ------------===//
//
// cuSOLVER and cuSPARSE size a routine's workspace with a query of the same
// name and the suffix _bufferSize (cusolverDnSgetrf_bufferSize before
// cusolverDnSgetrf, cusparseSpMV_bufferSize before cusparseSpMV). The query
// writes the size to a variable; the legacy cuSOLVER API counts it in
// elements of the routine's type, the 64-bit API and cuSPARSE in bytes.
// A step of a routine (cusparseSpSV_analysis, cusparseSbsrsv2_solve,
// cusparseSpMV_preprocess) uses the workspace its routine's query sized.
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

/// A size a query wrote: the query, the out-argument and the local
/// variable it wrote, with the value the facts give that variable after it
/// (the symbol WorkspaceQuery::neededBytes builds too).
struct QueryOutput {
  const clang::CallExpr *Call = nullptr;
  const FunctionInfo *Query = nullptr;
  unsigned Param = 0;
  const clang::VarDecl *Var = nullptr;
};

/// The query output whose value is `S`, among the _bufferSize queries of
/// `Callable` that write a local variable's address; nullopt when `S` is
/// no such value.
std::optional<QueryOutput> queryOutputOf(const Symbol &S,
                                         const clang::Decl *Callable);

/// The routine a query sizes ("cusparseSpMV" for cusparseSpMV_bufferSize);
/// empty for a name that is no query's.
llvm::StringRef queriedRoutine(llvm::StringRef QueryName);

/// The routine whose workspace `Query` sizes: queriedRoutine() of its
/// name, or the routine itself when it sizes its own buffer.
llvm::StringRef routineSizedBy(const FunctionInfo &Query);

/// True when `Query` sizes the workspace of `F`: `F`'s own query, the
/// query of the routine `F` is a step of, or `F` itself when it sizes its
/// own buffer (only its calls with a null buffer ask).
bool sizesWorkspaceOf(const FunctionInfo &Query, const FunctionInfo &F);

/// The _bufferSize query the model has for `F`'s workspace (of `F` or of
/// the routine `F` is a step of); null when it has none.
const FunctionInfo *workspaceQueryOf(const FunctionInfo &F);

/// A workspace size given to a routine (`Size`, in units of `UnitBytes`),
/// in bytes. A size of elements (UnitBytes > 1) that is one symbol is added
/// to `Bounds` as positive: a workspace of elements holds at least one.
std::optional<SymExpr> workspaceBytes(const SymExpr &Size, unsigned UnitBytes,
                                      SymbolBounds &Bounds);

/// The last query for `Compute` (a call of `F`) before it in `Callable`'s
/// body, whose size is written to a local variable that nothing between the
/// two writes again; nullopt when there is none, or when the size's unit is
/// unknown. For a routine that sizes its own buffer the query is its last
/// call with a null buffer, and `Compute` itself may read the size through
/// the same variable; a call with a null buffer has no query.
std::optional<WorkspaceQuery> workspaceQueryFor(const clang::CallExpr *Compute,
                                                const FunctionInfo &F,
                                                const clang::Decl *Callable);

} // namespace cublas_tidy

#endif
