//===- CallSites.cpp ------------------------------------------------------===//

#include "ast/CallSites.h"

#include "ast/Callables.h"
#include "ast/TranslationUnitCache.h"

#include "llvm/ADT/Hashing.h"

#include <memory>
#include <vector>

namespace cublas_tidy {

namespace {

/// The graphs of one unit, by a hash of the callables' list; a list is
/// compared whole before its graph is served. A graph stays where it was
/// made: those who asked keep a reference.
struct Graph {
  std::vector<const clang::Decl *> Of;
  CallSiteIndex Index;
};
struct Graphs {
  std::vector<std::unique_ptr<Graph>> All;
};
thread_local TranslationUnitCache<size_t, Graphs> UnitGraphs;

} // namespace

const CallSiteIndex &
unitCallSites(llvm::ArrayRef<const clang::Decl *> Callables) {
  static const CallSiteIndex None;
  if (Callables.empty())
    return None;
  size_t Key = llvm::hash_combine_range(Callables.begin(), Callables.end());
  Graphs *G = UnitGraphs.get(Callables.front()->getASTContext(), Key,
                             [] { return std::make_unique<Graphs>(); });
  for (const std::unique_ptr<Graph> &Made : G->All)
    if (llvm::ArrayRef<const clang::Decl *>(Made->Of) == Callables)
      return Made->Index;
  G->All.push_back(std::make_unique<Graph>(
      Graph{Callables.vec(), CallSiteIndex(Callables)}));
  return G->All.back()->Index;
}

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
