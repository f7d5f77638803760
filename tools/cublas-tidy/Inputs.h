//===- Inputs.h - What the command line names, checked before any parse ---===//
//
// A mistake in the input gets one clear line and a failing exit code, not
// the compiler's diagnostics about it (docs/ci.md, "Exit codes"):
//
//   - a compile database that is not valid JSON: the JSON error, with its
//     line and column;
//   - a file that does not exist: `no such file`;
//   - a file that holds binary data: `not a source file`, and it is skipped;
//   - a results cache that cannot be written: a warning, once, and the run
//     goes on without it.
//
// And where the compile database is when the command line names none,
// and which units a run analyses (the files given, the database's sources,
// this run's shard of them), with which compile commands, and where the
// results cache is: the stages of the driver's plan that read the command
// line (Options.h).
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_TOOLS_INPUTS_H
#define CUBLAS_TIDY_TOOLS_INPUTS_H

#include "Options.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace cublas_tidy {

/// The value of `-p` on a command line (before `--`), when it has one.
std::optional<std::string> buildPathArgument(int Argc, const char **Argv);

/// The files a command line names (before `--`): its arguments that are
/// not options and name an existing file.
std::vector<std::string> fileArguments(int Argc, const char **Argv);

/// The folder of the compile database in `Dir`: `Dir` itself when it has
/// `compile_commands.json`, else its `build/`, else its first `build*`
/// folder (by name) that has one. Empty when there is none.
std::string databaseIn(llvm::StringRef Dir);

/// The folder of the compile database that serves `File`, found as clangd
/// finds it: in each folder above the file, `compile_commands.json`, then
/// `build/compile_commands.json`, then that of another `build*` folder (the
/// first by name). Empty when there is none.
std::string findDatabaseFor(llvm::StringRef File);

/// Why the compile database in `BuildPath` cannot be read: not valid JSON,
/// or not an array of entries. Empty when it reads, or when there is none
/// (the usual search for one then says so).
std::string databaseProblem(llvm::StringRef BuildPath);

/// Why `Path` cannot be analysed: it does not exist, is a folder, or holds
/// binary data. Empty when it may be a source file.
std::string sourceProblem(llvm::StringRef Path);

/// Why the results cache cannot be kept in `Dir` (it cannot be made, or a
/// file cannot be written there); empty when it can.
std::string cacheProblem(llvm::StringRef Dir);

/// The C, C++ and CUDA sources of a compilation database.
std::vector<std::string>
sourcesOfDatabase(const clang::tooling::CompilationDatabase &DB);

/// Stage "parse", the compile database, settled before the parser: found
/// as clangd finds it when the command line names none, or looked for in
/// the folder -p names (Inputs.cpp). The arguments are changed in `Args`,
/// which `Argc` and `Argv` then name; `Found` holds the database's folder.
/// The exit code when the run ends here.
std::optional<int> findDatabase(Invocation &Inv,
                                std::vector<const char *> &Args,
                                std::string &Found, int &Argc,
                                const char **&Argv);

/// Stage "plan", the units: the files given, or every source file of the
/// compilation database named by -p, with --whole-database both; then this
/// run's shard of them. The exit code when the run ends here.
std::optional<int> selectUnits(clang::tooling::CommonOptionsParser &Parser,
                               Invocation &Inv);

/// Stage "plan", the files named on the command line: one line for each
/// that cannot be analysed, which is skipped; `BadInput` then fails the
/// run, and a run left with none ends now.
std::optional<int> dropBadInputs(Invocation &Inv, bool &BadInput);

/// Stage "plan", the cache: where the results cache is and how big it may
/// grow. The exit code when the run ends here.
std::optional<int> readCacheOptions(Invocation &Inv);

/// Stage "plan", the compile commands: nvcc's become clang's, .cu inputs
/// host-only, clang's builtin headers, --removed-arg and --torch. The exit
/// code when the run ends here.
std::optional<int> adjustCompilations(
    clang::tooling::ArgumentsAdjustingCompilations &Compilations);

} // namespace cublas_tidy

#endif
