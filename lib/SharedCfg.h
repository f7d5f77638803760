//===- SharedCfg.h - One CFG per function for every analysis --------------===//
//
// The handle, pointer, value and dead-store analyses all run on the CFG of
// the same function bodies. Building it once per function and translation
// unit, with options that serve all of them, saves the largest share of
// their cost: every expression its own element (so that data flows can be
// read element by element), scope ends (lifetimes of locals), and member
// initializers. Analyses skip the element kinds they do not use.
//
// The cache is per thread (a thread analyses one translation unit at a
// time) and is reset when a translation unit starts: the checks call
// resetSharedCfgs() from onStartOfTranslationUnit().
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_SHAREDCFG_H
#define CUBLAS_TIDY_LIB_SHAREDCFG_H

#include "clang/AST/ASTContext.h"
#include "clang/Analysis/CFG.h"

namespace cublas_tidy {

/// The CFG of `Callable`'s body, or null when clang cannot build one.
const clang::CFG *sharedCfg(const clang::Decl *Callable,
                            clang::ASTContext &Ctx);

/// Forgets the CFGs of the previous translation unit.
void resetSharedCfgs();

} // namespace cublas_tidy

#endif
