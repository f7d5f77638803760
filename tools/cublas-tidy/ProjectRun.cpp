//===- ProjectRun.cpp -----------------------------------------------------===//

#include "ProjectRun.h"

#include "Findings.h"
#include "Inputs.h"
#include "Providers.h"
#include "Runner.h"

#include "GlobList.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

#include <atomic>
#include <mutex>
#include <numeric>
#include <set>
#include <tuple>

using namespace clang;
using namespace clang::tidy;
using namespace llvm;
using namespace cublas_tidy::cli;

namespace cublas_tidy {

/// A test hook: with CUBLAS_TIDY_TEST_CRASH_ON set to part of a file's
/// name, the analysis of that file crashes as a bug in a check would, so
/// that the tests can show what a crash does to a run of several files
/// (CUBLAS_TIDY_TEST_CRASH_SCAN_ON: its dependency scan crashes).
static void
crashForTesting(StringRef File,
                const char *Variable = "CUBLAS_TIDY_TEST_CRASH_ON") {
  const char *On = std::getenv(Variable);
  if (On && *On && File.contains(On)) {
    volatile int *Null = nullptr;
    *Null = 1;
  }
}

/// The first enabled check that is not a cublas-* one, or empty. Skipping a
/// unit loses nothing only when every enabled check needs cuBLAS.
static std::string otherCheck(const ClangTidyOptions &Options,
                              ArrayRef<std::string> AllChecks) {
  GlobList Enabled(Options.Checks.value_or(""));
  for (const std::string &C : AllChecks)
    if (!StringRef(C).starts_with("cublas-") && Enabled.contains(C))
      return C;
  return {};
}

/// The configuration that decides a unit's results, as text for its key.
static std::string configurationKey(ClangTidyOptions Options,
                                    StringRef Extra) {
  // Who runs the tool changes no finding: one cache serves every user.
  Options.User.reset();
  return configurationAsText(Options) + "\n" + Extra.str();
}

/// What `Facts` (none: an empty store) says of the summaries `Asked`.
std::string digestOf(const cublas_tidy::SummaryStore *Facts,
                     ArrayRef<std::string> Asked, StringRef File) {
  std::string Own = cublas_tidy::absolutePath(File, "");
  return Facts ? Facts->digest(Asked, Own)
               : cublas_tidy::SummaryStore().digest(Asked, Own);
}

/// Analyses one unit. A crash in its analysis is caught here: the stack
/// dump and our banner are printed, the file is reported as crashed, and
/// the other files' findings are kept.
static void analyseUnit(FileRun &Run, const tooling::CompilationDatabase &DB,
                        const RunPlan &Plan, bool QuietRun) {
  CrashRecoveryContext CRC;
  CRC.DumpStackAndCleanupOnFailure = true;
  if (Plan.CollectFacts) {
    Run.Summaries.clear();
    Run.Asked.clear();
    Run.FileSummaries.clear();
  }
  // Without project facts of its own (a command line after --), the run
  // leaves the checks to the store their option FactsFile names.
  std::optional<cublas_tidy::ProjectFactsScope> Scope;
  if (Plan.Facts || Plan.CollectFacts || Plan.NoFacts)
    Scope.emplace(Plan.Facts, Plan.CollectFacts ? &Run.Asked : nullptr,
                  Plan.CollectFacts ? &Run.Summaries : nullptr,
                  Plan.CollectFacts ? &Run.FileSummaries : nullptr);
  bool Finished = CRC.RunSafely([&] {
    crashForTesting(Run.File);
    Run.Errors = cublas::analyseFile(*Run.Context, DB, Run.File, Run.BaseFS,
                                     FixNotes, EnableCheckProfile,
                                     StoreCheckProfile, QuietRun);
  });
  if (!Finished) {
    Run.Crashed = true;
    Run.Errors.clear();
  }
  llvm::sort(Run.Asked);
  Run.Asked.erase(std::unique(Run.Asked.begin(), Run.Asked.end()),
                  Run.Asked.end());
  Run.SeenDigest = digestOf(Plan.Facts, Run.Asked, Run.File);
  Run.Stats = Run.Context->getStats();
}

/// Replays the unit's results from the cache; false when it has none.
static bool replayUnit(FileRun &Run, const RunPlan &Plan,
                       const std::string &Key) {
  std::optional<cublas_tidy::UnitResult> R =
      Plan.Cache->lookup(Key, *Plan.Contents);
  if (!R)
    return false;
  Run.Skipped = R->Skipped;
  Run.FromCache = true;
  Run.Reason = R->Skipped ? "skipped (from the cache)"
                          : "replayed from the cache";
  Run.Errors = std::move(R->Errors);
  Run.Stats = R->Stats;
  Run.Summaries = std::move(R->Summaries);
  Run.Asked = std::move(R->Asked);
  Run.FileSummaries = std::move(R->FileSummaries);
  Run.SeenDigest = std::move(R->SeenDigest);
  Run.Files = std::move(R->Files);
  return true;
}

/// The files a unit includes, and which of them mentions cublas. A crash of
/// the scanner costs the skip, not the run: the unit is analysed as if its
/// scan had failed.
static cublas_tidy::UnitScan
scanUnit(const FileRun &Run, ArrayRef<tooling::CompileCommand> Commands,
         const RunPlan &Plan, std::optional<cublas_tidy::Scanner> &Scanner) {
  cublas_tidy::UnitScan Scan;
  if (!Scanner)
    Scanner.emplace(*Plan.Scans);
  CrashRecoveryContext CRC;
  if (!CRC.RunSafely([&] {
        crashForTesting(Run.File, "CUBLAS_TIDY_TEST_CRASH_SCAN_ON");
        Scan = Scanner->scan(Commands, *Plan.Contents);
      })) {
    Scan = cublas_tidy::UnitScan();
    Scan.Error = "the scanner crashed";
    Scanner.reset();
  }
  return Scan;
}

/// Decides whether the unit is skipped, and says why (for -v).
static void decideSkip(FileRun &Run, const RunPlan &Plan, StringRef Other,
                       const cublas_tidy::UnitScan &Scan) {
  if (!Plan.Skip)
    Run.Reason =
        "analysed: not skipped (--no-skip, or a command line after --)";
  else if (!Other.empty())
    Run.Reason =
        "analysed: " + Other.str() + " is enabled, not a cublas-* check";
  else if (!Scan.Scanned)
    Run.Reason = "analysed: the dependency scan failed (" + Scan.Error + ")";
  else if (Scan.Mention.empty()) {
    Run.Skipped = true;
    Run.Reason = "skipped: none of its " + std::to_string(Scan.Files.size()) +
                 " files mentions cublas";
  } else if (Scan.MentionUnreadable)
    Run.Reason = "analysed: cannot read " + Scan.Mention;
  else if (Scan.Mention == Scan.Files.front())
    Run.Reason = "analysed: it mentions cublas";
  else
    Run.Reason = "analysed: " + Scan.Mention + " mentions cublas";
}

/// Per unit: replay it from the cache, or scan it and skip it when no file
/// of it mentions cublas, or analyse it (and store what it found).
static void processUnit(FileRun &Run, const tooling::CompilationDatabase &DB,
                        const RunPlan &Plan, bool QuietRun,
                        std::optional<cublas_tidy::Scanner> &Scanner) {
  ClangTidyOptions Options = Run.Context->getOptionsForFile(Run.File);
  std::string Other = otherCheck(Options, Plan.AllChecks);
  bool MaySkip = Plan.Skip && Other.empty();
  // A database knows its files by absolute paths (a relative one would get
  // a command inferred from a neighbour, run in the wrong folder); the
  // parse makes the path absolute the same way.
  std::string Abs = cublas_tidy::absolutePath(Run.File, "");
  std::vector<tooling::CompileCommand> Commands = DB.getCompileCommands(Abs);

  std::string Key;
  if (Plan.Cache) {
    Key = Plan.Cache->key(Abs, Commands,
                          configurationKey(Options, Plan.ExtraKey));
    if (!Plan.NoReplay && replayUnit(Run, Plan, Key))
      return;
  }
  cublas_tidy::UnitScan Scan;
  if (MaySkip || Plan.Cache)
    Scan = scanUnit(Run, Commands, Plan, Scanner);
  if (Scan.Scanned)
    Run.Files = Scan.Files;
  decideSkip(Run, Plan, Other, Scan);
  if (!Run.Skipped)
    analyseUnit(Run, DB, Plan, QuietRun);
  // What a failed scan includes is unknown: such units are never stored.
  if (Plan.Cache && Scan.Scanned && !Run.Crashed) {
    cublas_tidy::UnitResult R;
    R.Skipped = Run.Skipped;
    R.Errors = Run.Errors;
    R.Stats = Run.Stats;
    R.Summaries = Run.Summaries;
    R.Asked = Run.Asked;
    R.FileSummaries = Run.FileSummaries;
    R.SeenDigest = Run.SeenDigest;
    Run.Stored = Plan.Cache->store(Key, R, Scan.Files, *Plan.Contents);
  }
}

/// A fresh analysis context for the unit (its statistics start at zero).
static void newContext(FileRun &Run, const RunPlan &Plan) {
  // A physical file system of its own: a shared one would share the
  // working directory that each compile command sets.
  Run.BaseFS = makeIntrusiveRefCnt<vfs::OverlayFileSystem>(
      vfs::createPhysicalFileSystem());
  if (Plan.Texts) {
    // The texts outlive the run: each unit's file system refers to them.
    auto Memory = makeIntrusiveRefCnt<vfs::InMemoryFileSystem>();
    for (const auto &E : *Plan.Texts)
      Memory->addFile(E.first(), 0,
                      MemoryBuffer::getMemBuffer(E.second, E.first()));
    Run.BaseFS->pushOverlay(Memory);
  }
  Run.Context = std::make_unique<ClangTidyContext>(
      createOptionsProvider(Run.BaseFS), AllowEnablingAnalyzerAlphaCheckers,
      /*EnableModuleHeadersParsing=*/false,
      /*ExperimentalCustomChecks=*/false);
}

/// The units `Which` of `Runs`, on parallel workers.
static void runUnits(MutableArrayRef<FileRun> Runs, ArrayRef<size_t> Which,
                     const tooling::CompilationDatabase &DB,
                     const RunPlan &Plan) {
  unsigned Threads = Jobs ? Jobs.getValue()
                          : std::max(1u, llvm::hardware_concurrency()
                                             .compute_thread_count());
  Threads = std::min<unsigned>(Threads, Which.size());
  bool Progress = Which.size() > 1 && sys::Process::StandardErrIsDisplayed();
  bool QuietRun =
      Quiet || Plan.Texts || llvm::count_if(Runs, [](const FileRun &R) {
                 return !R.SummaryOnly;
               }) > 1;
  std::atomic<unsigned> Done{0};
  std::mutex ProgressLock;

  // Workers with large stacks: clang's parser and the AST walks recurse
  // once per nesting level, and deeply nested generated code overflows the
  // 8 MiB a process starts with (clang-tidy itself crashes there).
  constexpr unsigned StackSize = 512u << 20;
  std::atomic<size_t> Next{0};
  auto Worker = [&] {
    std::optional<cublas_tidy::Scanner> Scanner; // one per thread
    for (size_t I = Next++; I < Which.size(); I = Next++) {
      FileRun &Run = Runs[Which[I]];
      processUnit(Run, DB, Plan, QuietRun || Run.SummaryOnly, Scanner);
      unsigned N = ++Done;
      if (Progress) {
        std::lock_guard<std::mutex> Lock(ProgressLock);
        errs() << "\r[" << N << "/" << Which.size() << "] " << Run.File
               << "\x1b[K";
        if (N == Which.size())
          errs() << "\n";
      }
    }
  };
  std::vector<llvm::thread> Workers;
  for (unsigned T = 0; T < std::max(1u, Threads); ++T)
    Workers.emplace_back(std::optional<unsigned>(StackSize), Worker);
  for (llvm::thread &W : Workers)
    W.join();
}

/// Which units define functions that others call (Providers.h), from the
/// text of their main files.
static std::vector<bool> providersOf(ArrayRef<FileRun> Runs) {
  std::vector<cublas_tidy::NamesInText> Names;
  for (const FileRun &Run : Runs) {
    auto Buffer = MemoryBuffer::getFile(Run.File);
    Names.push_back(Buffer ? cublas_tidy::namesIn((*Buffer)->getBuffer())
                           : cublas_tidy::NamesInText());
  }
  return cublas_tidy::providers(Names);
}

/// The units whose questions `Store` answers otherwise than the summaries
/// they were analysed with: their findings, and the summaries they make
/// of their own functions (those a unit not asked for makes included), may
/// change.
static std::vector<size_t>
unitsToAnalyseAgain(ArrayRef<FileRun> Runs,
                    const cublas_tidy::SummaryStore &Store) {
  std::vector<size_t> Again;
  for (size_t I = 0; I < Runs.size(); ++I) {
    const FileRun &Run = Runs[I];
    if (!Run.Skipped && !Run.Crashed && !Run.Asked.empty() &&
        digestOf(&Store, Run.Asked, Run.File) != Run.SeenDigest)
      Again.push_back(I);
  }
  return Again;
}

/// Stage "run": every unit once. When the project's summaries are
/// collected, the units that define functions other units call go first;
/// the others are analysed with their summaries; then the summaries of all
/// go into `Store`, and a unit whose questions it answers otherwise than
/// the summaries the unit saw is analysed again (docs/ci.md, "Facts across
/// files").
std::vector<FileRun> runAll(const tooling::CompilationDatabase &DB,
                            ArrayRef<std::string> Paths,
                            ArrayRef<std::string> SummaryOnly,
                            const RunPlan &Plan,
                            cublas_tidy::SummaryStore &Store) {
  std::vector<FileRun> Runs(Paths.size() + SummaryOnly.size());
  for (size_t I = 0; I < Runs.size(); ++I) {
    Runs[I].SummaryOnly = I >= Paths.size();
    Runs[I].File = Runs[I].SummaryOnly ? SummaryOnly[I - Paths.size()]
                                       : Paths[I];
    newContext(Runs[I], Plan);
  }
  if (!Plan.CollectFacts) {
    std::vector<size_t> All(Runs.size());
    std::iota(All.begin(), All.end(), 0);
    runUnits(Runs, All, DB, Plan);
    return Runs;
  }
  std::vector<bool> Provides = providersOf(Runs);
  std::vector<size_t> First, Then;
  for (size_t I = 0; I < Runs.size(); ++I)
    (Provides[I] ? First : Then).push_back(I);
  runUnits(Runs, First, DB, Plan);
  // Summaries known before the run (those of units another revision
  // shares, --diff-base) serve the first units too.
  cublas_tidy::SummaryStore Early = Store;
  for (size_t I : First) {
    for (const cublas_tidy::FunctionSummary &S : Runs[I].Summaries)
      Early.add(S);
    for (const cublas_tidy::FileSummary &S : Runs[I].FileSummaries)
      Early.add(S);
  }
  RunPlan WithEarly = Plan;
  WithEarly.Facts = &Early;
  runUnits(Runs, Then, DB, WithEarly);

  // The store of every unit's summaries, made anew after each round: a
  // summary made again replaces the one before it.
  const cublas_tidy::SummaryStore Known = Store;
  auto Collect = [&] {
    Store = Known;
    for (const FileRun &Run : Runs) {
      for (const cublas_tidy::FunctionSummary &S : Run.Summaries)
        Store.add(S);
      for (const cublas_tidy::FileSummary &S : Run.FileSummaries)
        Store.add(S);
    }
  };
  Collect();
  RunPlan Final = Plan;
  Final.Facts = &Store;
  // A cached result computed with other summaries is not replayed: the
  // unit is analysed, and its new result stored.
  Final.NoReplay = true;
  for (unsigned Round = 0; Round < MaxFactRounds; ++Round) {
    std::vector<size_t> Again = unitsToAnalyseAgain(Runs, Store);
    if (Again.empty())
      break;
    for (size_t I : Again) {
      FileRun &Run = Runs[I];
      Run.Errors.clear();
      Run.FromCache = Run.Stored = false;
      Run.Round = Round + 1;
      newContext(Run, Plan);
    }
    runUnits(Runs, Again, DB, Final);
    for (size_t I : Again)
      Runs[I].Reason += " (again, with the summaries of other units)";
    Collect();
  }
  return Runs;
}

/// Stage "plan", the project's summaries: read from --facts, or made from
/// every unit of the compilation database, the units not asked for
/// (`SummaryOnly`) included. None with a command line after `--` (there is
/// no project) or --no-project-facts. The exit code when the run ends here.
std::optional<int> planProjectFacts(const Invocation &Inv, RunPlan &Plan,
                                    cublas_tidy::SummaryStore &Store,
                                    std::vector<std::string> &SummaryOnly) {
  if (!FactsFile.empty()) {
    Expected<cublas_tidy::SummaryStore> Read =
        cublas_tidy::SummaryStore::readFile(FactsFile,
                                            cublas_tidy::summaryFormat());
    if (!Read) {
      WithColor::error() << "cannot use the function summaries in '"
                         << FactsFile << "': " << toString(Read.takeError())
                         << "\n";
      return 1;
    }
    Store = std::move(*Read);
    Plan.Facts = &Store;
    return std::nullopt;
  }
  Plan.NoFacts = NoProjectFacts;
  if (NoProjectFacts || Inv.FixedCommandLine || !Inv.Database)
    return std::nullopt;
  Plan.CollectFacts = true;
  std::set<std::string> Asked;
  for (const std::string &P : Inv.Paths)
    Asked.insert(cublas_tidy::absolutePath(P, ""));
  for (const std::string &F : sourcesOfDatabase(*Inv.Database))
    if (!Asked.count(cublas_tidy::absolutePath(F, "")) &&
        !(WholeDatabase && !sys::fs::exists(F))) // left out (addDatabaseUnits)
      SummaryOnly.push_back(F);
  return std::nullopt;
}

Collected collectErrors(MutableArrayRef<FileRun> Runs) {
  Collected C;
  std::set<std::tuple<std::string, unsigned, std::string, std::string>> Seen;
  for (unsigned R = 0; R < Runs.size(); ++R)
    for (ClangTidyError &E : Runs[R].Errors)
      if (!Runs[R].SummaryOnly &&
          Seen.insert({E.Message.FilePath.empty()
                           ? std::string()
                           : cublas_tidy::absolutePath(E.Message.FilePath,
                                                       E.BuildDirectory),
                       E.Message.FileOffset, E.DiagnosticName,
                       E.Message.Message})
              .second) {
        C.Errors.push_back(std::move(E));
        C.Owner.push_back(R);
      }
  return C;
}

/// Stage "plan", the skip and the cache: which checks are not cublas-*
/// ones (asked only when skipping), and the results cache of `Argv0`.
void planSkipAndCache(const Invocation &Inv, const char *Argv0, RunPlan &Plan,
                      std::optional<cublas_tidy::ResultCache> &Cache) {
  Plan.Skip = !NoSkip && !Inv.FixedCommandLine;
  if (Plan.Skip) {
    ClangTidyOptions Everything;
    Everything.Checks = "*";
    Plan.AllChecks =
        getCheckNames(Everything, AllowEnablingAnalyzerAlphaCheckers,
                      /*ExperimentalCustomChecks=*/false);
  }
  if (Inv.CacheDirectory.empty())
    return;
  Cache.emplace(Inv.CacheDirectory, Inv.CacheLimit,
                cublas_tidy::toolKey(Argv0, (void *)&printVersion));
  Plan.Cache = &*Cache;
  Plan.ExtraKey = "line-filter " + LineFilter + "\nfix-notes " +
                  (FixNotes ? "1" : "0") + "\nno-skip " + (NoSkip ? "1" : "0");
}

} // namespace cublas_tidy
