//===- AstUtils.h - Facts about cuBLAS calls in the AST -------------------===//

#ifndef CUBLAS_TIDY_LIB_AST_ASTUTILS_H
#define CUBLAS_TIDY_LIB_AST_ASTUTILS_H

#include "model/CublasApi.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <type_traits>

namespace cublas_tidy {

/// The name of the enumeration `T` denotes, looking through typedefs and
/// `typedef enum { ... } name;` declarations; empty when `T` is no enum.
llvm::StringRef enumTypeName(clang::QualType T);

/// The name of an enumeration: its tag, or for `typedef enum { ... } name;`
/// the typedef's name.
llvm::StringRef enumDeclName(const clang::EnumDecl *ED);

/// Whether an enumeration name (enumTypeName, enumDeclName) is the status of
/// cuBLAS or of its neighbours (cublasStatus_t, cusolverStatus_t,
/// cusparseStatus_t), or the CUDA runtime's error code.
bool isLibraryStatusName(llvm::StringRef EnumName);
bool isCudaErrorName(llvm::StringRef EnumName);

/// The library whose status `EnumName` is ("cuBLAS", "cuSOLVER",
/// "cuSPARSE"), and that status's success enumerator
/// ("CUBLAS_STATUS_SUCCESS"); empty for any other name.
llvm::StringRef statusLibrary(llvm::StringRef EnumName);
llvm::StringRef statusSuccess(llvm::StringRef EnumName);

/// `cublasStatus_t` (or `cusolverStatus_t`, `cusparseStatus_t`), as
/// returned by every entry point of these libraries.
bool isLibraryStatusType(clang::QualType T);

/// `cudaError_t`, the CUDA runtime's error code.
bool isCudaErrorType(clang::QualType T);

/// `cublasHandle_t` (a pointer to `cublasContext`).
bool isCublasHandleType(clang::QualType T);

/// A handle with a pointer mode: `cublasHandle_t` or `cusparseHandle_t`
/// (a pointer to `cusparseContext`).
bool isPointerModeHandleType(clang::QualType T);

/// True for the handle and descriptor types of cuBLAS, cuBLASLt and
/// cuBLASXt (cublasHandle_t, cublasLtMatmulDesc_t, ...).
bool isCublasResourceType(clang::QualType T);

/// The model's row for the function `Call` calls, or nullptr.
const FunctionInfo *calledCublasFunction(const clang::CallExpr *Call);

/// The name of the called function as the user wrote it: "cublasSgemm" for a
/// call spelled through cuBLAS's `#define cublasSgemm cublasSgemm_v2`, else
/// the declaration's name. Empty for indirect calls.
std::string spelledCalleeName(const clang::CallExpr *Call,
                              const clang::SourceManager &SM,
                              const clang::LangOptions &LangOpts);

/// True when `Loc` was expanded in a system header (SourceManager's
/// isInSystemHeader of its expansion). The main file, the usual answer, is
/// told by its offsets, without the file lookup that costs most of the
/// question.
bool expandedInSystemHeader(clang::SourceLocation Loc,
                            const clang::SourceManager &SM);

/// The absolute path (against the compile command's directory: the file
/// manager's working directory) of the file `FID`; empty when it has none.
std::string absolutePathOf(const clang::SourceManager &SM, clang::FileID FID);

/// The name a record is written with: its own, or the typedef's of an
/// anonymous one (`typedef struct { ... } ctx_t;`).
std::string recordName(const clang::RecordDecl *RD);

/// A location at the start of line `Line` of the file at `Path`, which the
/// translation unit may not include (a definition in another unit, for a
/// note): the file is added to `SM`. Invalid when it cannot be read.
clang::SourceLocation locationInFile(clang::SourceManager &SM,
                                     llvm::StringRef Path, unsigned Line);

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

/// The variable `E` names (parentheses and implicit casts aside), or null.
const clang::VarDecl *referencedVar(const clang::Expr *E);

/// Argument `I` of `Call`; null when `I` is negative (a parameter the model
/// does not have: findParam's -1) or past the call's arguments.
inline const clang::Expr *argumentAt(const clang::CallExpr *Call, int I) {
  return I >= 0 && unsigned(I) < Call->getNumArgs() ? Call->getArg(I)
                                                     : nullptr;
}

/// `E` with parentheses, implicit conversions, full-expressions,
/// temporaries and copy or move constructions taken off: the object a copy
/// of which `E` is (`T x = f();`, a by-value argument, `return t;`).
const clang::Expr *ignoreCopies(const clang::Expr *E);

/// True when `Part` is `Whole` or one of the statements under it (a bounded
/// search: for placing notes, not for facts).
bool containsStmt(const clang::Stmt *Whole, const clang::Stmt *Part);

/// True when `E` begins with an expansion of the macro `Name` (written
/// directly, or inside another macro's body or argument): `EXIT_FAILURE`
/// in `return EXIT_FAILURE;` or in a CHECK macro that returns it.
bool writtenWithMacro(const clang::Expr *E, llvm::StringRef Name,
                      const clang::SourceManager &SM,
                      const clang::LangOptions &LangOpts);

/// `v` when `E` is `&v` for a variable v, or null.
const clang::VarDecl *addressedVar(const clang::Expr *E);

/// The truth of `E` when it is an integer or bool literal (`0`, `1`,
/// `false`), parentheses and implicit conversions aside; nullopt otherwise.
std::optional<bool> literalTruth(const clang::Expr *E);

/// Whether `Call` ends the process: a `[[noreturn]]` function, or `exit`,
/// `abort`, `_Exit`, `quick_exit`.
bool endsProcess(const clang::CallExpr *Call);

/// Whether `Call` is `std::max` or `std::min` of two arguments.
bool isStdMaxOrMin(const clang::CallExpr *Call);

/// Whether `S` is a loop: for, while, do or range-for.
bool isLoopStmt(const clang::Stmt *S);

/// Whether `Child`, a child of `Parent`, runs whenever `Parent` does: the
/// statements of a block, the operands of a call, the condition of an if
/// (not its branches), the left side of `&&` (not the right), the body of
/// a macro's `do { ... } while (0)`.
bool alwaysRuns(const clang::Stmt *Parent, const clang::Stmt *Child,
                const clang::ASTContext &Ctx);

/// What a visitor of walkStmts() asks of the walk after a statement.
enum class WalkStep {
  Enter, // go on into its children
  Skip,  // leave its children out, go on with the rest
  Stop,  // end the walk here
};

/// Visits `S` and the statements under it in pre-order, iteratively (bodies
/// may nest thousands of levels deep) and at most `Budget` of them: the one
/// walk of a statement tree in the project. A statement comes before its
/// children, but the children of one statement come last-first: the first
/// match is not the first in the source (compare source locations for
/// that). `Visit(N)` returns whether to go on into N's children (a bool),
/// or a WalkStep. A nested lambda is visited but not entered (it is a
/// callable of its own) unless `IntoLambdas`. False when the budget ran
/// out before the walk was done.
template <class Fn>
bool walkStmts(const clang::Stmt *S, Fn &&Visit, unsigned Budget = 200000,
               bool IntoLambdas = false) {
  llvm::SmallVector<const clang::Stmt *, 64> Work{S};
  while (!Work.empty()) {
    if (Budget-- == 0)
      return false;
    const clang::Stmt *N = Work.pop_back_val();
    if (!N)
      continue;
    WalkStep Step;
    if constexpr (std::is_same_v<decltype(Visit(N)), WalkStep>)
      Step = Visit(N);
    else
      Step = Visit(N) ? WalkStep::Enter : WalkStep::Skip;
    if (Step == WalkStep::Stop)
      return true;
    if (Step == WalkStep::Skip ||
        (!IntoLambdas && llvm::isa<clang::LambdaExpr>(N)))
      continue;
    for (const clang::Stmt *Child : N->children())
      Work.push_back(Child);
  }
  return true;
}

/// Whether `S` or a statement under it (lambda bodies included) satisfies
/// `Pred`, among the first `Budget` statements.
template <class Fn>
bool anyStmt(const clang::Stmt *S, Fn &&Pred, unsigned Budget = 200000) {
  bool Found = false;
  walkStmts(
      S,
      [&](const clang::Stmt *N) {
        Found = Pred(N);
        return Found ? WalkStep::Stop : WalkStep::Enter;
      },
      Budget, /*IntoLambdas=*/true);
  return Found;
}

/// Whether `S` or a statement under it names `VD` (lambda bodies
/// included).
inline bool namesVar(const clang::Stmt *S, const clang::VarDecl *VD) {
  return anyStmt(
      S,
      [&](const clang::Stmt *Cur) {
        const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(Cur);
        return DRE && DRE->getDecl() == VD;
      },
      ~0u);
}

} // namespace cublas_tidy

#endif
