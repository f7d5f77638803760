//===- RepeatReasons.cpp --------------------------------------------------===//

#include "RepeatReasons.h"

#include "ast/AstUtils.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"

using namespace cublas_tidy;

namespace clang::tidy::cublas {

/// The words for `In`, a call of the function `Name` in a loop. A loop that
/// reaches it through other functions names the first of them, and the
/// clause names the path ("through 'step' and 'layer'"), with a note at
/// each call on the way down.
static RepeatReason loopReason(const CallInLoop &In, const std::string &Name,
                               const SourceManager &SM) {
  auto At = [&](const Stmt *S) { return userLocation(S->getBeginLoc(), SM); };
  auto NameOf = [](const CallExpr *C) {
    const FunctionDecl *FD = C->getDirectCallee();
    return "'" + (FD ? FD->getName().str() : std::string("?")) + "'";
  };
  std::string Looped = Name, Through;
  if (!In.Through.empty()) {
    Looped = NameOf(In.Call);
    Through = " through " + Looped;
    for (size_t I = 0; I + 1 < In.Through.size(); ++I)
      Through += (I + 2 < In.Through.size() ? ", " : " and ") +
                 NameOf(In.Through[I]);
  }
  RepeatReason R;
  R.Kind = In.OverDevices ? RepeatReason::DeviceLoop : RepeatReason::Loop;
  R.Clause = Name +
             (In.OverDevices ? ", which is called once per device in a loop"
                             : ", which is called in a loop") +
             Through;
  R.Notes.push_back({At(In.Call), Looped + " is called in this loop" +
                                      (In.OverDevices ? " over devices" : "")});
  std::string Caller = Looped;
  for (const CallExpr *C : In.Through) {
    R.Notes.push_back({At(C), Caller + " calls " + NameOf(C) + " here"});
    Caller = NameOf(C);
  }
  return R;
}

std::optional<RepeatReason>
repeatReason(const FunctionDecl *Fn, llvm::ArrayRef<const Decl *> Callables,
             const OpRegistrations *Ops, bool OneVariable,
             CallInLoopFilter AcceptLoop,
             llvm::function_ref<bool(const CallTwice &)> AcceptTwice) {
  if (!Fn)
    return std::nullopt;
  auto Registration = [&] {
    return Ops ? Ops->of(Fn) : opRegistration(Fn, Callables);
  };
  const SourceManager &SM = Fn->getASTContext().getSourceManager();
  auto At = [&](const Stmt *S) { return userLocation(S->getBeginLoc(), SM); };
  RepeatReason R;
  // A lambda has no name to word a call of it by: only its registration.
  if (!Fn->getIdentifier()) {
    const auto *MD = dyn_cast<CXXMethodDecl>(Fn);
    if (!MD || !MD->getParent()->isLambda())
      return std::nullopt;
    std::optional<OpRegistration> Op = Registration();
    if (!Op || Op->Name.empty())
      return std::nullopt;
    R.Kind = RepeatReason::Op;
    R.Clause =
        "the lambda that an extension module registers as '" + Op->Name.str() +
        "'";
    R.Notes.push_back({At(Op->Call), "the lambda is registered here"});
    return R;
  }
  std::string Name = "'" + Fn->getName().str() + "'";
  std::optional<CallInLoop> In =
      callInLoop(Fn, Callables, OneVariable, AcceptLoop);
  if (In)
    return loopReason(*In, Name, SM);
  if (OneVariable)
    if (std::optional<CallTwice> T = callTwice(Fn, Callables);
        T && (!AcceptTwice || AcceptTwice(*T))) {
      R.Kind = RepeatReason::Twice;
      R.Clause = Name + ", which is called twice";
      R.Notes.push_back({At(T->First), Name + " is called here"});
      R.Notes.push_back({At(T->Second), "and again here"});
      return R;
    }
  if (std::optional<OpRegistration> Op = Registration()) {
    R.Kind = RepeatReason::Op;
    R.Clause =
        Name + ", which an extension module registers for Python to call";
    R.Notes.push_back({At(Op->Call), Name + " is registered here"});
    return R;
  }
  return std::nullopt;
}

} // namespace clang::tidy::cublas
