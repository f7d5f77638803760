//===- DestroyedGlobals.h - Which globals the project destroys ------------===//
//
// A handle in a global of external linkage may be destroyed anywhere in
// the project: in the unit that creates it, or in a shutdown() of another
// file. The unit's own calls answer first; the project's summaries
// (facts/Summaries.h) answer for the other files, and their question is
// recorded only when the unit does not answer. A function's summary keeps
// the globals a destroy in its body names, and those the functions of other
// files it calls destroy (destroyedGlobalsOf).
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_DESTROYEDGLOBALS_H
#define CUBLAS_TIDY_LIB_FACTS_DESTROYEDGLOBALS_H

#include "facts/ResourceTable.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace cublas_tidy {

/// The globals of external linkage (globalKey) that a destroy in `FD`'s
/// body names, and those that the functions of other files it calls
/// destroy (as their summaries say), sorted: the part of its summary.
std::vector<std::string> destroyedGlobalsOf(const clang::FunctionDecl *FD,
                                            const ResourceTable &Table);

/// Whether a call among `Callables` (the unit's) destroys the global `VD`,
/// or else a function of another file does, as the project's summaries say
/// (projectDestroyerOf).
bool destroyedInProject(const clang::VarDecl *VD,
                        llvm::ArrayRef<const clang::Decl *> Callables,
                        const ResourceTable &Table);

/// The same for the global of key `GlobalKey` (of a function defined in
/// another file): a destroy among `Callables` names a variable of that
/// key, or else a function of another file destroys it.
bool destroyedInProject(llvm::StringRef GlobalKey,
                        llvm::ArrayRef<const clang::Decl *> Callables,
                        const ResourceTable &Table,
                        const clang::ASTContext &Ctx);

} // namespace cublas_tidy

#endif
