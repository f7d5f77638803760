//===- Concurrency.h - Code that several host threads run at once ---------===//
//
// Where a translation unit runs code on several host threads at the same
// time: a std::thread or std::jthread started in a loop (also through a
// container's emplace_back), a std::async launched in a loop, the same
// callable started twice or more, an OpenMP parallel region; and whether a
// lock is held at a statement of such code. The checks ask what a thread
// body does to state the threads share (a handle's configuration).
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_CONCURRENCY_H
#define CUBLAS_TIDY_LIB_FACTS_CONCURRENCY_H

#include "ast/Callables.h"

#include "clang/AST/Decl.h"
#include "clang/AST/StmtOpenMP.h"
#include "llvm/ADT/ArrayRef.h"

#include <vector>

namespace cublas_tidy {

/// Code that several host threads run at once.
struct ConcurrentCode {
  enum Kind : std::uint8_t { Thread, Async, ParallelRegion };
  Kind How = Thread;
  /// The function, method or lambda call operator the threads run; null
  /// for a parallel region.
  const clang::Decl *Entry = nullptr;
  /// The OpenMP parallel directive; null for threads.
  const clang::OMPExecutableDirective *Region = nullptr;
  /// Where the threads start: the thread's construction, the
  /// emplace_back, the std::async, or the directive.
  const clang::Stmt *Start = nullptr;
  /// The function that holds `Start`.
  const clang::Decl *StartIn = nullptr;
};

/// The concurrent code that `Unit` (every callable of a translation unit)
/// starts: threads or asyncs started in a loop or more than once with the
/// same callable, and OpenMP parallel regions. One entry per start.
std::vector<ConcurrentCode>
concurrentCode(llvm::ArrayRef<const clang::Decl *> Unit);

/// True when a lock is held at `S` (a statement of `Callable`'s body): a
/// std::lock_guard, std::unique_lock or std::scoped_lock declared before it
/// in a scope around it, a `.lock()` call before it in such a scope, or an
/// OpenMP critical, single, master or masked construct around it.
bool lockHeldAt(const clang::Stmt *S, const clang::Decl *Callable);

/// The statements of an OpenMP directive's region in pre-order, with the
/// index of each one's parent (-1 for the region's statement). The region
/// is a captured statement that stmtsIn() of the function does not walk
/// (a CapturedStmt's children are its captures).
std::vector<BodyStmt>
regionStmts(const clang::OMPExecutableDirective *Region);

/// lockHeldAt() for the statement at `I` of a list from regionStmts().
bool lockHeldIn(llvm::ArrayRef<BodyStmt> Stmts, int I);

} // namespace cublas_tidy

#endif
