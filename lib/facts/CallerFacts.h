//===- CallerFacts.h - The values at a call, in the context of callers ----===//
//
// The facts of a function (ValueFacts) alone know its parameters only as
// symbols; in the context of one of its call sites they know the caller's
// arguments. CallerFacts keeps, for one translation unit, the facts of each
// callable and the call sites of each function defined in it, and gives the
// facts of a function in the context of each of its direct callers, and of
// theirs (two levels, at most MaxCallSites sites at each), with the chain
// of call sites that leads there, for the notes of a finding.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_CALLERFACTS_H
#define CUBLAS_TIDY_LIB_FACTS_CALLERFACTS_H

#include "ast/CallSites.h"
#include "facts/ValueFacts.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace cublas_tidy {

/// The facts of `Callable` on its own, computed once per translation unit
/// and shared by every check that asks.
const ValueFacts &sharedValueFacts(const clang::Decl *Callable,
                                   clang::ASTContext &Ctx);

class CallerFacts {
public:
  explicit CallerFacts(unsigned MaxCallSites) : MaxCallSites(MaxCallSites) {}

  /// Forgets everything (a new translation unit).
  void clear();

  /// Records the direct calls that `Callables` (the analysable callables of
  /// user code) make of plain functions defined in this translation unit.
  void collectCallSites(llvm::ArrayRef<const clang::Decl *> Callables);

  /// The facts of `Callable` on its own (computed once).
  const ValueFacts &factsFor(const clang::Decl *Callable,
                             clang::ASTContext &Ctx);

  /// A call site and the callable that makes it.
  using Site = CallSiteIndex::Site;

  /// The facts of a function in the context of a chain of call sites, the
  /// nearest first.
  struct Context {
    std::unique_ptr<ValueFacts> Facts;
    std::vector<Site> Chain;
  };

  /// The contexts of `Fn` (none when it has no parameters, is a method,
  /// or MaxCallSites is 0).
  const std::vector<Context> &contextsOf(const clang::FunctionDecl *Fn,
                                         clang::ASTContext &Ctx) {
    return contextsAt(Fn, Ctx, 0);
  }

  /// True when the facts in `Callable` may depend on its callers: it is a
  /// function with parameters, not a method.
  static bool hasCallerFacts(const clang::Decl *Callable);

  /// True when `Fn` is called in this translation unit, at no more sites
  /// than the contexts follow (and not by itself), and `Holds` is true of
  /// its facts at every one of them: in the context of the call site, or,
  /// failing that, in every context of the caller's callers through it.
  bool holdsAtEveryCallSite(
      const clang::FunctionDecl *Fn, clang::ASTContext &Ctx,
      llvm::function_ref<bool(const ValueFacts &)> Holds);

private:
  const std::vector<Context> &contextsAt(const clang::FunctionDecl *Fn,
                                         clang::ASTContext &Ctx,
                                         unsigned Level);

  const unsigned MaxCallSites;
  std::map<std::pair<const clang::FunctionDecl *, unsigned>,
           std::vector<Context>>
      Contexts;
  /// The unit's call sites of `Def` in analysable callers (template
  /// patterns are read in their instantiations).
  llvm::ArrayRef<Site> sitesOf(const clang::FunctionDecl *Def);

  const CallSiteIndex *Index = nullptr;
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<Site>> Analysable;
};

} // namespace cublas_tidy

#endif
