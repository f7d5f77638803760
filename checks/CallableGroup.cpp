//===- CallableGroup.cpp - The callables of user code, matched once -------===//

#include "CallableGroup.h"

#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "llvm/ADT/DenseMap.h"

#include <mutex>

namespace clang::tidy::cublas {
namespace {

// The front ends analyse translation units on several threads, each with
// a MatchFinder of its own.
std::mutex RegistryMutex;
llvm::DenseMap<const ast_matchers::MatchFinder *, CallableGroup *> &registry() {
  static llvm::DenseMap<const ast_matchers::MatchFinder *, CallableGroup *> R;
  return R;
}

} // namespace

CallableGroup *CallableGroup::join(ast_matchers::MatchFinder *Finder,
                                   const void *Member) {
  using namespace ast_matchers;
  std::lock_guard<std::mutex> Lock(RegistryMutex);
  CallableGroup *&Group = registry()[Finder];
  if (!Group) {
    Group = new CallableGroup(Finder);
    Finder->addMatcher(functionDecl(isDefinition(),
                                    unless(isExpansionInSystemHeader()))
                           .bind("cublas-callable"),
                       Group);
    Finder->addMatcher(
        lambdaExpr(unless(isExpansionInSystemHeader())).bind("cublas-lambda"),
        Group);
  }
  Group->Members.insert(Member);
  return Group;
}

void CallableGroup::leave(const void *Member) {
  std::lock_guard<std::mutex> Lock(RegistryMutex);
  Members.erase(Member);
  if (!Members.empty())
    return;
  registry().erase(Finder);
  delete this;
}

size_t CallableGroup::liveGroups() {
  std::lock_guard<std::mutex> Lock(RegistryMutex);
  return registry().size();
}

void CallableGroup::onStartOfTranslationUnit() {
  Seen.clear();
  List.clear();
}

void CallableGroup::run(const ast_matchers::MatchFinder::MatchResult &Result) {
  const Decl *D = Result.Nodes.getNodeAs<Decl>("cublas-callable");
  if (const auto *L = Result.Nodes.getNodeAs<LambdaExpr>("cublas-lambda"))
    D = L->getCallOperator();
  if (D && Seen.insert(D).second)
    List.push_back(D);
}

} // namespace clang::tidy::cublas
