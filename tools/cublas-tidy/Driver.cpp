//===- Driver.cpp - The standalone cublas-tidy ----------------------------===//
//
// A clang-tidy with every stock module and the cublas module linked in, for
// users whose clang-tidy is another version or absent. It speaks clang-tidy's
// command line; the driver is our own so that it can grow options of its own
// (output formats, compile-database translation) around clang-tidy's library.
//
// `main` is the run's stages in order; each lives in its room: the command
// line and the configuration (Options.h, with the inputs in Inputs.h), the
// two-phase run over the units (ProjectRun.h), the gates a finding passes
// (Gate.h), and what is printed and written (Output.h).
//
//===----------------------------------------------------------------------===//

#include "ast/CutOffs.h"
#include "ClangTidyForceLinker.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/TargetSelect.h"

#include "Cache.h"
#include "CudaArgs.h"
#include "Gate.h"
#include "Inputs.h"
#include "Options.h"
#include "Output.h"
#include "ProjectRun.h"
#include "Scan.h"

using namespace clang;
using namespace llvm;
using namespace cublas_tidy;

namespace clang::tidy::cublas {
extern volatile int CublasTidyModuleAnchorSource;
[[maybe_unused]] static int CublasTidyModuleAnchorDestination =
    CublasTidyModuleAnchorSource;
} // namespace clang::tidy::cublas

/// Stages "parse" and "configure": the compile database settled, the
/// command line parsed into `Parser`, the configuration read and judged.
/// The exit code when the run ends here.
static std::optional<int>
parse(int Argc, const char **Argv, Invocation &Inv,
      std::optional<tooling::CommonOptionsParser> &Parser) {
  std::vector<const char *> Args(Argv, Argv + Argc);
  std::string FoundDatabase;
  if (std::optional<int> Exit =
          findDatabase(Inv, Args, FoundDatabase, Argc, Argv))
    return *Exit;
  Parser = parseCommandLine(Argc, Argv);
  if (!Parser)
    return 1;
  if (std::optional<int> Exit = verifyConfigFiles(*Parser, Inv))
    return *Exit;
  if (std::optional<int> Exit = readConfiguration(*Parser, Inv))
    return *Exit;
  if (cli::Verbose)
    showCutOffs(true);
  return std::nullopt;
}

/// Stage "plan": the units (`BadInput` when one named cannot be analysed),
/// the changed lines, the cache. The exit code when the run ends here.
static std::optional<int> plan(tooling::CommonOptionsParser &Parser,
                               Invocation &Inv, bool &BadInput) {
  if (std::optional<int> Exit = selectUnits(Parser, Inv))
    return *Exit;
  if (std::optional<int> Exit = dropBadInputs(Inv, BadInput))
    return *Exit;
  if (std::optional<int> Exit = readDiffBase(Inv))
    return *Exit;
  return readCacheOptions(Inv);
}

int main(int argc, const char **argv) {
  InitLLVM X(argc, argv);
  setUpTool(argv[0], reinterpret_cast<void *>(&main));

  // Skipping serves scans over a compile database; a command line given
  // after `--` names the files the user wants analysed. (The parser below
  // removes `--` and what follows from argv.)
  Invocation Inv;
  Inv.FixedCommandLine = hasFixedCommandLine(argc, argv);
  if (std::optional<int> Exit = mergeSarifIfAsked(argc, argv))
    return *Exit;

  std::optional<tooling::CommonOptionsParser> Parser;
  if (std::optional<int> Exit = parse(argc, argv, Inv, Parser))
    return *Exit;
  bool BadInput = false;
  if (std::optional<int> Exit = plan(*Parser, Inv, BadInput))
    return *Exit;
  tooling::ArgumentsAdjustingCompilations Compilations(
      std::make_unique<NvccTranslatingCompilations>(
          std::make_unique<ForwardingCompilations>(*Inv.Database)));
  if (std::optional<int> Exit = adjustCompilations(Compilations))
    return *Exit;

  InitializeAllTargetInfos();
  InitializeAllTargetMCs();
  InitializeAllAsmParsers();

  RunPlan Plan;
  ScanService Scans;
  FileContents Contents;
  Plan.Contents = &Contents;
  Plan.Scans = &Scans;
  std::optional<ResultCache> Cache;
  planSkipAndCache(Inv, argv[0], Plan, Cache);

  // Run.
  SummaryStore Store;
  std::vector<std::string> SummaryOnly;
  if (std::optional<int> Exit = planProjectFacts(Inv, Plan, Store, SummaryOnly))
    return *Exit;
  std::vector<FileRun> Runs =
      runAll(Compilations, Inv.Paths, SummaryOnly, Plan, Store);
  for (FileRun &Run : Runs)
    Run.Named = !Inv.FromDatabase.count(Run.File);
  if (std::optional<int> Exit = exportFacts(Store, Runs, Plan))
    return *Exit;

  // Collect.
  unsigned Removed = Cache ? Cache->trim() : 0;
  if (cli::Verbose)
    reportPlan(Runs, Plan, Cache ? &*Cache : nullptr, Removed);
  bool AnyCrashed = reportUnits(Runs, Inv.EnabledChecks);
  Collected C = collectErrors(Runs);

  // Filter, then print.
  std::vector<Finding> Findings;
  if (std::optional<int> Exit =
          gateFindings(Compilations, Inv, Plan, Runs, C, Findings))
    return *Exit;
  int Exit = printFindings(C, Findings, Runs, Inv, AnyCrashed);
  return Exit == 0 && BadInput ? 1 : Exit;
}
