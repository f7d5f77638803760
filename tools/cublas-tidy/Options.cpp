//===- Options.cpp --------------------------------------------------------===//

#include "Options.h"

#include "ConfigCheck.h"
#include "Version.h"

#include "clang/Tooling/CommonOptionsParser.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/WithColor.h"

using namespace clang;
using namespace clang::tidy;
using namespace llvm;

namespace cublas_tidy::cli {

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

cl::opt<std::string> LineFilter(
    "line-filter",
    cl::desc("List of files with line ranges to filter the warnings, as JSON:\n"
             "[{\"name\":\"file1.cpp\",\"lines\":[[1,3],[5,7]]}]"),
    cl::init(""), cl::cat(Category));

cl::opt<bool> Fix("fix", cl::desc("Apply suggested fixes."),
                         cl::init(false), cl::cat(Category));

cl::opt<bool>
    FixErrors("fix-errors",
              cl::desc("Apply suggested fixes even if compilation errors\n"
                       "were found."),
              cl::init(false), cl::cat(Category));

cl::opt<bool>
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

cl::opt<bool> EnableCheckProfile(
    "enable-check-profile",
    cl::desc("Print the time each check spent on the input."),
    cl::init(false), cl::cat(Category));

cl::opt<std::string> StoreCheckProfile(
    "store-check-profile",
    cl::desc("Store the per-check profile as JSON under this prefix."),
    cl::value_desc("prefix"), cl::cat(Category));

cl::opt<std::string> ExportFixes(
    "export-fixes",
    cl::desc("YAML file to store suggested fixes in, for\n"
             "clang-apply-replacements."),
    cl::value_desc("filename"), cl::cat(Category));

cl::opt<bool> Quiet("quiet",
                    cl::desc("Print only the diagnostics, no statistics."),
                    cl::init(false), cl::cat(Category));

static cl::opt<bool> UseColor("use-color",
                              cl::desc("Use colors in diagnostics."),
                              cl::cat(Category));

cl::opt<bool> AllowEnablingAnalyzerAlphaCheckers(
    "allow-enabling-analyzer-alpha-checkers", cl::init(false), cl::Hidden,
    cl::cat(Category));

static cl::opt<bool> VerifyConfig(
    "verify-config",
    cl::desc("Check the configuration (.clang-tidy files, -config, -checks) "
             "and exit: every cublas-* check name and glob must enable a "
             "check, and every CheckOptions key of a cublas-* check must be "
             "one of its options. What concerns other checks and this build "
             "does not know gets a warning."),
    cl::cat(Category));

cl::opt<std::string> Format(
    "format",
    cl::desc("Output format: text (clang-tidy's, the default) or sarif\n"
             "(SARIF 2.1.0 on stdout, for code-scanning services)."),
    cl::init("text"), cl::cat(Category));

cl::opt<std::string> BaselineFile(
    "baseline",
    cl::desc("Report only findings that are not in this baseline (written\n"
             "by --write-baseline); moved code keeps its findings accepted."),
    cl::value_desc("file"), cl::cat(Category));

cl::opt<std::string> WriteBaseline(
    "write-baseline",
    cl::desc("Write the findings of this run to a baseline file and exit 0."),
    cl::value_desc("file"), cl::cat(Category));

cl::opt<std::string> DiffBase(
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

cl::opt<std::string> DiffBy(
    "diff-by",
    cl::desc("What --diff-base compares: 'findings' (the default: findings\n"
             "the revision does not have) or 'lines' (findings on lines\n"
             "added or changed since the revision, as clang-tidy-diff; a\n"
             "bug made by deleting code passes)."),
    cl::value_desc("findings|lines"), cl::init("findings"), cl::cat(Category));

cl::opt<bool> WholeDatabase(
    "whole-database",
    cl::desc("With a compilation database: analyse every source of it as\n"
             "well as the files given, and with --diff-base report what the\n"
             "change brings to them too: the callers of a changed function,\n"
             "the sources that include a changed header. A source the\n"
             "command line does not name brings nothing else: no finding\n"
             "when git does not track it, no compiler error when nothing it\n"
             "reads changed. The pre-commit hook's run."),
    cl::cat(Category));

cl::opt<std::string> TorchDir(
    "torch",
    cl::desc("Add the headers of this PyTorch installation to every command,\n"
             "for C++/CUDA extensions built without a compile database:\n"
             "the torch package (site-packages/torch), site-packages,\n"
             "Torch_DIR (<torch>/share/cmake/Torch) or an include folder\n"
             "with torch/extension.h (default: $TORCH_DIR)."),
    cl::value_desc("dir"), cl::cat(Category));

cl::opt<unsigned> Jobs(
    "j",
    cl::desc("Number of files analysed in parallel (default: all cores);\n"
             "-j 2 or -j2, as make and ninja take it."),
    cl::init(0), cl::Prefix, cl::cat(Category));

cl::opt<bool> NoSkip(
    "no-skip",
    cl::desc("Analyse every unit. By default, when only cublas-* checks (and\n"
             "compiler diagnostics) are enabled, units none of whose files\n"
             "mentions cublas are found by a dependency scan and skipped."),
    cl::init(false), cl::cat(Category));

cl::opt<bool> Verbose(
    "v", cl::desc("Say, for each unit, whether it was analysed, skipped or\n"
                  "replayed from the cache, and why."),
    cl::init(false), cl::cat(Category));
static cl::alias VerboseLong("verbose", cl::desc("Alias for -v"),
                             cl::aliasopt(Verbose), cl::NotHidden);

/// Where the pages are that messages and logs point to.
cublas_tidy::DocsLocation Docs;

cl::list<std::string> RemovedArgs(
    "removed-arg",
    cl::desc("An argument to remove from each compile command (repeat for "
             "more), as run-clang-tidy's --removed-arg: an nvcc flag clang "
             "does not know, for example."),
    cl::cat(Category));

cl::opt<std::string> CacheDir(
    "cache-dir",
    cl::desc("Keep each unit's findings in this directory and replay them\n"
             "while the unit, every file it includes, its compile command,\n"
             "the configuration and the tool are unchanged (default:\n"
             "$CUBLAS_TIDY_CACHE_DIR; no cache when neither is set)."),
    cl::value_desc("dir"), cl::cat(Category));

cl::opt<std::string> CacheMaxSize(
    "cache-max-size",
    cl::desc("Size the cache directory is trimmed to after a run, least\n"
             "recently used entries first: bytes, or a number with K, M or G."),
    cl::init("512M"), cl::value_desc("size"), cl::cat(Category));

cl::opt<std::string> Shard(
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

cl::opt<std::string> ExportFacts(
    "export-facts",
    cl::desc("Write the project's function summaries (what each function\n"
             "does with cuBLAS statuses and handles) to this file, for the\n"
             "clang-tidy plugin and cublas-clangd (their option FactsFile)\n"
             "and for later runs (--facts)."),
    cl::value_desc("file"), cl::cat(Category));

cl::opt<std::string> FactsFile(
    "facts",
    cl::desc("Read the project's function summaries from this file (written\n"
             "by --export-facts) instead of making them from every unit of\n"
             "the compilation database."),
    cl::value_desc("file"), cl::cat(Category));

cl::opt<bool> NoProjectFacts(
    "no-project-facts",
    cl::desc("Judge each unit alone: no summaries of the functions that\n"
             "other units of the compilation database define."),
    cl::cat(Category));

} // namespace cublas_tidy::cli

using namespace cublas_tidy::cli;

namespace cublas_tidy {

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

std::unique_ptr<ClangTidyOptionsProvider>
createOptionsProvider(IntrusiveRefCntPtr<vfs::FileSystem> FS,
                      std::vector<std::string> *UnknownKeys) {
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

  auto FromText =
      [&](StringRef Text,
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

std::string buildPath() {
  auto &Options = cl::getRegisteredOptions();
  auto It = Options.find("p");
  if (It == Options.end())
    return {};
  return static_cast<cl::opt<std::string> *>(It->second)->getValue();
}

void printVersion(raw_ostream &OS) {
  OS << "cublas-tidy " CUBLAS_TIDY_VERSION "\n"
     << "  built with LLVM " CUBLAS_TIDY_LLVM_VERSION "\n"
     << "  cuBLAS API model from the " CUBLAS_TIDY_MODEL_VERSION " headers\n";
}

/// Every check and option of this build.
static const ChecksAndOptions &allChecks(Invocation &Inv) {
  if (!Inv.All)
    Inv.All = getAllChecksAndOptions(AllowEnablingAnalyzerAlphaCheckers,
                                     /*ExperimentalCustomChecks=*/false);
  return *Inv.All;
}

/// The questions about the configuration that end the run once answered:
/// --verify-config, --explain-config, --list-checks, --dump-config. The
/// exit code when one was asked.
static std::optional<int>
answerConfigQuestions(ClangTidyOptionsProvider &Provider,
                      const std::string &ConfigFor,
                      ClangTidyOptions EffectiveOptions,
                      const Invocation &Inv) {
  if (VerifyConfig) {
    outs() << "No config errors detected.\n";
    return 0;
  }
  if (ExplainConfig) {
    for (const auto &[Options, Source] : Provider.getRawOptions(ConfigFor))
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
  return std::nullopt;
}

/// A run with no check, or with options that contradict each other: 1.
static std::optional<int> refuseContradictions(const Invocation &Inv) {
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

/// Stage "parse": the configuration, the questions about it answered at
/// once (--explain-config, --list-checks, --dump-config) and options that
/// contradict each other. The exit code when the run ends here.
std::optional<int> readConfiguration(tooling::CommonOptionsParser &Parser,
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
  if (judgeConfiguration(
          Provider->getRawOptions(ConfigFor),
          ConfigFile.empty() ? "-config" : ConfigFile.getValue(), UnknownKeys,
          [&]() -> const ChecksAndOptions & { return allChecks(Inv); },
          Inv.JudgedConfigs))
    return 1;
  if (std::optional<int> Exit = answerConfigQuestions(
          *Provider, ConfigFor, std::move(EffectiveOptions), Inv))
    return Exit;
  return refuseContradictions(Inv);
}

/// Stage "configure", the .clang-tidy files the run reads: each mistake,
/// and each file's warning about what it ignores, once, before a provider
/// per unit would repeat it. A database named by -p without files is
/// loaded here, once: selectUnits takes its sources.
std::optional<int> verifyConfigFiles(tooling::CommonOptionsParser &Parser,
                                     Invocation &Inv) {
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
      cublas_tidy::configFilesVerdict(Files, allChecks(Inv)),
      Inv.JudgedConfigs);
}

void setUpTool(const char *Argv0, void *MainAddr) {
  Docs = cublas_tidy::docsLocation(Argv0, MainAddr, CUBLAS_TIDY_DOCS_DIR);
  setBugReportMsg(CUBLAS_TIDY_BUG_REPORT_MSG);
  CrashRecoveryContext::Enable();
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter(printVersion);
}

bool hasFixedCommandLine(int Argc, const char **Argv) {
  bool Fixed = false;
  for (int I = 1; I < Argc; ++I)
    Fixed |= StringRef(Argv[I]) == "--";
  return Fixed;
}

std::optional<tooling::CommonOptionsParser>
parseCommandLine(int &Argc, const char **Argv) {
  Expected<tooling::CommonOptionsParser> OptionsParser =
      tooling::CommonOptionsParser::create(Argc, Argv, Category,
                                           cl::ZeroOrMore);
  if (!OptionsParser) {
    WithColor::error() << toString(OptionsParser.takeError());
    return std::nullopt;
  }
  return std::move(*OptionsParser);
}

} // namespace cublas_tidy
