//===- DataTypeCheck.h - cublas-data-type ---------------------------------===//

#ifndef CUBLAS_TIDY_CHECKS_DATATYPECHECK_H
#define CUBLAS_TIDY_CHECKS_DATATYPECHECK_H

#include "CublasCallCheck.h"
#include "facts/CallerFacts.h"
#include "facts/LtDescriptors.h"
#include "facts/OperandTypes.h"
#include "facts/Summaries.h"

#include "model/CublasApi.h"

namespace clang::tidy::cublas {

/// Finds the element types of the Ex routines that contradict the source:
/// a pointer whose type is not the cudaDataType_t given for it, alpha and
/// beta of another type than the compute type's scale type, and type
/// combinations cublasGemmEx and its batched forms do not support, and FP8
/// matmuls in a layout the targeted GPUs refuse.
///
/// For the user-facing documentation see:
/// docs/checks/cublas-data-type.md
class DataTypeCheck : public CublasCallCheck {
public:
  DataTypeCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  /// The calls that name a cudaDataType_t, and cublasLtMatmul.
  bool wants(const cublas_tidy::FunctionInfo &F) const override;
  /// A call of the project's own function that gives its pointers to
  /// cuBLAS with a type of its own.
  void checkOtherCall(const CallExpr *Call, const Decl *Callable,
                      ASTContext &Ctx) override;
  void clearUnit() override { Callers.clear(); }
  void checkCall(const CallExpr *Call, const cublas_tidy::FunctionInfo &F,
                 const Decl *Callable, ASTContext &Ctx) override;
  /// The pointers `Call` gives to a function of the project that gives them
  /// to cuBLAS with a type of its own: `Buffers`, defined `Elsewhere` or in
  /// this unit.
  void checkWrapperCall(
      const CallExpr *Call, const FunctionDecl *Wrapper,
      llvm::ArrayRef<cublas_tidy::FunctionSummary::BufferParam> Buffers,
      llvm::StringRef File, ASTContext &Ctx);
  void checkLtMatmul(const CallExpr *Call, const cublas_tidy::FunctionInfo &F,
                     const cublas_tidy::ValueFacts &Facts, ASTContext &Ctx);
  /// "`Arg` points to ... but `Declared` (...)", with a note at the
  /// layout's create when the type is a layout's.
  void reportPointer(const Expr *Arg, StringRef Param,
                     const cublas_tidy::HeldType &H,
                     const cublas_tidy::DataTypeInfo &D,
                     const std::string &Declared, const CallExpr *DeclaredAt,
                     ASTContext &Ctx);
  void reportScalar(const Expr *Arg, StringRef Param,
                    const cublas_tidy::HeldType &H,
                    const cublas_tidy::DataTypeInfo &Scale,
                    const std::string &Reader, const CallExpr *ReaderAt,
                    ASTContext &Ctx);

  /// FP8 A or B in a layout other than TN (on targets below sm_100).
  void checkFp8Layout(const CallExpr *Call, const cublas_tidy::DataTypeInfo *A,
                      const cublas_tidy::DataTypeInfo *B,
                      const cublas_tidy::LtMatmulDescFacts &D, ASTContext &Ctx);

  /// The option CudaArchitectures: the GPUs the code is built for
  /// ("sm_90,sm_100"); empty: not known.
  std::string CudaArchitecturesText;
  std::vector<unsigned> CudaArchitectures;
  cublas_tidy::CallerFacts Callers{0};
};

} // namespace clang::tidy::cublas

#endif
