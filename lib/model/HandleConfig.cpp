//===- HandleConfig.cpp ---------------------------------------------------===//

#include "model/HandleConfig.h"
#include "model/Rows.h"

namespace cublas_tidy::handle_config {

namespace {

constexpr ConfigFunction Table[] = {
    {"cublasSetStream_v2", Setting::Stream, true, 0, 1, true},
    {"cublasGetStream_v2", Setting::Stream, false, 0, 1, false},
    {"cublasSetWorkspace_v2", Setting::Workspace, true, 0, 1, false},
    {"cublasSetPointerMode_v2", Setting::PointerMode, true, 0, 1, false},
    {"cublasGetPointerMode_v2", Setting::PointerMode, false, 0, 1, false},
    {"cublasSetMathMode", Setting::MathMode, true, 0, 1, false},
    {"cublasGetMathMode", Setting::MathMode, false, 0, 1, false},
    {"cublasSetAtomicsMode", Setting::AtomicsMode, true, 0, 1, false},
    {"cublasGetAtomicsMode", Setting::AtomicsMode, false, 0, 1, false},
    // cuSOLVER's and cuSPARSE's handles carry a stream too; setting it
    // resets nothing else.
    {"cusolverDnSetStream", Setting::Stream, true, 0, 1, false},
    {"cusolverDnGetStream", Setting::Stream, false, 0, 1, false},
    {"cusparseSetStream", Setting::Stream, true, 0, 1, false},
    {"cusparseGetStream", Setting::Stream, false, 0, 1, false},
    // cuSPARSE's handle has a pointer mode of its own (host at the create).
    {"cusparseSetPointerMode", Setting::PointerMode, true, 0, 1, false},
    {"cusparseGetPointerMode", Setting::PointerMode, false, 0, 1, false},
};

} // namespace

llvm::ArrayRef<ConfigFunction> configFunctions() { return Table; }

const ConfigFunction *configFunction(llvm::StringRef Name) {
  return rowNamed(Table, Name);
}

llvm::StringRef settingName(Setting S) {
  switch (S) {
  case Setting::Stream:
    return "stream";
  case Setting::Workspace:
    return "workspace";
  case Setting::PointerMode:
    return "pointer mode";
  case Setting::MathMode:
    return "math mode";
  case Setting::AtomicsMode:
    return "atomics mode";
  }
  return "setting";
}

} // namespace cublas_tidy::handle_config
