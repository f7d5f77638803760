//===- ConfigCheck.h - Configuration mistakes, found before a run ---------===//
//
// A configuration that does not say what its author meant about a cublas-*
// check fails the run, each mistake said once (docs/ci.md, "Configuration
// errors"):
//
//   - a .clang-tidy file (or -config, -config-file) that does not parse:
//     the parser's error, with the file, line and column;
//   - a check name or glob that enables no check and names, or is nearest
//     to, a cublas-* one: `-checks=cublas-handle-leek`, with the nearest name;
//   - a CheckOptions key of a cublas-* check that is none of its options:
//     `cublas-unchecked-status.CheckMacroo`, with the nearest key;
//   - a value its check cannot use: an invalid regular expression in
//     `cublas-unchecked-status.IgnoredFunctions`, a number that is not one.
//
// What concerns no cublas-* check and this build does not know (the checks
// of other clang-tidy releases and modules, options of other checks, keys
// that newer releases added) is a project's configuration for other tools:
// it is ignored, and each configuration that has such lines gets one
// warning that names them.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_TOOLS_CONFIGCHECK_H
#define CUBLAS_TIDY_TOOLS_CONFIGCHECK_H

#include "ClangTidy.h"
#include "ClangTidyOptions.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cublas_tidy {

/// The configuration text `Text` read from `Source`, parsed. A key that
/// clang-tidy's configuration does not have (at the top or nested) is left
/// out, and its name goes to `UnknownKeys` when given; the text must parse
/// without it. Each other parse error goes to `Problems` as one line
/// ("SOURCE:2:20: unexpected token").
llvm::ErrorOr<clang::tidy::ClangTidyOptions>
parseConfigText(llvm::StringRef Text, llvm::StringRef Source,
                std::vector<std::string> &Problems,
                std::vector<std::string> *UnknownKeys = nullptr);

/// parseConfigText without a word: what the options providers of each unit
/// read, the problems having been said once before the run.
llvm::ErrorOr<clang::tidy::ClangTidyOptions>
parseConfigQuietly(llvm::MemoryBufferRef Config);

/// What one source of options (a file, -config, -checks) says that the run
/// cannot follow.
struct Verdict {
  /// Mistakes about cublas-* checks: each fails the run.
  std::vector<std::string> Errors;
  /// One line naming what is ignored, "SOURCE: ignoring what cublas-tidy
  /// does not know: ..."; empty when nothing is.
  std::string Warning;
};

/// The verdict on `Options`, read from `Source`, which also had the keys
/// `UnknownKeys`: globs of `Options.Checks` that enable no check of `All`,
/// and keys of `Options.CheckOptions` that name a check but no option of it.
Verdict judgeOptions(llvm::StringRef Source,
                     const clang::tidy::ClangTidyOptions &Options,
                     llvm::ArrayRef<std::string> UnknownKeys,
                     const clang::tidy::ChecksAndOptions &All);

/// What the cublas-* checks say of the values `Options` gives their
/// options: an invalid regular expression, a number that is not one, a word
/// the option does not know; each once, with the option's whole name.
std::vector<std::string>
judgeOptionValues(const clang::tidy::ClangTidyOptions &Options,
                  const clang::tidy::ChecksAndOptions &All);

/// The verdicts on configuration files.
struct ConfigFilesVerdict {
  /// A file that cannot be read or does not parse: "FILE:2:20: message".
  std::vector<std::string> ParseErrors;
  std::vector<std::string> Errors;
  std::vector<std::string> Warnings;
  /// The files judged, absolute and without dots.
  std::set<std::string> Judged;
};

/// The verdict on the configuration file `Path` (added to `Out`); its
/// options when it parses.
std::optional<clang::tidy::ClangTidyOptions>
configFileVerdict(llvm::StringRef Path,
                  const clang::tidy::ChecksAndOptions &All,
                  ConfigFilesVerdict &Out);

/// The verdicts on the .clang-tidy files a run over `Files` reads: for each
/// file's folder, the nearest one above it, and the ones it inherits from.
/// Each file once.
ConfigFilesVerdict configFilesVerdict(llvm::ArrayRef<std::string> Files,
                                      const clang::tidy::ChecksAndOptions &All);

/// Says the verdicts on configuration files: warnings, then errors. Each
/// file once: those judged before are in `Judged`, to which the verdict's
/// files are added. 1 when an error fails the run.
std::optional<int> reportConfigFiles(const ConfigFilesVerdict &Verdict,
                                     std::set<std::string> &Judged);

/// Says, for each source of the options of one file (`Sources`, a
/// provider's raw options), the names and keys that say nothing to any
/// check of `All`: the command line's, -config's (named `ConfigName`, with
/// the keys `UnknownKeys`), and the files not in `Judged`, each once. True
/// when one of them fails the run.
bool judgeConfiguration(
    llvm::ArrayRef<clang::tidy::ClangTidyOptionsProvider::OptionsSource>
        Sources,
    llvm::StringRef ConfigName, llvm::ArrayRef<std::string> UnknownKeys,
    llvm::function_ref<const clang::tidy::ChecksAndOptions &()> All,
    std::set<std::string> &Judged);

} // namespace cublas_tidy

#endif
