//===- CallSites.cpp ------------------------------------------------------===//

#include "ast/CallSites.h"

#include "ast/Callables.h"

namespace cublas_tidy {

CallSiteIndex::CallSiteIndex(llvm::ArrayRef<const clang::Decl *> Callables) {
  for (const clang::Decl *Caller : Callables)
    for (const clang::CallExpr *C : callsIn(Caller))
      if (const clang::FunctionDecl *FD = C->getDirectCallee()) {
        const clang::FunctionDecl *Key = FD->getCanonicalDecl();
        Sites[Key].push_back({C, Caller});
        auto &List = Callers[Key];
        if (List.empty() || List.back() != Caller)
          List.push_back(Caller);
      }
}

llvm::ArrayRef<CallSiteIndex::Site>
CallSiteIndex::sitesOf(const clang::FunctionDecl *Fn) const {
  auto It = Sites.find(Fn->getCanonicalDecl());
  return It == Sites.end() ? llvm::ArrayRef<Site>() : It->second;
}

llvm::ArrayRef<const clang::Decl *>
CallSiteIndex::callersOf(const clang::FunctionDecl *Fn) const {
  auto It = Callers.find(Fn->getCanonicalDecl());
  return It == Callers.end() ? llvm::ArrayRef<const clang::Decl *>()
                             : It->second;
}

} // namespace cublas_tidy
