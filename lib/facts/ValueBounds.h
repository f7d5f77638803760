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

#include "facts/ValueFacts.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"
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

/// True when the comparisons (`==`, `!=`, `<`, `<=`, `>`, `>=`: a
/// condition, an assert, a TORCH_CHECK, anywhere) in the bodies of
/// `Callables` relate a variable of `A` to one of `B`: one compares them, or
/// a chain of comparisons does (`m == k` and `n != m` relate n to k). The
/// direction and where a comparison runs are not asked: a rule that
/// reports two values that may differ stays silent on values the code
/// compares at all.
bool compared(llvm::ArrayRef<const clang::Decl *> Callables,
              llvm::ArrayRef<const clang::VarDecl *> A,
              llvm::ArrayRef<const clang::VarDecl *> B);

/// The variables whose values `V`'s symbols are (parameters, and locals
/// at one definition); nullopt when a symbol is anything else (a library's
/// value, such as a tensor's size).
std::optional<llvm::SmallVector<const clang::VarDecl *, 4>>
symbolVariables(const SymExpr &V);

/// True when the code relates the sizes `A` and `B` of a call in
/// `Callable`, written there as `WrittenA` and `WrittenB` (either may be
/// null): compared() holds for their variables (those of their symbols and
/// those the written expressions read) in `Callable` or in a function that
/// declares one of the symbols' variables (a caller, when the values come
/// from its call).
bool sizesCompared(const SymExpr &A, const clang::Expr *WrittenA,
                   const SymExpr &B, const clang::Expr *WrittenB,
                   const clang::Decl *Callable);

/// Variables that `E` reads (DeclRefExprs naming variables), at most
/// `Limit` of them.
llvm::SmallVector<const clang::VarDecl *, 4> variablesIn(const clang::Expr *E,
                                                         unsigned Limit = 16);

} // namespace cublas_tidy

#endif
