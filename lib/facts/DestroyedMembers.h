//===- DestroyedMembers.h - Handle members used after their destroy -------===//
//
// A handle kept in a member, of `this` (`h_`) or of an object a local or a
// parameter names (`e.h`, `e->h`), destroyed on every path to a call that
// then uses it or destroys it again. The destroy may be a destroy of the
// resource table or a call of a function of the unit that destroys the
// member on every way out (`release()`, `engine_release(e)`), to a bounded
// depth. Handles are named by HandleNames.h; the handles held in variables
// are HandleStates.h's.
//
// A must-analysis over the CFG: a member counts as destroyed at a point only
// when every path reaching it destroyed it and nothing since may have set it
// again: a create into it, an assignment, its address taken, a declaration
// or assignment of its object, the object given to code that may change it,
// or, for a member of `this`, a method that may write it or a function
// given `this`.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_DESTROYEDMEMBERS_H
#define CUBLAS_TIDY_LIB_FACTS_DESTROYEDMEMBERS_H

#include "facts/HandleNames.h"
#include "facts/HandleUses.h"
#include "facts/ResourceTable.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <memory>
#include <string>
#include <vector>

namespace cublas_tidy {

/// A use, or a second destroy, of a handle member that every path reaching
/// it has destroyed.
struct MemberUseAfterDestroy {
  HandleName Handle;
  /// The handle as the function names it: "h_", "e.h", "e->h".
  std::string Spelling;
  /// The call that uses or destroys it; null for the destructor of a
  /// local object that runs at the end of its scope (ScopeEnd).
  const clang::CallExpr *Use = nullptr;
  /// For a use inside a function of the unit that Use calls, and that works
  /// on the member on every path from its entry: that function.
  const clang::FunctionDecl *Inside = nullptr;
  bool IsDestroy = false;
  /// The destroy, or the call of the function of the unit that destroys it.
  const clang::CallExpr *Destroy = nullptr;
  unsigned KindId = 0;
  /// For the destructor of a local object: where its scope ends (the
  /// closing brace, or the return that leaves it).
  clang::SourceLocation ScopeEnd;
};

/// The uses after destroy of handle members, for the functions of one
/// translation unit: what each function of the unit does to members is
/// kept across the questions.
class MemberDestroyFacts {
public:
  explicit MemberDestroyFacts(const ResourceTable &Table);
  ~MemberDestroyFacts();
  MemberDestroyFacts(const MemberDestroyFacts &) = delete;
  MemberDestroyFacts &operator=(const MemberDestroyFacts &) = delete;

  /// The uses after destroy of handle members in `Callable`.
  std::vector<MemberUseAfterDestroy>
  usesAfterDestroy(const clang::Decl *Callable);

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

} // namespace cublas_tidy

#endif
