//===- CallerFacts.cpp - The values at a call, in the context of callers --===//

#include "facts/CallerFacts.h"

#include "ast/TranslationUnitCache.h"

#include "ast/Callables.h"

#include "clang/AST/DeclCXX.h"

namespace cublas_tidy {

void CallerFacts::clear() {
  Contexts.clear();
  Index = nullptr;
  Analysable.clear();
}

bool CallerFacts::hasCallerFacts(const clang::Decl *Callable) {
  const auto *FD = llvm::dyn_cast<clang::FunctionDecl>(Callable);
  return FD && FD->getNumParams() > 0 && !llvm::isa<clang::CXXMethodDecl>(FD);
}

void CallerFacts::collectCallSites(
    llvm::ArrayRef<const clang::Decl *> Callables) {
  if (MaxCallSites == 0)
    return;
  Index = &unitCallSites(Callables);
  Analysable.clear();
}

llvm::ArrayRef<CallerFacts::Site>
CallerFacts::sitesOf(const clang::FunctionDecl *Def) {
  if (!Index)
    return {};
  auto [It, New] = Analysable.try_emplace(Def->getCanonicalDecl());
  if (New)
    for (const Site &S : Index->sitesOf(Def))
      if (analysableBody(S.second))
        It->second.push_back(S);
  return It->second;
}

namespace {
thread_local TranslationUnitCache<const clang::Decl *, ValueFacts> Shared;
} // namespace

const ValueFacts &sharedValueFacts(const clang::Decl *Callable,
                                   clang::ASTContext &Ctx) {
  return *Shared.get(Ctx, Callable, [&] {
    return std::make_unique<ValueFacts>(Callable, Ctx);
  });
}

const ValueFacts &CallerFacts::factsFor(const clang::Decl *Callable,
                                        clang::ASTContext &Ctx) {
  return sharedValueFacts(Callable, Ctx);
}

const std::vector<CallerFacts::Context> &
CallerFacts::contextsAt(const clang::FunctionDecl *Fn, clang::ASTContext &Ctx,
                        unsigned Level) {
  auto Found = Contexts.find({Fn, Level});
  if (Found != Contexts.end())
    return Found->second;
  std::vector<Context> &Out = Contexts[{Fn, Level}];
  if (MaxCallSites == 0 || !hasCallerFacts(Fn))
    return Out;
  // Plain functions defined here, at their first 64 call sites.
  const clang::FunctionDecl *Def = Fn->getDefinition();
  if (!Def || !Def->hasBody() || llvm::isa<clang::CXXMethodDecl>(Def))
    return Out;
  llvm::ArrayRef<Site> Sites = sitesOf(Def);
  Sites = Sites.take_front(64);
  if (Sites.empty())
    return Out;
  const ValueFacts &Base = factsFor(Fn, Ctx);
  unsigned Taken = 0;
  for (const Site &S : Sites) {
    const auto &[Call, Caller] = S;
    if (Caller == Fn || Taken >= MaxCallSites)
      continue;
    ++Taken;
    Out.push_back({std::make_unique<ValueFacts>(Base, Call,
                                                factsFor(Caller, Ctx)),
                   {S}});
    const auto *CallerFD = llvm::dyn_cast<clang::FunctionDecl>(Caller);
    if (Level + 1 >= 2 || !CallerFD ||
        llvm::isa<clang::CXXMethodDecl>(CallerFD) ||
        CallerFD->getNumParams() == 0)
      continue;
    for (const Context &Up : contextsAt(CallerFD, Ctx, Level + 1)) {
      if (Out.size() >= 4 * MaxCallSites)
        break;
      std::vector<Site> Chain{S};
      Chain.insert(Chain.end(), Up.Chain.begin(), Up.Chain.end());
      Out.push_back({std::make_unique<ValueFacts>(Base, Call, *Up.Facts),
                     std::move(Chain)});
    }
  }
  return Out;
}

bool CallerFacts::holdsAtEveryCallSite(
    const clang::FunctionDecl *Fn, clang::ASTContext &Ctx,
    llvm::function_ref<bool(const ValueFacts &)> Holds) {
  if (!Fn || MaxCallSites == 0 || !hasCallerFacts(Fn))
    return false;
  const clang::FunctionDecl *Def = Fn->getDefinition();
  if (!Def)
    return false;
  llvm::ArrayRef<Site> Sites = sitesOf(Def);
  if (Sites.empty() || Sites.size() > MaxCallSites)
    return false;
  const std::vector<Context> &All = contextsOf(Fn, Ctx);
  for (const Site &S : Sites) {
    if (S.second == Fn)
      return false; // recursion: the values are the function's own
    bool Direct = false, Chained = false, ChainedHold = true;
    for (const Context &C : All) {
      if (C.Chain.empty() || C.Chain.front() != S)
        continue;
      if (C.Chain.size() == 1) {
        Direct = Holds(*C.Facts);
      } else {
        Chained = true;
        ChainedHold = ChainedHold && Holds(*C.Facts);
      }
    }
    if (!Direct && !(Chained && ChainedHold))
      return false;
  }
  return true;
}

} // namespace cublas_tidy
