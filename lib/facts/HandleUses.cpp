//===- HandleUses.cpp -----------------------------------------------------===//

#include "facts/HandleUses.h"

#include "ast/AstUtils.h"
#include "ast/LocalUses.h"
#include "ast/SharedCfg.h"

#include "clang/Analysis/CFG.h"

#include <vector>

using namespace clang;

namespace cublas_tidy {

namespace {
/// Bounds the fixpoint: the values only fall, so it settles well before.
constexpr unsigned MaxRounds = 128;
} // namespace

bool usedOnEveryPath(const FunctionDecl *FD, const HandleName &N,
                     const ResourceTable &Table, bool *OnlyDestroys) {
  const CFG *Cfg = sharedCfg(FD, FD->getASTContext());
  if (!Cfg)
    return false;
  // Whether every path from a block reaches a use: the greatest fixpoint,
  // from "every block uses" down.
  UnchangedVariables Unchanged(FD);
  std::vector<char> Uses(Cfg->getNumBlockIDs(), 1),
      Direct(Cfg->getNumBlockIDs(), 0);
  bool AnyUse = false;
  for (const CFGBlock *B : *Cfg)
    for (const CFGElement &El : *B)
      if (std::optional<CFGStmt> CS = El.getAs<CFGStmt>())
        if (const auto *Call = dyn_cast<CallExpr>(CS->getStmt()))
          if (const FunctionInfo *F = calledCublasFunction(Call)) {
            // A destroy of `N` uses it too: once more after a destroy, it
            // destroys it again.
            const ResourceTable::Entry *Entry = Table.lookup(Call);
            if (Entry && Entry->IsCreate)
              continue;
            for (unsigned I = 0; I < F->NumParams && I < Call->getNumArgs();
                 ++I)
              if (F->params()[I].Role ==
                  (Entry ? ParamRole::ResourceDestroyed : ParamRole::Resource))
                if (std::optional<HandleName> Named =
                        handleNamed(Call->getArg(I), FD, Unchanged);
                    Named && *Named == N) {
                  Direct[B->getBlockID()] = 1;
                  AnyUse = AnyUse || !Entry;
                }
          }
  Uses[Cfg->getExit().getBlockID()] = 0;
  bool Changed = true;
  for (unsigned Round = 0; Changed && Round < MaxRounds; ++Round) {
    Changed = false;
    for (const CFGBlock *B : *Cfg) {
      unsigned Id = B->getBlockID();
      if (!Uses[Id] || Direct[Id])
        continue;
      bool All = B->succ_size() > 0;
      for (const CFGBlock *Succ : B->succs())
        if (!Succ || !Uses[Succ->getBlockID()])
          All = false;
      if (!All) {
        Uses[Id] = 0;
        Changed = true;
      }
    }
  }
  if (OnlyDestroys)
    *OnlyDestroys = !AnyUse;
  return !Changed && Uses[Cfg->getEntry().getBlockID()];
}

} // namespace cublas_tidy
