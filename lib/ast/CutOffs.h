//===- CutOffs.h - Analyses that stop early say so --------------------------===//
//
// An analysis may stop on a function too big for it (a CFG over its block
// limit, a search past its budget), but never silently: it reports the cut
// here, with the function and the reason, and keeps what it had proven.
// The notes go to standard error when shown: under the driver's -v, or
// with CUBLAS_TIDY_VERBOSE set in the environment (the clang-tidy plugin).
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_AST_CUTOFFS_H
#define CUBLAS_TIDY_LIB_AST_CUTOFFS_H

#include "clang/AST/DeclBase.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <string>

namespace cublas_tidy {

/// Shows the notes from now on (the driver's -v).
void showCutOffs(bool Show);

/// Whether notes are shown.
bool cutOffsShown();

/// "cublas-tidy: note: <Analysis> stopped early in 'f' (file.cpp:12):
/// <Why>", when notes are shown. Returns the note's text either way.
std::string reportCutOff(llvm::StringRef Analysis,
                         const clang::Decl *Callable, const llvm::Twine &Why);

} // namespace cublas_tidy

#endif
