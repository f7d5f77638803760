//===- LtLayouts.cpp - What is known of the cuBLASLt layouts --------------===//

#include "facts/LtLayouts.h"

#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"

namespace cublas_tidy {

bool maySetLayoutAttributes(const clang::Decl *Callable) {
  if (!Callable)
    return true;
  llvm::SmallVector<const clang::Stmt *, 64> Work{Callable->getBody()};
  for (unsigned Budget = 20000; !Work.empty(); --Budget) {
    if (Budget == 0)
      return true;
    const clang::Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *C = llvm::dyn_cast<clang::CallExpr>(S))
      if (const clang::FunctionDecl *FD = C->getDirectCallee())
        if (FD->getIdentifier() &&
            FD->getName() == "cublasLtMatrixLayoutSetAttribute")
          return true;
    for (const clang::Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return false;
}

} // namespace cublas_tidy
