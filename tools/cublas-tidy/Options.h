//===- Options.h - The command line's options and the configuration -------===//
//
// The driver's first room: its command-line options (clang-tidy's and its
// own), the parse of the command line, the provider that gives each file
// its configuration, and the configuration read and judged before any unit
// is analysed (the questions about it, --verify-config, --list-checks,
// --dump-config and --explain-config, answered at once). What the command
// line and the configuration decide is an Invocation, which the other rooms
// (ProjectRun, Gate, Output) and the inputs (Inputs.h) read; so are the
// options declared below. The others stay inside Options.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_TOOLS_OPTIONS_H
#define CUBLAS_TIDY_TOOLS_OPTIONS_H

#include "ChangedLines.h"
#include "ClangTidy.h"
#include "ClangTidyOptions.h"
#include "common/DocsLocation.h"

#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cublas_tidy {

/// The options the other rooms read (Options.cpp says what each means).
namespace cli {
// How each unit is analysed and reported.
extern llvm::cl::opt<std::string> LineFilter;
extern llvm::cl::opt<bool> Fix, FixErrors, FixNotes;
extern llvm::cl::opt<bool> EnableCheckProfile;
extern llvm::cl::opt<std::string> StoreCheckProfile;
extern llvm::cl::opt<bool> AllowEnablingAnalyzerAlphaCheckers;
extern llvm::cl::opt<bool> Quiet, Verbose;
// Which units, on how many threads, with which compile commands.
extern llvm::cl::opt<bool> WholeDatabase, NoSkip;
extern llvm::cl::opt<unsigned> Jobs;
extern llvm::cl::opt<std::string> Shard, TorchDir;
extern llvm::cl::list<std::string> RemovedArgs;
extern llvm::cl::opt<std::string> CacheDir, CacheMaxSize;
// The project's summaries.
extern llvm::cl::opt<std::string> FactsFile, ExportFacts;
extern llvm::cl::opt<bool> NoProjectFacts;
// Which findings are printed, and how.
extern llvm::cl::opt<std::string> DiffBase, DiffBy;
extern llvm::cl::opt<std::string> BaselineFile, WriteBaseline;
extern llvm::cl::opt<std::string> Format, ExportFixes;
/// Where the pages are that messages and logs point to (setUpTool).
extern DocsLocation Docs;
} // namespace cli

/// What the command line and the configuration decide before any unit is
/// analysed.
struct Invocation {
  std::vector<std::string> Paths;
  /// The units --whole-database added: the sources of the database that
  /// the command line does not name.
  std::set<std::string> FromDatabase;
  std::vector<std::string> EnabledChecks;
  std::unique_ptr<clang::tooling::CompilationDatabase> OwnDatabase;
  const clang::tooling::CompilationDatabase *Database = nullptr;
  std::optional<ChangedLines> Changed;
  std::optional<BaseRevision> Base;
  std::string CacheDirectory;
  uint64_t CacheLimit = 0;
  bool FixedCommandLine = false;
  /// The .clang-tidy files judged so far (absolute, without dots).
  std::set<std::string> JudgedConfigs;
  std::optional<clang::tidy::ChecksAndOptions> All;
};

/// What the tool sets before it reads its command line: where its pages
/// are (from `Argv0`, the executable holding `MainAddr`), the crash banner,
/// crash recovery, the help of our options only, and --version.
void setUpTool(const char *Argv0, void *MainAddr);

/// Whether the command line has `--`: a command line for the files given,
/// instead of a compile database.
bool hasFixedCommandLine(int Argc, const char **Argv);

/// Parses the command line as clang-tidy's; on failure, says why.
std::optional<clang::tooling::CommonOptionsParser>
parseCommandLine(int &Argc, const char **Argv);

/// The value of CommonOptionsParser's -p option (registered when the parser
/// runs).
std::string buildPath();

/// What --version prints.
void printVersion(llvm::raw_ostream &OS);

/// The options of each file. The keys that -config or -config-file has and
/// clang-tidy 22 does not go to `UnknownKeys` when given.
std::unique_ptr<clang::tidy::ClangTidyOptionsProvider>
createOptionsProvider(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                      std::vector<std::string> *UnknownKeys = nullptr);

/// Stage "configure", the .clang-tidy files the run reads, each judged
/// once (Options.cpp). The exit code when the run ends here.
std::optional<int>
verifyConfigFiles(clang::tooling::CommonOptionsParser &Parser, Invocation &Inv);

/// Stage "parse", the configuration and the questions about it
/// (Options.cpp). The exit code when the run ends here.
std::optional<int>
readConfiguration(clang::tooling::CommonOptionsParser &Parser, Invocation &Inv);

} // namespace cublas_tidy

#endif
