//===- CallableGroup.h - The callables of user code, matched once ---------===//
//
// Every cublas-* check analyses the same things: the function definitions
// and lambdas of user code. Matching them with a pair of matchers per check
// tests every declaration of the CUDA and standard headers once per
// check, and calls each check once per callable through the matcher
// machinery; that alone cost more than some of the checks' own work. The
// checks of one MatchFinder instead join one group, which registers the
// matchers once and lists the callables for all of them.
//
// The group of a MatchFinder lives as long as one of its checks does: a
// check joins when it registers its matchers and leaves when it is
// destroyed, and the last one out deletes the group. clang-tidy and clangd
// keep a MatchFinder and its checks side by side and destroy them
// together, so a MatchFinder made later at the same address finds no group
// and makes its own.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_CHECKS_CALLABLEGROUP_H
#define CUBLAS_TIDY_CHECKS_CALLABLEGROUP_H

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseSet.h"

#include <vector>

namespace clang::tidy::cublas {

class CallableGroup final : public ast_matchers::MatchFinder::MatchCallback {
public:
  /// The group of `Finder`, which `Member` joins; the first member to join
  /// makes it and registers its matchers with `Finder`.
  static CallableGroup *join(ast_matchers::MatchFinder *Finder,
                             const void *Member);
  /// `Member` leaves the group; the last one to leave deletes it.
  void leave(const void *Member);

  /// The function definitions and lambda call operators of user code (not
  /// expanded from system headers) matched in the translation unit, each
  /// once, in the order matched; complete at the end of the unit.
  llvm::ArrayRef<const Decl *> callables() const { return List; }

  void run(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;
  /// The name its matching time has in --enable-check-profile.
  StringRef getID() const override { return "cublas-callables"; }

  /// The number of groups alive, for the tests.
  static size_t liveGroups();

private:
  explicit CallableGroup(const ast_matchers::MatchFinder *Finder)
      : Finder(Finder) {}

  const ast_matchers::MatchFinder *Finder;
  llvm::DenseSet<const void *> Members;
  llvm::DenseSet<const Decl *> Seen;
  std::vector<const Decl *> List;
};

} // namespace clang::tidy::cublas

#endif
