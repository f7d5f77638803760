//===- ObjectChanges.h - Where a local object's fields may change ---------===//
//
// For a local object (or a parameter taken by value), the statements of the
// body where one of its fields may change: an assignment or increment of a
// field, the object or a field given to a call by non-const reference or by
// address, a non-const member function called on it. An object whose
// address is kept (`Options *p = &opts;`, a non-const reference bound to
// it, a lambda that names it) is aliased: its fields may change anywhere.
// A flow analysis that remembers a test of `opts.use_gpu` along a path
// forgets it where the object may change.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_AST_OBJECTCHANGES_H
#define CUBLAS_TIDY_LIB_AST_OBJECTCHANGES_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>
#include <utility>

namespace cublas_tidy {

/// `opts.use_gpu` (also `opts.a.b`, the outermost field): the local object
/// (or by-value parameter) and the field, when `E` is one.
std::optional<std::pair<const clang::VarDecl *, const clang::FieldDecl *>>
fieldOfLocalObject(const clang::Expr *E);

struct ObjectChanges {
  /// The address or a mutable reference of the object is kept.
  bool Aliased = false;
  /// The statements (assignments, increments, calls) that may change it.
  llvm::SmallPtrSet<const clang::Stmt *, 4> ChangedAt;
};

/// The changes of the local objects of one function, found on demand and
/// kept.
class LocalObjectChanges {
public:
  explicit LocalObjectChanges(const clang::Decl *Callable)
      : Callable(Callable) {}
  const ObjectChanges &of(const clang::VarDecl *Object);

private:
  const clang::Decl *Callable;
  llvm::DenseMap<const clang::VarDecl *, ObjectChanges> Known;
};

} // namespace cublas_tidy

#endif
