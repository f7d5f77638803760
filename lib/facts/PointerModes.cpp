//===- PointerModes.cpp ---------------------------------------------------===//

#include "facts/PointerModes.h"

#include "facts/LtDescriptors.h"

using namespace clang;

namespace cublas_tidy {

namespace {

/// The PointerMode of a cuBLASLt ScalarSpace.
PointerMode modeOf(ScalarSpace Space) {
  return Space == ScalarSpace::Device ? PointerMode::Device
         : Space == ScalarSpace::Host ? PointerMode::Host
                                      : PointerMode::Unknown;
}

ScalarPointerMode ltMode(const CallExpr *Call, const FunctionInfo &F,
                         unsigned Param, const ValueFacts &Facts) {
  ScalarPointerMode M;
  std::optional<LtMatmulDescFacts> D = ltMatmulDescOf(Call, F, Facts);
  if (!D || !D->PointerMode)
    return M;
  M.Handle = Call->getArg(F.findParamNamed("computeDesc"));
  M.Mode.Mode = modeOf(ltScalarSpace(*D->PointerMode, F.params()[Param].Op));
  M.Mode.Where = D->PointerModeSet ? D->PointerModeSet : D->Create;
  M.Mode.FromCreate = !D->PointerModeSet;
  M.Name = ltPointerModeName(*D->PointerMode).str();
  return M;
}

} // namespace

ScalarPointerMode
pointerModeAt(const CallExpr *Call, const FunctionInfo &F, unsigned Param,
              const PointerProvenance &P,
              llvm::function_ref<const ValueFacts &()> Facts) {
  if (llvm::StringRef(F.Name) == "cublasLtMatmul")
    return ltMode(Call, F, Param, Facts());
  ScalarPointerMode M;
  int Index = F.findParam(ParamRole::Resource);
  // cuSPARSE's handle has a mode of its own, with the same two values.
  auto NameOf = [&F](PointerMode Mode) {
    return pointerModeName(F.Family, Mode == PointerMode::Device).str();
  };
  if ((F.Family != ApiFamily::Classic && F.Family != ApiFamily::Sparse) ||
      Index < 0 || static_cast<unsigned>(Index) >= Call->getNumArgs()) {
    M.Name = NameOf(PointerMode::Host);
    return M;
  }
  M.Handle = Call->getArg(Index);
  M.Mode = P.pointerMode(Call, M.Handle);
  M.Name = NameOf(M.Mode.Mode);
  return M;
}

} // namespace cublas_tidy
