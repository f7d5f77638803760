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
// And who can catch what leaves a function: a `try` block around a call of
// it, or of a caller of it at any depth, or a Python binding (a
// registration for Python to call, facts/Registrations.h) of one of them.
// The callers in the unit are read from its code; those in other files from
// the project's file summaries (facts/Summaries.h), which the same code
// makes. A chain that ends in `main` without a `try`, in a function nobody
// calls, or in callers that are not known (a function of external linkage
// with no project facts, one whose address is taken, a virtual call) catches
// nothing that is known: the answer is "no catch known".
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_EXCEPTIONS_H
#define CUBLAS_TIDY_LIB_FACTS_EXCEPTIONS_H

#include "facts/Summaries.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>
#include <vector>

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
/// `main`, or a function of the main file that no other unit can call
/// (internal linkage, `inline`, or an implicit instantiation of a template
/// written there) and that only `main` calls (every reference to it in the
/// unit, dependent calls in templates included, is a direct call in main's
/// body), and `main` has no `try` block.
bool exceptionEndsProcess(const clang::FunctionDecl *Fn);

/// A place where an exception that leaves a function can be caught, and
/// the program go on.
struct ExceptionCatch {
  /// In this unit: the call inside a `try` block (or the construction of
  /// an object, whose constructor is the function), or the registering
  /// call, and the function called or registered there (on the chain of
  /// callers; the call operator of a lambda registered where it is
  /// written).
  const clang::Expr *Call = nullptr;
  const clang::FunctionDecl *Callee = nullptr;
  /// A Python binding catches it, not a `try` block.
  bool Binding = false;
  /// In another file of the project (Call is null): the file, the line, and
  /// the name of the function called or registered there (empty: a lambda).
  std::string File;
  unsigned Line = 0;
  std::string CalleeName;
};

/// The callers of the functions of one translation unit, read once from
/// its callables, and who among them, or among the callers in other files,
/// can catch an exception.
class ExceptionCallers {
public:
  /// `Callables`: every callable of user code in the unit.
  ExceptionCallers(llvm::ArrayRef<const clang::Decl *> Callables,
                   clang::ASTContext &Ctx);

  /// Where some chain of callers of `Fn` can catch an exception that
  /// leaves it: the nearest in the unit, else one the project's file
  /// summaries know (the unit asks them only then). Nothing when no catch
  /// is known. A `try` counts when one of its handlers does not end in a
  /// `throw` (their types are not compared with what is thrown).
  std::optional<ExceptionCatch> catchOf(const clang::FunctionDecl *Fn);

  /// The routes of the exceptions of the functions (of external linkage)
  /// this unit calls or registers and that may throw (their bodies here
  /// may, or are elsewhere): where the unit catches each, and through which
  /// of its functions of external linkage each goes on; sorted by callee.
  std::vector<FileSummary::ExceptionRoute> routes();

private:
  /// A call, or the construction of an object (its constructor called),
  /// and the callable it is written in.
  using Site = std::pair<const clang::Expr *, const clang::Decl *>;
  /// Within the unit, up from `Fn` through its functions that no other
  /// unit can call: the first catch, and the functions of external linkage
  /// reached (whose own callers decide).
  struct Local {
    std::optional<ExceptionCatch> Catch;
    llvm::SmallVector<const clang::FunctionDecl *, 4> Through;
  };
  const Local &localRoute(const clang::FunctionDecl *Fn);
  const std::string &keyOf(const clang::FunctionDecl *Fn);
  const clang::FunctionDecl *declaredHere(llvm::StringRef Key);
  bool mayLetOut(const clang::FunctionDecl *Fn);

  clang::ASTContext &Ctx;
  llvm::ArrayRef<const clang::Decl *> Callables;
  /// The direct calls of each function (canonical), in source order, and
  /// the functions called or registered, in the order first seen.
  llvm::DenseMap<const clang::FunctionDecl *, llvm::SmallVector<Site, 2>> Sites;
  llvm::DenseMap<const clang::FunctionDecl *, const clang::CallExpr *>
      Registered;
  std::vector<const clang::FunctionDecl *> Callees;
  llvm::DenseMap<const clang::FunctionDecl *, Local> Routes;
  llvm::DenseMap<const clang::FunctionDecl *, std::string> Keys;
  std::optional<llvm::StringMap<const clang::FunctionDecl *>> ByKey;
};

} // namespace cublas_tidy

#endif
