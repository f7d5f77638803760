//===- Definitions.h - The definitions of a function's locals -------------===//
//
// Where each local variable of a function gets its value (its initializer,
// assignments, increments, an allocator's out-argument), and which of
// those definitions reach a use: one definition when the variable is
// defined once, else reaching definitions over the CFG. Variables used
// other than plainly (ast/PlainUses.h) are not tracked. ValueFacts.h
// evaluates the definitions.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_DEFINITIONS_H
#define CUBLAS_TIDY_LIB_FACTS_DEFINITIONS_H

#include "facts/SymExpr.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <optional>

namespace cublas_tidy {

/// How a definition of a local variable sets its value.
enum class DefKind {
  Entry,      // a parameter's value on entry
  Init,       // `T v = e;` / `T v(e);` (Value is the initializer; may be null)
  Assign,     // `v = e` (Value is e)
  Compound,   // `v op= e` (Stmt is the operator)
  IncDec,     // `++v`, `v--` (Stmt is the operator)
  OutArgument // `f(&v, ...)` for an allocator or a workspace query that
              // writes v (Stmt is the call; isOutArgument)
};

struct Definition {
  const clang::VarDecl *Var = nullptr;
  DefKind Kind = DefKind::Init;
  const clang::Stmt *S = nullptr;     // the defining statement
  const clang::Expr *Value = nullptr; // Init/Assign: the value stored
  unsigned ArgIndex = 0;              // OutArgument: which argument
};

/// What `Var` received at its definition `At` when the value is not known
/// (an out-argument, an initializer that cannot be evaluated): a symbol
/// equal only to itself. The value facts give a variable this value there;
/// a rule that names what a call wrote (a workspace query's size) builds
/// the same symbol with it.
inline Symbol receivedValue(const clang::VarDecl *Var, const clang::Stmt *At) {
  return {Var, At, Var->getType()->isUnsignedIntegerOrEnumerationType()};
}

/// The definitions of the locals of one function (built when first asked).
class FunctionDefinitions {
public:
  FunctionDefinitions(const clang::Decl *Callable, clang::ASTContext &Ctx);
  ~FunctionDefinitions();

  /// Whether the definitions of `VD` are followed.
  bool tracks(const clang::VarDecl *VD) const;
  /// The definitions of `VD` that reach `Use`; nullopt when not known.
  std::optional<llvm::SmallVector<const Definition *, 4>>
  reaching(const clang::VarDecl *VD, const clang::Stmt *Use) const;
  /// The initializing definition of `VD`, when it is followed.
  const Definition *initOf(const clang::VarDecl *VD) const;

private:
  struct Impl;
  std::unique_ptr<Impl> I;
};

/// `E` without parentheses, constant-expression wrappers, cleanups and
/// temporaries.
const clang::Expr *ignoreWrappers(const clang::Expr *E);

/// The reference `E` is, through parentheses only (an implicit cast changes
/// how the value is used), or null.
const clang::DeclRefExpr *plainReference(const clang::Expr *E);

} // namespace cublas_tidy

#endif
