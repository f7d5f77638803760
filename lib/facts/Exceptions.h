//===- Exceptions.h - Calls that can end in an exception -------------------===//
//
// Whether a call of a function of the project can leave its caller by an
// exception: the function's body throws, or calls a function that does,
// outside any `try` block of its own. A path through such a call is a path
// out of the caller (the handle rules report what it leaves behind).
//
// Only functions whose body is in the translation unit and not in a system
// header count: a library function's exceptions are not known, and a
// function declared only may do anything. `noexcept` functions never throw
// out (they terminate).
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_EXCEPTIONS_H
#define CUBLAS_TIDY_LIB_FACTS_EXCEPTIONS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

namespace cublas_tidy {

/// True when a call of `FD` can end in an exception that leaves it: its
/// body (in the unit, not a system header) has a `throw` outside every
/// `try` block of the body (a rethrow in a handler counts), or such a call
/// of a function that can; false for a `noexcept` function, one declared
/// only, a library function, and on a cycle of calls.
bool mayThrowOut(const clang::FunctionDecl *FD);

/// True when `S`, a statement of the body of `Callable`, is inside the try
/// block of a `try` statement of that body (a handler there may catch what
/// it throws).
bool insideTryBlock(const clang::Stmt *S, const clang::Decl *Callable);

/// True when an exception that leaves `Fn` ends the process: `Fn` is
/// `main`, or a function of internal linkage that only `main` calls (every
/// reference to it in the unit is a direct call in main's body), and
/// `main` has no `try` block.
bool exceptionEndsProcess(const clang::FunctionDecl *Fn);

} // namespace cublas_tidy

#endif
