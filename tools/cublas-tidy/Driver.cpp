//===- Driver.cpp - The standalone cublas-tidy ----------------------------===//
//
// A clang-tidy with every stock module and the cublas module linked in, for
// users whose clang-tidy is another version or absent. It speaks clang-tidy's
// command line; the driver is our own so that it can grow options of its own
// (output formats, compile-database translation) around clang-tidy's library.
//
//===----------------------------------------------------------------------===//

#include "ast/CutOffs.h"
#include "ClangTidy.h"
#include "ClangTidyDiagnosticConsumer.h"
#include "ClangTidyForceLinker.h"
#include "ClangTidyOptions.h"
#include "GlobList.h"
#include "clang/Driver/Types.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/WithColor.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include "Baseline.h"
#include "ChangedLines.h"
#include "Cache.h"
#include "CudaArgs.h"
#include "TorchArgs.h"
#include "Findings.h"
#include "ConfigCheck.h"
#include "Inputs.h"
#include "common/DocsLocation.h"
#include "Providers.h"
#include "Runner.h"
#include "Sarif.h"
#include "Scan.h"
#include "Version.h"

#include "llvm/Support/thread.h"
#include "llvm/Support/Threading.h"

#include <atomic>
#include <numeric>
#include <mutex>
#include <unistd.h>
#include <set>
#include <tuple>

using namespace clang;
using namespace clang::tidy;
using namespace llvm;

namespace clang::tidy::cublas {
extern volatile int CublasTidyModuleAnchorSource;
[[maybe_unused]] static int CublasTidyModuleAnchorDestination =
    CublasTidyModuleAnchorSource;
} // namespace clang::tidy::cublas

static cl::OptionCategory Category("cublas-tidy options");

static cl::extrahelp CommonHelp(tooling::CommonOptionsParser::HelpMessage);
static cl::extrahelp MoreHelp(R"(
cublas-tidy is clang-tidy with the cublas-* checks built in. Without -checks
and without a .clang-tidy file it runs clang-diagnostic-* and cublas-*.

.cu files are parsed host-only (--cuda-host-only) with the CUDA toolkit found
at $CUDA_PATH or /usr/local/cuda unless the command line names one.

-p build names the folder of compile_commands.json. With -p and no files,
every C, C++ and CUDA source of the database is analysed (and the project's
function summaries are made from all of them). With files and neither -p nor
--, the database is found as clangd finds it: compile_commands.json in a
folder above the first file, or in that folder's build/ or build*/ folder.

  cublas-tidy -p build                      # the whole database
  cublas-tidy -p build src/gemm.cu          # one file of it
  cublas-tidy -p build --diff-base=HEAD --whole-database src/new.cpp
                                            # what a change reaches (the
                                            # pre-commit hook's run)
  cublas-tidy src/gemm.cu                   # its database found upward
  cublas-tidy --checks='-*,cublas-*' file.cpp -- -I/usr/local/cuda/include
)");

static const char DefaultChecks[] = "clang-diagnostic-*,cublas-*";

static cl::opt<std::string>
    Checks("checks",
           cl::desc("Comma-separated list of globs with optional '-' prefix.\n"
                    "Globs are processed in order of appearance; a '-' glob\n"
                    "disables matching checks. Added to the checks of the\n"
                    ".clang-tidy file, if any."),
           cl::init(""), cl::cat(Category));

static cl::opt<std::string> WarningsAsErrors(
    "warnings-as-errors",
    cl::desc("Upgrade warnings to errors; same format as -checks."),
    cl::init(""), cl::cat(Category));

static cl::opt<std::string> HeaderFilter(
    "header-filter",
    cl::desc("Regular expression matching the names of the headers to output\n"
             "diagnostics from; the main file is always shown. The default,\n"
             "as clang-tidy 22's, is '.*': every non-system header."),
    cl::init(".*"), cl::cat(Category));

static cl::opt<std::string> ExcludeHeaderFilter(
    "exclude-header-filter",
    cl::desc("Regular expression matching the names of the headers to\n"
             "exclude diagnostics from."),
    cl::init(""), cl::cat(Category));

static cl::opt<bool>
    SystemHeaders("system-headers",
                  cl::desc("Display the errors from system headers."),
                  cl::init(false), cl::cat(Category));

static cl::opt<std::string> LineFilter(
    "line-filter",
    cl::desc("List of files with line ranges to filter the warnings, as JSON:\n"
             "[{\"name\":\"file1.cpp\",\"lines\":[[1,3],[5,7]]}]"),
    cl::init(""), cl::cat(Category));

static cl::opt<bool> Fix("fix", cl::desc("Apply suggested fixes."),
                         cl::init(false), cl::cat(Category));

static cl::opt<bool>
    FixErrors("fix-errors",
              cl::desc("Apply suggested fixes even if compilation errors\n"
                       "were found."),
              cl::init(false), cl::cat(Category));

static cl::opt<bool>
    FixNotes("fix-notes",
             cl::desc("Apply fixes found in notes when a diagnostic has\n"
                      "exactly one such fix."),
             cl::init(false), cl::cat(Category));

static cl::opt<std::string> FormatStyle(
    "format-style",
    cl::desc("Style used to format code around applied fixes: 'file',\n"
             "'llvm', 'google', ..., or 'none' (default)."),
    cl::init("none"), cl::cat(Category));

static cl::opt<bool> ListChecks("list-checks",
                                cl::desc("List all enabled checks and exit."),
                                cl::init(false), cl::cat(Category));

static cl::opt<bool> ExplainConfig(
    "explain-config",
    cl::desc("For each enabled check explain where it is enabled."),
    cl::init(false), cl::cat(Category));

static cl::opt<std::string>
    Config("config",
           cl::desc("Configuration in YAML/JSON format, e.g.\n"
                    "-config=\"{Checks: '-*,cublas-*'}\". Takes precedence\n"
                    "over .clang-tidy files."),
           cl::init(""), cl::cat(Category));

static cl::opt<std::string> ConfigFile(
    "config-file",
    cl::desc("Read the configuration from this file instead of .clang-tidy."),
    cl::init(""), cl::cat(Category));

static cl::opt<bool> DumpConfig(
    "dump-config",
    cl::desc("Dump the configuration in YAML format to stdout and exit."),
    cl::init(false), cl::cat(Category));

static cl::opt<bool> EnableCheckProfile(
    "enable-check-profile",
    cl::desc("Print the time each check spent on the input."),
    cl::init(false), cl::cat(Category));

static cl::opt<std::string> StoreCheckProfile(
    "store-check-profile",
    cl::desc("Store the per-check profile as JSON under this prefix."),
    cl::value_desc("prefix"), cl::cat(Category));

static cl::opt<std::string> ExportFixes(
    "export-fixes",
    cl::desc("YAML file to store suggested fixes in, for\n"
             "clang-apply-replacements."),
    cl::value_desc("filename"), cl::cat(Category));

static cl::opt<bool> Quiet("quiet",
                           cl::desc("Print only the diagnostics, no statistics."),
                           cl::init(false), cl::cat(Category));

static cl::opt<bool> UseColor("use-color",
                              cl::desc("Use colors in diagnostics."),
                              cl::cat(Category));

static cl::opt<bool> AllowEnablingAnalyzerAlphaCheckers(
    "allow-enabling-analyzer-alpha-checkers", cl::init(false), cl::Hidden,
    cl::cat(Category));

static void printStats(const ClangTidyStats &Stats) {
  if (!Stats.errorsIgnored())
    return;
  errs() << "Suppressed " << Stats.errorsIgnored() << " warnings (";
  StringRef Separator;
  auto Print = [&](unsigned Count, StringRef What) {
    if (!Count)
      return;
    errs() << Separator << Count << " " << What;
    Separator = ", ";
  };
  Print(Stats.ErrorsIgnoredNonUserCode, "in non-user code");
  Print(Stats.ErrorsIgnoredLineFilter, "due to line filter");
  Print(Stats.ErrorsIgnoredNOLINT, "NOLINT");
  Print(Stats.ErrorsIgnoredCheckFilter, "with check filters");
  errs() << ").\n";
  if (Stats.ErrorsIgnoredNonUserCode)
    errs() << "Use -header-filter=.* or leave it as default to display "
              "errors from all non-system headers. Use -system-headers to "
              "display errors from system headers as well.\n";
}

namespace {
/// A clang-tidy options provider that reads .clang-tidy files as
/// parseConfigText does: a key that clang-tidy 22 does not have (one of a
/// newer release) is left out, not the whole file.
template <typename Provider> class TolerantProvider : public Provider {
public:
  template <typename... Args>
  TolerantProvider(Args &&...A) : Provider(std::forward<Args>(A)...) {
    this->ConfigHandlers = {{".clang-tidy", cublas_tidy::parseConfigQuietly}};
  }
};
} // namespace

/// The options of each file. The keys that -config or -config-file has and
/// clang-tidy 22 does not go to `UnknownKeys` when given.
static std::unique_ptr<ClangTidyOptionsProvider>
createOptionsProvider(IntrusiveRefCntPtr<vfs::FileSystem> FS,
                      std::vector<std::string> *UnknownKeys = nullptr) {
  ClangTidyGlobalOptions GlobalOptions;
  if (std::error_code Err = parseLineFilter(LineFilter, GlobalOptions)) {
    WithColor::error() << "invalid -line-filter: " << Err.message() << "\n";
    return nullptr;
  }

  ClangTidyOptions DefaultOptions;
  DefaultOptions.Checks = DefaultChecks;
  DefaultOptions.WarningsAsErrors = "";
  DefaultOptions.HeaderFilterRegex = HeaderFilter;
  DefaultOptions.ExcludeHeaderFilterRegex = ExcludeHeaderFilter;
  DefaultOptions.SystemHeaders = SystemHeaders;
  DefaultOptions.FormatStyle = FormatStyle;
  DefaultOptions.User = sys::Process::GetEnv("USER");
  if (!DefaultOptions.User)
    DefaultOptions.User = sys::Process::GetEnv("USERNAME");

  ClangTidyOptions OverrideOptions;
  if (Checks.getNumOccurrences() > 0)
    OverrideOptions.Checks = Checks;
  if (WarningsAsErrors.getNumOccurrences() > 0)
    OverrideOptions.WarningsAsErrors = WarningsAsErrors;
  if (HeaderFilter.getNumOccurrences() > 0)
    OverrideOptions.HeaderFilterRegex = HeaderFilter;
  if (ExcludeHeaderFilter.getNumOccurrences() > 0)
    OverrideOptions.ExcludeHeaderFilterRegex = ExcludeHeaderFilter;
  if (SystemHeaders.getNumOccurrences() > 0)
    OverrideOptions.SystemHeaders = SystemHeaders;
  if (FormatStyle.getNumOccurrences() > 0)
    OverrideOptions.FormatStyle = FormatStyle;
  if (UseColor.getNumOccurrences() > 0)
    OverrideOptions.UseColor = UseColor;

  auto FromText = [&](StringRef Text,
                      StringRef Source) -> std::unique_ptr<ClangTidyOptionsProvider> {
    std::vector<std::string> Problems;
    ErrorOr<ClangTidyOptions> Parsed =
        cublas_tidy::parseConfigText(Text, Source, Problems, UnknownKeys);
    for (const std::string &P : Problems)
      WithColor::error() << "invalid configuration: " << P << "\n";
    if (!Problems.empty() || !Parsed)
      return nullptr;
    return std::make_unique<TolerantProvider<ConfigOptionsProvider>>(
        std::move(GlobalOptions),
        ClangTidyOptions::getDefaults().merge(DefaultOptions, 0),
        std::move(*Parsed), std::move(OverrideOptions), std::move(FS));
  };

  if (!Config.empty() && !ConfigFile.empty()) {
    WithColor::error() << "-config and -config-file are mutually exclusive\n";
    return nullptr;
  }
  if (!Config.empty())
    return FromText(Config, "-config");
  if (!ConfigFile.empty()) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Text =
        MemoryBuffer::getFile(ConfigFile);
    if (!Text) {
      WithColor::error() << "cannot read -config-file '" << ConfigFile
                         << "': " << Text.getError().message() << "\n";
      return nullptr;
    }
    return FromText((*Text)->getBuffer(), ConfigFile);
  }
  return std::make_unique<TolerantProvider<FileOptionsProvider>>(
      std::move(GlobalOptions), std::move(DefaultOptions),
      std::move(OverrideOptions), std::move(FS));
}

/// The file whose configuration --list-checks, --dump-config and
/// --explain-config describe: the first input, or a dummy file in the
/// current directory.
static std::string configurationFile(ArrayRef<std::string> Paths) {
  if (!Paths.empty())
    return Paths.front();
  SmallString<256> Dummy;
  sys::fs::current_path(Dummy);
  sys::path::append(Dummy, "dummy");
  return std::string(Dummy);
}


static cl::opt<bool> VerifyConfig(
    "verify-config",
    cl::desc("Check the configuration (.clang-tidy files, -config, -checks) "
             "and exit: every cublas-* check name and glob must enable a "
             "check, and every CheckOptions key of a cublas-* check must be "
             "one of its options. What concerns other checks and this build "
             "does not know gets a warning."),
    cl::cat(Category));

static cl::opt<std::string> Format(
    "format",
    cl::desc("Output format: text (clang-tidy's, the default) or sarif\n"
             "(SARIF 2.1.0 on stdout, for code-scanning services)."),
    cl::init("text"), cl::cat(Category));

static cl::opt<std::string> BaselineFile(
    "baseline",
    cl::desc("Report only findings that are not in this baseline (written\n"
             "by --write-baseline); moved code keeps its findings accepted."),
    cl::value_desc("file"), cl::cat(Category));

static cl::opt<std::string> WriteBaseline(
    "write-baseline",
    cl::desc("Write the findings of this run to a baseline file and exit 0."),
    cl::value_desc("file"), cl::cat(Category));

static cl::opt<std::string> DiffBase(
    "diff-base",
    cl::desc("Report only the findings that this git revision's code does\n"
             "not have: the units with findings are analysed again with the\n"
             "revision's text of every file changed since, and a finding\n"
             "that code moved (with its function, to another file too) or\n"
             "a renamed variable kept is old. A change\n"
             "that deletes a destroy or a status check makes a new finding\n"
             "on a line it did not touch. Compiler errors are always\n"
             "reported. See --diff-by."),
    cl::value_desc("revision"), cl::cat(Category));

static cl::opt<std::string> DiffBy(
    "diff-by",
    cl::desc("What --diff-base compares: 'findings' (the default: findings\n"
             "the revision does not have) or 'lines' (findings on lines\n"
             "added or changed since the revision, as clang-tidy-diff; a\n"
             "bug made by deleting code passes)."),
    cl::value_desc("findings|lines"), cl::init("findings"), cl::cat(Category));

static cl::opt<bool> WholeDatabase(
    "whole-database",
    cl::desc("With a compilation database: analyse every source of it as\n"
             "well as the files given, and with --diff-base report what the\n"
             "change brings to them too: the callers of a changed function,\n"
             "the sources that include a changed header. A source the\n"
             "command line does not name brings nothing else: no finding\n"
             "when git does not track it, no compiler error when nothing it\n"
             "reads changed. The pre-commit hook's run."),
    cl::cat(Category));

static cl::opt<std::string> TorchDir(
    "torch",
    cl::desc("Add the headers of this PyTorch installation to every command,\n"
             "for C++/CUDA extensions built without a compile database:\n"
             "the torch package (site-packages/torch), site-packages,\n"
             "Torch_DIR (<torch>/share/cmake/Torch) or an include folder\n"
             "with torch/extension.h (default: $TORCH_DIR)."),
    cl::value_desc("dir"), cl::cat(Category));

static cl::opt<unsigned> Jobs(
    "j",
    cl::desc("Number of files analysed in parallel (default: all cores);\n"
             "-j 2 or -j2, as make and ninja take it."),
    cl::init(0), cl::Prefix, cl::cat(Category));

static cl::opt<bool> NoSkip(
    "no-skip",
    cl::desc("Analyse every unit. By default, when only cublas-* checks (and\n"
             "compiler diagnostics) are enabled, units none of whose files\n"
             "mentions cublas are found by a dependency scan and skipped."),
    cl::init(false), cl::cat(Category));

static cl::opt<bool> Verbose(
    "v", cl::desc("Say, for each unit, whether it was analysed, skipped or\n"
                  "replayed from the cache, and why."),
    cl::init(false), cl::cat(Category));
static cl::alias VerboseLong("verbose", cl::desc("Alias for -v"),
                             cl::aliasopt(Verbose), cl::NotHidden);

/// Where the pages are that messages and logs point to.
static cublas_tidy::DocsLocation Docs;

static cl::list<std::string> RemovedArgs(
    "removed-arg",
    cl::desc("An argument to remove from each compile command (repeat for "
             "more), as run-clang-tidy's --removed-arg: an nvcc flag clang "
             "does not know, for example."),
    cl::cat(Category));

static cl::opt<std::string> CacheDir(
    "cache-dir",
    cl::desc("Keep each unit's findings in this directory and replay them\n"
             "while the unit, every file it includes, its compile command,\n"
             "the configuration and the tool are unchanged (default:\n"
             "$CUBLAS_TIDY_CACHE_DIR; no cache when neither is set)."),
    cl::value_desc("dir"), cl::cat(Category));

static cl::opt<std::string> CacheMaxSize(
    "cache-max-size",
    cl::desc("Size the cache directory is trimmed to after a run, least\n"
             "recently used entries first: bytes, or a number with K, M or G."),
    cl::init("512M"), cl::value_desc("size"), cl::cat(Category));

static cl::opt<std::string> Shard(
    "shard",
    cl::desc("Analyse part K of N of the units (K/N, 1 <= K <= N), split by\n"
             "size the same way on every machine, for CI jobs that share one\n"
             "scan; join their SARIF logs with --merge-sarif."),
    cl::value_desc("K/N"), cl::cat(Category));

static cl::opt<std::string> MergeSarif(
    "merge-sarif",
    cl::desc("Join the SARIF logs given as inputs (of --shard runs) into\n"
             "this file, and exit."),
    cl::value_desc("out"), cl::cat(Category));

static cl::opt<std::string> ExportFacts(
    "export-facts",
    cl::desc("Write the project's function summaries (what each function\n"
             "does with cuBLAS statuses and handles) to this file, for the\n"
             "clang-tidy plugin and cublas-clangd (their option FactsFile)\n"
             "and for later runs (--facts)."),
    cl::value_desc("file"), cl::cat(Category));

static cl::opt<std::string> FactsFile(
    "facts",
    cl::desc("Read the project's function summaries from this file (written\n"
             "by --export-facts) instead of making them from every unit of\n"
             "the compilation database."),
    cl::value_desc("file"), cl::cat(Category));

static cl::opt<bool> NoProjectFacts(
    "no-project-facts",
    cl::desc("Judge each unit alone: no summaries of the functions that\n"
             "other units of the compilation database define."),
    cl::cat(Category));

/// The value of CommonOptionsParser's -p option (registered when the parser
/// runs).
static std::string buildPath() {
  auto &Options = cl::getRegisteredOptions();
  auto It = Options.find("p");
  if (It == Options.end())
    return {};
  return static_cast<cl::opt<std::string> *>(It->second)->getValue();
}

/// The C, C++ and CUDA sources of a compilation database.
static std::vector<std::string>
sourcesOfDatabase(const tooling::CompilationDatabase &DB) {
  std::vector<std::string> Files;
  for (const std::string &F : DB.getAllFiles()) {
    std::string Ext = sys::path::extension(F).lower();
    if (Ext == ".c" || Ext == ".cc" || Ext == ".cpp" || Ext == ".cxx" ||
        Ext == ".c++" || Ext == ".cu")
      Files.push_back(F);
  }
  llvm::sort(Files);
  Files.erase(std::unique(Files.begin(), Files.end()), Files.end());
  return Files;
}

/// A test hook: with CUBLAS_TIDY_TEST_CRASH_ON set to part of a file's
/// name, the analysis of that file crashes as a bug in a check would, so
/// that the tests can show what a crash does to a run of several files
/// (CUBLAS_TIDY_TEST_CRASH_SCAN_ON: its dependency scan crashes).
static void crashForTesting(StringRef File,
                            const char *Variable = "CUBLAS_TIDY_TEST_CRASH_ON") {
  const char *On = std::getenv(Variable);
  if (On && *On && File.contains(On)) {
    volatile int *Null = nullptr;
    *Null = 1;
  }
}

/// One file's analysis: its own context (options, statistics) and file
/// system, so that runs can proceed on several threads.
struct FileRun {
  std::string File;
  bool Crashed = false; // its analysis crashed: its findings are missing
  IntrusiveRefCntPtr<vfs::OverlayFileSystem> BaseFS;
  std::unique_ptr<ClangTidyContext> Context;
  std::vector<ClangTidyError> Errors;
  ClangTidyStats Stats;
  bool Skipped = false;   // cannot reach cuBLAS: not analysed
  bool FromCache = false; // replayed (or its skip) from the cache
  bool Stored = false;    // its results went into the cache
  std::string Reason;     // why it was analysed or skipped (for -v)
  /// Not asked for: analysed only for the summaries of its functions.
  bool SummaryOnly = false;
  /// The summaries of the functions it defines; the keys of the functions
  /// of other units it asked about.
  std::vector<cublas_tidy::FunctionSummary> Summaries;
  std::vector<std::string> Asked;
  /// The summary of its main file (the routes of exceptions), if any.
  std::vector<cublas_tidy::FileSummary> FileSummaries;
  /// What the summaries it was analysed with said of Asked.
  std::string SeenDigest;
  bool Again = false; // analysed again with the project's summaries
  /// Every file it reads, from its scan or the cache; empty when unknown.
  std::vector<std::string> Files;
  /// Named on the command line (false: a source --whole-database added).
  bool Named = true;
};

/// What decides, unit by unit, whether to scan, skip, replay or analyse.
struct RunPlan {
  std::vector<std::string> AllChecks; // every check this binary has
  cublas_tidy::ResultCache *Cache = nullptr;
  cublas_tidy::ScanService *Scans = nullptr; // for skipping and for the cache
  cublas_tidy::FileContents *Contents = nullptr;
  std::string ExtraKey; // options outside the configuration that change results
  bool Skip = false;    // units that cannot reach cuBLAS may be skipped
  /// The project's summaries the analyses consult; whether a unit's own
  /// summaries and questions are collected.
  const cublas_tidy::SummaryStore *Facts = nullptr;
  bool CollectFacts = false;
  bool NoFacts = false; // --no-project-facts: no store at all
  bool NoReplay = false; // analyse even when the cache has a result
  /// The text of files at another revision (--diff-base), read instead of
  /// the working tree's.
  const llvm::StringMap<std::string> *Texts = nullptr;
};

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
static std::string digestOf(const cublas_tidy::SummaryStore *Facts,
                            ArrayRef<std::string> Asked) {
  return Facts ? Facts->digest(Asked) : cublas_tidy::SummaryStore().digest(Asked);
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
  Run.SeenDigest = digestOf(Plan.Facts, Run.Asked);
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
    Run.Reason = "analysed: not skipped (--no-skip, or a command line after --)";
  else if (!Other.empty())
    Run.Reason = "analysed: " + Other.str() + " is enabled, not a cublas-* check";
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

/// Stage "run": every unit once. When the project's summaries are
/// collected, the units that define functions other units call go first;
/// the others are analysed with their summaries; then the summaries of all
/// go into `Store`, and a unit whose questions it answers otherwise than
/// the summaries the unit saw is analysed again (docs/ci.md, "Facts across
/// files").
static std::vector<FileRun> runAll(const tooling::CompilationDatabase &DB,
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

  for (const FileRun &Run : Runs) {
    for (const cublas_tidy::FunctionSummary &S : Run.Summaries)
      Store.add(S);
    for (const cublas_tidy::FileSummary &S : Run.FileSummaries)
      Store.add(S);
  }
  std::vector<size_t> Again;
  for (size_t I = 0; I < Runs.size(); ++I) {
    FileRun &Run = Runs[I];
    if (Run.SummaryOnly || Run.Skipped || Run.Crashed ||
        Store.digest(Run.Asked) == Run.SeenDigest)
      continue;
    Run.Errors.clear();
    Run.FromCache = Run.Stored = false;
    Run.Again = true;
    newContext(Run, Plan);
    Again.push_back(I);
  }
  RunPlan Final = Plan;
  Final.Facts = &Store;
  // A cached result computed with other summaries is not replayed: the
  // unit is analysed, and its new result stored.
  Final.NoReplay = true;
  runUnits(Runs, Again, DB, Final);
  for (size_t I : Again)
    Runs[I].Reason += " (again, with the summaries of other units)";
  return Runs;
}

/// Splits the units into N parts of about equal size (the largest first,
/// each to the part with the least so far; ties by name) and returns part
/// K, in input order. The same inputs give the same parts on any machine.
static std::vector<std::string> shardOf(ArrayRef<std::string> Paths,
                                        unsigned K, unsigned N) {
  std::vector<std::pair<uint64_t, size_t>> BySize;
  for (size_t I = 0; I < Paths.size(); ++I) {
    uint64_t Size = 0;
    (void)sys::fs::file_size(Paths[I], Size);
    BySize.push_back({Size, I});
  }
  llvm::sort(BySize, [&](const auto &A, const auto &B) {
    if (A.first != B.first)
      return A.first > B.first;
    return Paths[A.second] < Paths[B.second];
  });
  std::vector<uint64_t> Load(N, 0);
  std::vector<bool> Mine(Paths.size(), false);
  for (const auto &[Size, I] : BySize) {
    unsigned Least = 0;
    for (unsigned S = 1; S < N; ++S)
      if (Load[S] < Load[Least])
        Least = S;
    // Every unit weighs at least one byte, so that empty files spread too.
    Load[Least] += std::max<uint64_t>(Size, 1);
    Mine[I] = Least == K - 1;
  }
  std::vector<std::string> Part;
  for (size_t I = 0; I < Paths.size(); ++I)
    if (Mine[I])
      Part.push_back(Paths[I]);
  return Part;
}

static void printVersion(raw_ostream &OS) {
  OS << "cublas-tidy " CUBLAS_TIDY_VERSION "\n"
     << "  built with LLVM " CUBLAS_TIDY_LLVM_VERSION "\n"
     << "  cuBLAS API model from the " CUBLAS_TIDY_MODEL_VERSION " headers\n";
}

/// --merge-sarif OUT IN...: joins SARIF logs and reads no compilation
/// database, so it is handled before the command line is parsed as
/// clang-tidy's. The exit code, or nullopt when not asked.
static std::optional<int> mergeSarifIfAsked(int argc, const char **argv) {
  for (int I = 1; I < argc; ++I) {
    StringRef Arg = argv[I];
    if (!Arg.consume_front("--merge-sarif") && !Arg.consume_front("-merge-sarif"))
      continue;
    // OUT is the option's value (`=OUT`) or the next argument; the other
    // arguments are the logs.
    std::string Out;
    int OutAt = -1;
    if (Arg.consume_front("="))
      Out = Arg.str();
    else if (Arg.empty() && I + 1 < argc)
      Out = argv[OutAt = I + 1];
    std::vector<std::string> Inputs;
    for (int J = 1; J < argc; ++J)
      if (J != I && J != OutAt)
        Inputs.push_back(argv[J]);
    if (Out.empty() || Inputs.empty()) {
      WithColor::error() << "--merge-sarif wants OUT and the logs to join: "
                            "--merge-sarif OUT IN...\n";
      return 1;
    }
    if (Error E = cublas_tidy::mergeSarif(Inputs, Out)) {
      WithColor::error() << toString(std::move(E)) << "\n";
      return 1;
    }
    return 0;
  }
  return std::nullopt;
}

/// What the command line and the configuration decide before any unit is
/// analysed.
struct Invocation {
  std::vector<std::string> Paths;
  /// The units --whole-database added: the sources of the database that
  /// the command line does not name.
  std::set<std::string> FromDatabase;
  std::vector<std::string> EnabledChecks;
  std::unique_ptr<tooling::CompilationDatabase> OwnDatabase;
  const tooling::CompilationDatabase *Database = nullptr;
  std::optional<cublas_tidy::ChangedLines> Changed;
  std::optional<cublas_tidy::BaseRevision> Base;
  std::string CacheDirectory;
  uint64_t CacheLimit = 0;
  bool FixedCommandLine = false;
  /// The .clang-tidy files judged so far (absolute, without dots).
  std::set<std::string> JudgedConfigs;
  std::optional<ChecksAndOptions> All;
};

/// Every check and option of this build.
static const ChecksAndOptions &allChecks(Invocation &Inv) {
  if (!Inv.All)
    Inv.All = getAllChecksAndOptions(AllowEnablingAnalyzerAlphaCheckers,
                                     /*ExperimentalCustomChecks=*/false);
  return *Inv.All;
}

/// Says the verdicts on configuration files: warnings, then errors. Each
/// file once: those judged before are in `Inv`. 1 when an error fails the
/// run.
static std::optional<int>
reportConfigFiles(const cublas_tidy::ConfigFilesVerdict &Verdict,
                  Invocation &Inv) {
  for (const std::string &W : Verdict.Warnings)
    WithColor::warning() << W << "\n";
  for (const std::string &P : Verdict.ParseErrors)
    WithColor::error() << "invalid configuration: " << P << "\n";
  for (const std::string &E : Verdict.Errors)
    WithColor::error() << E << "\n";
  Inv.JudgedConfigs.insert(Verdict.Judged.begin(), Verdict.Judged.end());
  if (Verdict.ParseErrors.empty() && Verdict.Errors.empty())
    return std::nullopt;
  return 1;
}

/// Stage "parse": the configuration, the questions about it answered at
/// once (--explain-config, --list-checks, --dump-config) and options that
/// contradict each other. The exit code when the run ends here.
static std::optional<int> readConfiguration(tooling::CommonOptionsParser &Parser,
                                            Invocation &Inv) {
  auto BaseFS = makeIntrusiveRefCnt<vfs::OverlayFileSystem>(
      vfs::getRealFileSystem());
  std::vector<std::string> UnknownKeys;
  std::unique_ptr<ClangTidyOptionsProvider> Provider =
      createOptionsProvider(BaseFS, &UnknownKeys);
  if (!Provider)
    return 1;
  Inv.Paths = Parser.getSourcePathList();
  std::string ConfigFor = configurationFile(Inv.Paths);
  ClangTidyOptions EffectiveOptions = Provider->getOptions(ConfigFor);
  Inv.EnabledChecks =
      getCheckNames(EffectiveOptions, AllowEnablingAnalyzerAlphaCheckers,
                    /*ExperimentalCustomChecks=*/false);
  // Names and keys that say nothing to any check, each source said once:
  // the command line's, -config's, and the files not judged before.
  bool Failed = false;
  for (const auto &[Options, Source] : Provider->getRawOptions(ConfigFor)) {
    std::string Name;
    ArrayRef<std::string> Keys;
    if (Source == ClangTidyOptionsProvider::OptionsSourceTypeDefaultBinary)
      continue;
    if (Source ==
        ClangTidyOptionsProvider::OptionsSourceTypeCheckCommandLineOption) {
      Name = "-checks";
    } else if (Source == ClangTidyOptionsProvider::
                             OptionsSourceTypeConfigCommandLineOption) {
      Name = ConfigFile.empty() ? "-config" : ConfigFile.getValue();
      Keys = UnknownKeys;
    } else {
      if (!Inv.JudgedConfigs.count(Source)) {
        cublas_tidy::ConfigFilesVerdict Verdict;
        cublas_tidy::configFileVerdict(Source, allChecks(Inv), Verdict);
        Failed |= reportConfigFiles(Verdict, Inv).has_value();
      }
      continue;
    }
    cublas_tidy::Verdict Verdict =
        cublas_tidy::judgeOptions(Name, Options, Keys, allChecks(Inv));
    if (!Verdict.Warning.empty())
      WithColor::warning() << Verdict.Warning << "\n";
    for (const std::string &E : Verdict.Errors)
      WithColor::error() << E << "\n";
    Failed |= !Verdict.Errors.empty();
  }
  if (Failed)
    return 1;
  if (VerifyConfig) {
    outs() << "No config errors detected.\n";
    return 0;
  }
  if (ExplainConfig) {
    for (const auto &[Options, Source] : Provider->getRawOptions(ConfigFor))
      if (Options.Checks && !Options.Checks->empty())
        outs() << "'" << *Options.Checks << "' from '" << Source << "'\n";
    return 0;
  }
  if (ListChecks) {
    if (Inv.EnabledChecks.empty()) {
      WithColor::error() << "no checks enabled\n";
      return 1;
    }
    outs() << "Enabled checks:";
    for (const std::string &Check : Inv.EnabledChecks)
      outs() << "\n    " << Check;
    outs() << "\n\n";
    return 0;
  }
  if (DumpConfig) {
    EffectiveOptions.CheckOptions =
        getCheckOptions(EffectiveOptions, AllowEnablingAnalyzerAlphaCheckers,
                        /*ExperimentalCustomChecks=*/false);
    outs() << configurationAsText(ClangTidyOptions::getDefaults().merge(
                  EffectiveOptions, 0))
           << "\n";
    return 0;
  }
  if (Inv.EnabledChecks.empty()) {
    WithColor::error() << "no checks enabled\n";
    return 1;
  }
  if (Format != "text" && Format != "sarif") {
    WithColor::error() << "unknown --format '" << Format
                       << "': use text or sarif\n";
    return 1;
  }
  if (Format == "sarif" && (Fix || FixErrors || FixNotes)) {
    WithColor::error() << "--format=sarif cannot be combined with --fix\n";
    return 1;
  }
  return std::nullopt;
}

/// --whole-database: the sources of `DB` that are not units yet, added to
/// the units (those that no longer exist, which an out-of-date database
/// lists, left out).
static void addDatabaseUnits(const tooling::CompilationDatabase &DB,
                             Invocation &Inv) {
  std::set<std::string> Named;
  for (const std::string &P : Inv.Paths)
    Named.insert(cublas_tidy::absolutePath(P, ""));
  unsigned Missing = 0;
  for (const std::string &F : sourcesOfDatabase(DB)) {
    if (Named.count(cublas_tidy::absolutePath(F, "")))
      continue;
    if (!sys::fs::exists(F)) {
      ++Missing;
      continue;
    }
    Inv.Paths.push_back(F);
    Inv.FromDatabase.insert(F);
  }
  if (Verbose && Missing)
    errs() << "cublas-tidy: --whole-database: " << Missing << " source"
           << (Missing == 1 ? "" : "s") << " of the database no longer exist"
           << (Missing == 1 ? "s" : "") << "; left out\n";
}

/// Stage "plan", the units: the files given, or every source file of the
/// compilation database named by -p (CommonOptionsParser loads a database
/// only for given files), with --whole-database both; then this run's shard
/// of them.
static std::optional<int> selectUnits(tooling::CommonOptionsParser &Parser,
                                      Invocation &Inv) {
  if (WholeDatabase && (Inv.FixedCommandLine || buildPath().empty())) {
    WithColor::error() << "--whole-database needs a compilation database: "
                          "-p DIR, or one found above the first file (not a "
                          "command line after --)\n";
    return 1;
  }
  bool Given = !Inv.Paths.empty();
  std::string Dir = buildPath();
  if (!Given) {
    if (Dir.empty()) {
      WithColor::error() << "no input files specified, and no -p to take "
                            "them from a compilation database\n";
      return 1;
    }
    std::string Message;
    if (!Inv.OwnDatabase)
      Inv.OwnDatabase = tooling::CompilationDatabase::autoDetectFromDirectory(
          Dir, Message);
    if (!Inv.OwnDatabase) {
      WithColor::error() << Message << "\n";
      return 1;
    }
  }
  const tooling::CompilationDatabase &DB =
      Inv.OwnDatabase ? *Inv.OwnDatabase : Parser.getCompilations();
  if (WholeDatabase)
    addDatabaseUnits(DB, Inv);
  else if (!Given)
    Inv.Paths = sourcesOfDatabase(DB);
  if (Inv.Paths.empty()) {
    WithColor::error() << "the compilation database in '" << Dir
                       << "' lists no C, C++ or CUDA source"
                       << (WholeDatabase ? " that exists" : "") << "\n";
    return 1;
  }
  Inv.Database = &DB;
  if (!Shard.getNumOccurrences())
    return std::nullopt;
  unsigned K = 0, N = 0;
  auto [KText, NText] = StringRef(Shard).split('/');
  if (KText.getAsInteger(10, K) || NText.getAsInteger(10, N) || K < 1 ||
      K > N) {
    WithColor::error() << "--shard wants K/N with 1 <= K <= N, not '" << Shard
                       << "'\n";
    return 1;
  }
  size_t Total = Inv.Paths.size();
  Inv.Paths = shardOf(Inv.Paths, K, N);
  if (Verbose)
    errs() << "cublas-tidy: shard " << K << "/" << N << ": "
           << Inv.Paths.size() << " of " << Total << " unit"
           << (Total == 1 ? "" : "s") << "\n";
  return std::nullopt;
}

/// Stage "plan", the filters and the cache: the changed lines first (a
/// revision that does not exist is said before any analysis), then where
/// the results cache is and how big it may grow.
static std::optional<int> readFiltersAndCache(Invocation &Inv) {
  if (DiffBy != "findings" && DiffBy != "lines") {
    WithColor::error() << "unknown --diff-by '" << DiffBy
                       << "': use findings or lines\n";
    return 1;
  }
  if (!DiffBase.empty()) {
    // The repository of the first file named (the current directory's
    // when --whole-database was given none: a source of the database may
    // lie outside it).
    SmallString<256> Dir;
    if (!Inv.Paths.empty() && !Inv.FromDatabase.count(Inv.Paths.front())) {
      Dir = cublas_tidy::absolutePath(Inv.Paths.front(), "");
      sys::path::remove_filename(Dir);
    } else {
      sys::fs::current_path(Dir);
    }
    Error E = Error::success();
    if (DiffBy == "lines") {
      Expected<cublas_tidy::ChangedLines> C =
          cublas_tidy::ChangedLines::since(DiffBase, Dir);
      if (C)
        Inv.Changed = std::move(*C);
      else
        E = C.takeError();
    } else {
      Expected<cublas_tidy::BaseRevision> B =
          cublas_tidy::BaseRevision::of(DiffBase, Dir);
      if (B)
        Inv.Base = std::move(*B);
      else
        E = B.takeError();
    }
    if (E) {
      WithColor::error() << toString(std::move(E)) << "\n";
      return 1;
    }
  }
  Inv.CacheDirectory = CacheDir;
  if (CacheDir.getNumOccurrences() == 0)
    if (std::optional<std::string> Env =
            sys::Process::GetEnv("CUBLAS_TIDY_CACHE_DIR"))
      Inv.CacheDirectory = *Env;
  std::optional<uint64_t> CacheLimit = cublas_tidy::parseSize(CacheMaxSize);
  if (!CacheLimit) {
    WithColor::error() << "--cache-max-size wants bytes, or a number with K, "
                          "M or G, not '"
                       << CacheMaxSize << "'\n";
    return 1;
  }
  Inv.CacheLimit = *CacheLimit;
  // Profiles describe a real analysis: no cache then.
  if (EnableCheckProfile || !StoreCheckProfile.empty())
    Inv.CacheDirectory.clear();
  // A cache that cannot be written is said once; the run goes on.
  if (!Inv.CacheDirectory.empty())
    if (std::string Problem = cublas_tidy::cacheProblem(Inv.CacheDirectory);
        !Problem.empty()) {
      WithColor::warning() << Problem << "; going on without it\n";
      Inv.CacheDirectory.clear();
    }
  return std::nullopt;
}

/// Stage "plan", the compile commands: nvcc commands of CMake databases
/// become clang commands; .cu inputs are parsed host-only against the CUDA
/// toolkit; clang's builtin headers are found wherever this binary lives;
/// --torch adds PyTorch's include folders.
static std::optional<int>
adjustCompilations(tooling::ArgumentsAdjustingCompilations &Compilations) {
  if (!RemovedArgs.empty())
    Compilations.appendArgumentsAdjuster(
        [](const tooling::CommandLineArguments &Args, StringRef) {
          tooling::CommandLineArguments Kept;
          for (const std::string &A : Args)
            if (!llvm::is_contained(RemovedArgs, A))
              Kept.push_back(A);
          return Kept;
        });
  Compilations.appendArgumentsAdjuster(cublas_tidy::cudaHostOnlyAdjuster());
  Compilations.appendArgumentsAdjuster(
      cublas_tidy::resourceDirAdjuster(CUBLAS_TIDY_CLANG_RESOURCE_DIR));
  std::string Torch = TorchDir;
  if (Torch.empty())
    if (std::optional<std::string> Env = llvm::sys::Process::GetEnv("TORCH_DIR"))
      Torch = *Env;
  if (Torch.empty())
    return std::nullopt;
  // The stand-in headers for a CPU build of libtorch: installed beside the
  // pages (share/cublas-tidy/torch-include), else the source tree's.
  SmallString<256> StandIns(CUBLAS_TIDY_DOCS_DIR);
  sys::path::remove_filename(StandIns);
  sys::path::append(StandIns, "test", "torch-include");
  {
    std::string Exe = sys::fs::getMainExecutable(
        nullptr, reinterpret_cast<void *>(&cublas_tidy::docsLocation));
    SmallString<256> Installed(sys::path::parent_path(sys::path::parent_path(Exe)));
    sys::path::append(Installed, "share", "cublas-tidy", "torch-include");
    if (!Exe.empty() && sys::fs::is_directory(Installed))
      StandIns = Installed;
  }
  llvm::Expected<std::vector<std::string>> Dirs =
      cublas_tidy::torchIncludeDirs(Torch, StandIns);
  if (!Dirs) {
    WithColor::error() << llvm::toString(Dirs.takeError()) << "\n";
    return 1;
  }
  Compilations.appendArgumentsAdjuster(
      cublas_tidy::includeDirsAdjuster(std::move(*Dirs)));
  return std::nullopt;
}

/// Stage "collect", what -v says of each unit and of the cache.
static void reportPlan(ArrayRef<FileRun> Runs, const RunPlan &Plan,
                       const cublas_tidy::ResultCache *Cache,
                       unsigned Removed) {
  unsigned Skipped = 0, Replayed = 0, Stored = 0;
  for (const FileRun &Run : Runs) {
    errs() << "cublas-tidy: " << Run.File << ": "
           << (Run.SummaryOnly ? "for the summaries only: " : "")
           << (Run.Crashed ? "crashed" : Run.Reason) << "\n";
    Skipped += Run.Skipped;
    Replayed += Run.FromCache;
    Stored += Run.Stored;
  }
  if (Plan.Skip)
    errs() << "cublas-tidy: skipped " << Skipped << " of " << Runs.size()
           << " unit" << (Runs.size() == 1 ? "" : "s")
           << " that cannot reach cuBLAS\n";
  if (Cache) {
    errs() << "cublas-tidy: cache: " << Replayed << " replayed, " << Stored
           << " stored";
    if (Removed)
      errs() << ", " << Removed << " removed to stay under "
             << Cache->maxBytes() << " bytes";
    errs() << "\n";
  }
}

/// Stage "plan", the project's summaries: read from --facts, or made from
/// every unit of the compilation database, the units not asked for
/// (`SummaryOnly`) included. None with a command line after `--` (there is
/// no project) or --no-project-facts. The exit code when the run ends here.
static std::optional<int>
planProjectFacts(const Invocation &Inv, RunPlan &Plan,
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

/// Stage "collect", the project's summaries: written where --export-facts
/// says, and counted under -v. The exit code when the file cannot be
/// written.
static std::optional<int> exportFacts(const cublas_tidy::SummaryStore &Store,
                                      ArrayRef<FileRun> Runs,
                                      const RunPlan &Plan) {
  if (Verbose && Plan.CollectFacts) {
    size_t Again =
        llvm::count_if(Runs, [](const FileRun &R) { return R.Again; });
    errs() << "cublas-tidy: project facts: " << Store.size()
           << " function summar" << (Store.size() == 1 ? "y" : "ies")
           << " (" << Store.ambiguous() << " defined more than once); "
           << Again << " unit" << (Again == 1 ? "" : "s")
           << " analysed again with them\n";
  }
  if (!ExportFacts.empty() && !Plan.CollectFacts && !Plan.Facts) {
    WithColor::error() << "--export-facts needs a compilation database (-p) "
                          "and no --no-project-facts\n";
    return 1;
  }
  // Beside the compile database named by -p, for the plugin and clangd, and
  // where --export-facts says; each written whole (through a temporary
  // file), as shards may write it at the same time.
  std::string Dir = buildPath();
  if (ExportFacts.empty() && (!Plan.CollectFacts || Dir.empty()))
    return std::nullopt;
  std::string Text = Store.toText(cublas_tidy::summaryFormat());
  auto Write = [&](StringRef Path) {
    return writeToOutput(Path, [&](raw_ostream &OS) {
      OS << Text;
      return Error::success();
    });
  };
  if (Plan.CollectFacts && !Dir.empty()) {
    SmallString<256> Default(Dir);
    sys::path::append(Default, cublas_tidy::DefaultStoreName);
    if (Error E = Write(Default)) {
      std::string Why = toString(std::move(E)); // 'path': reason
      if (Verbose)
        errs() << "cublas-tidy: cannot write the function summaries: " << Why
               << "\n";
    }
  }
  if (ExportFacts.empty())
    return std::nullopt;
  if (Error E = Write(ExportFacts)) {
    WithColor::error() << "cannot write the function summaries: "
                       << toString(std::move(E)) << "\n";
    return 1;
  }
  return std::nullopt;
}

/// Stage "collect", files that crashed and files that did not compile:
/// said once per file, on stderr, so that the findings' output stays as it
/// is. True when one crashed.
static bool reportUnits(ArrayRef<FileRun> Runs,
                        ArrayRef<std::string> EnabledChecks) {
  bool AnyCrashed = false;
  bool CublasChecks = llvm::any_of(EnabledChecks, [](const std::string &C) {
    return StringRef(C).starts_with("cublas-");
  });
  for (const FileRun &Run : Runs) {
    if (Run.SummaryOnly)
      continue; // not asked for; -v says what became of it
    if (Run.Crashed) {
      AnyCrashed = true;
      WithColor::error(errs(), "cublas-tidy")
          << "the analysis of " << Run.File
          << " crashed; its findings are missing\n";
      continue;
    }
    // Compile errors: clang's own, and warnings that clang makes errors by
    // default (implicit function declarations in C, ...), which carry their
    // flag's name.
    unsigned CompileErrors = 0;
    std::set<std::string> Flags;
    for (const ClangTidyError &E : Run.Errors) {
      StringRef Name = E.DiagnosticName;
      if (E.DiagLevel != ClangTidyError::Error ||
          !Name.consume_front("clang-diagnostic-"))
        continue;
      ++CompileErrors;
      if (Name != "error")
        Flags.insert(Name.str());
    }
    if (!CompileErrors || !CublasChecks)
      continue;
    std::string Why = std::to_string(CompileErrors) + " error" +
                      (CompileErrors == 1 ? "" : "s");
    if (!Flags.empty()) {
      bool One = CompileErrors == 1;
      std::string Warnings, NoError;
      for (const std::string &F : Flags) {
        Warnings += (Warnings.empty() ? "-W" : ", -W") + F;
        NoError += (NoError.empty() ? "-Wno-error=" : " -Wno-error=") + F;
      }
      Why += std::string(One ? ", from a warning" : "; some from warnings") +
             " that clang makes " + (One ? "an error" : "errors") +
             " by default: " + Warnings + "; " + NoError + " after -- makes " +
             (One ? "it a warning" : "them warnings");
    }
    WithColor::note(errs(), "cublas-tidy")
        << Run.File << " did not compile (" << Why
        << "); cublas-* findings in the functions with errors may be "
           "missing (see "
        << Docs.page("broken-code") << ")\n";
  }
  return AnyCrashed;
}

/// Every diagnostic of the runs once, with the run whose context reported
/// it (a header's findings come from every file that includes it, under
/// whatever spelling of its path that file uses).
struct Collected {
  std::vector<ClangTidyError> Errors;
  std::vector<unsigned> Owner;
};

static Collected collectErrors(MutableArrayRef<FileRun> Runs) {
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

/// True when nothing the unit read differs at the base revision: none of
/// its files changed, and the summaries it asked about say the same there.
/// Its findings are then the base's findings too.
static bool sameAtBase(const FileRun &R, const cublas_tidy::BaseRevision &Base,
                       const cublas_tidy::SummaryStore *BaseFacts) {
  if (R.Files.empty())
    return false; // what it reads is unknown
  for (const std::string &F : R.Files)
    if (Base.changed(F))
      return false;
  return R.SeenDigest == digestOf(BaseFacts, R.Asked);
}

/// The findings of the units analysed with the plan (its texts those of
/// the base revision), as they would be printed.
static std::vector<cublas_tidy::Finding>
findingsOfRuns(const tooling::CompilationDatabase &DB,
               ArrayRef<std::string> Paths, ArrayRef<std::string> SummaryOnly,
               const RunPlan &Plan, cublas_tidy::SummaryStore &Store) {
  if (Paths.empty() && SummaryOnly.empty())
    return {};
  std::vector<FileRun> Runs = runAll(DB, Paths, SummaryOnly, Plan, Store);
  Collected C = collectErrors(Runs);
  cublas_tidy::SourceCache Sources(Plan.Texts);
  return cublas_tidy::toFindings(C.Errors, Sources);
}

/// Where the findings at the revision are keyed from: paths relative to the
/// repository's top, as in a baseline stored there.
static std::string baseKeyPath(const cublas_tidy::BaseRevision &Base) {
  SmallString<256> Key(Base.root());
  sys::path::append(Key, "base");
  return std::string(Key);
}

/// Of the units `Clean` (their own file changed, no findings now), those
/// whose file defined at the revision a function that a finding of
/// `Findings`, not matched by `AtBase`, is in now: where a function with
/// old findings may have moved from.
static std::vector<std::string>
unitsMovedFrom(ArrayRef<std::string> Clean,
               const cublas_tidy::BaseRevision &Base,
               ArrayRef<cublas_tidy::Finding> Findings,
               ArrayRef<cublas_tidy::Finding> AtBase) {
  if (Clean.empty())
    return {};
  std::vector<cublas_tidy::Finding> Left(Findings.begin(), Findings.end());
  cublas_tidy::Baseline::of(AtBase, baseKeyPath(Base)).filter(Left);
  StringSet<> Functions;
  for (const cublas_tidy::Finding &F : Left)
    if (!F.Function.empty())
      Functions.insert(F.Function);
  std::vector<std::string> Out;
  if (Functions.empty())
    return Out;
  for (const std::string &File : Clean) {
    auto Text = Base.texts().find(cublas_tidy::absolutePath(File, ""));
    if (Text == Base.texts().end())
      continue;
    for (const cublas_tidy::FunctionBody &B :
         cublas_tidy::functionBodies(Text->second))
      if (Functions.contains(B.Name)) {
        Out.push_back(File);
        break;
      }
  }
  return Out;
}

/// What findingsAtBase does with each unit, and the summaries of the units
/// whose own file did not change.
struct UnitsAtBase {
  std::vector<std::string> Changed, ChangedSummaryOnly; // own file changed
  std::vector<std::string> ChangedClean; // own file changed, no findings
  std::vector<size_t> Kept;              // unchanged own file, with findings
  std::vector<bool> Untracked;           // not named, not tracked
  cublas_tidy::SummaryStore Store;
};

static UnitsAtBase unitsAtBase(const Collected &C, ArrayRef<FileRun> Runs,
                               const cublas_tidy::BaseRevision &Base,
                               bool CollectFacts) {
  UnitsAtBase U;
  U.Untracked.assign(Runs.size(), false);
  std::vector<bool> HasFindings(Runs.size(), false);
  for (unsigned Owner : C.Owner)
    HasFindings[Owner] = true;
  for (size_t I = 0; I < Runs.size(); ++I) {
    const FileRun &R = Runs[I];
    std::string File = cublas_tidy::absolutePath(R.File, "");
    bool OwnChanged = Base.changed(File);
    if (!OwnChanged) {
      for (const cublas_tidy::FunctionSummary &S : R.Summaries)
        U.Store.add(S);
      for (const cublas_tidy::FileSummary &S : R.FileSummaries)
        U.Store.add(S);
    }
    if (R.Skipped || R.Crashed)
      continue;
    if (Base.isNew(File)) {
      U.Untracked[I] = !R.Named && Base.untracked(File);
      continue;
    }
    bool Report = HasFindings[I] && !R.SummaryOnly;
    if (OwnChanged && Report)
      U.Changed.push_back(R.File);
    else if (OwnChanged && CollectFacts)
      U.ChangedSummaryOnly.push_back(R.File);
    else if (Report)
      U.Kept.push_back(I);
    if (OwnChanged && !Report && !R.SummaryOnly)
      U.ChangedClean.push_back(R.File);
  }
  return U;
}

/// Stage "filter", what the code was (--diff-base): the findings the units
/// with findings have with the revision's text of every file changed since.
/// First the units whose own file changed are analysed again (those without
/// findings only for the summaries of their functions; the other units'
/// summaries are this run's); then a unit whose own file did not change
/// keeps its findings when nothing it reads changed (sameAtBase), and is
/// analysed again otherwise. Compiler errors are left out: they are always
/// reported, but for the sources --whole-database added: those that nothing
/// changed keep their compiler errors old too, and the findings of those
/// git does not track are all old (they are no part of the change).
static std::vector<cublas_tidy::Finding>
findingsAtBase(const tooling::CompilationDatabase &DB, const Invocation &Inv,
               const Collected &C, ArrayRef<cublas_tidy::Finding> Findings,
               ArrayRef<FileRun> Runs, const RunPlan &HeadPlan) {
  const cublas_tidy::BaseRevision &Base = *Inv.Base;
  UnitsAtBase U = unitsAtBase(C, Runs, Base, HeadPlan.CollectFacts);
  auto &[Changed, ChangedSummaryOnly, ChangedClean, Kept, Untracked, Store] = U;
  RunPlan Plan = HeadPlan;
  Plan.Texts = &Base.texts();
  Plan.Cache = nullptr; // its keys read the working tree
  Plan.Skip = false;
  std::vector<cublas_tidy::Finding> Found =
      findingsOfRuns(DB, Changed, ChangedSummaryOnly, Plan, Store);

  const cublas_tidy::SummaryStore *BaseFacts =
      HeadPlan.CollectFacts ? &Store : HeadPlan.Facts;
  std::vector<std::string> Again;
  std::vector<bool> Same(Runs.size(), false);
  for (size_t I : Kept) {
    Same[I] = sameAtBase(Runs[I], Base, BaseFacts);
    if (!Same[I])
      Again.push_back(Runs[I].File);
  }
  for (const cublas_tidy::Finding &F : Findings)
    if (Same[C.Owner[F.ErrorIndex]])
      Found.push_back(F);
  Plan.CollectFacts = false;
  Plan.Facts = BaseFacts;
  cublas_tidy::SummaryStore Unused;
  std::vector<cublas_tidy::Finding> More =
      findingsOfRuns(DB, Again, {}, Plan, Unused);
  Found.insert(Found.end(), More.begin(), More.end());
  // A function moved out of a changed unit that has no findings now keeps
  // the findings it had (Baseline matches them in any file by function):
  // such a unit is analysed as at the revision too when its file defined
  // there a function that a finding not matched so far is in.
  std::vector<std::string> MovedFrom = unitsMovedFrom(
      ChangedClean, Base, Findings, Found);
  std::vector<cublas_tidy::Finding> From =
      findingsOfRuns(DB, MovedFrom, {}, Plan, Unused);
  Found.insert(Found.end(), From.begin(), From.end());
  if (Verbose) {
    size_t N = Changed.size() + Again.size() + MovedFrom.size(),
           K = Kept.size() - Again.size();
    errs() << "cublas-tidy: --diff-base: " << N << " unit"
           << (N == 1 ? "" : "s") << " analysed again as at " << DiffBase
           << "; " << K << " with findings kept as they are (nothing they "
           << "read changed)\n";
  }
  llvm::erase_if(Found, [](const cublas_tidy::Finding &F) {
    return F.Check == "clang-diagnostic-error";
  });
  for (const cublas_tidy::Finding &F : Findings) {
    unsigned Owner = C.Owner[F.ErrorIndex];
    if (Untracked[Owner] || (Same[Owner] && !Runs[Owner].Named &&
                             F.Check == "clang-diagnostic-error"))
      Found.push_back(F);
  }
  return Found;
}

/// --whole-database, --diff-by=lines: whether the change reaches a source
/// the command line did not name: git tracks it, and a file it reads
/// changed (when what it reads is unknown, it may).
static bool changeReaches(const FileRun &R,
                          const cublas_tidy::ChangedLines &Changed) {
  if (Changed.untracked(cublas_tidy::absolutePath(R.File, "")))
    return false;
  return R.Files.empty() || llvm::any_of(R.Files, [&](const std::string &F) {
           return Changed.touches(F);
         });
}

/// Stage "filter": the findings a change brought (--diff-base: those the
/// revision's code does not have, or, by lines, those on lines the change
/// touched), the baseline written (which ends the run) or applied. The errors whose
/// findings remain are kept. The exit code when the run ends here.
static std::optional<int>
filterFindings(Collected &C, std::vector<cublas_tidy::Finding> &Findings,
               const Invocation &Inv, ArrayRef<FileRun> Runs,
               const std::vector<cublas_tidy::Finding> &AtBase) {
  size_t FindingsBefore = Findings.size();
  if (Inv.Base) {
    size_t Old = cublas_tidy::Baseline::of(AtBase, baseKeyPath(*Inv.Base))
                     .filter(Findings);
    if (!Quiet && Old)
      errs() << Old << " finding" << (Old == 1 ? "" : "s") << " also in "
             << DiffBase << " (not new)\n";
  }
  if (Inv.Changed) {
    size_t Old = 0;
    llvm::erase_if(Findings, [&](const cublas_tidy::Finding &F) {
      const FileRun &R = Runs[C.Owner[F.ErrorIndex]];
      bool Keep = F.Check == "clang-diagnostic-error" || F.Where.File.empty() ||
                  Inv.Changed->contains(F.Where.File, F.Where.Line);
      Keep &= R.Named || changeReaches(R, *Inv.Changed);
      Old += !Keep;
      return !Keep;
    });
    if (!Quiet && Old)
      errs() << Old << " finding" << (Old == 1 ? "" : "s")
             << " on lines not changed since " << DiffBase << "\n";
  }
  if (!WriteBaseline.empty()) {
    cublas_tidy::Baseline B = cublas_tidy::Baseline::of(Findings, WriteBaseline);
    if (Error E = B.write(WriteBaseline)) {
      WithColor::error() << toString(std::move(E)) << "\n";
      return 1;
    }
    errs() << "wrote " << B.size() << " finding" << (B.size() == 1 ? "" : "s")
           << " to the baseline " << WriteBaseline << "\n";
    return 0;
  }
  if (!BaselineFile.empty()) {
    Expected<cublas_tidy::Baseline> B = cublas_tidy::Baseline::read(BaselineFile);
    if (!B) {
      WithColor::error() << toString(B.takeError()) << "\n";
      return 1;
    }
    size_t Accepted = B->filter(Findings);
    if (!Quiet && Accepted)
      errs() << Accepted << " finding" << (Accepted == 1 ? "" : "s")
             << " accepted by the baseline " << BaselineFile << "\n";
  }
  if (Findings.size() == FindingsBefore)
    return std::nullopt;
  std::vector<bool> Keep(C.Errors.size(), false);
  for (const cublas_tidy::Finding &F : Findings)
    Keep[F.ErrorIndex] = true;
  Collected Kept;
  for (size_t I = 0; I < C.Errors.size(); ++I)
    if (Keep[I]) {
      Kept.Errors.push_back(std::move(C.Errors[I]));
      Kept.Owner.push_back(C.Owner[I]);
    }
  C = std::move(Kept);
  return std::nullopt;
}

/// Runs `Print` (clang-tidy's handleErrors); when `Fixing`, what it writes
/// on standard error is caught and written there afterwards with the tool
/// named as users ran it: handleErrors says "clang-tidy applied N of M
/// suggested fixes".
static void withFixSummaryRenamed(bool Fixing, function_ref<void()> Print) {
  SmallString<128> Path;
  int FD = -1;
  int Saved = -1;
  errs().flush();
  if (Fixing && !sys::fs::createTemporaryFile("cublas-tidy-fixes", "txt", FD,
                                              Path)) {
    Saved = ::dup(STDERR_FILENO);
    if (Saved < 0 || ::dup2(FD, STDERR_FILENO) < 0) {
      if (Saved >= 0)
        ::close(Saved);
      Saved = -1;
    }
    ::close(FD);
  }
  Print();
  if (Saved < 0) {
    if (!Path.empty())
      sys::fs::remove(Path);
    return;
  }
  errs().flush();
  ::dup2(Saved, STDERR_FILENO);
  ::close(Saved);
  ErrorOr<std::unique_ptr<MemoryBuffer>> Caught = MemoryBuffer::getFile(Path);
  sys::fs::remove(Path);
  if (!Caught)
    return;
  std::string Text = (*Caught)->getBuffer().str();
  for (StringRef What : {"applied ", "failed to apply "}) {
    std::string From = ("clang-tidy " + What).str();
    std::string To = ("cublas-tidy " + What).str();
    for (size_t At = Text.find(From); At != std::string::npos;
         At = Text.find(From, At + To.size()))
      Text.replace(At, From.size(), To);
  }
  errs() << Text;
}

/// Stage "print": the findings as SARIF, or each run's diagnostics printed
/// (and fixed) with the context that made them, in input order; the fixes
/// exported; the statistics. The exit code.
static int printFindings(const Collected &C,
                         ArrayRef<cublas_tidy::Finding> Findings,
                         MutableArrayRef<FileRun> Runs, const Invocation &Inv,
                         bool AnyCrashed) {
  bool FoundErrors = llvm::any_of(C.Errors, [](const ClangTidyError &E) {
    return E.DiagLevel == ClangTidyError::Error && !E.IsWarningAsError;
  });
  FixBehaviour Behaviour =
      FixNotes ? FB_FixNotes : (Fix || FixErrors) ? FB_Fix : FB_NoFix;
  const bool DisableFixes = FoundErrors && !FixErrors;

  unsigned WErrorCount = 0;
  if (Format == "sarif") {
    SmallString<256> Root;
    sys::fs::current_path(Root);
    // The rules link to an https copy of the pages unless the user named
    // another (CUBLAS_TIDY_DOCS_URL) or the build named none.
    cublas_tidy::DocsLocation Pages = Docs;
    if (!std::getenv("CUBLAS_TIDY_DOCS_URL") &&
        !StringRef(CUBLAS_TIDY_SARIF_DOCS_URL).empty()) {
      Pages.Checks = CUBLAS_TIDY_SARIF_DOCS_URL;
      Pages.Suffix = ".md";
    }
    cublas_tidy::writeSarif(Findings, Root, outs(),
                            {CUBLAS_TIDY_VERSION, Docs.Index,
                             Pages.Checks, Pages.Suffix});
    WErrorCount = llvm::count_if(
        C.Errors, [](const ClangTidyError &E) { return E.IsWarningAsError; });
  } else {
    for (unsigned R = 0; R < Runs.size(); ++R) {
      std::vector<ClangTidyError> Mine;
      for (size_t I = 0; I < C.Errors.size(); ++I)
        if (C.Owner[I] == R)
          Mine.push_back(C.Errors[I]);
      if (Mine.empty())
        continue;
      unsigned Count = 0;
      FixBehaviour Apply = DisableFixes ? FB_NoFix : Behaviour;
      withFixSummaryRenamed(Apply != FB_NoFix, [&] {
        handleErrors(Mine, *Runs[R].Context, Apply, Count, Runs[R].BaseFS);
      });
      WErrorCount += Count;
    }
  }

  if (!ExportFixes.empty() && !C.Errors.empty()) {
    std::error_code EC;
    raw_fd_ostream OS(ExportFixes, EC, sys::fs::OF_None);
    if (EC) {
      WithColor::error() << "cannot write '" << ExportFixes
                         << "': " << EC.message() << "\n";
      return 1;
    }
    exportReplacements(Inv.Paths.front(), C.Errors, OS);
  }

  if (!Quiet) {
    ClangTidyStats Total;
    for (const FileRun &Run : Runs) {
      if (Run.SummaryOnly)
        continue;
      const ClangTidyStats &S = Run.Stats;
      Total.ErrorsDisplayed += S.ErrorsDisplayed;
      Total.ErrorsIgnoredCheckFilter += S.ErrorsIgnoredCheckFilter;
      Total.ErrorsIgnoredNOLINT += S.ErrorsIgnoredNOLINT;
      Total.ErrorsIgnoredNonUserCode += S.ErrorsIgnoredNonUserCode;
      Total.ErrorsIgnoredLineFilter += S.ErrorsIgnoredLineFilter;
    }
    printStats(Total);
    if (DisableFixes && Behaviour != FB_NoFix)
      errs() << "Found compiler errors, but -fix-errors was not specified.\n"
                "Fixes have NOT been applied.\n\n";
  }

  if (AnyCrashed)
    return 3;
  if (WErrorCount) {
    if (!Quiet)
      errs() << WErrorCount << " warning" << (WErrorCount == 1 ? "" : "s")
             << " treated as error" << (WErrorCount == 1 ? "" : "s") << "\n";
    return 1;
  }
  if (FoundErrors) {
    if (!Quiet)
      errs() << "Found compiler error(s).\n";
    return 1;
  }
  return 0;
}

/// Stage "parse", the compile database, settled before the parser, whose
/// own fallback prints pages: without -p and `--`, the one that serves the
/// first file, found as clangd finds it (build/ and build*/ folders too),
/// is given to the parser as -p; when there is none, the files are parsed
/// with no flags (a `--` added, said in one line). A folder named by -p
/// without a database is looked into as discovery does (`-p .` finds
/// build/); a missing folder, or one without a database, is one error. The
/// arguments are changed in `Args`, which `Argc` and `Argv` then name;
/// `Found` holds the database's folder. A database that does not read is
/// its error.
static std::optional<int> findDatabase(Invocation &Inv,
                                       std::vector<const char *> &Args,
                                       std::string &Found, int &Argc,
                                       const char **&Argv) {
  auto Renamed = [&] {
    Argc = static_cast<int>(Args.size());
    Argv = Args.data();
  };
  std::optional<std::string> Given = cublas_tidy::buildPathArgument(Argc, Argv);
  if (!Inv.FixedCommandLine && !Given) {
    std::vector<std::string> Files = cublas_tidy::fileArguments(Argc, Argv);
    if (!Files.empty())
      Found = cublas_tidy::findDatabaseFor(Files.front());
    if (!Found.empty()) {
      Args.insert(Args.begin() + 1, {"-p", Found.c_str()});
    } else {
      if (!Files.empty())
        WithColor::warning()
            << "no compile database serves '" << Files.front()
            << "' (none in its folder, the folders above or their build*/ "
               "folders): analysing with no compile flags; give them after "
               "--, or -p BUILD_DIR\n";
      Args.push_back("--");
      Inv.FixedCommandLine = true;
    }
    Renamed();
  } else if (Given && !Inv.FixedCommandLine) {
    if (!sys::fs::is_directory(*Given)) {
      WithColor::error() << "-p: no such folder: '" << *Given << "'\n";
      return 1;
    }
    Found = cublas_tidy::databaseIn(*Given);
    SmallString<256> Flags(*Given);
    sys::path::append(Flags, "compile_flags.txt");
    if (Found.empty() && !sys::fs::is_regular_file(Flags)) {
      WithColor::error() << "-p: no compile_commands.json in '" << *Given
                         << "' or its build*/ folders\n";
      return 1;
    }
    if (!Found.empty() && Found != *Given) {
      // The folder found replaces the one given.
      Args.insert(Args.begin() + 1, {"-p", Found.c_str()});
      for (size_t I = 3; I < Args.size(); ++I) {
        StringRef A = Args[I];
        if (A == "--")
          break;
        if ((A == "-p" || A == "--p") && I + 1 < Args.size())
          Args.erase(Args.begin() + I, Args.begin() + I + 2);
        else if (A.starts_with("-p=") || A.starts_with("--p="))
          Args.erase(Args.begin() + I);
        else
          continue;
        break;
      }
      Renamed();
    }
  }
  if (std::optional<std::string> Dir = cublas_tidy::buildPathArgument(Argc, Argv))
    if (std::string Problem = cublas_tidy::databaseProblem(*Dir);
        !Problem.empty()) {
      WithColor::error() << Problem << "\n";
      return 1;
    }
  return std::nullopt;
}

/// Stage "configure", the .clang-tidy files the run reads: each mistake,
/// and each file's warning about what it ignores, once, before a provider
/// per unit would repeat it. A database named by -p without files is
/// loaded here, once: selectUnits takes its sources.
static std::optional<int>
verifyConfigFiles(tooling::CommonOptionsParser &Parser, Invocation &Inv) {
  if (!Config.empty() || !ConfigFile.empty())
    return std::nullopt;
  std::vector<std::string> Files = Parser.getSourcePathList();
  if (!Files.empty() && WholeDatabase && !buildPath().empty()) {
    std::vector<std::string> All = Parser.getCompilations().getAllFiles();
    Files.insert(Files.end(), All.begin(), All.end());
  }
  if (Files.empty() && !buildPath().empty()) {
    std::string Ignored;
    Inv.OwnDatabase = tooling::CompilationDatabase::autoDetectFromDirectory(
        buildPath(), Ignored);
    if (Inv.OwnDatabase)
      Files = Inv.OwnDatabase->getAllFiles();
  }
  if (Files.empty())
    Files.push_back(configurationFile({}));
  return reportConfigFiles(
      cublas_tidy::configFilesVerdict(Files, allChecks(Inv)), Inv);
}

/// Stage "plan", the files named on the command line: one line for each
/// that cannot be analysed, which is skipped; `BadInput` then fails the
/// run, and a run left with none ends now.
/// A file whose name says no language clang reads (`CMakeLists.txt`), and
/// whose language no command says either (`-x` after `--`, or an entry of
/// the database for it): parsed as C++, it would print pages of errors.
static std::string languageProblem(const Invocation &Inv, StringRef Path) {
  StringRef Ext = sys::path::extension(Path);
  if (Ext.consume_front(".") &&
      clang::driver::types::lookupTypeForExtension(Ext) !=
          clang::driver::types::TY_INVALID)
    return "";
  if (Inv.FixedCommandLine) {
    for (const tooling::CompileCommand &C :
         Inv.Database->getCompileCommands(Path))
      for (const std::string &A : C.CommandLine)
        if (StringRef(A).starts_with("-x") || StringRef(A) == "--language")
          return "";
  } else {
    std::string Abs = cublas_tidy::absolutePath(Path, "");
    for (const std::string &F : Inv.Database->getAllFiles())
      if (F == Abs)
        return "";
  }
  return "'" + Path.str() +
         "' is not a C, C++ or CUDA source file (give its language with -x "
         "after --)";
}

static std::optional<int> dropBadInputs(Invocation &Inv, bool &BadInput) {
  if (Inv.OwnDatabase)
    return std::nullopt;
  llvm::erase_if(Inv.Paths, [&](const std::string &Path) {
    if (Inv.FromDatabase.count(Path))
      return false; // not named: what it does not compile is its unit's
    std::string Problem = cublas_tidy::sourceProblem(Path);
    if (Problem.empty())
      Problem = languageProblem(Inv, Path);
    if (!Problem.empty())
      WithColor::error() << Problem << "\n";
    BadInput |= !Problem.empty();
    return !Problem.empty();
  });
  return Inv.Paths.empty() ? std::optional<int>(1) : std::nullopt;
}

/// Stage "plan", the skip and the cache: which checks are not cublas-*
/// ones (asked only when skipping), and the results cache of `Argv0`.
static void planSkipAndCache(const Invocation &Inv, const char *Argv0,
                             RunPlan &Plan,
                             std::optional<cublas_tidy::ResultCache> &Cache) {
  Plan.Skip = !NoSkip && !Inv.FixedCommandLine;
  if (Plan.Skip) {
    ClangTidyOptions Everything;
    Everything.Checks = "*";
    Plan.AllChecks = getCheckNames(Everything, AllowEnablingAnalyzerAlphaCheckers,
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

int main(int argc, const char **argv) {
  InitLLVM X(argc, argv);
  Docs = cublas_tidy::docsLocation(argv[0], reinterpret_cast<void *>(&main),
                                   CUBLAS_TIDY_DOCS_DIR);
  setBugReportMsg(CUBLAS_TIDY_BUG_REPORT_MSG);
  CrashRecoveryContext::Enable();
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter(printVersion);

  // Skipping serves scans over a compile database; a command line given
  // after `--` names the files the user wants analysed. (The parser below
  // removes `--` and what follows from argv.)
  Invocation Inv;
  for (int I = 1; I < argc; ++I)
    Inv.FixedCommandLine |= StringRef(argv[I]) == "--";
  if (std::optional<int> Exit = mergeSarifIfAsked(argc, argv))
    return *Exit;

  std::vector<const char *> Args(argv, argv + argc);
  std::string FoundDatabase;
  if (std::optional<int> Exit =
          findDatabase(Inv, Args, FoundDatabase, argc, argv))
    return *Exit;

  // Parse.
  Expected<tooling::CommonOptionsParser> OptionsParser =
      tooling::CommonOptionsParser::create(argc, argv, Category,
                                           cl::ZeroOrMore);
  if (!OptionsParser) {
    WithColor::error() << toString(OptionsParser.takeError());
    return 1;
  }
  if (std::optional<int> Exit = verifyConfigFiles(*OptionsParser, Inv))
    return *Exit;
  if (std::optional<int> Exit = readConfiguration(*OptionsParser, Inv))
    return *Exit;
  if (Verbose)
    cublas_tidy::showCutOffs(true);

  // Plan.
  if (std::optional<int> Exit = selectUnits(*OptionsParser, Inv))
    return *Exit;
  bool BadInput = false;
  if (std::optional<int> Exit = dropBadInputs(Inv, BadInput))
    return *Exit;
  if (std::optional<int> Exit = readFiltersAndCache(Inv))
    return *Exit;
  tooling::ArgumentsAdjustingCompilations Compilations(
      std::make_unique<cublas_tidy::NvccTranslatingCompilations>(
          std::make_unique<cublas_tidy::ForwardingCompilations>(
              *Inv.Database)));
  if (std::optional<int> Exit = adjustCompilations(Compilations))
    return *Exit;

  InitializeAllTargetInfos();
  InitializeAllTargetMCs();
  InitializeAllAsmParsers();

  RunPlan Plan;
  cublas_tidy::ScanService Scans;
  cublas_tidy::FileContents Contents;
  Plan.Contents = &Contents;
  Plan.Scans = &Scans;
  std::optional<cublas_tidy::ResultCache> Cache;
  planSkipAndCache(Inv, argv[0], Plan, Cache);

  // Run.
  cublas_tidy::SummaryStore Store;
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
  if (Verbose)
    reportPlan(Runs, Plan, Cache ? &*Cache : nullptr, Removed);
  bool AnyCrashed = reportUnits(Runs, Inv.EnabledChecks);
  Collected C = collectErrors(Runs);

  // Filter. Lines, columns and source text are needed only for SARIF and
  // baselines.
  cublas_tidy::SourceCache Sources;
  std::vector<cublas_tidy::Finding> Findings;
  if (Format == "sarif" || !BaselineFile.empty() || !WriteBaseline.empty() ||
      Inv.Changed || Inv.Base)
    Findings = cublas_tidy::toFindings(C.Errors, Sources);
  std::vector<cublas_tidy::Finding> AtBase;
  if (Inv.Base && !C.Errors.empty())
    AtBase = findingsAtBase(Compilations, Inv, C, Findings, Runs, Plan);
  if (std::optional<int> Exit = filterFindings(C, Findings, Inv, Runs, AtBase))
    return *Exit;

  // Print.
  int Exit = printFindings(C, Findings, Runs, Inv, AnyCrashed);
  return Exit == 0 && BadInput ? 1 : Exit;
}
