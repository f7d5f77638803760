//===- Cache.h - Findings of unchanged units, replayed --------------------===//
//
// --cache-dir=DIR stores each unit's results under a key made of the tool
// (its version and the contents of its executable), the unit's effective
// configuration, its compile commands and the options that change results.
// An entry lists every file the unit read with a hash of its contents; it is
// replayed only when each of them is unchanged (the main file included), so
// editing any header the unit includes is a miss.
//
// Entries are written to a temporary file and renamed into place, so runs
// in parallel (threads or processes) never see half an entry; an entry that
// does not parse is a miss. After a run the oldest entries are removed until
// the directory is under its size limit.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_TOOLS_CACHE_H
#define CUBLAS_TIDY_TOOLS_CACHE_H

#include "ClangTidyDiagnosticConsumer.h"
#include "Scan.h"
#include "facts/Summaries.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cublas_tidy {

/// What a unit's run left: replayed as it was.
struct UnitResult {
  bool Skipped = false; // cannot reach cuBLAS: not analysed
  std::vector<clang::tidy::ClangTidyError> Errors;
  clang::tidy::ClangTidyStats Stats;
  /// The summaries of the functions it defines, and the keys of those of
  /// other units it asked about (facts/Summaries.h).
  std::vector<FunctionSummary> Summaries;
  std::vector<std::string> Asked;
  /// The summary of its main file, when it has one.
  std::vector<FileSummary> FileSummaries;
  /// What the summaries it was analysed with said of Asked
  /// (SummaryStore::digest).
  std::string SeenDigest;
  /// The files it was computed from (set by lookup; store takes them apart).
  std::vector<std::string> Files;
};

class ResultCache {
public:
  ResultCache(std::string Dir, uint64_t MaxBytes, std::string ToolKey)
      : Dir(std::move(Dir)), MaxBytes(MaxBytes), ToolKey(std::move(ToolKey)) {}

  /// The key of a unit: `Config` is everything else that changes its
  /// results (the effective configuration as text, options).
  std::string key(llvm::StringRef File,
                  llvm::ArrayRef<clang::tooling::CompileCommand> Commands,
                  llvm::StringRef Config) const;

  /// The stored result, when every file it lists still has its contents.
  std::optional<UnitResult> lookup(llvm::StringRef Key, FileContents &Contents);

  /// Stores a result with the files it was computed from. False when the
  /// entry could not be written (the run goes on without it).
  bool store(llvm::StringRef Key, const UnitResult &Result,
             llvm::ArrayRef<std::string> Files, FileContents &Contents);

  /// Removes the least recently used entries until the directory holds at
  /// most the size limit; returns how many were removed.
  unsigned trim();

  uint64_t maxBytes() const { return MaxBytes; }

private:
  std::string pathOf(llvm::StringRef Key) const;
  std::string Dir;
  uint64_t MaxBytes;
  std::string ToolKey;
};

/// The tool's identity for cache keys: its version and a hash of the
/// executable's contents (another build is another tool).
std::string toolKey(const char *Argv0, void *MainAddr);

/// Parses a size: bytes, or a number with K, M or G (powers of 1024).
std::optional<uint64_t> parseSize(llvm::StringRef Text);

} // namespace cublas_tidy

#endif
