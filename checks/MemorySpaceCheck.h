//===- MemorySpaceCheck.h - Shared part of the memory-space checks --------===//
//
// cublas-host-pointer and cublas-device-pointer both look at the pointer
// arguments of every cuBLAS call, through the pointer provenance analysis
// of the function the call is in, and word their findings the same way.
// This base class finds the calls, runs the analysis once per function and
// words the diagnostics; each check says which memory is wrong where.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_CHECKS_MEMORYSPACECHECK_H
#define CUBLAS_TIDY_CHECKS_MEMORYSPACECHECK_H

#include "CublasCallCheck.h"
#include "model/CublasApi.h"
#include "facts/PointerProvenance.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>

namespace clang::tidy::cublas {

class MemorySpaceCheck : public CublasCallCheck {
protected:
  /// What an argument must point to.
  enum class Expected {
    DeviceMemory,       // device memory
    DevicePointerArray, // an array of pointers that is itself in device memory
    HostMemory,         // host memory
  };

  /// A check that reports arguments pointing to `Wrong` memory where its
  /// expectationFor() says otherwise, and the scalars of classic cuBLAS
  /// routines that point to `Wrong` memory while the handle is in
  /// `ScalarMode`.
  MemorySpaceCheck(StringRef Name, ClangTidyContext *Context,
                   cublas_tidy::MemoryKind Wrong,
                   cublas_tidy::PointerMode ScalarMode)
      : CublasCallCheck(Name, Context, OtherCalls | SystemHeaderCalls),
        Wrong(Wrong), ScalarMode(ScalarMode) {}

  /// What a parameter of `Role` must point to, when this check looks at it
  /// (pointer-mode scalars aside).
  virtual std::optional<Expected>
  expectationFor(cublas_tidy::ParamRole Role) const = 0;

private:
  /// A function that calls cuBLAS, or a function of another unit that
  /// passes pointers to cuBLAS, where the dataflow may find wrong memory.
  bool worthVisiting(const Decl *Callable, ASTContext &Ctx) override;
  /// The calls of `Callable` the pointer provenance reached.
  std::optional<llvm::ArrayRef<const CallExpr *>>
  callsToVisit(const Decl *Callable, ASTContext &Ctx) override;
  /// A call of a function of another unit that passes pointers to cuBLAS.
  void checkOtherCall(const CallExpr *Call, const Decl *Callable,
                      ASTContext &Ctx) override;
  void clearUnit() override { Reported.clear(); }

  static const cublas_tidy::PointerProvenance &
  provenanceOf(const Decl *Callable, ASTContext &Ctx);

  void checkProjectCall(const CallExpr *Call,
                        const cublas_tidy::FunctionSummary &S,
                        const cublas_tidy::PointerProvenance &P,
                        ASTContext &Ctx);
  /// Notes where the memory `Fact` describes came from.
  void noteOrigin(const Expr *Arg, const cublas_tidy::PointerFact &Fact,
                  const SourceManager &SM);
  void checkCall(const CallExpr *Call, const cublas_tidy::FunctionInfo &F,
                 const Decl *Callable, ASTContext &Ctx) override;
  /// cublasLtMatmulDescSetAttribute of an attribute that holds a device
  /// pointer (the FP8 scales, the bias), given the address of a pointer to
  /// wrong memory.
  void checkPointerAttribute(const CallExpr *Call,
                             const cublas_tidy::PointerProvenance &P,
                             const Decl *Callable, ASTContext &Ctx);
  /// Reports argument `Index` of `Call`, which points to the memory `Fact`
  /// describes, where `Want` was expected; for a scalar, `Mode` is the
  /// handle's pointer mode and `Handle` the handle argument.
  void report(const CallExpr *Call, const cublas_tidy::FunctionInfo &F,
              unsigned Index, const cublas_tidy::PointerFact &Fact,
              Expected Want, ASTContext &Ctx,
              const cublas_tidy::PointerModeFact *Mode = nullptr,
              const Expr *Handle = nullptr, StringRef ModeName = "");

  const cublas_tidy::MemoryKind Wrong;
  const cublas_tidy::PointerMode ScalarMode;
  /// (argument location, parameter) pairs already reported: template
  /// instantiations share their source.
  llvm::DenseSet<std::pair<unsigned, unsigned>> Reported;
};

} // namespace clang::tidy::cublas

#endif
