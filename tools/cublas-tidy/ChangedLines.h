//===- ChangedLines.h - The lines a change touched -------------------------===//
//
// `--diff-base=REF` reports only what a change brought. By default a
// finding is new when REF's version of the code does not have it: the
// units are analysed a second time with REF's text of every file the change
// touched (BaseRevision), and the two runs' findings are matched (Baseline).
// With `--diff-by=lines`, a finding is new when it is on a line added or
// changed since REF (ChangedLines, as clang-tidy-diff does). Both come from
// git: the working tree against REF; files git does not track yet are new.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_TOOLS_CHANGEDLINES_H
#define CUBLAS_TIDY_TOOLS_CHANGEDLINES_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"

#include <string>
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
  /// True when `File` (absolute) changed at all: lines added, changed or
  /// deleted, or the whole file new.
  bool touches(llvm::StringRef File) const;
  /// True when git does not track `File` (absolute): every line is new.
  bool untracked(llvm::StringRef File) const;

private:
  /// Per file, the [first, last] ranges of added lines.
  llvm::StringMap<std::vector<std::pair<unsigned, unsigned>>> Ranges;
  llvm::StringSet<> Whole;
  llvm::StringSet<> Touched; // in the diff, even with only deleted lines
};

/// The text at revision `Ref` of the files the working tree changed: what
/// the code looked like before the change, for the analysis that tells new
/// findings from old ones.
class BaseRevision {
public:
  static llvm::Expected<BaseRevision> of(llvm::StringRef Ref,
                                         llvm::StringRef Dir);

  /// Absolute path to the text at the revision, for every file changed
  /// since (modified, or deleted from the working tree), under the
  /// repository's real path and, when the run was given another (through a
  /// symbolic link), under that one too.
  const llvm::StringMap<std::string> &texts() const { return Texts; }
  /// True when `File` (absolute) did not exist at the revision: added
  /// since, or not tracked by git.
  bool isNew(llvm::StringRef File) const;
  /// True when `File` (absolute) differs from its text at the revision.
  bool changed(llvm::StringRef File) const;
  /// True when git does not track `File` (absolute); isNew then too.
  bool untracked(llvm::StringRef File) const;
  const std::string &root() const { return Root; }

private:
  std::string Root;
  llvm::StringMap<std::string> Texts;
  llvm::StringSet<> New;
  llvm::StringSet<> Untracked;
};

} // namespace cublas_tidy

#endif
