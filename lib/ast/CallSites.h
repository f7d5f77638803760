//===- CallSites.h - Who calls a function, in one translation unit --------===//
//
// The direct calls a set of callables makes, by the function called: the
// call graph of a translation unit, built once from the callables the
// checks analyse (unitCallSites) and read by every fact that climbs from a
// function to its callers (the values at its call sites, whether it runs
// in a loop, whether a caller sets a workspace or pays for a host scalar).
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_AST_CALLSITES_H
#define CUBLAS_TIDY_LIB_AST_CALLSITES_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <utility>

namespace cublas_tidy {

class CallSiteIndex {
public:
  /// A call and the callable that makes it.
  using Site = std::pair<const clang::CallExpr *, const clang::Decl *>;

  CallSiteIndex() = default;
  /// The direct calls of `Callables`, in their order and in source order
  /// within each.
  explicit CallSiteIndex(llvm::ArrayRef<const clang::Decl *> Callables);

  /// The calls of `Fn` (any declaration of it).
  llvm::ArrayRef<Site> sitesOf(const clang::FunctionDecl *Fn) const;

  /// The callables that call `Fn`, each once, in the order of the
  /// callables given.
  llvm::ArrayRef<const clang::Decl *>
  callersOf(const clang::FunctionDecl *Fn) const;

  void clear() {
    Sites.clear();
    Callers.clear();
  }

private:
  llvm::DenseMap<const clang::FunctionDecl *, llvm::SmallVector<Site, 2>>
      Sites;
  llvm::DenseMap<const clang::FunctionDecl *,
                 llvm::SmallVector<const clang::Decl *, 2>>
      Callers;
};

/// The call graph of `Callables` (the callables of a translation unit that
/// a check analyses), made once per unit and list and shared by every fact
/// and check that climbs from a function to its callers. Valid until the
/// unit's ASTContext goes.
const CallSiteIndex &unitCallSites(llvm::ArrayRef<const clang::Decl *> Callables);

} // namespace cublas_tidy

#endif
