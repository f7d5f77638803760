//===- TorchExprs.h - How the tensor facts read PyTorch's expressions -----===//
//
// The plumbing the tensor facts (TensorFacts.h, TensorShapes.h) share: which
// types and functions are PyTorch's (at::Tensor, c10::TensorOptions, the
// free functions of at, torch and c10), expressions with their conversions
// stripped, the one value of a local tensor nothing changes, and the pieces
// of a call written in the source (braced size lists, small constants, the
// object of a tensor method), by the table of model/TorchApi.h.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_LIBRARIES_TORCH_TORCHEXPRS_H
#define CUBLAS_TIDY_LIB_FACTS_LIBRARIES_TORCH_TORCHEXPRS_H

#include "ast/Callables.h"
#include "model/TorchApi.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace cublas_tidy {

/// True for at::Tensor, at::TensorBase and their aliases (torch::Tensor).
bool isTensorType(clang::QualType T);

/// False when no tensor type can exist in `Ctx`'s translation unit (neither
/// `Tensor` nor `TensorBase` was ever spelled in it): a test of the
/// identifier table, cheap enough to ask before following values to
/// tensors.
bool unitMayHoldTensors(const clang::ASTContext &Ctx);

namespace torch_facts {

/// How far the tensor facts follow values (locals, views, copies).
constexpr unsigned MaxDepth = 24;

/// `D` is `Namespace::Name`, the namespace at the top level.
bool isNamed(const clang::NamedDecl *D, llvm::StringRef Name,
             llvm::StringRef Namespace);
/// `T` is the enum `c10::Name` (a reference to it too).
bool isEnum(clang::QualType T, llvm::StringRef Name);
/// c10::TensorOptions.
bool isOptionsType(clang::QualType T);
/// c10::DeviceType or c10::Device.
bool isDeviceType(clang::QualType T);
/// c10::ScalarType or caffe2::TypeMeta.
bool isScalarTypeType(clang::QualType T);
/// The function is in namespace at, torch or c10 (directly).
bool isTorchFunction(const clang::FunctionDecl *FD);

/// Parentheses, implicit conversions, temporaries, copies, no-op
/// functional casts and default arguments aside.
const clang::Expr *strip(const clang::Expr *E);

/// The callable (function, method, lambda call operator) a local variable or
/// parameter belongs to.
const clang::Decl *callableOf(const clang::VarDecl *VD);

/// Whether the reference at `I` in `Stmts` may change which tensor (or
/// which options, device, ...) the variable holds (ast/LocalUses.h; of a
/// member use, only an assignment or one of PyTorch's shape-changing
/// in-place methods does: `t += u` keeps its device and dtype).
bool mayChange(llvm::ArrayRef<BodyStmt> Stmts, int I);

/// The value a variable holds wherever it is read: the initialiser of a
/// local that nothing may change after it; null otherwise (and for
/// parameters, whose `Written` tells whether the body may change them).
const clang::Expr *singleDefinition(const clang::VarDecl *VD, bool &Written);

/// `E` as a call of the tensor method `Name` without arguments (default
/// arguments aside): the object it is called on; null otherwise.
const clang::Expr *methodObject(const clang::Expr *E, llvm::StringRef Name);

/// A small constant written as an integer literal, possibly negated.
std::optional<int> smallConstant(const clang::Expr *E);

/// The sizes written as a braced list in a factory call that takes them
/// first (`torch::empty({m, n}, options)`); null otherwise.
const clang::InitListExpr *sizeList(const clang::CallExpr *Call);

/// `{a, b}` written as an argument of ArrayRef type (sizes, dims): the
/// list; null otherwise.
const clang::InitListExpr *bracedList(const clang::Expr *Arg);

/// The method call `E` is, with a tensor object: its name and object.
const clang::CXXMemberCallExpr *tensorMethod(const clang::Expr *E,
                                             llvm::StringRef &Name,
                                             const clang::Expr *&Base);

/// The free function of at/torch that `E` calls, with its kind.
const clang::CallExpr *torchCall(const clang::Expr *E,
                                 torch_api::TensorResult &Kind);

} // namespace torch_facts

} // namespace cublas_tidy

#endif
