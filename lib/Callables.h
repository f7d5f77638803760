//===- Callables.h - The function bodies the checks analyse ---------------===//
//
// Every check analyses whole function bodies (a CFG, a parent map, a
// dataflow). Finding the body that holds a matched call through the AST
// matchers' forCallable() builds the parent map of the entire translation
// unit, CUDA and standard headers included: a fifth of a run's time. The
// checks instead match the definitions of user code and walk their bodies
// with the helpers here.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_CALLABLES_H
#define CUBLAS_TIDY_LIB_CALLABLES_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace cublas_tidy {

/// The body of a function, method, lambda call operator or block worth
/// analysing: a definition that is not a template pattern (its
/// instantiations are analysed instead); null otherwise.
const clang::Stmt *analysableBody(const clang::Decl *Callable);

/// Visits every statement of `Body` in pre-order, except the bodies of
/// lambdas, blocks and local classes nested in it (callables of their own).
/// Stops early when `Visit` returns false; returns false then.
bool forEachStmtIn(const clang::Stmt *Body,
                   llvm::function_ref<bool(const clang::Stmt *)> Visit);

/// forEachStmtIn, also giving each statement its ancestors within `Body`,
/// outermost first (`Body` itself for its children; none for `Body`).
bool forEachStmtWithAncestors(
    const clang::Stmt *Body,
    llvm::function_ref<bool(const clang::Stmt *,
                            llvm::ArrayRef<const clang::Stmt *>)>
        Visit);

/// The calls in the body of `Callable` (outside nested callables), in
/// pre-order; empty without a body. Found once per translation unit and
/// shared by every check that asks (lib/TranslationUnitCache.h).
llvm::ArrayRef<const clang::CallExpr *> callsIn(const clang::Decl *Callable);

/// True when one of callsIn(`Callable`) satisfies `Pred`.
bool callsAny(const clang::Decl *Callable,
              llvm::function_ref<bool(const clang::CallExpr *)> Pred);

} // namespace cublas_tidy

#endif
