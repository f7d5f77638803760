//===- ProgramInputs.h - Integers the program reads from outside ----------===//
//
// Whether an integer expression takes its value, on some path, from outside
// the program, with nothing on the way that bounds it from above: parsed
// from the command line (`atoi(argv[1])`, `std::stoi(optarg)`), from the
// environment (`atoi(getenv("N"))`), or read as input (`scanf("%d", &n)`,
// `std::cin >> n`, `strtol` of a line read). Such a value is as large as
// the user makes it: evidence, where the code's own values are not, that a
// product of it can outgrow its type.
//
// The value is followed through locals (every reaching definition),
// arithmetic and conditionals, and through parameters into the callers
// that the facts' context binds (CallerFacts.h gives the contexts of a
// function's call sites). A bound from above anywhere on the way
// (ValueBounds.h) ends the search: the author thought about the size.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_PROGRAMINPUTS_H
#define CUBLAS_TIDY_LIB_FACTS_PROGRAMINPUTS_H

#include "facts/ValueFacts.h"

#include "clang/AST/Expr.h"

#include <optional>

namespace cublas_tidy {

/// Where a value from outside the program comes from.
enum class InputSource {
  CommandLine, // main's argv, getopt's optarg
  Environment, // getenv
  Input,       // a scanner, a stream, text the program read
};

/// A read of a value from outside the program.
struct ProgramInput {
  /// The variable that receives it (`m` of `int m = atoi(argv[1]);`), or
  /// null when the read is the expression itself.
  const clang::VarDecl *Var = nullptr;
  /// The read: `atoi(argv[1])`, the `scanf` call, `std::cin >> m`.
  const clang::Expr *Read = nullptr;
  InputSource Source = InputSource::Input;
};

/// The read from outside the program that the integer expression `E`, of
/// the function `Facts` describes, takes its value from on some path with
/// no upper bound on the way; nullopt when there is none (or it is not
/// known).
std::optional<ProgramInput> programInput(const clang::Expr *E,
                                         const ValueFacts &Facts);

/// "the command line", "the environment", "input".
const char *inputSourceName(InputSource S);

} // namespace cublas_tidy

#endif
