//===- Gate.h - Which findings a run reports ------------------------------===//
//
// The driver's third room: the gates a finding passes before it is
// printed. With --diff-base, only what a change brought: by findings (the
// default), the units with findings are analysed again with the revision's
// text of every file changed since (BaseRevision, ChangedLines.h), and a
// finding the revision's code has too is old (matched as baselines match,
// Baseline.h); by lines, a finding is new on a line the change touched.
// Then a baseline is written (which ends the run) or applied. What remains
// is printed by Output.h.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_TOOLS_GATE_H
#define CUBLAS_TIDY_TOOLS_GATE_H

#include "Findings.h"
#include "Options.h"
#include "ProjectRun.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <vector>

namespace cublas_tidy {

/// Stage "plan", the filter: the changed lines since --diff-base, or the
/// revision's text of the files changed since (--diff-by). A revision that
/// does not exist is said before any analysis: the exit code then.
std::optional<int> readDiffBase(Invocation &Inv);

/// Stage "filter": the findings of `C` (as data, `Findings`, when SARIF, a
/// baseline or --diff-base asks for them) that the gates let through; the
/// errors whose findings remain are kept in `C`. `Runs` are the units of
/// the run over `DB` with `Plan`. The exit code when the run ends here.
std::optional<int> gateFindings(const clang::tooling::CompilationDatabase &DB,
                                const Invocation &Inv, const RunPlan &Plan,
                                llvm::ArrayRef<FileRun> Runs, Collected &C,
                                std::vector<Finding> &Findings);

} // namespace cublas_tidy

#endif
