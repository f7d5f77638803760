//===- DroppedArguments.h - Macro arguments a build leaves out -----------===//
//
// A read that the preprocessor removed is not in the AST: `assert(st ==
// CUBLAS_STATUS_SUCCESS)` under NDEBUG, or a project's `check(st, "gemm")`
// that a release build defines as `((void)0)`, leaves nothing of `st`. An
// analysis of the AST rightly finds `st` stored and never read in that
// build; this fact says why, so that the message can name the macro that
// dropped the read.
//
// A read inside `#ifndef NDEBUG ... #endif` is gone the same way, with no
// macro to blame: the block is.
//
// It is asked only once a finding is made, and reads the source text then:
// the conditional blocks and the invocations of function-like macros
// written there, their arguments, and the definitions the preprocessor had
// at each. A parameter that the
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
  /// Not a macro: the read is in a block that the preprocessor skips in
  /// this build, opened by this directive (`#ifndef NDEBUG`); `Written`
  /// and `Macro` are empty.
  std::string Block;
  /// That block's branch is its `#else`.
  bool InElse = false;
};

/// The function-like macro `Name` is defined as at `Loc`; null when it is
/// not defined there, or is an object-like macro.
const clang::MacroInfo *functionLikeMacroAt(clang::Preprocessor &PP,
                                            llvm::StringRef Name,
                                            clang::SourceLocation Loc);

/// The first place between `After` and `Before` (file locations of one
/// file, `After` in text that the build compiles) where the identifier
/// `Name` is written and this build drops it: an argument that a
/// function-like macro's definition leaves out, or text in a conditional
/// block that the preprocessor skips (as far as the block's directives
/// tell on their own: `#ifdef`, `#ifndef`, and tests of `defined`, `!`,
/// literals and macros defined as numbers).
std::optional<DroppedArgument>
firstDroppedArgument(llvm::StringRef Name, clang::SourceLocation After,
                     clang::SourceLocation Before, clang::Preprocessor &PP);

} // namespace cublas_tidy

#endif
