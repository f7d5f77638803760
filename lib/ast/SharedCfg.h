//===- SharedCfg.h - One CFG per function for every analysis --------------===//
//
// The handle, pointer, value and dead-store analyses all run on the CFG of
// the same function bodies. Building it once per function and translation
// unit, with options that serve all of them, saves the largest share of
// their cost: every expression its own element (so that data flows can be
// read element by element), scope ends (lifetimes of locals), and member
// initializers. Analyses skip the element kinds they do not use.
//
// The cache is a TranslationUnitCache: per thread, forgotten with the
// translation unit.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_AST_SHAREDCFG_H
#define CUBLAS_TIDY_LIB_AST_SHAREDCFG_H

#include "clang/AST/ASTContext.h"
#include "clang/Analysis/CFG.h"

#include <vector>

namespace cublas_tidy {

/// The CFG of `Callable`'s body, or null when clang cannot build one.
const clang::CFG *sharedCfg(const clang::Decl *Callable,
                            clang::ASTContext &Ctx);

/// The blocks reachable from the entry of a CFG in reverse post-order, the
/// order a forward dataflow visits them in.
struct BlockOrder {
  /// The reachable blocks, by reverse post-order index.
  std::vector<const clang::CFGBlock *> ByOrder;
  /// Each block's index (by block ID), -1 when unreachable.
  std::vector<int> Order;
  /// No edge leads back to a block at or before its source: every block is
  /// final after one visit that follows all its predecessors.
  bool Acyclic = true;

  int indexOf(const clang::CFGBlock *B) const {
    return B ? Order[B->getBlockID()] : -1;
  }
};
BlockOrder reversePostOrder(const clang::CFG &Cfg);

} // namespace cublas_tidy

#endif
