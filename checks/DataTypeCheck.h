//===- DataTypeCheck.h - cublas-data-type ---------------------------------===//

#ifndef CUBLAS_TIDY_CHECKS_DATATYPECHECK_H
#define CUBLAS_TIDY_CHECKS_DATATYPECHECK_H

#include "CublasCheck.h"
#include "facts/CallerFacts.h"
#include "facts/OperandTypes.h"
#include "facts/Summaries.h"

#include <map>
#include "model/CublasApi.h"

namespace clang::tidy::cublas {

/// Finds the element types of the Ex routines that contradict the source:
/// a pointer whose type is not the cudaDataType_t given for it, alpha and
/// beta of another type than the compute type's scale type, and type
/// combinations cublasGemmEx and its batched forms do not support.
///
/// For the user-facing documentation see:
/// docs/checks/cublas-data-type.md
class DataTypeCheck : public CublasCheck {
public:
  using CublasCheck::CublasCheck;

private:
  void checkCallable(const Decl *Callable, ASTContext &Ctx) override;
  void clearUnit() override {
    Callers.clear();
    LocalBuffers.clear();
  }
  void checkCall(const CallExpr *Call, const cublas_tidy::FunctionInfo &F,
                 const cublas_tidy::ValueFacts &Facts, ASTContext &Ctx);
  /// The pointers `Call` gives to a function of the project that gives them
  /// to cuBLAS with a type of its own: `Buffers`, defined `Elsewhere` or in
  /// this unit.
  void checkWrapperCall(
      const CallExpr *Call, const FunctionDecl *Wrapper,
      llvm::ArrayRef<cublas_tidy::FunctionSummary::BufferParam> Buffers,
      llvm::StringRef File, ASTContext &Ctx);
  /// The typed buffers of the function `Call` calls, defined in this unit
  /// or (then `File` is set) another; null when it has none.
  const std::vector<cublas_tidy::FunctionSummary::BufferParam> *
  typedBuffersOf(const CallExpr *Call, ASTContext &Ctx, std::string &File);
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

  cublas_tidy::CallerFacts Callers{0};
  /// bufferParams() of the functions of this unit, with a type.
  std::map<const FunctionDecl *,
           std::vector<cublas_tidy::FunctionSummary::BufferParam>>
      LocalBuffers;
};

} // namespace clang::tidy::cublas

#endif
