//===- ProjectRun.h - The two-phase run over a project's units ------------===//
//
// The driver's second room: the units of a run analysed on parallel
// workers, each replayed from the results cache, skipped when it cannot
// reach cuBLAS (Scan.h), or analysed (Runner.h), a crash caught per unit.
// With a compile database the run has two phases: every unit once, its
// findings kept and the summaries of its functions collected (the units
// that define functions other units call first, Providers.h); then the
// units that asked about a function the summaries answer otherwise than
// they saw are analysed again with the project's summaries. Which units,
// the summaries to start from and the cache are planned here too; what is
// reported is the other rooms' (Gate.h, Output.h).
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_TOOLS_PROJECTRUN_H
#define CUBLAS_TIDY_TOOLS_PROJECTRUN_H

#include "Cache.h"
#include "Options.h"
#include "Scan.h"

#include "ClangTidy.h"
#include "ClangTidyDiagnosticConsumer.h"
#include "facts/Summaries.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cublas_tidy {

/// One file's analysis: its own context (options, statistics) and file
/// system, so that runs can proceed on several threads.
struct FileRun {
  std::string File;
  bool Crashed = false; // its analysis crashed: its findings are missing
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS;
  std::unique_ptr<clang::tidy::ClangTidyContext> Context;
  std::vector<clang::tidy::ClangTidyError> Errors;
  clang::tidy::ClangTidyStats Stats;
  bool Skipped = false;   // cannot reach cuBLAS: not analysed
  bool FromCache = false; // replayed (or its skip) from the cache
  bool Stored = false;    // its results went into the cache
  std::string Reason;     // why it was analysed or skipped (for -v)
  /// Not asked for: analysed only for the summaries of its functions.
  bool SummaryOnly = false;
  /// The summaries of the functions it defines; the keys of the functions
  /// of other units it asked about.
  std::vector<FunctionSummary> Summaries;
  std::vector<std::string> Asked;
  /// The summary of its main file (the routes of exceptions), if any.
  std::vector<FileSummary> FileSummaries;
  /// What the summaries it was analysed with said of Asked.
  std::string SeenDigest;
  /// The last round of runAll that analysed it again with the project's
  /// summaries; 0: none did.
  unsigned Round = 0;
  /// Every file it reads, from its scan or the cache; empty when unknown.
  std::vector<std::string> Files;
  /// Named on the command line (false: a source --whole-database added).
  bool Named = true;
};

/// How many times runAll analyses again the units whose questions the
/// summaries made since answer otherwise: a summary that depends on a
/// function of another file is made in the round after that function's,
/// so a chain of functions across files is followed this many files
/// beyond the first two (docs/ci.md, "Facts across files").
constexpr unsigned MaxFactRounds = 4;

/// What decides, unit by unit, whether to scan, skip, replay or analyse.
struct RunPlan {
  std::vector<std::string> AllChecks; // every check this binary has
  ResultCache *Cache = nullptr;
  ScanService *Scans = nullptr; // for skipping and for the cache
  FileContents *Contents = nullptr;
  std::string ExtraKey; // options outside the configuration that change results
  bool Skip = false;    // units that cannot reach cuBLAS may be skipped
  /// The project's summaries the analyses consult; whether a unit's own
  /// summaries and questions are collected.
  const SummaryStore *Facts = nullptr;
  bool CollectFacts = false;
  bool NoFacts = false; // --no-project-facts: no store at all
  bool NoReplay = false; // analyse even when the cache has a result
  /// The text of files at another revision (--diff-base), read instead of
  /// the working tree's.
  const llvm::StringMap<std::string> *Texts = nullptr;
};

/// Every diagnostic of the runs once, with the run whose context reported
/// it (a header's findings come from every file that includes it, under
/// whatever spelling of its path that file uses).
struct Collected {
  std::vector<clang::tidy::ClangTidyError> Errors;
  std::vector<unsigned> Owner;
};

/// Stage "plan", the project's summaries: read from --facts, or made from
/// every unit of the compilation database, the units not asked for
/// (`SummaryOnly`) included. The exit code when the run ends here.
std::optional<int> planProjectFacts(const Invocation &Inv, RunPlan &Plan,
                                    SummaryStore &Store,
                                    std::vector<std::string> &SummaryOnly);

/// Stage "plan", the skip and the cache: which checks are not cublas-*
/// ones (asked only when skipping), and the results cache of `Argv0`.
void planSkipAndCache(const Invocation &Inv, const char *Argv0,
                      RunPlan &Plan, std::optional<ResultCache> &Cache);

/// Stage "run": every unit of `Paths` and `SummaryOnly` once, and those
/// whose questions the project's summaries, collected into `Store`, answer
/// otherwise than they saw, again (ProjectRun.cpp).
std::vector<FileRun> runAll(const clang::tooling::CompilationDatabase &DB,
                            llvm::ArrayRef<std::string> Paths,
                            llvm::ArrayRef<std::string> SummaryOnly,
                            const RunPlan &Plan, SummaryStore &Store);

/// The diagnostics of the runs asked for, each once (taken from `Runs`).
Collected collectErrors(llvm::MutableArrayRef<FileRun> Runs);

/// What `Facts` (none: an empty store) says of the summaries `Asked`.
/// Leaves out what `File`, the unit's main file, says of itself.
std::string digestOf(const SummaryStore *Facts,
                     llvm::ArrayRef<std::string> Asked, llvm::StringRef File);

} // namespace cublas_tidy

#endif
