//===- DevicePointerCheck.cpp - cublas-device-pointer ---------------------===//

#include "DevicePointerCheck.h"

using namespace cublas_tidy;

namespace clang::tidy::cublas {

void DevicePointerCheck::checkCall(const CallExpr *Call, const FunctionInfo &F,
                                   const PointerProvenance &P,
                                   ASTContext &Ctx) {
  llvm::ArrayRef<ParamInfo> Params = F.params();
  for (unsigned I = 0, E = std::min<unsigned>(Params.size(),
                                              Call->getNumArgs());
       I < E; ++I) {
    switch (Params[I].Role) {
    case ParamRole::HostMatrix:
    case ParamRole::HostVector:
    case ParamRole::HostArray:
    case ParamRole::HostScalar: {
      PointerFact Fact = P.argument(Call, I);
      if (Fact.Kind == MemoryKind::Device)
        report(Call, F, I, Fact, Expected::HostMemory, Ctx);
      break;
    }
    case ParamRole::Scalar:
    case ParamRole::ScalarResult: {
      // The host mode is known only for a handle created in this function
      // (the default) or set to it here.
      PointerFact Fact = P.argument(Call, I);
      if (Fact.Kind != MemoryKind::Device)
        break;
      const Expr *Handle = nullptr;
      PointerModeFact Mode = modeOf(Call, F, P, &Handle);
      if (Mode.Mode == PointerMode::Host)
        report(Call, F, I, Fact, Expected::HostScalar, Ctx, &Mode, Handle);
      break;
    }
    default:
      break;
    }
  }
}

} // namespace clang::tidy::cublas
