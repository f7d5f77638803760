//===- CallerContexts.h - A call judged in its callers' facts too ---------===//
//
// A check that judges one cuBLAS call from the values its arguments have
// (a leading dimension, an allocation and the offset into it) often finds
// them only in a caller: `multiply(lt, block, ...)` gives the pointer its
// allocation. Such a check judges the call in the facts of its own
// callable, then in each context of its callers (facts/CallerFacts.h),
// and says through which calls a finding of a context comes. Written here
// once for the checks that do it; each finding is said once per place.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_CHECKS_CALLERCONTEXTS_H
#define CUBLAS_TIDY_CHECKS_CALLERCONTEXTS_H

#include "ClangTidyCheck.h"
#include "facts/CallerFacts.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace clang::tidy::cublas {

/// One finding of a call, before it is said.
struct ContextFinding {
  std::string Key; // which rule on which operand, to merge contexts
  SourceLocation Loc;
  std::string Message;
  std::vector<std::pair<SourceLocation, std::string>> Notes;
};

/// The findings a check says, each once per place and message, in the
/// order they come. Messages quote the user's code, which may hold a '%':
/// they are arguments, never formats.
/// Inline: the checks' helpers are compiled apart from clang-tidy's own
/// library (a unit test links them alone), and this calls into it.
class FindingSink {
public:
  void emit(ClangTidyCheck &Check, const ContextFinding &F) {
    if (!Emitted.insert({F.Loc, F.Message}).second)
      return;
    Check.diag(F.Loc, "%0") << F.Message;
    for (const auto &[Loc, Text] : F.Notes)
      Check.diag(Loc, "%0", DiagnosticIDs::Note) << Text;
  }
  void clear() { Emitted.clear(); }

private:
  std::set<std::pair<SourceLocation, std::string>> Emitted;
};

/// The note that names one call site of a context: "with the arguments of
/// this call from 'main'".
std::pair<SourceLocation, std::string>
callSiteNote(const cublas_tidy::CallerFacts::Site &S, const SourceManager &SM);

/// `Judge` of a call of `Callable`, in `Own` (the callable's facts) and
/// then in each context of its callers, given to `Emit`: the findings of a
/// context that `Own` gave too (by Key) are left out, the others carry the
/// chain of call sites as notes. A context whose arguments make an `if`
/// around `At` (the call judged) skip it is not judged.
void judgeInContexts(const Decl *Callable, const Stmt *At,
                     const cublas_tidy::ValueFacts &Own,
                     cublas_tidy::CallerFacts &Callers, ASTContext &Ctx,
                     llvm::function_ref<std::vector<ContextFinding>(
                         const cublas_tidy::ValueFacts &)>
                         Judge,
                     llvm::function_ref<void(const ContextFinding &)> Emit);

} // namespace clang::tidy::cublas

#endif
