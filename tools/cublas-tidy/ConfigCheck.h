//===- ConfigCheck.h - Configuration mistakes, found before a run ---------===//
//
// A configuration that does not say what its author meant fails the run,
// each mistake said once (docs/ci.md, "Configuration errors"):
//
//   - a .clang-tidy file (or -config, -config-file) that does not parse:
//     the parser's error, with the file, line and column;
//   - a check name or glob that enables no check: `-checks=cublas-handle-leek`,
//     with the nearest name;
//   - a CheckOptions key that no enabled check reads:
//     `cublas-unchecked-status.CheckMacroo`, with the nearest key.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_TOOLS_CONFIGCHECK_H
#define CUBLAS_TIDY_TOOLS_CONFIGCHECK_H

#include "ClangTidy.h"
#include "ClangTidyOptions.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace cublas_tidy {

/// The configuration text `Text` read from `Source`, parsed; each parse
/// error goes to `Problems` as one line ("SOURCE:2:20: unexpected token").
llvm::ErrorOr<clang::tidy::ClangTidyOptions>
parseConfigText(llvm::StringRef Text, llvm::StringRef Source,
                std::vector<std::string> &Problems);

/// What is wrong with the .clang-tidy files a run over `Files` reads: for
/// each file's folder, the nearest one above it, and the ones it inherits
/// from. Each file once.
std::vector<std::string> configFileProblems(llvm::ArrayRef<std::string> Files);

/// What is wrong with the options in effect: globs of `Options.Checks` that
/// enable no check of `All`, and keys of `Options.CheckOptions` that name a
/// check but no option of it.
std::vector<std::string>
optionProblems(const clang::tidy::ClangTidyOptions &Options,
               const clang::tidy::ChecksAndOptions &All);

} // namespace cublas_tidy

#endif
