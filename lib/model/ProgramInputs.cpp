//===- ProgramInputs.cpp --------------------------------------------------===//

#include "model/ProgramInputs.h"
#include "model/Rows.h"

namespace cublas_tidy::input_api {

namespace {

using K = InputKind;

const InputFunction Table[] = {
    // The C library's parsers of integers.
    {"atoi", K::Parse, -1},
    {"atol", K::Parse, -1},
    {"atoll", K::Parse, -1},
    {"strtol", K::Parse, -1},
    {"strtoll", K::Parse, -1},
    {"strtoul", K::Parse, -1},
    {"strtoull", K::Parse, -1},
    {"strtoimax", K::Parse, -1},
    {"strtoumax", K::Parse, -1},
    // The C++ library's.
    {"stoi", K::Parse, -1},
    {"stol", K::Parse, -1},
    {"stoll", K::Parse, -1},
    {"stoul", K::Parse, -1},
    {"stoull", K::Parse, -1},
    // Scanners: the format first (after the stream or the text).
    {"scanf", K::Scan, 1},
    {"fscanf", K::Scan, 2},
    {"sscanf", K::Scan, 2},
    {"__isoc99_scanf", K::Scan, 1},
    {"__isoc99_fscanf", K::Scan, 2},
    {"__isoc99_sscanf", K::Scan, 2},
    // Text from outside: the environment.
    {"getenv", K::TextSource, -1},
    {"secure_getenv", K::TextSource, -1},
};

} // namespace

llvm::ArrayRef<InputFunction> inputFunctions() { return Table; }

const InputFunction *lookupInputFunction(llvm::StringRef Name) {
  return rowNamed(Table, Name);
}

bool isCommandLineVariable(llvm::StringRef Name) { return Name == "optarg"; }

} // namespace cublas_tidy::input_api
