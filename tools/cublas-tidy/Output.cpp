//===- Output.cpp ---------------------------------------------------------===//

#include "Output.h"

#include "Sarif.h"
#include "Version.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <set>
#include <unistd.h>

using namespace clang;
using namespace clang::tidy;
using namespace llvm;
using namespace cublas_tidy::cli;

namespace cublas_tidy {

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

/// --merge-sarif OUT IN...: joins SARIF logs and reads no compilation
/// database, so it is handled before the command line is parsed as
/// clang-tidy's. The exit code, or nullopt when not asked.
std::optional<int> mergeSarifIfAsked(int argc, const char **argv) {
  for (int I = 1; I < argc; ++I) {
    StringRef Arg = argv[I];
    if (!Arg.consume_front("--merge-sarif") &&
        !Arg.consume_front("-merge-sarif"))
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

/// Stage "collect", what -v says of each unit and of the cache.
void reportPlan(ArrayRef<FileRun> Runs, const RunPlan &Plan,
                const cublas_tidy::ResultCache *Cache, unsigned Removed) {
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

/// Stage "collect", the project's summaries: written where --export-facts
/// says, and counted under -v. The exit code when the file cannot be
/// written.
std::optional<int> exportFacts(const cublas_tidy::SummaryStore &Store,
                               ArrayRef<FileRun> Runs, const RunPlan &Plan) {
  if (Verbose && Plan.CollectFacts) {
    size_t Again =
        llvm::count_if(Runs, [](const FileRun &R) { return R.Round > 0; });
    unsigned Rounds = 0;
    for (const FileRun &R : Runs)
      Rounds = std::max(Rounds, R.Round);
    errs() << "cublas-tidy: project facts: " << Store.size()
           << " function summar" << (Store.size() == 1 ? "y" : "ies") << " ("
           << Store.ambiguous() << " defined more than once); " << Again
           << " unit" << (Again == 1 ? "" : "s") << " analysed again with them";
    if (Rounds > 1)
      errs() << " (in " << Rounds << " rounds)";
    errs() << "\n";
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
bool reportUnits(ArrayRef<FileRun> Runs, ArrayRef<std::string> EnabledChecks) {
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

/// The findings as a SARIF log on standard output, its rules linked to
/// the checks' pages. The number of warnings treated as errors.
static unsigned printSarif(const Collected &C,
                           ArrayRef<cublas_tidy::Finding> Findings) {
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
  return llvm::count_if(
      C.Errors, [](const ClangTidyError &E) { return E.IsWarningAsError; });
}

/// Each run's diagnostics printed (and fixed, as `Apply` says) with the
/// context that made them, in input order. The number of warnings treated
/// as errors.
static unsigned printDiagnostics(const Collected &C,
                                 MutableArrayRef<FileRun> Runs,
                                 FixBehaviour Apply) {
  unsigned WErrorCount = 0;
  for (unsigned R = 0; R < Runs.size(); ++R) {
    std::vector<ClangTidyError> Mine;
    for (size_t I = 0; I < C.Errors.size(); ++I)
      if (C.Owner[I] == R)
        Mine.push_back(C.Errors[I]);
    if (Mine.empty())
      continue;
    unsigned Count = 0;
    withFixSummaryRenamed(Apply != FB_NoFix, [&] {
      handleErrors(Mine, *Runs[R].Context, Apply, Count, Runs[R].BaseFS);
    });
    WErrorCount += Count;
  }
  return WErrorCount;
}

/// --export-fixes: the fixes of the diagnostics, for
/// clang-apply-replacements. 1 when the file cannot be written.
static std::optional<int> exportFixes(const Collected &C,
                                      const Invocation &Inv) {
  if (ExportFixes.empty() || C.Errors.empty())
    return std::nullopt;
  std::error_code EC;
  raw_fd_ostream OS(ExportFixes, EC, sys::fs::OF_None);
  if (EC) {
    WithColor::error() << "cannot write '" << ExportFixes
                       << "': " << EC.message() << "\n";
    return 1;
  }
  exportReplacements(Inv.Paths.front(), C.Errors, OS);
  return std::nullopt;
}

/// The statistics of the units asked for, and, when compiler errors kept
/// the fixes asked for from being applied (`FixesRefused`), that.
static void printTotals(ArrayRef<FileRun> Runs, bool FixesRefused) {
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
  if (FixesRefused)
    errs() << "Found compiler errors, but -fix-errors was not specified.\n"
              "Fixes have NOT been applied.\n\n";
}

/// The exit code: 3 when a unit crashed; 1 for warnings treated as errors
/// and for compiler errors (each said unless --quiet); 0 otherwise.
static int exitCode(bool AnyCrashed, unsigned WErrorCount, bool FoundErrors) {
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

int printFindings(const Collected &C, ArrayRef<cublas_tidy::Finding> Findings,
                  MutableArrayRef<FileRun> Runs, const Invocation &Inv,
                  bool AnyCrashed) {
  bool FoundErrors = llvm::any_of(C.Errors, [](const ClangTidyError &E) {
    return E.DiagLevel == ClangTidyError::Error && !E.IsWarningAsError;
  });
  FixBehaviour Behaviour =
      FixNotes ? FB_FixNotes : (Fix || FixErrors) ? FB_Fix : FB_NoFix;
  const bool DisableFixes = FoundErrors && !FixErrors;

  unsigned WErrorCount =
      Format == "sarif"
          ? printSarif(C, Findings)
          : printDiagnostics(C, Runs, DisableFixes ? FB_NoFix : Behaviour);
  if (std::optional<int> Exit = exportFixes(C, Inv))
    return *Exit;
  if (!Quiet)
    printTotals(Runs, DisableFixes && Behaviour != FB_NoFix);
  return exitCode(AnyCrashed, WErrorCount, FoundErrors);
}

} // namespace cublas_tidy
