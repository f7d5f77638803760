//===- CallerContexts.cpp - A call judged in its callers' facts too -------===//

#include "CallerContexts.h"

#include "ast/AstUtils.h"

using namespace cublas_tidy;

namespace clang::tidy::cublas {

std::pair<SourceLocation, std::string> callSiteNote(const CallerFacts::Site &S,
                                                    const SourceManager &SM) {
  const auto &[Call, Caller] = S;
  std::string Name = "a lambda";
  if (const auto *FD = dyn_cast<FunctionDecl>(Caller);
      FD && FD->getIdentifier())
    Name = "'" + FD->getName().str() + "'";
  return {userLocation(Call->getBeginLoc(), SM),
          "with the arguments of this call from " + Name};
}

void judgeInContexts(
    const Decl *Callable, const Stmt *At, const ValueFacts &Own,
    CallerFacts &Callers, ASTContext &Ctx,
    llvm::function_ref<std::vector<ContextFinding>(const ValueFacts &)> Judge,
    llvm::function_ref<void(const ContextFinding &)> Emit) {
  std::set<std::string> Keys;
  for (const ContextFinding &F : Judge(Own)) {
    Keys.insert(F.Key);
    Emit(F);
  }
  // Facts that flow in from the callers of this function: its direct
  // callers, and theirs (bounded by the contexts' MaxCallSites).
  const auto *FD = dyn_cast<FunctionDecl>(Callable);
  if (!FD)
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  for (const CallerFacts::Context &C : Callers.contextsOf(FD, Ctx)) {
    if (C.Facts->skips(At))
      continue;
    for (ContextFinding F : Judge(*C.Facts)) {
      if (Keys.count(F.Key))
        continue;
      for (const CallerFacts::Site &S : C.Chain)
        F.Notes.push_back(callSiteNote(S, SM));
      Emit(F);
    }
  }
}

} // namespace clang::tidy::cublas
