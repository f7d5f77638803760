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

namespace cublas_tidy {

/// The CFG of `Callable`'s body, or null when clang cannot build one.
const clang::CFG *sharedCfg(const clang::Decl *Callable,
                            clang::ASTContext &Ctx);

} // namespace cublas_tidy

#endif
