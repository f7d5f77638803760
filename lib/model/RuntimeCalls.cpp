//===- RuntimeCalls.cpp ---------------------------------------------------===//

#include "model/RuntimeCalls.h"
#include "model/Rows.h"

namespace cublas_tidy::runtime_api {

namespace {

using K = RuntimeKind;

// Name, kind, target, source, bytes.
const RuntimeCall Table[] = {
    {"cudaMemcpy", K::Copy, 0, 1, 2},
    {"cudaMemcpyAsync", K::Copy, 0, 1, 2},
    {"cudaFree", K::Free, 0, -1, -1},
    {"cudaHostRegister", K::Register, 0, -1, 1},
    {"cudaSetDevice", K::SelectDevice, 0, -1, -1},
    {"cudaStreamCreate", K::CreateStream, 0, -1, -1},
    {"cudaStreamCreateWithFlags", K::CreateStream, 0, -1, -1},
    {"cudaStreamCreateWithPriority", K::CreateStream, 0, -1, -1},
};

} // namespace

llvm::ArrayRef<RuntimeCall> runtimeCalls() { return Table; }

const RuntimeCall *lookupRuntimeCall(llvm::StringRef Name) {
  // Every row is a CUDA runtime function (RuntimeCallsTest finds each):
  // most calls of a program are answered without a comparison per row.
  if (!Name.starts_with("cuda"))
    return nullptr;
  return rowNamed(Table, Name);
}

bool isRuntimeCall(llvm::StringRef Name, RuntimeKind Kind) {
  const RuntimeCall *R = lookupRuntimeCall(Name);
  return R && R->Kind == Kind;
}

} // namespace cublas_tidy::runtime_api
