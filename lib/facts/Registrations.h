//===- Registrations.h - Functions an extension module exposes ------------===//
//
// A C++ extension of Python registers its functions for Python to call:
// pybind11's `m.def("gemm", &gemm)` (in PYBIND11_MODULE, a class_'s def
// too), torch::Library's `m.def`/`m.impl` (TORCH_LIBRARY,
// TORCH_LIBRARY_IMPL) and torch::RegisterOperators' `op` (c10's class,
// which torch names). Python calls such a function on every use (each
// forward pass), and the binding between them turns a C++ exception into a
// Python error: the program goes on.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_REGISTRATIONS_H
#define CUBLAS_TIDY_LIB_FACTS_REGISTRATIONS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

namespace cublas_tidy {

/// The registration of a function as an operator or Python function of an
/// extension module.
struct OpRegistration {
  const clang::CallExpr *Call = nullptr;
  /// The callable the registering call is in; null for the initializer of
  /// a variable (`static auto r = torch::RegisterOperators().op(...)`).
  const clang::Decl *Caller = nullptr;
  /// The name it is registered under (`"gemm"`), when written as a string
  /// literal; empty otherwise.
  llvm::StringRef Name;
};

/// Calls `Visit(function, registration)` for each function registered by a
/// call of `Callables`, in their order (the canonical declaration; the call
/// operator of a lambda registered where it is written); stops when it
/// returns true.
void forEachRegistration(llvm::ArrayRef<const clang::Decl *> Callables,
                         llvm::function_ref<bool(const clang::FunctionDecl *,
                                                 const OpRegistration &)>
                             Visit);

/// The same for the registrations in the initializers of the variables
/// that the main file of `Ctx` defines outside functions.
void forEachGlobalRegistration(
    clang::ASTContext &Ctx,
    llvm::function_ref<bool(const clang::FunctionDecl *,
                            const OpRegistration &)>
        Visit);

} // namespace cublas_tidy

#endif
