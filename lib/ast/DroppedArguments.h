//===- DroppedArguments.h - Macro arguments a build leaves out -----------===//
//
// A read that the preprocessor removed is not in the AST: `assert(st ==
// CUBLAS_STATUS_SUCCESS)` under NDEBUG, or a project's `check(st, "gemm")`
// that a release build defines as `((void)0)`, leaves nothing of `st`. An
// analysis of the AST rightly finds `st` stored and never read in that
// build; this fact says why, so that the message can name the macro that
// dropped the read.
//
// It is asked only once a finding is made, and reads the source text then:
// the invocations of function-like macros written there, their arguments,
// and the definitions the preprocessor had at each. A parameter that the
// definition never names drops its argument; one that it names only inside
// the arguments of other macros that drop them (`#define CHECK(x)
// assert(x)`) drops it too, a few levels deep. Nothing is recorded while
// the unit is preprocessed, so a unit without such a finding pays nothing.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_AST_DROPPEDARGUMENTS_H
#define CUBLAS_TIDY_LIB_AST_DROPPEDARGUMENTS_H

#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace cublas_tidy {

struct DroppedArgument {
  /// Where the user wrote the macro: a file location.
  clang::SourceLocation Loc;
  /// The macro the user wrote there (`CHECK`).
  std::string Written;
  /// The macro whose definition leaves the argument out (`assert`, where
  /// the user wrote `CHECK`).
  std::string Macro;
  /// NDEBUG was defined where the user wrote the macro.
  bool UnderNDEBUG = false;
};

/// The function-like macro `Name` is defined as at `Loc`; null when it is
/// not defined there, or is an object-like macro.
const clang::MacroInfo *functionLikeMacroAt(clang::Preprocessor &PP,
                                            llvm::StringRef Name,
                                            clang::SourceLocation Loc);

/// The first invocation of a function-like macro written between `After`
/// and `Before` (file locations of one file) that leaves out, as this
/// build defines it, an argument in which the identifier `Name` is written.
std::optional<DroppedArgument>
firstDroppedArgument(llvm::StringRef Name, clang::SourceLocation After,
                     clang::SourceLocation Before, clang::Preprocessor &PP);

} // namespace cublas_tidy

#endif
