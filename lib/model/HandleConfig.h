//===- HandleConfig.h - What a handle carries between calls ---------------===//
//
// A cuBLAS handle carries configuration that every later call on it obeys:
// its stream, its workspace, its pointer mode, its math mode, its atomics
// mode. The functions that set or read each one, as one table; the rule of
// the cuBLAS guide that ties two of them (cublasSetStream resets the user
// workspace) is a column. As data, like the cuBLAS model; nothing here
// knows of clang.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_MODEL_HANDLECONFIG_H
#define CUBLAS_TIDY_LIB_MODEL_HANDLECONFIG_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace cublas_tidy::handle_config {

/// One piece of a handle's configuration.
enum class Setting : std::uint8_t {
  Stream,
  Workspace,
  PointerMode,
  MathMode,
  AtomicsMode,
};

/// One function that sets or reads a setting of its handle argument.
struct ConfigFunction {
  const char *Name; // the real symbol: "cublasSetStream_v2"
  Setting What;
  bool Sets;        // false for the Get functions
  unsigned HandleArg;
  unsigned ValueArg; // the value set, or the pointer the Get writes
  /// Setting this also resets the workspace to the default pool
  /// (cublasSetStream: "cublasSetStream() unconditionally resets the cuBLAS
  /// library workspace back to the default workspace pool").
  bool ResetsWorkspace;
};

/// Every configuration function, in the table's order.
llvm::ArrayRef<ConfigFunction> configFunctions();

/// The row for a real function name ("cublasSetStream_v2"), or null.
const ConfigFunction *configFunction(llvm::StringRef Name);

/// "stream", "workspace", "pointer mode", ...
llvm::StringRef settingName(Setting S);

} // namespace cublas_tidy::handle_config

#endif
