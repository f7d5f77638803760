//===- RepeatReasons.h - Why a function runs again, in words --------------===//
//
// cublas-handle-per-call and cublas-handle-leak both report work done on
// every call of a function that runs repeatedly: called in a loop, called
// twice, or registered as an op of an extension module (a function, or a
// lambda written in the registration). The facts are lib/facts/
// RepeatedHandles.h's; this words them once for both checks.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_CHECKS_REPEATREASONS_H
#define CUBLAS_TIDY_CHECKS_REPEATREASONS_H

#include "facts/RepeatedHandles.h"

#include "clang/AST/Decl.h"
#include "clang/Basic/SourceLocation.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clang::tidy::cublas {

struct RepeatReason {
  enum ReasonKind { Loop, DeviceLoop, Twice, Op } Kind;
  /// What follows "on every call of ": "'gemm', which is called in a loop",
  /// "the lambda that an extension module registers as 'gemm'".
  std::string Clause;
  /// Where the repetition shows: the call in the loop, the two calls, the
  /// registration.
  std::vector<std::pair<SourceLocation, std::string>> Notes;
};

/// Why `Fn` (a function, or a lambda's call operator) runs repeatedly, from
/// the callables of the unit: called in a loop, called twice (only when
/// `OneVariable`), or registered as an extension op; nothing otherwise.
/// `OneVariable`: what repeats is a create into one global, so a loop over
/// devices repeats it too (DeviceLoop). The callers come from the unit's
/// call graph (unitCallSites); `Ops` are the registrations of `Callables`,
/// when the caller has built them (it asks about many functions).
/// `AcceptLoop` and `AcceptTwice`, when given, keep only the repetitions
/// they accept (a loop that does not also destroy what `Fn` creates).
std::optional<RepeatReason>
repeatReason(const FunctionDecl *Fn, llvm::ArrayRef<const Decl *> Callables,
             const cublas_tidy::OpRegistrations *Ops, bool OneVariable,
             cublas_tidy::CallInLoopFilter AcceptLoop = nullptr,
             llvm::function_ref<bool(const cublas_tidy::CallTwice &)>
                 AcceptTwice = nullptr);

} // namespace clang::tidy::cublas

#endif
