//===- Output.h - What a run prints, writes and exits with ----------------===//
//
// The driver's fourth room: what it says and writes. Before any parse,
// --merge-sarif joins the SARIF logs of --shard runs. After the run, the
// project's summaries go to their file (--export-facts, and beside the
// compile database for the plugin and clangd); -v says what became of each
// unit and of the cache; a unit that crashed or did not compile is said
// once on stderr. Then the findings the gates let through (Gate.h) are
// printed: as SARIF (Sarif.h), or each run's diagnostics as clang-tidy
// prints them (and fixes them), the fixes exported (--export-fixes), the
// statistics, and the exit code.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_TOOLS_OUTPUT_H
#define CUBLAS_TIDY_TOOLS_OUTPUT_H

#include "Cache.h"
#include "Findings.h"
#include "Options.h"
#include "ProjectRun.h"

#include "facts/Summaries.h"

#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>

namespace cublas_tidy {

/// --merge-sarif OUT IN...: joins SARIF logs and reads no compilation
/// database, so it is handled before the command line is parsed as
/// clang-tidy's. The exit code, or nullopt when not asked.
std::optional<int> mergeSarifIfAsked(int argc, const char **argv);

/// Stage "collect", the project's summaries: written where --export-facts
/// says (and beside the compile database), and counted under -v. The exit
/// code when the file cannot be written.
std::optional<int> exportFacts(const SummaryStore &Store,
                               llvm::ArrayRef<FileRun> Runs,
                               const RunPlan &Plan);

/// Stage "collect", what -v says of each unit and of the cache (`Removed`
/// entries trimmed from it).
void reportPlan(llvm::ArrayRef<FileRun> Runs, const RunPlan &Plan,
                const ResultCache *Cache, unsigned Removed);

/// Stage "collect", files that crashed and files that did not compile:
/// said once per file, on stderr. True when one crashed.
bool reportUnits(llvm::ArrayRef<FileRun> Runs,
                 llvm::ArrayRef<std::string> EnabledChecks);

/// Stage "print": the findings as SARIF, or each run's diagnostics printed
/// (and fixed) with the context that made them, in input order; the fixes
/// exported; the statistics. The exit code.
int printFindings(const Collected &C, llvm::ArrayRef<Finding> Findings,
                  llvm::MutableArrayRef<FileRun> Runs, const Invocation &Inv,
                  bool AnyCrashed);

} // namespace cublas_tidy

#endif
