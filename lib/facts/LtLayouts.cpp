//===- LtLayouts.cpp - What is known of the cuBLASLt layouts --------------===//

#include "facts/LtLayouts.h"

#include "ast/AstUtils.h"

#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"

namespace cublas_tidy {

bool maySetLayoutAttributes(const clang::Decl *Callable) {
  if (!Callable)
    return true;
  // Past the budget, it may.
  bool Sets = false;
  bool Whole = walkStmts(
      Callable->getBody(),
      [&](const clang::Stmt *S) {
        const auto *C = llvm::dyn_cast<clang::CallExpr>(S);
        const clang::FunctionDecl *FD = C ? C->getDirectCallee() : nullptr;
        Sets = FD && FD->getIdentifier() &&
               FD->getName() == "cublasLtMatrixLayoutSetAttribute";
        return Sets ? WalkStep::Stop : WalkStep::Enter;
      },
      20000, /*IntoLambdas=*/true);
  return Sets || !Whole;
}

} // namespace cublas_tidy
