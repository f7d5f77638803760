//===- Callables.cpp ------------------------------------------------------===//

#include "Callables.h"

#include "TranslationUnitCache.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/SmallVector.h"

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

bool forEachStmtIn(const Stmt *Body,
                   llvm::function_ref<bool(const Stmt *)> Visit) {
  if (!Body)
    return true;
  llvm::SmallVector<const Stmt *, 64> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!Visit(S))
      return false;
    if (const auto *Lambda = dyn_cast<LambdaExpr>(S)) {
      // The captures belong to this body; the lambda's body does not.
      for (const Expr *Init : Lambda->capture_inits())
        if (Init)
          Work.push_back(Init);
      continue;
    }
    if (isa<BlockExpr>(S))
      continue;
    // Children in reverse so that the pre-order follows the source.
    llvm::SmallVector<const Stmt *, 8> Children;
    for (const Stmt *C : S->children())
      if (C)
        Children.push_back(C);
    Work.append(Children.rbegin(), Children.rend());
  }
  return true;
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
