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
// And where the compile database is when the command line names none.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_TOOLS_INPUTS_H
#define CUBLAS_TIDY_TOOLS_INPUTS_H

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

} // namespace cublas_tidy

#endif
