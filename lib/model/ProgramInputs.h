//===- ProgramInputs.h - The functions that read values from outside ------===//
//
// The C and C++ library functions through which a program takes an integer
// from outside itself: the parsers of text (`atoi`, `strtol`, `std::stoi`:
// their text is usually the command line, the environment or a file), the
// scanners that write what they read through pointer arguments (`scanf`,
// `fscanf`, `sscanf`), and where the text comes from (`getenv`, getopt's
// `optarg`). A value that comes through one of them and is never bounded
// can be as large as the user makes it: the evidence some integer rules
// need before they say a product can wrap (facts/ProgramInputs.h). As data,
// like the cuBLAS model; nothing here knows of clang.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_MODEL_PROGRAMINPUTS_H
#define CUBLAS_TIDY_LIB_MODEL_PROGRAMINPUTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace cublas_tidy::input_api {

/// How a function hands over what it read.
enum class InputKind : std::uint8_t {
  Parse,      // returns the integer parsed from its first argument's text
  Scan,       // writes what it reads through its arguments from FirstOut
  TextSource, // returns text from outside the program (getenv)
};

/// One function of the C or C++ library.
struct InputFunction {
  const char *Name; // as documented, without `std::`: "atoi", "stoll"
  InputKind Kind;
  /// Scan: the first argument written through; -1 otherwise.
  int FirstOut;
};

/// Every function, in the table's order.
llvm::ArrayRef<InputFunction> inputFunctions();

/// The function named `Name` (of the global namespace or of `std`), or
/// null.
const InputFunction *lookupInputFunction(llvm::StringRef Name);

/// True when a variable of this name holds a command-line argument that a
/// library hands over (getopt's `optarg`); `main`'s own `argv` is known by
/// its position, whatever its name.
bool isCommandLineVariable(llvm::StringRef Name);

} // namespace cublas_tidy::input_api

#endif
