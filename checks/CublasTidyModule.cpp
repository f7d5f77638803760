//===- CublasTidyModule.cpp - Registers the cublas-* checks ---------------===//

#include "AlignmentCheck.h"
#include "ClangTidyModule.h"
#include "DataTypeCheck.h"
#include "DevicePointerCheck.h"
#include "HandleChecks.h"
#include "HandlePerCallCheck.h"
#include "HandleStateCheck.h"
#include "HostPointerCheck.h"
#include "IntegerOverflowCheck.h"
#include "MatrixExtentsCheck.h"
#include "UncheckedStatusCheck.h"

#include "clang/Basic/Version.h"
#if CLANG_VERSION_MAJOR < 22
// Before clang-tidy 22 the registry had a header of its own.
#include "ClangTidyModuleRegistry.h"
#endif

namespace clang::tidy {
namespace cublas {

class CublasTidyModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &Factories) override {
    Factories.registerCheck<AlignmentCheck>("cublas-alignment");
    Factories.registerCheck<DataTypeCheck>("cublas-data-type");
    Factories.registerCheck<HandleLeakCheck>("cublas-handle-leak");
    Factories.registerCheck<HandlePerCallCheck>("cublas-handle-per-call");
    Factories.registerCheck<HandleStateCheck>("cublas-handle-state");
    Factories.registerCheck<HandleUseAfterDestroyCheck>(
        "cublas-handle-use-after-destroy");
    Factories.registerCheck<DevicePointerCheck>("cublas-device-pointer");
    Factories.registerCheck<HostPointerCheck>("cublas-host-pointer");
    Factories.registerCheck<IntegerOverflowCheck>("cublas-integer-overflow");
    Factories.registerCheck<MatrixExtentsCheck>("cublas-matrix-extents");
    Factories.registerCheck<UncheckedStatusCheck>("cublas-unchecked-status");
  }
};

// Referenced by each front end so that the linker keeps this object file.
volatile int CublasTidyModuleAnchorSource = 0;

} // namespace cublas

static ClangTidyModuleRegistry::Add<cublas::CublasTidyModule>
    X("cublas-module", "Checks for cuBLAS API misuse.");

} // namespace clang::tidy
