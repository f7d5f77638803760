//===- CallableMatchers.h - Matching the functions of user code -----------===//

#ifndef CUBLAS_TIDY_CHECKS_CALLABLEMATCHERS_H
#define CUBLAS_TIDY_CHECKS_CALLABLEMATCHERS_H

#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseSet.h"

#include <vector>

namespace clang::tidy::cublas {

/// Registers matchers for the function definitions and lambdas of user code
/// (not system headers); callableOf() gives the matched callable.
inline void addCallableMatchers(ast_matchers::MatchFinder *Finder,
                                ast_matchers::MatchFinder::MatchCallback *CB) {
  using namespace ast_matchers;
  Finder->addMatcher(functionDecl(isDefinition(),
                                  unless(isExpansionInSystemHeader()))
                         .bind("cublas-callable"),
                     CB);
  Finder->addMatcher(
      lambdaExpr(unless(isExpansionInSystemHeader())).bind("cublas-lambda"),
      CB);
}

/// The callable a match of addCallableMatchers() found, or null.
inline const Decl *
callableOf(const ast_matchers::MatchFinder::MatchResult &Result) {
  if (const auto *D = Result.Nodes.getNodeAs<Decl>("cublas-callable"))
    return D;
  if (const auto *L = Result.Nodes.getNodeAs<LambdaExpr>("cublas-lambda"))
    return L->getCallOperator();
  return nullptr;
}

/// The callables of one translation unit, each once, in the order matched:
/// for the rules that decide at the end of the unit (a function's callers
/// may be matched after it).
class MatchedCallables {
public:
  /// Adds `D`; false when it is null or already there.
  bool add(const Decl *D) {
    if (!D || !Seen.insert(D).second)
      return false;
    List.push_back(D);
    return true;
  }
  void clear() {
    Seen.clear();
    List.clear();
  }
  llvm::ArrayRef<const Decl *> list() const { return List; }

private:
  llvm::DenseSet<const Decl *> Seen;
  std::vector<const Decl *> List;
};

} // namespace clang::tidy::cublas

#endif
