//===- ValueBounds.h - Where the code bounds a value from above ----------===//
//
// Whether the code limits a variable from above on the way to a statement:
// an `if` that leaves (returns, throws, breaks, calls a noreturn function
// such as a failed TORCH_CHECK) when the value is too big, an `assert`, a
// loop or an `if` whose condition holds where the statement runs, or a
// value taken through `std::min`. Only the direction matters (`x <= LIMIT`
// bounds x, `x > 0` does not); the limit itself is not evaluated: a value
// the programmer compared from above is one they thought about, and a rule
// that reports values that can grow stays silent on it.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_VALUEBOUNDS_H
#define CUBLAS_TIDY_LIB_FACTS_VALUEBOUNDS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace cublas_tidy {

class UpperBounds {
public:
  /// Scans the body of `Callable` once, when first asked.
  explicit UpperBounds(const clang::Decl *Callable) : Callable(Callable) {}

  /// True when the code compares `Var` from above (alone or inside an
  /// expression) where `At` runs: in a condition that holds there, or in
  /// one that leaves the function (or loop) before `At` when it fails.
  bool bounded(const clang::VarDecl *Var, const clang::Stmt *At) const;

  /// True when some variable that `E` reads is bounded() at `At`, or `E`
  /// is a `min(...)` call.
  bool boundedExpr(const clang::Expr *E, const clang::Stmt *At) const;

  /// The comparison that bounds `Var` at `At` (for notes), or null.
  const clang::Expr *boundOf(const clang::VarDecl *Var,
                             const clang::Stmt *At) const;

private:
  struct Bound {
    const clang::Expr *Comparison;
    /// The statement where the bound holds, or null when it holds after
    /// `After` (a guard that leaves).
    const clang::Stmt *Scope;
    clang::SourceLocation After;
  };
  void scan() const;
  void addCondition(const clang::Expr *Cond, bool Holds,
                    const clang::Stmt *Scope, clang::SourceLocation After) const;
  void addSide(const clang::Expr *Side, const clang::Expr *Comparison,
               const clang::Stmt *Scope, clang::SourceLocation After) const;

  const clang::Decl *Callable;
  mutable bool Scanned = false;
  mutable const clang::SourceManager *SM = nullptr;
  mutable llvm::DenseMap<const clang::VarDecl *, llvm::SmallVector<Bound, 2>>
      Bounds;
};

/// Variables that `E` reads (DeclRefExprs naming variables), at most
/// `Limit` of them.
llvm::SmallVector<const clang::VarDecl *, 4> variablesIn(const clang::Expr *E,
                                                         unsigned Limit = 16);

} // namespace cublas_tidy

#endif
