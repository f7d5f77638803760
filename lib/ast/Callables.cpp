//===- Callables.cpp ------------------------------------------------------===//

#include "ast/Callables.h"
#include "ast/AstUtils.h"
#include "ast/CompileErrors.h"

#include "ast/TranslationUnitCache.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <optional>

using namespace clang;

namespace cublas_tidy {

const Stmt *analysableBody(const Decl *Callable, bool EvenWithErrors) {
  if (!Callable || !Callable->hasBody())
    return nullptr;
  if (const auto *FD = dyn_cast<FunctionDecl>(Callable)) {
    if (FD->isDependentContext() || !FD->doesThisDeclarationHaveABody())
      return nullptr;
  }
  if (!EvenWithErrors && hasCompileErrors(Callable))
    return nullptr;
  return Callable->getBody();
}

namespace {
thread_local TranslationUnitCache<const Decl *, std::vector<BodyStmt>> Stmts;
thread_local TranslationUnitCache<const Decl *, std::vector<const CallExpr *>>
    Calls;
thread_local TranslationUnitCache<const Decl *, BodyIndex> Indexes;
thread_local TranslationUnitCache<const Decl *, std::vector<CallInBody>>
    DescribedCalls;
} // namespace

namespace {

/// Appends `S` and the statements under it in pre-order: recursively while
/// the nesting is shallow (most of it), with a work list below that, so
/// that no expression is deep enough to exhaust the stack.
void appendStmts(const Stmt *S, int Parent, std::vector<BodyStmt> &Out,
                 unsigned Depth) {
  if (Depth > 256) {
    llvm::SmallVector<BodyStmt, 64> Work{{S, Parent}};
    while (!Work.empty()) {
      BodyStmt Cur = Work.pop_back_val();
      int Index = static_cast<int>(Out.size());
      Out.push_back(Cur);
      size_t First = Work.size();
      if (const auto *Lambda = dyn_cast<LambdaExpr>(Cur.S)) {
        for (const Expr *Init : Lambda->capture_inits())
          if (Init)
            Work.push_back({Init, Index});
      } else if (!isa<BlockExpr>(Cur.S)) {
        for (const Stmt *C : Cur.S->children())
          if (C)
            Work.push_back({C, Index});
      }
      // Children in reverse so that the pre-order follows the source.
      std::reverse(Work.begin() + First, Work.end());
    }
    return;
  }
  int Index = static_cast<int>(Out.size());
  Out.push_back({S, Parent});
  if (const auto *Lambda = dyn_cast<LambdaExpr>(S)) {
    // The captures belong to this body; the lambda's body does not.
    for (const Expr *Init : Lambda->capture_inits())
      if (Init)
        appendStmts(Init, Index, Out, Depth + 1);
    return;
  }
  if (isa<BlockExpr>(S))
    return;
  for (const Stmt *C : S->children())
    if (C)
      appendStmts(C, Index, Out, Depth + 1);
}

} // namespace

llvm::ArrayRef<BodyStmt> stmtsIn(const Decl *Callable) {
  if (!Callable || !Callable->getBody())
    return {};
  return *Stmts.get(Callable->getASTContext(), Callable, [&] {
    auto Out = std::make_unique<std::vector<BodyStmt>>();
    Out->reserve(128);
    appendStmts(Callable->getBody(), -1, *Out, 0);
    return Out;
  });
}

int parentThroughWrappers(llvm::ArrayRef<BodyStmt> Stmts, int I,
                          bool KeepLoads) {
  int P = Stmts[I].Parent;
  for (; P >= 0; P = Stmts[P].Parent) {
    const auto *Cast = dyn_cast<ImplicitCastExpr>(Stmts[P].S);
    if (!isa<ParenExpr>(Stmts[P].S) &&
        !(Cast && !(KeepLoads && Cast->getCastKind() == CK_LValueToRValue)))
      break;
  }
  return P;
}

void addAncestors(llvm::ArrayRef<BodyStmt> Stmts, size_t I,
                  llvm::DenseMap<const Stmt *, const Stmt *> &Parents) {
  for (int Child = static_cast<int>(I), Up = Stmts[I].Parent; Up >= 0;
       Child = Up, Up = Stmts[Up].Parent)
    if (!Parents.try_emplace(Stmts[Child].S, Stmts[Up].S).second)
      break; // the rest of the chain is there
}

/// The value of a condition written as a literal: 0, 1, false, true, under
/// parentheses and `!`, none of it from a macro.
static std::optional<bool> literalCondition(const Expr *E) {
  if (!E || !E->getBeginLoc().isFileID() || !E->getEndLoc().isFileID())
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  if (const auto *Not = dyn_cast<UnaryOperator>(E);
      Not && Not->getOpcode() == UO_LNot) {
    std::optional<bool> Inner = literalCondition(Not->getSubExpr());
    return Inner ? std::optional<bool>(!*Inner) : std::nullopt;
  }
  return literalTruth(E);
}

/// Whether `Stmts[I]` is in a branch of an `if` that the condition's value
/// switches off, as `Fixed` gives it (nullopt: not fixed): the then of a
/// false condition, the else of a true one.
static bool inBranchSwitchedOff(
    llvm::ArrayRef<BodyStmt> Stmts, int I,
    llvm::function_ref<std::optional<bool>(const IfStmt *)> Fixed) {
  for (int Child = I, Up = I >= 0 ? Stmts[I].Parent : -1; Up >= 0;
       Child = Up, Up = Stmts[Up].Parent) {
    const auto *If = dyn_cast<IfStmt>(Stmts[Up].S);
    if (!If || If->isConsteval() || If->getConditionVariable())
      continue;
    std::optional<bool> Cond = Fixed(If);
    if (!Cond)
      continue;
    if ((!*Cond && Stmts[Child].S == If->getThen()) ||
        (*Cond && Stmts[Child].S == If->getElse()))
      return true;
  }
  return false;
}

bool inSwitchedOffBranch(llvm::ArrayRef<BodyStmt> Stmts, size_t I) {
  return inBranchSwitchedOff(Stmts, static_cast<int>(I),
                             [](const IfStmt *If) -> std::optional<bool> {
                               if (If->getInit())
                                 return std::nullopt;
                               return literalCondition(If->getCond());
                             });
}

/// The value of `E` when it names a template argument (a non-type template
/// parameter substituted in the instantiation) and nothing that varies at
/// run time; nullopt otherwise.
static std::optional<bool> fixedByTemplateArguments(const Expr *E,
                                                    const ASTContext &Ctx) {
  bool Substituted = false;
  llvm::SmallVector<const Stmt *, 16> Work{E};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (isa<SubstNonTypeTemplateParmExpr>(S)) {
      Substituted = true;
      continue;
    }
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  bool Value;
  if (!Substituted || E->isValueDependent() ||
      !E->EvaluateAsBooleanCondition(Value, Ctx))
    return std::nullopt;
  return Value;
}

bool switchedOffByTemplateArguments(const Decl *Callable, const Stmt *S) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(Callable);
  if (!FD || !FD->isTemplateInstantiation())
    return false;
  const ASTContext &Ctx = Callable->getASTContext();
  return inBranchSwitchedOff(
      stmtsIn(Callable), indexIn(Callable).indexOf(S), [&](const IfStmt *If) {
        return fixedByTemplateArguments(If->getCond(), Ctx);
      });
}

const BodyIndex &indexIn(const Decl *Callable) {
  static const BodyIndex None;
  if (!Callable || !Callable->getBody())
    return None;
  return *Indexes.get(Callable->getASTContext(), Callable, [&] {
    auto Index = std::make_unique<BodyIndex>();
    llvm::ArrayRef<BodyStmt> Stmts = stmtsIn(Callable);
    for (size_t I = 0; I < Stmts.size(); ++I) {
      const Stmt *S = Stmts[I].S;
      if (isa<CallExpr>(S)) {
        Index->At.try_emplace(S, static_cast<int>(I));
      } else if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
        Index->At.try_emplace(S, static_cast<int>(I));
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          Index->RefsTo[VD].push_back(static_cast<int>(I));
      }
    }
    return Index;
  });
}

llvm::ArrayRef<const CallExpr *> callsIn(const Decl *Callable) {
  if (!Callable || !Callable->getBody())
    return {};
  return *Calls.get(Callable->getASTContext(), Callable, [&] {
    auto Found = std::make_unique<std::vector<const CallExpr *>>();
    for (const BodyStmt &N : stmtsIn(Callable))
      if (const auto *Call = dyn_cast<CallExpr>(N.S))
        Found->push_back(Call);
    return Found;
  });
}

llvm::ArrayRef<CallInBody> describedCallsIn(const Decl *Callable) {
  if (!Callable || !Callable->getBody())
    return {};
  const SourceManager &SM = Callable->getASTContext().getSourceManager();
  return *DescribedCalls.get(Callable->getASTContext(), Callable, [&] {
    auto Described = std::make_unique<std::vector<CallInBody>>();
    for (const CallExpr *Call : callsIn(Callable))
      Described->push_back({Call, calledCublasFunction(Call),
                            expandedInSystemHeader(Call->getBeginLoc(), SM)});
    return Described;
  });
}

bool callsAny(const Decl *Callable,
              llvm::function_ref<bool(const CallExpr *)> Pred) {
  return llvm::any_of(callsIn(Callable), Pred);
}

} // namespace cublas_tidy
