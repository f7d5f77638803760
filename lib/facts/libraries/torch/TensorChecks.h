//===- TensorChecks.h - What the statements before a use say of a tensor --===//
//
// A tensor parameter is unknown until the body says something of it before
// the use: a TORCH_CHECK-like statement that stops otherwise
// (`TORCH_CHECK(x.is_cuda(), ...)`, a CHECK_INPUT macro's statements:
// `if (!(cond)) fail();`) or `x = x.contiguous();`. The tensor facts
// (TensorFacts.h, TensorShapes.h) read devices, dtypes, layouts and numbers
// of dimensions from these.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_LIBRARIES_TORCH_TENSORCHECKS_H
#define CUBLAS_TIDY_LIB_FACTS_LIBRARIES_TORCH_TENSORCHECKS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace cublas_tidy::torch_facts {

/// `P.is_cuda()` or `P.device().is_cuda()`.
bool testsIsCuda(const clang::Expr *Conjunct, const clang::ParmVarDecl *P);

/// `P.is_contiguous()`.
bool testsIsContiguous(const clang::Expr *Conjunct, const clang::VarDecl *P);

/// `P.dim() == N` (or `ndimension()`, either side): N.
std::optional<unsigned> testedDims(const clang::Expr *Conjunct,
                                   const clang::ParmVarDecl *P);

/// `P.scalar_type() == T` or `P.dtype() == T` (either side, also as an
/// overloaded operator): T.
const clang::Expr *testedDType(const clang::Expr *Conjunct,
                               const clang::ParmVarDecl *P);

/// `P = P.contiguous();`, alone or as the only statement of
/// `if (!P.is_contiguous())`: after it `P` is row-major. The assignment;
/// null otherwise.
const clang::Expr *madeContiguous(const clang::Stmt *S,
                                  const clang::ParmVarDecl *P,
                                  bool InIf = false);

/// Whether every write of the parameter `P` is `P = P.contiguous()`, which
/// keeps its device, dtype and sizes.
bool onlyMadeContiguous(const clang::ParmVarDecl *P);

/// The first statement of `P`'s function body before `Use` (a check macro's
/// `do { ... } while (0)` or one-statement block unwrapped) for which
/// `Test` gives an expression: that expression. Null when none, or when the
/// body may change `P` otherwise than by `P = P.contiguous()`.
const clang::Expr *statementBefore(
    const clang::VarDecl *P, const clang::Expr *Use,
    llvm::function_ref<const clang::Expr *(const clang::Stmt *)> Test);

/// The condition of the first statement of `P`'s function body before
/// `Use` that checks a conjunct `Test` accepts and stops otherwise
/// (TORCH_CHECK(x.is_cuda(), ...), a CHECK_INPUT macro's statements).
const clang::Expr *
checkedBefore(const clang::VarDecl *P, const clang::Expr *Use,
              llvm::function_ref<bool(const clang::Expr *)> Test);

} // namespace cublas_tidy::torch_facts

#endif
