//===- Baseline.h - Accepting the findings a codebase already has ---------===//
//
// A baseline records the findings of a run so that later runs report only
// new ones. A finding is identified by its check, its file (relative to the
// baseline's directory), its message and the text of its source line with
// whitespace collapsed, not by its line number: code that moves keeps its
// findings baselined, code that changes is checked again, except that a
// finding whose only difference is a name the program chose (a variable
// renamed, in the message's quotes and in the line) is the same finding.
// The function a finding is in (Finding::Function) is part of its key: a
// finding is matched first in its function and file, then in a function of
// the same name in any file (a function moved to another file keeps its
// findings), then in its file whatever the function (a function renamed;
// a baseline written before functions were recorded).
// Identical keys are counted, so a second copy of a baselined bug is still
// new. `--diff-base` compares two runs the same way.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_TOOLS_BASELINE_H
#define CUBLAS_TIDY_TOOLS_BASELINE_H

#include "Findings.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace cublas_tidy {

class Baseline {
public:
  /// Reads a baseline written by write().
  static llvm::Expected<Baseline> read(llvm::StringRef Path);

  /// The findings as a baseline stored at `Path`.
  static Baseline of(llvm::ArrayRef<Finding> Findings, llvm::StringRef Path);
  llvm::Error write(llvm::StringRef Path) const;

  /// Removes the findings the baseline accepts (each baseline entry accepts
  /// as many findings as it counted) and returns how many it removed.
  size_t filter(std::vector<Finding> &Findings) const;

  size_t size() const;

  /// What identifies `F` whatever its file, line number and the names the
  /// program chose: a hash of its check, function, message and line text
  /// without those names, in hex (SARIF's partialFingerprints).
  static std::string fingerprint(const Finding &F);

  /// `Message` of `Check` in this version's words: a baseline written by an
  /// earlier version still accepts its findings.
  static std::string currentWording(llvm::StringRef Check,
                                    llvm::StringRef Message);

private:
  struct Key {
    std::string Check, File, Message, Line, Function;
    bool operator<(const Key &O) const {
      return std::tie(Check, File, Message, Line, Function) <
             std::tie(O.Check, O.File, O.Message, O.Line, O.Function);
    }
  };
  static Key keyOf(const Finding &F, llvm::StringRef BaseDir);
  /// The key with the program's names left out.
  static Key looseKey(const Key &K);
  std::string BaseDir;
  std::map<Key, unsigned> Counts;
};

} // namespace cublas_tidy

#endif
