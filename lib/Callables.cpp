//===- Callables.cpp ------------------------------------------------------===//

#include "Callables.h"

#include "TranslationUnitCache.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>

using namespace clang;

namespace cublas_tidy {

const Stmt *analysableBody(const Decl *Callable) {
  if (!Callable || !Callable->hasBody())
    return nullptr;
  if (const auto *FD = dyn_cast<FunctionDecl>(Callable)) {
    if (FD->isDependentContext() || !FD->doesThisDeclarationHaveABody())
      return nullptr;
  }
  return Callable->getBody();
}

bool forEachStmtWithAncestors(
    const Stmt *Body,
    llvm::function_ref<bool(const Stmt *, llvm::ArrayRef<const Stmt *>)>
        Visit) {
  if (!Body)
    return true;
  // Pre-order with a work list of (statement, depth); the chain of
  // ancestors is cut back to the depth of each statement taken from it.
  llvm::SmallVector<std::pair<const Stmt *, unsigned>, 64> Work{{Body, 0}};
  llvm::SmallVector<const Stmt *, 32> Ancestors;
  while (!Work.empty()) {
    auto [S, Depth] = Work.pop_back_val();
    Ancestors.truncate(Depth);
    if (!Visit(S, Ancestors))
      return false;
    Ancestors.push_back(S);
    size_t First = Work.size();
    if (const auto *Lambda = dyn_cast<LambdaExpr>(S)) {
      // The captures belong to this body; the lambda's body does not.
      for (const Expr *Init : Lambda->capture_inits())
        if (Init)
          Work.push_back({Init, Depth + 1});
    } else if (!isa<BlockExpr>(S)) {
      for (const Stmt *C : S->children())
        if (C)
          Work.push_back({C, Depth + 1});
    }
    // Children in reverse so that the pre-order follows the source.
    std::reverse(Work.begin() + First, Work.end());
  }
  return true;
}

bool forEachStmtIn(const Stmt *Body,
                   llvm::function_ref<bool(const Stmt *)> Visit) {
  return forEachStmtWithAncestors(
      Body, [&](const Stmt *S, llvm::ArrayRef<const Stmt *>) {
        return Visit(S);
      });
}

namespace {
thread_local TranslationUnitCache<const Decl *, std::vector<const CallExpr *>>
    Calls;
} // namespace

llvm::ArrayRef<const CallExpr *> callsIn(const Decl *Callable) {
  if (!Callable || !Callable->getBody())
    return {};
  return *Calls.get(Callable->getASTContext(), Callable, [&] {
    auto Found = std::make_unique<std::vector<const CallExpr *>>();
    forEachStmtIn(Callable->getBody(), [&](const Stmt *S) {
      if (const auto *Call = dyn_cast<CallExpr>(S))
        Found->push_back(Call);
      return true;
    });
    return Found;
  });
}

bool callsAny(const Decl *Callable,
              llvm::function_ref<bool(const CallExpr *)> Pred) {
  return llvm::any_of(callsIn(Callable), Pred);
}

} // namespace cublas_tidy
