//===- CompileErrors.h - Where the code did not compile -------------------===//
//
// The checks run on code that does not compile: a header of a dependency
// missing on the analysing machine, an API a newer CUDA removed, nvcc-only
// syntax, and, in an editor, code the user is still typing. Clang recovers
// and builds an AST anyway, but that AST is not the program: an expression it
// could not resolve becomes a RecoveryExpr, a declaration of an unknown type
// is invalid, and a statement it could not parse is dropped without a trace.
// A leak "on every path" proved on such a body may be a destroy that clang
// dropped.
//
// The rule every analysis follows: a function whose body contains an error
// (an expression or declaration clang marks as erroneous, or a compile error
// reported inside its source range) gets no flow facts: no CFG, no handle
// states, no pointer provenance, no reaching definitions. Checks report
// nothing there that needs them; a finding that one error-free statement
// proves alone (a discarded status) is still reported. Functions without
// errors in the same file are analysed as usual.
//
// Compile errors are known by location only to whoever receives the
// compiler's diagnostics. watchCompileErrors() puts a recorder in front of
// the compiler's diagnostic consumer: it forwards what the consumer would
// have received, unchanged, and remembers where each error was. Clang stops
// reporting anything after a fatal error (a missing header) or after the
// error limit, which would hide the errors of every later function: the
// recorder has the engine report on (fatal errors as errors, no limit) and
// itself withholds from the consumer what the engine would have withheld, so
// the user sees the same diagnostics and the analysis still learns where
// every error is.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_AST_COMPILEERRORS_H
#define CUBLAS_TIDY_LIB_AST_COMPILEERRORS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/Lex/Preprocessor.h"

namespace cublas_tidy {

/// Starts recording where the compiler reports errors in the translation
/// unit `PP` preprocesses. Call it before parsing starts (a check's
/// registerPPCallbacks); calling it again for the same compiler is a no-op.
void watchCompileErrors(clang::Preprocessor &PP);

/// True when the body of `Callable` holds an error: an expression clang
/// marks as containing errors, an invalid declaration, or a compile error
/// reported between its first and last token. When errors occurred in the
/// translation unit but nobody recorded where (watchCompileErrors() was not
/// called, or another consumer replaced the recorder), every function
/// counts as having errors. Cached per translation unit.
bool hasCompileErrors(const clang::Decl *Callable);

/// True when the statement `S` of a function with errors is itself free of
/// them: nothing in it is marked erroneous and no compile error was
/// reported within its tokens.
bool isErrorFree(const clang::Stmt *S, clang::ASTContext &Ctx);

/// The number of compile errors recorded for `Ctx`'s translation unit, or
/// -1 when nobody recorded them.
int recordedCompileErrors(const clang::ASTContext &Ctx);

} // namespace cublas_tidy

#endif
