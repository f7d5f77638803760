//===- HandleUses.h - What a function does first with a handle ------------===//
//
// Whether a function gives a handle to cuBLAS on every path from its entry:
// what a call of it does first with that handle. The use-after-destroy
// rules ask it of the function called after a destroy (a member in
// DestroyedMembers.h, a global in HandleStates.h).
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_HANDLEUSES_H
#define CUBLAS_TIDY_LIB_FACTS_HANDLEUSES_H

#include "facts/HandleNames.h"
#include "facts/ResourceTable.h"

#include "clang/AST/Decl.h"

namespace cublas_tidy {

/// Whether every path from the entry of `FD` gives the handle `N` (as
/// HandleNames.h names it in `FD`) to a cuBLAS call that works on it or
/// destroys it, before it leaves: what a call of `FD` does first with `N`
/// (after a destroy, a `close()` that destroys is a second destroy).
/// `OnlyDestroys`, when given, is set when what the paths reach are
/// destroys only. Whether `FD` may
/// change `N` before is the caller's question.
bool usedOnEveryPath(const clang::FunctionDecl *FD, const HandleName &N,
                     const ResourceTable &Table, bool *OnlyDestroys = nullptr);

} // namespace cublas_tidy

#endif
