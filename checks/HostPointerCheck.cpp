//===- HostPointerCheck.cpp - cublas-host-pointer -------------------------===//

#include "HostPointerCheck.h"

using namespace cublas_tidy;

namespace clang::tidy::cublas {

void HostPointerCheck::checkCall(const CallExpr *Call, const FunctionInfo &F,
                                 const PointerProvenance &P,
                                 ASTContext &Ctx) {
  llvm::ArrayRef<ParamInfo> Params = F.params();
  for (unsigned I = 0, E = std::min<unsigned>(Params.size(),
                                              Call->getNumArgs());
       I < E; ++I) {
    ParamRole Role = Params[I].Role;
    switch (Role) {
    case ParamRole::DeviceMatrix:
    case ParamRole::DeviceVector:
    case ParamRole::DeviceWorkspace:
    case ParamRole::DevicePointerArray: {
      PointerFact Fact = P.argument(Call, I);
      if (Fact.Kind == MemoryKind::PageableHost)
        report(Call, F, I, Fact,
               Role == ParamRole::DevicePointerArray
                   ? Expected::DevicePointerArray
                   : Expected::DeviceMemory,
               Ctx);
      break;
    }
    case ParamRole::Scalar:
    case ParamRole::ScalarResult: {
      // Pinned and managed memory are device-accessible: only pageable
      // host memory is wrong under CUBLAS_POINTER_MODE_DEVICE.
      PointerFact Fact = P.argument(Call, I);
      if (Fact.Kind != MemoryKind::PageableHost)
        break;
      const Expr *Handle = nullptr;
      PointerModeFact Mode = modeOf(Call, F, P, &Handle);
      if (Mode.Mode == PointerMode::Device)
        report(Call, F, I, Fact, Expected::DeviceScalar, Ctx, &Mode, Handle);
      break;
    }
    default:
      break;
    }
  }
}

} // namespace clang::tidy::cublas
