//===- ValueFacts.h - Integers the code proves ----------------------------===//
//
// The value of an integer expression at the point where it is written:
// constants (literals, macros, enumerators, sizeof, constexpr and const
// variables), locals whose every reaching definition gives the same value
// (flow-sensitive, over the CFG), arithmetic on those, and symbolic terms
// for what the code does not fix (a parameter, the result of an opaque
// call), so that `lda = K` against rows `M` compares K with M.
//
// A value is a SymExpr: a constant plus a sum of coefficient * monomial,
// each monomial a symbol or the product of two. Comparisons decide only when
// the difference of two values has a sign that holds for every value of its
// symbols (given the assumptions the caller can justify).
//
// Facts flow into helper functions of the same translation unit: a
// ValueFacts can be created for a callee in the context of one call site, so
// that the callee's parameters take the values of the caller's arguments.
//
// Everything is bounded (CFG size, recursion depth, context depth); what
// exceeds a bound is unknown.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_VALUEFACTS_H
#define CUBLAS_TIDY_LIB_FACTS_VALUEFACTS_H

#include "facts/Definitions.h"
#include "facts/SymExpr.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>

namespace cublas_tidy {

/// Integer values in one function, optionally in the context of one call
/// site (its caller's facts bind the parameters).
class ValueFacts {
public:
  /// Facts of `Callable` (a function, method, lambda or block with a body).
  ValueFacts(const clang::Decl *Callable, clang::ASTContext &Ctx);
  /// Facts of the function `Callee` describes (its context-free facts), at
  /// the call `Site` to it: its parameters are bound to the arguments of
  /// `Site` as `Caller` evaluates them. A parameter that the callee tests in
  /// a condition (a guard such as `if (lda < m) return;`) is left unbound,
  /// since the values that reach the tested code may differ.
  ValueFacts(const ValueFacts &Callee, const clang::CallExpr *Site,
             const ValueFacts &Caller);
  /// Facts of the function `Own` describes (its context-free facts) with
  /// each parameter of `Assumed` holding the constant paired with it: a
  /// flag the function compares (`TransA == NoTrans ? K : M`), one case at
  /// a time, for its summary.
  ValueFacts(
      const ValueFacts &Own,
      llvm::ArrayRef<std::pair<const clang::ParmVarDecl *, int64_t>> Assumed);
  ~ValueFacts();
  ValueFacts(const ValueFacts &) = delete;
  ValueFacts &operator=(const ValueFacts &) = delete;

  /// The value of `E` where it is written; nullopt when unknown.
  std::optional<SymExpr> evaluate(const clang::Expr *E) const;

  /// The definitions of the local (or parameter) `Var` that reach the read
  /// `Use` (a DeclRefExpr naming `Var`; nothing else is placed), or nullopt
  /// when `Var` is not tracked (address escapes, not a local, the CFG could
  /// not be built) or some path reaches `Use` without a definition.
  std::optional<llvm::SmallVector<const Definition *, 4>>
  reachingDefinitions(const clang::VarDecl *Var, const clang::Expr *Use) const;

  /// True when, in this context, the condition of an `if` around `S` (a
  /// statement of the callable) is known to skip it: the caller's
  /// arguments fix the flags the condition tests (`if (TransA == Trans)`
  /// around a call, with TransA = NoTrans from the call site). False for a
  /// callable's own facts and wherever the conditions are unknown.
  bool skips(const clang::Stmt *S) const;

  /// Whether a condition of the callable's body that decides whether
  /// code runs (an `if`, a loop, a `switch`, `a && f()`, `c ? f() : g()`)
  /// reads `Param`.
  bool tests(const clang::ParmVarDecl *Param) const {
    return guardedParams().count(Param) != 0;
  }

  /// The caller's facts and argument bound to `Param` in this context.
  struct Binding {
    const ValueFacts *Facts;
    const clang::Expr *Arg;
  };
  std::optional<Binding> binding(const clang::ParmVarDecl *Param) const;

  /// The call site this context was created for (null when none), and the
  /// number of contexts above this one.
  const clang::CallExpr *callSite() const { return Site; }
  unsigned contextDepth() const { return Depth; }
  const ValueFacts *caller() const { return Caller; }

  const clang::Decl *callable() const { return Callable; }
  clang::ASTContext &context() const { return Ctx; }

  /// The element count of a local std::vector / thrust vector `Var` whose
  /// size never changes after its construction: the count it was
  /// constructed with. nullopt when unknown.
  std::optional<SymExpr> containerSize(const clang::VarDecl *Var) const;

private:
  std::optional<SymExpr> eval(const clang::Expr *E, unsigned Depth) const;
  std::optional<SymExpr> evalVar(const clang::DeclRefExpr *DRE,
                                 unsigned Depth) const;
  std::optional<SymExpr> evalDefinition(const Definition &D,
                                        unsigned Depth) const;
  std::optional<SymExpr> evalLibrary(const clang::Expr *E,
                                     unsigned Depth) const;
  std::optional<SymExpr> evalConditional(const clang::ConditionalOperator *CO,
                                         unsigned Depth) const;
  std::optional<SymExpr> evalCall(const clang::CallExpr *Call,
                                  unsigned Depth) const;

  const clang::Decl *Callable;
  clang::ASTContext &Ctx;
  const ValueFacts *Caller = nullptr;
  const clang::CallExpr *Site = nullptr;
  unsigned Depth = 0;
  /// Binds the parameters a condition reads too (the facts skips() asks).
  bool BindTested = false;
  /// Parameters held to a constant (the facts of one case of a summary).
  llvm::SmallVector<std::pair<const clang::ParmVarDecl *, int64_t>, 2> Assumed;
  /// The parameters a condition of the body reads (their values in a
  /// caller's context are not used: the body may guard against them).
  /// Shared by the facts of every context of the function.
  struct GuardedParams {
    std::optional<std::set<const clang::ParmVarDecl *>> Params;
  };
  const std::set<const clang::ParmVarDecl *> &guardedParams() const;
  std::shared_ptr<GuardedParams> Guarded;
  std::shared_ptr<const FunctionDefinitions> Defs;
  mutable std::map<const Definition *, std::optional<SymExpr>> Memo;
  mutable std::set<const Definition *> InProgress;
  mutable llvm::DenseMap<const clang::Expr *, std::optional<SymExpr>>
      Evaluated;
};

/// `E` without the nodes that pass its value through unchanged:
/// parentheses, ConstantExpr, ExprWithCleanups, temporaries.
const clang::Expr *ignoreWrappers(const clang::Expr *E);

} // namespace cublas_tidy

#endif
