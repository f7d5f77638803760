//===- RepeatedHandles.h - Handles made and destroyed again and again -----===//
//
// A cuBLAS or cuBLASLt handle that lives in a local variable and is created
// and destroyed around cuBLAS work in the same function, and where that
// pair runs repeatedly: inside one iteration of a loop, or in a function
// that the translation unit calls from a loop. Each cublasCreate allocates
// a workspace and synchronizes with the device; NVIDIA's guidance is one
// handle per thread and device, reused.
//
// Precision first. Nothing is said of a loop that may run once (it has a
// `break` of its own: a retry), of a loop or function that selects devices
// (cudaSetDevice: one handle per device is the guidance), of a create or a
// call under a condition on the loop's counter (`if (i == 0)`), or of a
// function whose callers are not in the translation unit. A function
// defined in another unit is judged by its summary (facts/Summaries.h): it
// repeats what it makes per call when its callers here repeat it.
//
// Also the statics rule: a create into a function-local static (or a
// global) that runs on every call of its function.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_REPEATEDHANDLES_H
#define CUBLAS_TIDY_LIB_FACTS_REPEATEDHANDLES_H

#include "facts/HandleStates.h"
#include "facts/Registrations.h"
#include "facts/SummaryStore.h"
#include "model/CublasApi.h"

#include "ast/CallSites.h"

#include "clang/AST/Decl.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <vector>

namespace cublas_tidy {

/// A local handle created and destroyed in one callable, with cuBLAS work
/// on it in between.
struct ScopedHandle {
  const clang::VarDecl *Var = nullptr;
  ResourceKind Kind = ResourceKind::None; // Handle or LtHandle
  const clang::CallExpr *Create = nullptr;
  const clang::CallExpr *Destroy = nullptr;
  const clang::CallExpr *Work = nullptr; // the first cuBLAS routine on it
  /// The innermost loop of the callable that holds the create, the work
  /// and the destroy: the pair runs on each of its iterations. Null when no
  /// loop holds all three.
  const clang::Stmt *Loop = nullptr;
  /// Neither the create nor the destroy is in a loop of the callable.
  bool OncePerCall = false;
};

/// The scoped handles of `Callable` (a function body or a lambda's call
/// operator) that may run repeatedly, by the rules above: those with a
/// Loop, and those OncePerCall (which repeat when the callable is called
/// from a loop: see callInLoop).
std::vector<ScopedHandle> repeatedHandles(const clang::Decl *Callable);

/// The calls of `FD` that run on every call of it (no loop or branch
/// around them) to functions of other files whose summaries say they
/// create and destroy a handle on every call, with those summaries.
std::vector<std::pair<const clang::CallExpr *, const FunctionSummary *>>
perCallCallees(const clang::FunctionDecl *FD);

/// True when `S` calls cudaSetDevice (or is too large to tell): one handle
/// per device is the guidance, and such code is not judged.
bool selectsDevice(const clang::Stmt *S);

/// A call of a function in a loop of another callable.
struct CallInLoop {
  const clang::CallExpr *Call = nullptr;
  const clang::Stmt *Loop = nullptr;
  const clang::Decl *Caller = nullptr;
  /// The loop selects a device on each iteration (cudaSetDevice).
  bool OverDevices = false;
  /// When the loop calls the function through others (a training step
  /// that calls a layer that calls it): `Call` calls the first, and each
  /// of these calls the next, the last one the function; each runs on every
  /// call of the function it is in (no loop or branch around it).
  llvm::SmallVector<const clang::CallExpr *, 2> Through;
};

/// Which callables call a function directly: the unit's call graph
/// (unitCallSites, lib/ast/CallSites.h).
using CallerIndex = CallSiteIndex;

/// The first call (in source order of `Callables`) of `Fn` inside a loop,
/// by the rules above, or else of a function that calls `Fn` on every call
/// (up to two functions between the loop and `Fn`: Through); nothing when
/// `Fn` is `main`, selects a device, or no such call is in `Callables`. A
/// loop that selects a device on each iteration (one handle per device, as
/// NVIDIA recommends) repeats `Fn` only with `OverDevices`: for what `Fn`
/// does to one global variable, which holds one handle for every device.
/// With `Accept`, the first call it accepts.
using CallInLoopFilter = llvm::function_ref<bool(const CallInLoop &)>;
std::optional<CallInLoop>
callInLoop(const clang::FunctionDecl *Fn,
           llvm::ArrayRef<const clang::Decl *> Callables,
           bool OverDevices = false, CallInLoopFilter Accept = nullptr);
/// The same, with the callers of `Fn` taken from `Index` (the graph of
/// the same callables: the first form asks unitCallSites for it).
std::optional<CallInLoop> callInLoop(const clang::FunctionDecl *Fn,
                                     const CallerIndex &Index,
                                     bool OverDevices = false,
                                     CallInLoopFilter Accept = nullptr);

/// Two calls of a function in one callable where both run, the second
/// after the first, whenever the first does (both in the same block, not
/// in different branches, cases or operands of `&&`).
struct CallTwice {
  const clang::CallExpr *First = nullptr;
  const clang::CallExpr *Second = nullptr;
  const clang::Decl *Caller = nullptr;
};

/// The first such pair of calls of `Fn` in `Callables`; nothing when `Fn`
/// selects a device, or when the caller selects one between the two calls
/// (one handle per device).
std::optional<CallTwice>
callTwice(const clang::FunctionDecl *Fn,
          llvm::ArrayRef<const clang::Decl *> Callables);

/// The first registration (facts/Registrations.h) of `Fn` in `Callables`
/// (`Fn` a function, or the call operator of a lambda registered where it
/// is written: `m.def("gemm", [](torch::Tensor a) {...})`). Python calls
/// such a function on every use, each forward pass: it runs repeatedly.
/// Nothing when there is none or `Fn` selects a device.
std::optional<OpRegistration>
opRegistration(const clang::FunctionDecl *Fn,
               llvm::ArrayRef<const clang::Decl *> Callables);

/// The registrations of a set of callables, read once: for a unit that asks
/// about many functions, where opRegistration() would read every callable
/// for each.
class OpRegistrations {
public:
  explicit OpRegistrations(llvm::ArrayRef<const clang::Decl *> Callables);

  /// What opRegistration(`Fn`, the callables) gives.
  std::optional<OpRegistration> of(const clang::FunctionDecl *Fn) const;

private:
  /// The first registration of each function, by its canonical declaration.
  llvm::DenseMap<const clang::FunctionDecl *, OpRegistration> First;
};

/// Whether some callable reads `Var` otherwise than as an argument of a
/// cuBLAS call (the handle it holds passed to work, a create or a
/// destroy), in a test of it or as the target of an assignment (`g =
/// nullptr`): a copy elsewhere may keep the handle.
bool handleCopiedOut(const clang::VarDecl *Var,
                     llvm::ArrayRef<const clang::Decl *> Callables);

/// A create into a function-local static that runs on every call of its
/// function, with nothing before it that could skip it or release the
/// previous resource: every call after the first leaks one.
struct RecreatedStatic {
  const clang::VarDecl *Var;
  const clang::CallExpr *Create;
  unsigned KindId;
  /// The flag of the guard `if (!flag)` around the create, which nothing
  /// sets (null when the create is not guarded).
  const clang::VarDecl *NeverSetFlag = nullptr;
  const clang::IfStmt *Guard = nullptr;
  /// A global created with no guard: a leak only when the function runs
  /// again while the previous handle lives (it is called in a loop, and
  /// nothing destroys the global in between), which the caller decides.
  bool UnguardedGlobal = false;
};

/// The creates of `Function` (a function or lambda, not `main`) into its
/// static locals that run unconditionally on every call: the create is not
/// under a branch (a status test of the create itself, a `do { } while (0)`
/// macro and a checking macro's failure exit are fine), and no statement
/// before it mentions the variable (a guard `if (h) return h;`, a destroy)
/// or returns. Also the creates, into a static local or a global, under a
/// guard `if (!flag)` whose flag starts false and is never set (a static
/// local of the function, or a variable of internal linkage that no
/// function of the file sets): the guard lets every call through. And the
/// unguarded creates into a global (UnguardedGlobal), the only ones of a
/// lambda. None of these when the function destroys the variable anywhere.
std::vector<RecreatedStatic> recreatedStatics(const clang::Decl *Function,
                                              const ResourceTable &Table);

} // namespace cublas_tidy

#endif
