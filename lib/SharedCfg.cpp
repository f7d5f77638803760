//===- SharedCfg.cpp ------------------------------------------------------===//

#include "SharedCfg.h"

#include "llvm/ADT/DenseMap.h"

#include <memory>

using namespace clang;

namespace cublas_tidy {

namespace {
struct Cache {
  ASTContext *Ctx = nullptr;
  // A null entry remembers that no CFG could be built.
  llvm::DenseMap<const Decl *, std::unique_ptr<CFG>> Cfgs;
};
thread_local Cache TheCache;
} // namespace

const CFG *sharedCfg(const Decl *Callable, ASTContext &Ctx) {
  if (!Callable || !Callable->getBody())
    return nullptr;
  if (TheCache.Ctx != &Ctx) {
    TheCache.Cfgs.clear();
    TheCache.Ctx = &Ctx;
  }
  auto [It, New] = TheCache.Cfgs.try_emplace(Callable);
  if (New) {
    CFG::BuildOptions Options;
    Options.setAllAlwaysAdd();
    Options.AddLifetime = true;
    Options.AddInitializers = true;
    It->second = CFG::buildCFG(Callable, Callable->getBody(), &Ctx, Options);
  }
  return It->second.get();
}

void resetSharedCfgs() {
  TheCache.Cfgs.clear();
  TheCache.Ctx = nullptr;
}

} // namespace cublas_tidy
