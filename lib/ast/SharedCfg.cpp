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

} // namespace cublas_tidy
