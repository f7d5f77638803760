//===- Findings.h - Diagnostics as data for reports and baselines ---------===//
//
// clang-tidy's ClangTidyError carries a file path and a byte offset; reports
// (SARIF) and baselines want lines, columns and the text of the line. A
// Finding is that view, computed once per diagnostic.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_TOOLS_FINDINGS_H
#define CUBLAS_TIDY_TOOLS_FINDINGS_H

#include "ClangTidyDiagnosticConsumer.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cublas_tidy {

struct Position {
  std::string File; // absolute path, or empty when the diagnostic has none
  unsigned Line = 0, Column = 0; // 1-based; 0 when unknown
  std::string LineText;          // the source line, without the newline
};

struct FindingNote {
  Position Where;
  std::string Message;
};

struct Finding {
  std::string Check;
  /// The function whose body holds the finding, by its name as written
  /// (`Cls::method`), read from the source's braces; empty outside one.
  /// Matches a finding moved with its function to another file.
  std::string Function;
  std::string Level; // "error", "warning" or "remark"
  bool IsWarningAsError = false;
  std::string Message;
  Position Where;
  std::vector<FindingNote> Notes;
  size_t ErrorIndex = 0; // index into the ClangTidyError list it came from
};

/// `File` as an absolute path without `.` and `..` components; a relative
/// `File` is taken relative to `BuildDirectory` (a compile command's
/// directory), or to the working directory without one.
std::string absolutePath(llvm::StringRef File, llvm::StringRef BuildDirectory);

/// A function's body in a source text: the offsets of its braces, and the
/// function's name as written (`Cls::method`).
struct FunctionBody {
  size_t Open, Close;
  std::string Name;
};

/// Reads source files once and maps offsets to lines and columns.
class SourceCache {
public:
  /// `Texts`, when given, holds the text of some files (by absolute path)
  /// to use instead of what is on disk: the text at another revision. They
  /// must outlive the cache, whose buffers refer to them.
  explicit SourceCache(const llvm::StringMap<std::string> *Texts = nullptr)
      : Texts(Texts) {}

  /// `File` may be relative to `BuildDirectory` (or, without one, to the
  /// working directory).
  Position position(llvm::StringRef File, unsigned Offset,
                    llvm::StringRef BuildDirectory = {});

  /// The name of the innermost function whose body holds `Offset` of the
  /// file at the absolute path `File` (a Position's); empty when none does
  /// or the file cannot be read.
  std::string functionAt(llvm::StringRef File, unsigned Offset);

private:
  struct FileData {
    std::unique_ptr<llvm::MemoryBuffer> Buffer;
    std::vector<unsigned> LineStarts; // offsets of the first byte of each line
    std::optional<std::vector<FunctionBody>> Bodies; // when first asked
  };
  FileData *load(const std::string &Path);
  llvm::StringMap<FileData> Files;
  const llvm::StringMap<std::string> *Texts;
};

/// The bodies of the functions defined in the C++ source `Text`, read from
/// its braces with comments, strings and preprocessor lines left out: a `{`
/// is a function's body when the text before it, back to the previous `;`,
/// `{` or `}`, has balanced parentheses and its first `(` follows a name
/// that is not a keyword (`void f(int) const {`, `S::S() : x(0) {`; not
/// `if (c) {`, a lambda's `](...) {`, a class or an initializer).
std::vector<FunctionBody> functionBodies(llvm::StringRef Text);

std::vector<Finding>
toFindings(const std::vector<clang::tidy::ClangTidyError> &Errors,
           SourceCache &Sources);

} // namespace cublas_tidy

#endif
