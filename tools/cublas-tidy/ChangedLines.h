//===- ChangedLines.h - The lines a change touched -------------------------===//
//
// `--diff-base=REF` reports only the findings on lines added or changed
// since REF (as clang-tidy-diff does), so that a codebase with old findings
// can adopt the checks on new code first. The lines come from git: the
// working tree against REF, and files git does not track yet are new in
// every line.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_TOOLS_CHANGEDLINES_H
#define CUBLAS_TIDY_TOOLS_CHANGEDLINES_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"

#include <utility>
#include <vector>

namespace cublas_tidy {

class ChangedLines {
public:
  /// The lines of the working tree of the git repository holding `Dir` that
  /// differ from revision `Ref`.
  static llvm::Expected<ChangedLines> since(llvm::StringRef Ref,
                                           llvm::StringRef Dir);

  /// The added lines of a unified diff with no context (`git diff -U0`),
  /// whose paths (`+++ b/path`) are relative to `Root`.
  static ChangedLines fromDiff(llvm::StringRef Diff, llvm::StringRef Root);

  /// Marks every line of `File` (absolute) as new.
  void addWholeFile(llvm::StringRef File) { Whole.insert(File); }

  /// True when line `Line` (1-based) of `File` (absolute, normalised) was
  /// added or changed.
  bool contains(llvm::StringRef File, unsigned Line) const;

private:
  /// Per file, the [first, last] ranges of added lines.
  llvm::StringMap<std::vector<std::pair<unsigned, unsigned>>> Ranges;
  llvm::StringSet<> Whole;
};

} // namespace cublas_tidy

#endif
