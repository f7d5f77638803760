//===- AstUtils.h - Facts about cuBLAS calls in the AST -------------------===//

#ifndef CUBLAS_TIDY_LIB_AST_ASTUTILS_H
#define CUBLAS_TIDY_LIB_AST_ASTUTILS_H

#include "model/CublasApi.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"

namespace cublas_tidy {

/// The name of the enumeration `T` denotes, looking through typedefs and
/// `typedef enum { ... } name;` declarations; empty when `T` is no enum.
llvm::StringRef enumTypeName(clang::QualType T);

/// The name of an enumeration: its tag, or for `typedef enum { ... } name;`
/// the typedef's name.
llvm::StringRef enumDeclName(const clang::EnumDecl *ED);

/// Whether an enumeration name (enumTypeName, enumDeclName) is cuBLAS's
/// status or the CUDA runtime's error code.
bool isCublasStatusName(llvm::StringRef EnumName);
bool isCudaErrorName(llvm::StringRef EnumName);

/// `cublasStatus_t`, as returned by every cuBLAS entry point.
bool isCublasStatusType(clang::QualType T);

/// `cudaError_t`, the CUDA runtime's error code.
bool isCudaErrorType(clang::QualType T);

/// The model's row for the function `Call` calls, or nullptr.
const FunctionInfo *calledCublasFunction(const clang::CallExpr *Call);

/// The name of the called function as the user wrote it: "cublasSgemm" for a
/// call spelled through cuBLAS's `#define cublasSgemm cublasSgemm_v2`, else
/// the declaration's name. Empty for indirect calls.
std::string spelledCalleeName(const clang::CallExpr *Call,
                              const clang::SourceManager &SM,
                              const clang::LangOptions &LangOpts);

/// Where to report a diagnostic for something at `Loc`: the location in the
/// user's file (a macro argument's spelling, else the macro's expansion),
/// never a location inside a system header, where clang-tidy would drop it.
clang::SourceLocation userLocation(clang::SourceLocation Loc,
                                   const clang::SourceManager &SM);

/// The text of `E` as written in the user's file (for a macro argument, its
/// spelling) when it is on one line and at most `MaxLength` characters long;
/// empty otherwise. Messages quote it: "lda (K = 128)", "'x.data()'".
std::string writtenText(const clang::Expr *E, const clang::ASTContext &Ctx,
                        unsigned MaxLength);

} // namespace cublas_tidy

#endif
