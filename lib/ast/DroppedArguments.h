//===- DroppedArguments.h - Macro arguments a build leaves out -----------===//
//
// A read that the preprocessor removed is not in the AST: `assert(st ==
// CUBLAS_STATUS_SUCCESS)` under NDEBUG, or a project's `check(st, "gemm")`
// that a release build defines as `((void)0)`, leaves nothing of `st`. An
// analysis of the AST rightly finds `st` stored and never read in that
// build; this fact says why, so that the message can name the macro that
// dropped the read.
//
// A DroppedArguments records, while a unit is preprocessed, each expansion
// of a function-like macro whose definition never names one of its
// parameters, with the identifiers written in the arguments it leaves out.
// A macro that passes its argument to another that drops it (`#define
// CHECK(x) assert(x)`) is recorded at the outer expansion, which is where
// the user wrote it.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_AST_DROPPEDARGUMENTS_H
#define CUBLAS_TIDY_LIB_AST_DROPPEDARGUMENTS_H

#include "clang/Basic/IdentifierTable.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/SmallVector.h"

#include <string>
#include <vector>

namespace cublas_tidy {

class DroppedArguments {
public:
  struct Expansion {
    /// Where the user wrote the macro: a file location.
    clang::SourceLocation Loc;
    /// The macro the user wrote there (`CHECK`).
    std::string Written;
    /// The macro whose definition leaves the argument out (`assert`, where
    /// the user wrote `CHECK`).
    std::string Macro;
    /// NDEBUG was defined where the macro was expanded.
    bool UnderNDEBUG = false;
    /// The identifiers written in the arguments it leaves out.
    llvm::SmallVector<const clang::IdentifierInfo *, 4> Names;
  };

  /// Forgets what was recorded and records the expansions `PP` makes from
  /// now on (one unit). This object must outlive the preprocessing.
  void watch(clang::Preprocessor &PP);

  /// The first recorded expansion after `After` and before `Before` (file
  /// locations of one file) whose left-out arguments name `Name`; null when
  /// there is none.
  const Expansion *firstNaming(const clang::IdentifierInfo *Name,
                               clang::SourceLocation After,
                               clang::SourceLocation Before,
                               const clang::SourceManager &SM) const;

private:
  std::vector<Expansion> Expansions;
};

} // namespace cublas_tidy

#endif
