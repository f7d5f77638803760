//===- SharedCfg.cpp ------------------------------------------------------===//

#include "ast/SharedCfg.h"

#include "ast/AstUtils.h"
#include "ast/Callables.h"
#include "ast/CompileErrors.h"
#include "ast/TranslationUnitCache.h"

using namespace clang;

namespace cublas_tidy {

namespace {
thread_local TranslationUnitCache<const Decl *, CFG> Cfgs;

/// Whether an analysis reads where a local of `Callable` ends: the handle
/// analysis (facts/HandleStates.h) reports a resource held in a local
/// variable that ends unreleased, at the scope exit that ends it. Such a
/// local is a handle or descriptor, or one whose address a create takes
/// (`cublasCreate(&h)`, a pair of the user's options): a pointer or an
/// integer. Lifetime markers cost a good part of a CFG (each scope's exits
/// list every local that ends there), so a body without such a local gets
/// none. The other flows do not need them: a declaration seen again starts
/// a new variable for them (ast/ValueUse.cpp), and a local cannot be read
/// after its scope.
bool endsOfLocalsRead(const Decl *Callable, const ASTContext &Ctx) {
  for (const BodyStmt &N : stmtsIn(Callable)) {
    const VarDecl *V = nullptr;
    if (const auto *DS = dyn_cast<DeclStmt>(N.S)) {
      for (const Decl *D : DS->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D);
            Var && Var->hasLocalStorage() &&
            isCublasResourceType(Ctx.getBaseElementType(Var->getType())))
          return true;
    } else if (const auto *U = dyn_cast<UnaryOperator>(N.S);
               U && U->getOpcode() == UO_AddrOf) {
      V = referencedVar(U->getSubExpr()->IgnoreParens());
    }
    if (V && V->hasLocalStorage() && !isa<ParmVarDecl>(V) &&
        (V->getType()->isPointerType() ||
         V->getType()->isIntegralOrEnumerationType()))
      return true;
  }
  return false;
}
} // namespace

const CFG *sharedCfg(const Decl *Callable, ASTContext &Ctx) {
  // A body with compile errors is not the program (lib/ast/CompileErrors.h):
  // no flow facts are derived from it.
  if (!Callable || !Callable->getBody() || hasCompileErrors(Callable))
    return nullptr;
  return Cfgs.get(Ctx, Callable, [&] {
    CFG::BuildOptions Options;
    Options.setAllAlwaysAdd();
    Options.AddLifetime = endsOfLocalsRead(Callable, Ctx);
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
