//===- MemorySpaceCheck.h - Shared part of the memory-space checks --------===//
//
// cublas-host-pointer and cublas-device-pointer both look at the pointer
// arguments of every cuBLAS call, through the pointer provenance analysis
// of the function the call is in, and word their findings the same way.
// This base class finds the calls, runs the analysis once per function and
// words the diagnostics; each check decides which arguments are wrong.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_CHECKS_MEMORYSPACECHECK_H
#define CUBLAS_TIDY_CHECKS_MEMORYSPACECHECK_H

#include "ClangTidyCheck.h"
#include "CublasApi.h"
#include "PointerProvenance.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cublas {

class MemorySpaceCheck : public ClangTidyCheck {
public:
  MemorySpaceCheck(StringRef Name, ClangTidyContext *Context)
      : ClangTidyCheck(Name, Context) {}
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override {
    Analyzed.clear();
    Reported.clear();
  }

protected:
  /// Looks at one cuBLAS call `Call` to `F`, with what `P` knows.
  virtual void checkCall(const CallExpr *Call,
                         const cublas_tidy::FunctionInfo &F,
                         const cublas_tidy::PointerProvenance &P,
                         ASTContext &Ctx) = 0;

  /// What a wrong argument is wrong about.
  enum class Expected {
    DeviceMemory,        // must point to device memory
    DevicePointerArray,  // the array of pointers must be in device memory
    HostMemory,          // must point to host memory
    DeviceScalar,        // read from / written to device memory per mode
    HostScalar,          // read from / written to host memory per mode
  };

  /// Reports argument `Index` of `Call`, which points to the memory `Fact`
  /// describes, where `Want` was expected. `Mode` is the pointer mode
  /// behind DeviceScalar and HostScalar (with the handle argument).
  void report(const CallExpr *Call, const cublas_tidy::FunctionInfo &F,
              unsigned Index, const cublas_tidy::PointerFact &Fact,
              Expected Want, ASTContext &Ctx,
              const cublas_tidy::PointerModeFact *Mode = nullptr,
              const Expr *Handle = nullptr);

  /// The pointer mode of the handle of a classic cuBLAS call (unknown for
  /// cuBLASLt and cuBLASXt, and when the call has no handle), and the
  /// handle argument.
  static cublas_tidy::PointerModeFact
  modeOf(const CallExpr *Call, const cublas_tidy::FunctionInfo &F,
         const cublas_tidy::PointerProvenance &P, const Expr **Handle);

private:
  llvm::DenseSet<const Decl *> Analyzed;
  /// (argument location, parameter) pairs already reported: template
  /// instantiations share their source.
  llvm::DenseSet<std::pair<unsigned, unsigned>> Reported;
};

} // namespace clang::tidy::cublas

#endif
