//===- SharedCfg.cpp ------------------------------------------------------===//

#include "ast/SharedCfg.h"

#include "ast/CompileErrors.h"
#include "ast/TranslationUnitCache.h"

using namespace clang;

namespace cublas_tidy {

namespace {
thread_local TranslationUnitCache<const Decl *, CFG> Cfgs;
} // namespace

const CFG *sharedCfg(const Decl *Callable, ASTContext &Ctx) {
  // A body with compile errors is not the program (lib/ast/CompileErrors.h):
  // no flow facts are derived from it.
  if (!Callable || !Callable->getBody() || hasCompileErrors(Callable))
    return nullptr;
  return Cfgs.get(Ctx, Callable, [&] {
    CFG::BuildOptions Options;
    Options.setAllAlwaysAdd();
    Options.AddLifetime = true;
    Options.AddInitializers = true;
    return CFG::buildCFG(Callable, Callable->getBody(), &Ctx, Options);
  });
}

BlockOrder reversePostOrder(const clang::CFG &Cfg) {
  BlockOrder R;
  unsigned N = Cfg.getNumBlockIDs();
  R.Order.assign(N, -1);
  std::vector<const clang::CFGBlock *> Post;
  std::vector<char> Seen(N, 0);
  std::vector<
      std::pair<const clang::CFGBlock *, clang::CFGBlock::const_succ_iterator>>
      Stack;
  const clang::CFGBlock *Entry = &Cfg.getEntry();
  Seen[Entry->getBlockID()] = 1;
  Stack.push_back({Entry, Entry->succ_begin()});
  while (!Stack.empty()) {
    auto &[B, It] = Stack.back();
    if (It == B->succ_end()) {
      Post.push_back(B);
      Stack.pop_back();
      continue;
    }
    const clang::CFGBlock *Succ = *It;
    ++It;
    if (Succ && !Seen[Succ->getBlockID()]) {
      Seen[Succ->getBlockID()] = 1;
      Stack.push_back({Succ, Succ->succ_begin()});
    }
  }
  R.ByOrder.assign(Post.rbegin(), Post.rend());
  for (unsigned I = 0; I < R.ByOrder.size(); ++I)
    R.Order[R.ByOrder[I]->getBlockID()] = static_cast<int>(I);
  for (const clang::CFGBlock *B : R.ByOrder)
    for (const clang::CFGBlock *Succ : B->succs())
      if (Succ && R.indexOf(Succ) >= 0 && R.indexOf(Succ) <= R.indexOf(B))
        R.Acyclic = false;
  return R;
}

} // namespace cublas_tidy
