//===- LocalUses.h - How each reference to a local is used ----------------===//
//
// One classification of the references to a local variable or parameter,
// shared by every analysis that asks "may this local change?": the
// unchanged locals of the handle-state and provenance analyses, the tensor
// facts of the PyTorch model, the storage of RMM's buffers. Each reference
// is judged by its parents in the shared statement list (ast/Callables.h),
// without a walk of the body. What a member function does to its object is
// the one question the classification leaves to its caller: a library model
// knows which methods of its classes change them.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_AST_LOCALUSES_H
#define CUBLAS_TIDY_LIB_AST_LOCALUSES_H

#include "ast/Callables.h"

#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace cublas_tidy {

/// What the context of one reference does with the variable.
enum class LocalUse {
  Read,          // loaded, copied (a copy constructor's argument) or
                 // cast to void
  Unevaluated,   // under sizeof, alignof, typeid or noexcept
  Returned,      // `return v;`: moved or copied into the result
  Assigned,      // the left side of `=` or of a compound assignment
  Incremented,   // ++ or --
  AddressTaken,  // `&v`
  Decayed,       // an array turned into a pointer to its elements
  Element,       // an array's element named (`a[i]`, `*a`)
  BoundMutable,  // bound to a non-const reference or pointer: a parameter
                 // of a call or a constructor, a variable, a variadic
                 // argument
  BoundConst,    // bound to a const reference or pointer
  Operand,       // an operand of a builtin operator that neither assigns
                 // nor takes the address (`a + 1`, `p[i]`, `a, b`)
  Member,        // the object of a member access or a member operator
  Captured,      // named in a lambda that captures something by reference
  CapturedByCopy,// named in a lambda whose captures are all copies
  Called,        // the callee of a call (a function pointer)
  Unknown,       // any other context
};

struct LocalUseInfo {
  LocalUse Use = LocalUse::Unknown;
  /// The statement that decided: the operator, call, member expression,
  /// declaration or lambda (null when there is none).
  const clang::Stmt *Context = nullptr;
  /// Its index in the statement list, or -1.
  int ContextIndex = -1;
};

/// How the context of the reference `Stmts[I]` (a DeclRefExpr) uses it,
/// through parentheses and implicit conversions other than a load.
LocalUseInfo classifyLocalUse(llvm::ArrayRef<BodyStmt> Stmts, int I);

/// Whether a use may change the variable. `MemberChanges` decides a member
/// use (given the MemberExpr, or the member operator call); without it,
/// every member use may change its object.
bool useMayChange(
    const LocalUseInfo &U,
    llvm::function_ref<bool(const LocalUseInfo &)> MemberChanges = nullptr);

/// Whether every reference to `VD` in the body of `Callable` is a use for
/// which `Accept` holds (true when there is none).
bool everyLocalUse(const clang::Decl *Callable, const clang::VarDecl *VD,
                   llvm::function_ref<bool(const LocalUseInfo &)> Accept);

/// Whether any reference to `VD` in the body of `Callable` may change it
/// (by useMayChange()).
bool anyUseMayChange(
    const clang::Decl *Callable, const clang::VarDecl *VD,
    llvm::function_ref<bool(const LocalUseInfo &)> MemberChanges = nullptr);

/// The locals and parameters of one function that keep their first value:
/// no reference to one may change it (useMayChange(), every member use
/// counting as a change). Answers are kept.
class UnchangedVariables {
public:
  explicit UnchangedVariables(const clang::Decl *Callable)
      : Callable(Callable) {}

  /// True for a local or parameter of the function (not a reference) that
  /// nothing in the body changes.
  bool stable(const clang::VarDecl *VD);

private:
  const clang::Decl *Callable;
  llvm::DenseMap<const clang::VarDecl *, bool> Known;
};

} // namespace cublas_tidy

#endif
