//===- CublasApiLookup.cpp - Function lookup by name ----------------------===//
//
// The name index of the API model, apart from CublasApi.cpp because it links
// LLVMSupport (StringMap).
//
//===----------------------------------------------------------------------===//

#include "model/CublasApi.h"

#include "llvm/ADT/StringMap.h"

namespace cublas_tidy {
namespace {

const llvm::StringMap<const FunctionInfo *> &index() {
  static const llvm::StringMap<const FunctionInfo *> Map = [] {
    llvm::StringMap<const FunctionInfo *> M;
    for (const FunctionInfo &F : allFunctions())
      M.try_emplace(F.Name, &F);
    return M;
  }();
  return Map;
}

} // namespace

const FunctionInfo *lookupFunction(llvm::StringRef Name) {
  // Every function of the model is a cublas*, cusolver* or cusparse* one:
  // most calls of a program are answered without hashing their name.
  if (!Name.starts_with("cu") ||
      !(Name.starts_with("cublas") || Name.starts_with("cusolver") ||
        Name.starts_with("cusparse")))
    return nullptr;
  const auto &Map = index();
  auto It = Map.find(Name);
  return It == Map.end() ? nullptr : It->second;
}

} // namespace cublas_tidy
