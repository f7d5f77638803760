//===- ValueUse.h - Is the value of an expression used? -------------------===//
//
// Two facts about the value an expression produces: whether its context
// discards it (an expression statement, the left of a comma, a for-loop
// increment, ...), and, when it is stored in a local variable, whether that
// store is dead (the variable is overwritten or goes out of scope on every
// path before it is read).
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_AST_VALUEUSE_H
#define CUBLAS_TIDY_LIB_AST_VALUEUSE_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace cublas_tidy {

enum class ValueUse {
  Used,       // read by its context (or the context is unknown)
  Discarded,  // the context drops it
  CastToVoid, // dropped explicitly: (void)e, static_cast<void>(e)
};

struct ValueUseInfo {
  ValueUse Use = ValueUse::Used;
  /// True when `E` is the whole expression of a statement (an expression
  /// statement or a branch/loop body), so that wrapping it in a
  /// function-like macro keeps the code valid.
  bool WholeStatement = false;
};

/// How the context of `E` uses its value, given the parents of `E` and its
/// ancestors in the body of the function holding it (null above the body).
/// Unknown contexts count as used.
ValueUseInfo
classifyValueUse(const clang::Expr *E,
                 llvm::function_ref<const clang::Stmt *(const clang::Stmt *)>
                     ParentOf);


/// Local variables of `Body` whose value may be read or written other than
/// by a plain load or store the CFG sees: address taken, bound to a
/// reference, captured by a lambda or block, used in a catch handler, member
/// access, ... Any other use of a variable is a plain load or store.
llvm::DenseSet<const clang::VarDecl *>
findEscapingVariables(const clang::Stmt *Body);

/// A store of an interesting value into a local variable that no path reads.
struct DeadStore {
  const clang::VarDecl *Var;
  const clang::Expr *Value;  // the stored expression, as returned by the
                             // `Interesting` callback
  const clang::Stmt *Store;  // the DeclStmt or assignment
  /// Assignments that overwrite the value before any read (first one on each
  /// path), in source order; empty when it only goes out of scope.
  llvm::SmallVector<const clang::Stmt *, 2> Overwrites;
};

/// Dead stores in the body of `Callable` (function, method, lambda call
/// operator or block) of values for which `Interesting(RHS)` returns non-null
/// (it receives the stored expression with parentheses and casts removed).
/// Only non-static locals whose address never escapes, that are not bound to
/// references, captured by reference or read in a catch handler are
/// considered; any other variable is skipped. Whether a store is read is
/// one liveness pass, linear in the body. The analysis returns nothing when
/// the CFG cannot be built or exceeds `MaxBlocks`, and reports that cut
/// (ast/CutOffs.h); past the budget of the search for the overwriting
/// assignments, dead stores come without them, and that is reported too.
std::vector<DeadStore>
findDeadStores(const clang::Decl *Callable, clang::ASTContext &Ctx,
               llvm::function_ref<const clang::Expr *(const clang::Expr *)>
                   Interesting,
               unsigned MaxBlocks = 20000);

} // namespace cublas_tidy

#endif
