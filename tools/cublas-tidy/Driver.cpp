//===- Driver.cpp - The standalone cublas-tidy ----------------------------===//
//
// A clang-tidy with every stock module and the cublas module linked in, for
// users whose clang-tidy is another version or absent. It speaks clang-tidy's
// command line; the driver is our own so that it can grow options of its own
// (output formats, compile-database translation) around clang-tidy's library.
//
//===----------------------------------------------------------------------===//

#include "ClangTidy.h"
#include "ClangTidyDiagnosticConsumer.h"
#include "ClangTidyForceLinker.h"
#include "ClangTidyOptions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include "CudaArgs.h"

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

  cublas-tidy -p build src/gemm.cu
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
             "diagnostics from; the main file is always shown."),
    cl::init(""), cl::cat(Category));

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

static std::unique_ptr<ClangTidyOptionsProvider>
createOptionsProvider(IntrusiveRefCntPtr<vfs::FileSystem> FS) {
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
    ErrorOr<ClangTidyOptions> Parsed =
        parseConfiguration(MemoryBufferRef(Text, Source));
    if (!Parsed) {
      WithColor::error() << "invalid configuration in " << Source << ": "
                         << Parsed.getError().message() << "\n";
      return nullptr;
    }
    return std::make_unique<ConfigOptionsProvider>(
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
  return std::make_unique<FileOptionsProvider>(
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

int main(int argc, const char **argv) {
  InitLLVM X(argc, argv);
  cl::HideUnrelatedOptions(Category);

  Expected<tooling::CommonOptionsParser> OptionsParser =
      tooling::CommonOptionsParser::create(argc, argv, Category,
                                           cl::ZeroOrMore);
  if (!OptionsParser) {
    WithColor::error() << toString(OptionsParser.takeError());
    return 1;
  }

  auto BaseFS = makeIntrusiveRefCnt<vfs::OverlayFileSystem>(
      vfs::getRealFileSystem());
  std::unique_ptr<ClangTidyOptionsProvider> Provider =
      createOptionsProvider(BaseFS);
  if (!Provider)
    return 1;

  std::vector<std::string> Paths = OptionsParser->getSourcePathList();
  std::string ConfigFor = configurationFile(Paths);
  ClangTidyOptions EffectiveOptions = Provider->getOptions(ConfigFor);
  std::vector<std::string> EnabledChecks =
      getCheckNames(EffectiveOptions, AllowEnablingAnalyzerAlphaCheckers,
                    /*ExperimentalCustomChecks=*/false);

  if (ExplainConfig) {
    for (const auto &[Options, Source] : Provider->getRawOptions(ConfigFor))
      if (Options.Checks && !Options.Checks->empty())
        outs() << "'" << *Options.Checks << "' from '" << Source << "'\n";
    return 0;
  }

  if (ListChecks) {
    if (EnabledChecks.empty()) {
      WithColor::error() << "no checks enabled\n";
      return 1;
    }
    outs() << "Enabled checks:";
    for (const std::string &Check : EnabledChecks)
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

  if (EnabledChecks.empty()) {
    WithColor::error() << "no checks enabled\n";
    return 1;
  }
  if (Paths.empty()) {
    WithColor::error() << "no input files specified\n";
    cl::PrintHelpMessage(/*Hidden=*/false, /*Categorized=*/true);
    return 1;
  }

  // .cu inputs are parsed host-only against the CUDA toolkit.
  tooling::ArgumentsAdjustingCompilations Compilations(
      std::make_unique<cublas_tidy::ForwardingCompilations>(
          OptionsParser->getCompilations()));
  Compilations.appendArgumentsAdjuster(cublas_tidy::cudaHostOnlyAdjuster());
  // clang finds its builtin headers relative to the running binary, which
  // for cublas-tidy is not where clang lives: name them unless told.
  Compilations.appendArgumentsAdjuster(
      cublas_tidy::resourceDirAdjuster(CUBLAS_TIDY_CLANG_RESOURCE_DIR));

  InitializeAllTargetInfos();
  InitializeAllTargetMCs();
  InitializeAllAsmParsers();

  ClangTidyContext Context(std::move(Provider),
                           AllowEnablingAnalyzerAlphaCheckers,
                           /*EnableModuleHeadersParsing=*/false,
                           /*ExperimentalCustomChecks=*/false);
  std::vector<ClangTidyError> Errors =
      runClangTidy(Context, Compilations, Paths, BaseFS, FixNotes,
                   EnableCheckProfile, StoreCheckProfile, Quiet);

  bool FoundErrors = llvm::any_of(Errors, [](const ClangTidyError &E) {
    return E.DiagLevel == ClangTidyError::Error;
  });
  FixBehaviour Behaviour =
      FixNotes ? FB_FixNotes : (Fix || FixErrors) ? FB_Fix : FB_NoFix;
  const bool DisableFixes = FoundErrors && !FixErrors;

  unsigned WErrorCount = 0;
  handleErrors(Errors, Context, DisableFixes ? FB_NoFix : Behaviour,
               WErrorCount, BaseFS);

  if (!ExportFixes.empty() && !Errors.empty()) {
    std::error_code EC;
    raw_fd_ostream OS(ExportFixes, EC, sys::fs::OF_None);
    if (EC) {
      WithColor::error() << "cannot write '" << ExportFixes
                         << "': " << EC.message() << "\n";
      return 1;
    }
    exportReplacements(Paths.front(), Errors, OS);
  }

  if (!Quiet) {
    printStats(Context.getStats());
    if (DisableFixes && Behaviour != FB_NoFix)
      errs() << "Found compiler errors, but -fix-errors was not specified.\n"
                "Fixes have NOT been applied.\n\n";
  }

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
