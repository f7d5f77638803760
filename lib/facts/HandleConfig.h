//===- HandleConfig.h - A handle's configuration along a function ---------===//
//
// A cuBLAS handle carries its stream, workspace and pointer mode from one
// call to the next (model/HandleConfig.h). Two facts about that history:
//
// - lostWorkspaces(): a cublasSetStream that resets a workspace the code set
//   with cublasSetWorkspace, before work on the handle runs with the default
//   pool instead (in the same function, or on a member or global handle
//   whose workspace the function that creates it sets);
// - leakedPointerModes(): a cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE)
//   on a handle the function does not own (a parameter, a global or static,
//   a member, PyTorch's current handle, a local copy of one) with a way out
//   of the function, after work on the handle, where the mode was not set
//   back.
//
// Both follow the CFG (lib/ast/SharedCfg.h) from the call, path by path,
// with the branches on a variable that nothing changes correlated (`if
// (dev) set(DEVICE); ... if (dev) set(HOST);` has no leaking path). Paths
// that end the process (abort, exit) are no way out. A function that may
// restore the mode elsewhere (an object whose destructor sets the mode, a
// lambda that sets it, a helper that sets it) has no leak.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_HANDLECONFIG_H
#define CUBLAS_TIDY_LIB_FACTS_HANDLECONFIG_H

#include "ast/Callables.h"
#include "facts/Concurrency.h"
#include "facts/HandleNames.h"
#include "model/HandleConfig.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <vector>

namespace cublas_tidy {

/// Who owns a handle, seen from one function.
enum class HandleOwner : std::uint8_t {
  Unknown,  // a local of unknown origin
  Function, // the function creates it
  Parameter,
  Global,   // a global, a static, a static member
  Member,   // a member of `this` or of an object
  Library,  // a library's own handle (PyTorch's current handle)
  Accessor, // what a function of the user's returns (not a new handle)
};

/// Who owns `H` in `Callable`.
HandleOwner handleOwner(const HandleName &H, const clang::Decl *Callable);

/// The configuration function `Call` calls (model/HandleConfig.h), or null.
const handle_config::ConfigFunction *
calledConfigFunction(const clang::CallExpr *Call);
/// The same for a call of a body's description (ast/Callables.h): every
/// configuration function is a modelled one, so a call of any other
/// function is not looked up.
const handle_config::ConfigFunction *calledConfigFunction(const CallInBody &C);

/// A workspace that a cublasSetStream resets to the default pool.
struct LostWorkspace {
  const clang::CallExpr *Stream = nullptr;    // cublasSetStream
  const clang::CallExpr *Workspace = nullptr; // the cublasSetWorkspace
  /// The first call on the handle that runs with the default workspace
  /// (a cuBLAS call, or a function given the handle); null when other code
  /// uses the handle afterwards (the workspace was set where the handle is
  /// created, in another function).
  const clang::CallExpr *Use = nullptr;
  /// The function the workspace was set in, when it is not the
  /// cublasSetStream's.
  const clang::Decl *WorkspaceIn = nullptr;
  /// The function returns with the workspace lost, and no call of its own
  /// runs after the stream change: the handle outlives it (a parameter, a
  /// global, a member) and its callers' calls run with the default pool.
  bool AtReturn = false;
  HandleName Handle;
  /// When the function remembers the workspace it gave the handle (a
  /// member, global or static `Cache`) and sets it again only when the
  /// workspace differs from the cache: that guarded cublasSetWorkspace
  /// (then `Workspace`), and the value compared with the cache. A stream
  /// change does not clear the cache, so a new stream with the same
  /// workspace runs `Use` on the default pool. With `WorkspaceIn`, the
  /// cache and `Use` are that function's: `Stream` returns with the cache
  /// still full, and the next call of it skips the set.
  const clang::ValueDecl *Cache = nullptr;
  const clang::Expr *Cached = nullptr;
};

/// The lost workspaces of `Callable`. `Unit` is every callable of the
/// translation unit: where a member or global handle is created and given
/// its workspace.
std::vector<LostWorkspace> lostWorkspaces(const clang::Decl *Callable,
                                          llvm::ArrayRef<const clang::Decl *>
                                              Unit);

/// A device pointer mode left on a handle the function does not own.
struct PointerModeLeak {
  const clang::CallExpr *Set = nullptr; // cublasSetPointerMode(h, DEVICE)
  /// The return or throw the mode leaks through, or the call of a
  /// checking function of the file that may throw out (facts/Exceptions.h)
  /// outside every `try` of the body; null: the end of the body.
  const clang::Stmt *Exit = nullptr;
  HandleName Handle;
  HandleOwner Owner = HandleOwner::Unknown;
  /// For a member or global handle: a call of another function of the
  /// unit that passes a host scalar (`&alpha`) on the handle without
  /// setting the mode itself; null for parameters and PyTorch's handle.
  const clang::CallExpr *Victim = nullptr;
  const clang::Decl *VictimIn = nullptr;
};

/// The pointer mode leaks of `Callable`. A member or global handle leaks
/// only when another function of `Unit` (every callable of the unit) pays:
/// it calls cuBLAS on the handle with a host scalar and sets no mode of its
/// own (code where every function sets the mode it needs is correct).
std::vector<PointerModeLeak>
leakedPointerModes(const clang::Decl *Callable,
                   llvm::ArrayRef<const clang::Decl *> Unit);

/// A configuration change on a handle that threads running at once share.
struct RacedConfiguration {
  const clang::CallExpr *Config = nullptr; // cublasSetStream, ...
  /// The function the change is in (the thread's entry, a function it
  /// calls, or the function with the parallel region).
  const clang::Decl *In = nullptr;
  ConcurrentCode Where;
  HandleName Handle;
  /// Global or Member; Unknown for a local of the function that starts the
  /// threads (captured by the lambda, or declared outside the region).
  HandleOwner Owner = HandleOwner::Unknown;
};

/// The configuration changes of `Unit` (every callable of a translation
/// unit) made, with no lock held, inside code that several threads run at
/// once (Concurrency.h) or a function it calls (three calls deep), on a
/// handle those threads share: a global or static, a member, or a local of
/// the starting function. A handle created in the thread, a parameter of
/// the thread's function, PyTorch's current handle (one per thread) are
/// not shared.
std::vector<RacedConfiguration>
racedConfigurations(llvm::ArrayRef<const clang::Decl *> Unit);

} // namespace cublas_tidy

#endif
