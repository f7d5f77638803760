//===- Teardown.h - Destroys at the program's teardown ----------*- C++ -*-===//
//
// A status is worth reading where the program goes on after the call and
// could act on a failure. A destroy at the program's teardown has nobody to
// tell: a destructor cannot report it (throwing from one ends the program),
// and at the end of `main` the process is about to exit. These are the
// destroys of handles and descriptors (cublasDestroy, cublasLtDestroy,
// cusolverDnDestroy, cusparseDestroy, cusparseDestroySpMat, ...):
//
// - in a destructor, anywhere in its body;
// - in a lambda or method that returns nothing and only releases (every
//   call of the family in it is a destroy) and runs at teardown: a deleter,
//   a lambda that destroys its parameter (`[](cusparseSpMatDescr_t d) {
//   cusparseDestroySpMat(d); }`), or a method its class's destructor calls
//   (`~Context() { TearDown(); }`);
// - in `main`, outside any loop that does more than destroy, where nothing
//   but destroys of the cuBLAS family follows on the way to a `return` of
//   main or the end of its body (freeing memory, printing,
//   `cudaDeviceReset` may follow; another cuBLAS call, a create again, or a
//   call of a function of the unit that makes one, two calls deep, may
//   not).
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_TEARDOWN_H
#define CUBLAS_TIDY_LIB_FACTS_TEARDOWN_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace cublas_tidy {

/// Whether `Call`, made in `Callable`, destroys a cuBLAS, cuBLASLt,
/// cuSOLVER or cuSPARSE handle or descriptor at the program's teardown: in
/// a destructor, in a lambda or in a method its class's destructor calls
/// that only release, or at the end of `main`, as the header above says.
bool destroysAtTeardown(const clang::CallExpr *Call,
                        const clang::Decl *Callable);

} // namespace cublas_tidy

#endif
