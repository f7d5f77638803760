//===- RepeatReasons.cpp --------------------------------------------------===//

#include "RepeatReasons.h"

#include "ast/AstUtils.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"

using namespace cublas_tidy;

namespace clang::tidy::cublas {

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
  if (In && In->OverDevices) {
    R.Kind = RepeatReason::DeviceLoop;
    R.Clause = Name + ", which is called once per device in a loop";
    R.Notes.push_back(
        {At(In->Call), Name + " is called in this loop over devices"});
    return R;
  }
  if (In && !In->Through.empty()) {
    // Through functions that call it on every call of theirs: the loop
    // first, then each call on the way down.
    auto NameOf = [](const CallExpr *C) {
      const FunctionDecl *FD = C->getDirectCallee();
      return "'" + (FD ? FD->getName().str() : std::string("?")) + "'";
    };
    std::string Looped = NameOf(In->Call);
    R.Kind = RepeatReason::Loop;
    R.Clause = Name + ", which is called in a loop through " + Looped;
    for (size_t I = 0; I + 1 < In->Through.size(); ++I)
      R.Clause += (I + 2 < In->Through.size() ? ", " : " and ") +
                  NameOf(In->Through[I]);
    R.Notes.push_back({At(In->Call), Looped + " is called in this loop"});
    std::string Caller = Looped;
    for (const CallExpr *C : In->Through) {
      R.Notes.push_back({At(C), Caller + " calls " + NameOf(C) + " here"});
      Caller = NameOf(C);
    }
    return R;
  }
  if (In) {
    R.Kind = RepeatReason::Loop;
    R.Clause = Name + ", which is called in a loop";
    R.Notes.push_back({At(In->Call), Name + " is called in this loop"});
    return R;
  }
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
