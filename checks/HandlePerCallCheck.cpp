//===- HandlePerCallCheck.cpp - cublas-handle-per-call --------------------===//

#include "HandlePerCallCheck.h"

#include "CallableMatchers.h"
#include "ast/AstUtils.h"
#include "ast/FunctionTimer.h"
#include "facts/RepeatedHandles.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;
using namespace cublas_tidy;

namespace clang::tidy::cublas {

namespace {

/// "cublasCreate" for cublasCreate_v2: the name the source writes.
std::string createName(const CallExpr *Create) {
  const FunctionInfo *F = calledCublasFunction(Create);
  StringRef Name = F ? F->Name : "cublasCreate";
  Name.consume_back("_v2");
  return Name.str();
}

std::string kindName(ResourceKind K) {
  return K == ResourceKind::LtHandle ? "cuBLASLt handle" : "cuBLAS handle";
}

} // namespace

void HandlePerCallCheck::registerMatchers(MatchFinder *Finder) {
  addCallableMatchers(Finder, this);
}

void HandlePerCallCheck::onStartOfTranslationUnit() {
  Callables.clear();
}

void HandlePerCallCheck::check(const MatchFinder::MatchResult &Result) {
  // Whether a function runs in a loop depends on callers the matchers may
  // not have reached yet: everything is decided at the end of the unit.
  Callables.add(callableOf(Result));
}

void HandlePerCallCheck::onEndOfTranslationUnit() {
  std::optional<CallerIndex> Callers; // built when first needed
  for (const Decl *Callable : Callables.list()) {
    const SourceManager &SM = Callable->getASTContext().getSourceManager();
    FunctionTimer Timer(getID(), Callable);
    for (const ScopedHandle &H : repeatedHandles(Callable)) {
      if (expandedInSystemHeader(H.Create->getBeginLoc(), SM))
        continue;
      std::string What = kindName(H.Kind) + " '" + H.Var->getName().str() + "'";
      std::string Cost = createName(H.Create) +
                         " allocates a workspace and synchronizes the device "
                         "each time";
      if (H.Loop) {
        diag(userLocation(H.Create->getBeginLoc(), SM),
             "%0 is created and destroyed on every iteration of a loop; %1: "
             "create it once before the loop and reuse it")
            << What << Cost;
        diag(userLocation(H.Loop->getBeginLoc(), SM),
             "the loop that repeats it", DiagnosticIDs::Note);
        continue;
      }
      const auto *Fn = dyn_cast<FunctionDecl>(Callable);
      if (!H.OncePerCall || !Fn)
        continue;
      // A lambda is called repeatedly when an extension module registers
      // it where it is written.
      if (const auto *MD = dyn_cast<CXXMethodDecl>(Fn);
          MD && MD->getParent()->isLambda()) {
        std::optional<OpRegistration> Op =
            opRegistration(Fn, Callables.list());
        if (!Op || Op->Name.empty())
          continue;
        diag(userLocation(H.Create->getBeginLoc(), SM),
             "%0 is created and destroyed on every call of the lambda that "
             "an extension module registers as '%1' (each forward pass "
             "calls it); %2: use PyTorch's handle "
             "(at::cuda::getCurrentCUDABlasHandle()) or create one once and "
             "reuse it")
            << What << Op->Name << Cost;
        diag(userLocation(Op->Call->getBeginLoc(), SM),
             "the lambda is registered here", DiagnosticIDs::Note);
        continue;
      }
      if (!Fn->getIdentifier())
        continue;
      if (!Callers)
        Callers.emplace(Callables.list());
      std::optional<CallInLoop> In = callInLoop(Fn, *Callers);
      if (!In) {
        if (std::optional<OpRegistration> Op =
                opRegistration(Fn, Callables.list())) {
          diag(userLocation(H.Create->getBeginLoc(), SM),
               "%0 is created and destroyed on every call of '%1', which an "
               "extension module registers for Python to call (each forward "
               "pass calls it); %2: use PyTorch's handle "
               "(at::cuda::getCurrentCUDABlasHandle()) or create one once "
               "and reuse it")
              << What << Fn->getName() << Cost;
          diag(userLocation(Op->Call->getBeginLoc(), SM),
               "'%0' is registered here", DiagnosticIDs::Note)
              << Fn->getName();
        }
        continue;
      }
      diag(userLocation(H.Create->getBeginLoc(), SM),
           "%0 is created and destroyed on every call of '%1', which is called "
           "in a loop; %2: create it once and pass it in, or keep one per "
           "thread and device")
          << What << Fn->getName() << Cost;
      diag(userLocation(In->Call->getBeginLoc(), SM),
           "'%0' is called in this loop", DiagnosticIDs::Note)
          << Fn->getName();
    }
  }
}

} // namespace clang::tidy::cublas
