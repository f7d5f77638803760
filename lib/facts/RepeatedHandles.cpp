//===- RepeatedHandles.cpp - Handles made and destroyed again and again ---===//

#include "facts/RepeatedHandles.h"
#include "facts/Summaries.h"
#include "facts/SummaryParts.h"

#include "ast/AstUtils.h"
#include "ast/Callables.h"
#include "ast/CompileErrors.h"
#include "model/RuntimeCalls.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace json = llvm::json;

namespace cublas_tidy {

namespace {

using clang::CallExpr;
using clang::Stmt;

bool isRepeatedKind(ResourceKind K) {
  return K == ResourceKind::Handle || K == ResourceKind::LtHandle ||
         K == ResourceKind::SolverDnHandle || K == ResourceKind::SparseHandle;
}

/// `do { ... } while (0)` (or `while (false)`): the body of a statement
/// macro, which runs once.
bool runsOnce(const Stmt *S) {
  const auto *Do = llvm::dyn_cast<clang::DoStmt>(S);
  std::optional<bool> Cond = literalTruth(Do ? Do->getCond() : nullptr);
  return Cond && !*Cond;
}

bool isLoop(const Stmt *S) { return isLoopStmt(S) && !runsOnce(S); }

/// An if statement around a call, and how many loops were open when it
/// began.
struct OpenIf {
  const clang::IfStmt *If;
  unsigned Loops;
};

/// Where a call is: the loops around it (outermost first) and the ifs
/// whose branches hold it.
struct Place {
  llvm::SmallVector<const Stmt *, 4> Loops;
  llvm::SmallVector<OpenIf, 4> Ifs;
};

/// Every call of a body that `Keep` accepts (not those of nested lambdas,
/// which are callables of their own) with its place, in source order.
/// Iterative: bodies may nest thousands of levels deep.
class Places {
public:
  Places(const Stmt *Body, llvm::function_ref<bool(const CallExpr *)> Keep) {
    enum Kind { Visit, EnterLoop, ExitLoop, EnterIf, ExitIf };
    struct Item {
      const Stmt *S;
      Kind K;
    };
    llvm::SmallVector<Item, 64> Work;
    if (Body)
      Work.push_back({Body, Visit});
    Place Now;
    unsigned Budget = 200000;
    while (!Work.empty() && Budget--) {
      Item I = Work.pop_back_val();
      switch (I.K) {
      case EnterLoop:
        Now.Loops.push_back(I.S);
        continue;
      case ExitLoop:
        Now.Loops.pop_back();
        continue;
      case EnterIf:
        Now.Ifs.push_back({llvm::cast<clang::IfStmt>(I.S),
                           static_cast<unsigned>(Now.Loops.size())});
        continue;
      case ExitIf:
        Now.Ifs.pop_back();
        continue;
      case Visit:
        break;
      }
      const Stmt *S = I.S;
      if (!S || llvm::isa<clang::LambdaExpr>(S))
        continue;
      if (const auto *C = llvm::dyn_cast<CallExpr>(S); C && Keep(C)) {
        Order.push_back(C);
        Of[C] = Now;
      }
      // In source order; pushed in reverse below.
      llvm::SmallVector<Item, 8> Next;
      if (const auto *F = llvm::dyn_cast<clang::ForStmt>(S)) {
        Next.push_back({F->getInit(), Visit}); // runs once
        Next.push_back({F, EnterLoop});
        Next.push_back({F->getCond(), Visit});
        Next.push_back({F->getBody(), Visit});
        Next.push_back({F->getInc(), Visit});
        Next.push_back({F, ExitLoop});
      } else if (const auto *R = llvm::dyn_cast<clang::CXXForRangeStmt>(S)) {
        Next.push_back({R->getInit(), Visit});
        Next.push_back({R->getRangeStmt(), Visit});
        Next.push_back({R, EnterLoop});
        Next.push_back({R->getLoopVarStmt(), Visit});
        Next.push_back({R->getBody(), Visit});
        Next.push_back({R, ExitLoop});
      } else if (isLoop(S)) {
        Next.push_back({S, EnterLoop});
        for (const Stmt *Child : S->children())
          Next.push_back({Child, Visit});
        Next.push_back({S, ExitLoop});
      } else if (const auto *If = llvm::dyn_cast<clang::IfStmt>(S)) {
        Next.push_back({If->getInit(), Visit});
        Next.push_back({If->getConditionVariableDeclStmt(), Visit});
        Next.push_back({If->getCond(), Visit});
        Next.push_back({If, EnterIf});
        Next.push_back({If->getThen(), Visit});
        Next.push_back({If->getElse(), Visit});
        Next.push_back({If, ExitIf});
      } else {
        for (const Stmt *Child : S->children())
          Next.push_back({Child, Visit});
      }
      for (auto It = Next.rbegin(); It != Next.rend(); ++It)
        Work.push_back(*It);
    }
    Complete = Work.empty();
  }

  bool Complete = false;
  std::vector<const CallExpr *> Order;
  llvm::DenseMap<const CallExpr *, Place> Of;
};

/// The loop's counter: the variable a for loop declares or assigns in its
/// init, or a range-for's loop variable.
const clang::VarDecl *counterOf(const Stmt *Loop) {
  if (const auto *R = llvm::dyn_cast<clang::CXXForRangeStmt>(Loop))
    return R->getLoopVariable();
  const auto *F = llvm::dyn_cast<clang::ForStmt>(Loop);
  if (!F || !F->getInit())
    return nullptr;
  if (const auto *DS = llvm::dyn_cast<clang::DeclStmt>(F->getInit()))
    return DS->isSingleDecl() ? llvm::dyn_cast<clang::VarDecl>(DS->getSingleDecl())
                              : nullptr;
  if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(F->getInit()))
    if (B->isAssignmentOp())
      return referencedVar(B->getLHS());
  return nullptr;
}

/// Walks `S` (not nested lambdas), bounded; false when the budget ran out.
/// Without `IntoLoops`, the loops and switches under `S` are skipped (a
/// `do ... while (0)` too: a `break` in it leaves it, not `S`).
template <class Fn> bool walk(const Stmt *S, Fn &&Visit, bool IntoLoops = true) {
  return walkStmts(
      S,
      [&](const Stmt *N) {
        if (N != S && !IntoLoops &&
            (isLoop(N) || runsOnce(N) || llvm::isa<clang::SwitchStmt>(N)))
          return false;
        Visit(N);
        return true;
      },
      /*Budget=*/100000);
}

bool mentions(const Stmt *S, const clang::VarDecl *V) {
  bool Found = false;
  bool Done = walk(S, [&](const Stmt *N) {
    if (referencedVar(llvm::dyn_cast<clang::Expr>(N)) == V)
      Found = true;
  });
  return Found || !Done;
}

/// True when the loop may run once: it has a `break` of its own (a retry
/// loop that stops at the first success), or is too large to tell.
bool mayRunOnce(const Stmt *Loop) {
  bool Break = false;
  bool Done = walk(
      Loop, [&](const Stmt *N) { Break |= llvm::isa<clang::BreakStmt>(N); },
      /*IntoLoops=*/false);
  return Break || !Done;
}

} // namespace

bool selectsDevice(const Stmt *S) {
  bool Found = false;
  bool Done = walk(S, [&](const Stmt *N) {
    if (const auto *C = llvm::dyn_cast<CallExpr>(N))
      if (const clang::FunctionDecl *FD = C->getDirectCallee())
        if (FD->getIdentifier() &&
            runtime_api::isRuntimeCall(FD->getName(),
                                       runtime_api::RuntimeKind::SelectDevice))
          Found = true;
  });
  return Found || !Done;
}

namespace {

/// The innermost loop that holds every place, or null.
const Stmt *commonLoop(std::initializer_list<const Place *> Ps) {
  const Place &First = **Ps.begin();
  unsigned N = First.Loops.size();
  for (const Place *P : Ps) {
    unsigned Same = 0;
    while (Same < N && Same < P->Loops.size() &&
           P->Loops[Same] == First.Loops[Same])
      ++Same;
    N = Same;
  }
  return N ? First.Loops[N - 1] : nullptr;
}

/// True when `P` is in a branch, inside `Loop`, of an if whose condition
/// names the loop's counter (`if (i == 0)`).
bool underCounterCondition(const Place &P, const Stmt *Loop) {
  const clang::VarDecl *Counter = counterOf(Loop);
  if (!Counter)
    return false;
  unsigned Depth = 0;
  while (Depth < P.Loops.size() && P.Loops[Depth] != Loop)
    ++Depth;
  for (const OpenIf &I : P.Ifs)
    if (I.Loops > Depth && mentions(I.If->getCond(), Counter))
      return true;
  return false;
}

/// A loop around `P` that repeats it, by the rules of the header; with
/// `OverDevices`, a loop that selects a device repeats it too.
const Stmt *repeatingLoop(const Place &P, const Stmt *Loop,
                          bool OverDevices = false) {
  if (!Loop || mayRunOnce(Loop) || (!OverDevices && selectsDevice(Loop)) ||
      underCounterCondition(P, Loop))
    return nullptr;
  return Loop;
}

} // namespace

std::vector<ScopedHandle> repeatedHandles(const clang::Decl *Callable) {
  std::vector<ScopedHandle> Out;
  const Stmt *Body = analysableBody(Callable);
  if (!Body)
    return Out;
  // Most functions create nothing: their shared call list says so without
  // a walk of the body.
  if (llvm::none_of(describedCallsIn(Callable), [](const CallInBody &C) {
        return C.Callee && isRepeatedKind(C.Callee->Creates);
      }))
    return Out;
  Places Ps(Body, [](const CallExpr *C) { return calledCublasFunction(C) != nullptr; });
  if (!Ps.Complete)
    return Out;
  struct Seen {
    ScopedHandle H;
    unsigned Creates = 0;
  };
  llvm::DenseMap<const clang::VarDecl *, Seen> Vars;
  // Creates into local variables.
  for (const CallExpr *C : Ps.Order) {
    const FunctionInfo *F = calledCublasFunction(C);
    if (!F || !isRepeatedKind(F->Creates))
      continue;
    int OutParam = F->findParam(ParamRole::ResourceOut);
    if (OutParam < 0 || unsigned(OutParam) >= C->getNumArgs())
      continue;
    const clang::VarDecl *V = addressedVar(C->getArg(OutParam));
    if (!V || !V->hasLocalStorage() || V->getType()->isReferenceType())
      continue;
    Seen &S = Vars[V];
    if (S.Creates++ == 0)
      S.H = {V, F->Creates, C, nullptr, nullptr, nullptr, false};
  }
  // Their destroys and the work on them.
  for (const CallExpr *C : Ps.Order) {
    const FunctionInfo *F = calledCublasFunction(C);
    if (!F)
      continue;
    for (unsigned I = 0; I < F->NumParams && I < C->getNumArgs(); ++I) {
      ParamRole R = F->params()[I].Role;
      if (R != ParamRole::Resource && R != ParamRole::ResourceDestroyed)
        continue;
      auto It = Vars.find(referencedVar(C->getArg(I)));
      if (It == Vars.end())
        continue;
      ScopedHandle &H = It->second.H;
      if (R == ParamRole::ResourceDestroyed && isRepeatedKind(F->Destroys)) {
        if (!H.Destroy)
          H.Destroy = C;
      } else if (R == ParamRole::Resource && doesWork(*F) && !H.Work) {
        H.Work = C;
      }
    }
  }
  for (auto &[V, S] : Vars) {
    ScopedHandle H = S.H;
    // One create and a destroy after it, with work between.
    if (S.Creates != 1 || !H.Destroy || !H.Work)
      continue;
    const Place &Create = Ps.Of[H.Create], &Destroy = Ps.Of[H.Destroy],
                &Work = Ps.Of[H.Work];
    if (const Stmt *Loop = commonLoop({&Create, &Destroy, &Work})) {
      H.Loop = repeatingLoop(Create, Loop);
      if (H.Loop)
        Out.push_back(H);
    } else if (Create.Loops.empty() && Destroy.Loops.empty()) {
      H.OncePerCall = true;
      Out.push_back(H);
    }
  }
  llvm::sort(Out, [](const ScopedHandle &A, const ScopedHandle &B) {
    return A.Create->getBeginLoc() < B.Create->getBeginLoc();
  });
  return Out;
}

std::optional<CallInLoop>
callInLoop(const clang::FunctionDecl *Fn,
           llvm::ArrayRef<const clang::Decl *> Callables, bool OverDevices,
           CallInLoopFilter Accept) {
  return callInLoop(Fn, unitCallSites(Callables), OverDevices, Accept);
}

std::vector<std::pair<const CallExpr *, const FunctionSummary *>>
perCallCallees(const clang::FunctionDecl *FD) {
  std::vector<std::pair<const CallExpr *, const FunctionSummary *>> Out;
  const Stmt *Body = analysableBody(FD);
  if (!Body || !projectFactsWanted())
    return Out;
  llvm::DenseMap<const CallExpr *, const FunctionSummary *> Summary;
  Places Ps(Body, [&](const CallExpr *C) {
    const FunctionSummary *S = projectSummaryOfCall(C);
    if (!S || S->PerCall.empty())
      return false;
    Summary[C] = S;
    return true;
  });
  if (!Ps.Complete)
    return Out;
  for (const CallExpr *C : Ps.Order)
    if (Ps.Of[C].Loops.empty() && Ps.Of[C].Ifs.empty())
      Out.push_back({C, Summary[C]});
  return Out;
}

/// A function whose repetition is judged: its body selects no device, or,
/// defined in another unit, its summary says it makes handles per call or
/// creates a global on every call (and selects no device).
static bool judgedForRepetition(const clang::FunctionDecl *Fn) {
  if (const Stmt *Body = Fn->getBody())
    return !selectsDevice(Body);
  const FunctionSummary *S = projectSummary(Fn);
  return S && (!S->PerCall.empty() || !S->CreatedGlobals.empty());
}

/// callInLoop, with the functions already on the way down (`Below`, the
/// innermost last) and how many more may be added.
static std::optional<CallInLoop>
callInLoopVia(const clang::FunctionDecl *Fn, const CallerIndex &Index,
              bool OverDevices, CallInLoopFilter Accept,
              llvm::SmallVectorImpl<const clang::FunctionDecl *> &Below,
              unsigned Levels) {
  if (!Fn || Fn->isMain() || !judgedForRepetition(Fn))
    return std::nullopt;
  const clang::FunctionDecl *Canon = Fn->getCanonicalDecl();
  // The calls of Fn that run on every call of their caller, to look above.
  llvm::SmallVector<std::pair<const CallExpr *, const clang::FunctionDecl *>, 4>
      Unconditional;
  for (const clang::Decl *Caller : Index.callersOf(Fn)) {
    if (Caller == Fn)
      continue;
    const Stmt *Body = analysableBody(Caller);
    if (!Body)
      continue;
    Places Ps(Body, [&](const CallExpr *C) {
      const clang::FunctionDecl *FD = C->getDirectCallee();
      return FD && FD->getCanonicalDecl() == Canon;
    });
    if (!Ps.Complete)
      continue;
    for (const CallExpr *C : Ps.Order) {
      const Place &P = Ps.Of[C];
      if (P.Loops.empty()) {
        const auto *Up = dyn_cast<clang::FunctionDecl>(Caller);
        const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Up);
        bool Lambda = Method && Method->getParent()->isLambda();
        if (P.Ifs.empty() && Up && !Lambda &&
            !llvm::is_contained(Below, Up->getCanonicalDecl()))
          Unconditional.push_back({C, Up});
        continue;
      }
      if (const Stmt *Loop = repeatingLoop(P, P.Loops.back(), OverDevices)) {
        CallInLoop In{C, Loop, Caller, selectsDevice(Loop), {}};
        if (!Accept || Accept(In))
          return In;
      }
    }
  }
  if (!Levels)
    return std::nullopt;
  for (const auto &[Call, Up] : Unconditional) {
    Below.push_back(Canon);
    std::optional<CallInLoop> In =
        callInLoopVia(Up, Index, OverDevices, Accept, Below, Levels - 1);
    Below.pop_back();
    if (In) {
      In->Through.push_back(Call);
      return In;
    }
  }
  return std::nullopt;
}

std::optional<CallInLoop> callInLoop(const clang::FunctionDecl *Fn,
                                     const CallerIndex &Index,
                                     bool OverDevices,
                                     CallInLoopFilter Accept) {
  llvm::SmallVector<const clang::FunctionDecl *, 4> Below;
  return callInLoopVia(Fn, Index, OverDevices, Accept, Below, /*Levels=*/2);
}

namespace {

/// The indices of `I`'s ancestors in `Stmts`, `I` first, the root last.
llvm::SmallVector<int, 16> chainOf(llvm::ArrayRef<BodyStmt> Stmts, int I) {
  llvm::SmallVector<int, 16> Chain;
  for (; I >= 0; I = Stmts[I].Parent) {
    Chain.push_back(I);
    if (I == 0)
      break;
  }
  return Chain;
}

/// Whether every statement of `Chain` up to (not including) `Stop` runs
/// whenever its parent does.
bool runsAlong(llvm::ArrayRef<BodyStmt> Stmts, llvm::ArrayRef<int> Chain,
               int Stop, const clang::ASTContext &Ctx) {
  for (int I : Chain) {
    if (I == Stop)
      return true;
    int P = Stmts[I].Parent;
    if (P < 0 || I == 0 || !alwaysRuns(Stmts[P].S, Stmts[I].S, Ctx))
      return false;
  }
  return false;
}

} // namespace

std::optional<CallTwice>
callTwice(const clang::FunctionDecl *Fn,
          llvm::ArrayRef<const clang::Decl *> Callables) {
  if (!Fn || !judgedForRepetition(Fn))
    return std::nullopt;
  const clang::FunctionDecl *Canon = Fn->getCanonicalDecl();
  for (const clang::Decl *Caller : unitCallSites(Callables).callersOf(Fn)) {
    if (Caller == Fn)
      continue;
    llvm::ArrayRef<BodyStmt> Stmts = stmtsIn(Caller);
    llvm::SmallVector<int, 4> Calls;
    for (size_t I = 0; I < Stmts.size() && Calls.size() < 8; ++I)
      if (const auto *C = llvm::dyn_cast<CallExpr>(Stmts[I].S))
        if (const clang::FunctionDecl *FD = C->getDirectCallee();
            FD && FD->getCanonicalDecl() == Canon)
          Calls.push_back(static_cast<int>(I));
    const clang::ASTContext &Ctx = Caller->getASTContext();
    for (size_t A = 0; A + 1 < Calls.size(); ++A) {
      llvm::SmallVector<int, 16> First = chainOf(Stmts, Calls[A]);
      for (size_t B = A + 1; B < Calls.size(); ++B) {
        llvm::SmallVector<int, 16> Second = chainOf(Stmts, Calls[B]);
        // The innermost statement that holds both: a block.
        auto Common = llvm::find_if(
            Second, [&](int I) { return llvm::is_contained(First, I); });
        if (Common == Second.end() ||
            !llvm::isa<clang::CompoundStmt>(Stmts[*Common].S))
          continue;
        // The first runs whenever the block does; the second whenever the
        // first did (on the paths that stay in the block: an early return
        // between them still leaves the paths where it is not taken).
        if (!runsAlong(Stmts, First, *Common, Ctx) ||
            !runsAlong(Stmts, Second, *Common, Ctx))
          continue;
        // The statements of the block from the first to the second.
        const auto *Block = llvm::cast<clang::CompoundStmt>(Stmts[*Common].S);
        const auto *InFirst = llvm::find(First, *Common);
        const Stmt *From = Stmts[*(InFirst - 1)].S;
        const Stmt *To = Stmts[*(Common - 1)].S;
        bool In = false, Device = false;
        for (const Stmt *S : Block->body()) {
          In |= S == From;
          if (In)
            Device |= selectsDevice(S);
          if (S == To)
            break;
        }
        if (Device)
          continue;
        return CallTwice{llvm::cast<CallExpr>(Stmts[Calls[A]].S),
                         llvm::cast<CallExpr>(Stmts[Calls[B]].S), Caller};
      }
    }
  }
  return std::nullopt;
}

bool handleCopiedOut(const clang::VarDecl *Var,
                     llvm::ArrayRef<const clang::Decl *> Callables) {
  for (const clang::Decl *Caller : Callables) {
    llvm::ArrayRef<BodyStmt> Stmts = stmtsIn(Caller);
    for (size_t I = 0; I < Stmts.size(); ++I) {
      const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(Stmts[I].S);
      if (!DRE || DRE->getDecl() != Var)
        continue;
      // Up through parentheses, casts and `&`, to what reads it.
      int P = Stmts[I].Parent;
      while (P > 0 && (llvm::isa<clang::ParenExpr, clang::ImplicitCastExpr>(
                           Stmts[P].S) ||
                       (llvm::isa<clang::UnaryOperator>(Stmts[P].S) &&
                        llvm::cast<clang::UnaryOperator>(Stmts[P].S)
                                ->getOpcode() == clang::UO_AddrOf)))
        P = Stmts[P].Parent;
      const Stmt *User = P >= 0 ? Stmts[P].S : nullptr;
      if (const auto *C = llvm::dyn_cast_or_null<CallExpr>(User);
          C && calledCublasFunction(C))
        continue;
      if (const auto *U = llvm::dyn_cast_or_null<clang::UnaryOperator>(User);
          U && U->getOpcode() == clang::UO_LNot)
        continue;
      if (const auto *B = llvm::dyn_cast_or_null<clang::BinaryOperator>(User);
          B &&
          (B->isEqualityOp() ||
           (B->isAssignmentOp() && B->getLHS()->IgnoreParenImpCasts() == DRE)))
        continue; // compared, or written (`g = nullptr`): not kept
      if (llvm::isa_and_nonnull<clang::IfStmt>(User))
        continue; // `if (g)`
      return true;
    }
  }
  return false;
}

namespace {

bool registrable(const clang::FunctionDecl *Fn) {
  return Fn && judgedForRepetition(Fn);
}

} // namespace

std::optional<OpRegistration>
opRegistration(const clang::FunctionDecl *Fn,
               llvm::ArrayRef<const clang::Decl *> Callables) {
  if (!registrable(Fn))
    return std::nullopt;
  const clang::FunctionDecl *Canon = Fn->getCanonicalDecl();
  std::optional<OpRegistration> Found;
  forEachRegistration(Callables, [&](const clang::FunctionDecl *FD,
                                     const OpRegistration &R) {
    if (FD != Canon)
      return false;
    Found = R;
    return true;
  });
  return Found;
}

OpRegistrations::OpRegistrations(
    llvm::ArrayRef<const clang::Decl *> Callables) {
  forEachRegistration(Callables, [&](const clang::FunctionDecl *FD,
                                     const OpRegistration &R) {
    First.try_emplace(FD, R);
    return false;
  });
}

std::optional<OpRegistration>
OpRegistrations::of(const clang::FunctionDecl *Fn) const {
  if (!registrable(Fn))
    return std::nullopt;
  auto It = First.find(Fn->getCanonicalDecl());
  if (It == First.end())
    return std::nullopt;
  return It->second;
}

//===----------------------------------------------------------------------===//
// Statics created on every call
//===----------------------------------------------------------------------===//

namespace {

bool containsAny(const Stmt *S, llvm::function_ref<bool(const Stmt *)> Pred) {
  return anyStmt(S, Pred, ~0u);
}

/// The flag `f` of a guard `!f`, `f == false`, `f == 0` (also reversed),
/// or null.
const VarDecl *negatedFlag(const Expr *Cond) {
  Cond = Cond ? Cond->IgnoreParenImpCasts() : nullptr;
  auto Flag = [](const Expr *E) -> const VarDecl * {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    return VD && (VD->getType()->isBooleanType() ||
                  VD->getType()->isIntegerType())
               ? VD
               : nullptr;
  };
  auto IsZero = [](const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *B = dyn_cast<CXXBoolLiteralExpr>(E))
      return !B->getValue();
    if (const auto *I = dyn_cast<IntegerLiteral>(E))
      return I->getValue() == 0;
    return false;
  };
  if (!Cond)
    return nullptr;
  if (const auto *U = dyn_cast<UnaryOperator>(Cond))
    return U->getOpcode() == UO_LNot ? Flag(U->getSubExpr()) : nullptr;
  if (const auto *B = dyn_cast<BinaryOperator>(Cond)) {
    if (B->getOpcode() != BO_EQ)
      return nullptr;
    if (IsZero(B->getRHS()))
      return Flag(B->getLHS());
    if (IsZero(B->getLHS()))
      return Flag(B->getRHS());
  }
  return nullptr;
}

/// True when `Flag` starts false and nothing in `Scope` can set it: every
/// reference to it is a read in a test (`!f`, `f == 0`, `if (f)`).
bool neverSet(const VarDecl *Flag, const Stmt *Scope, ASTContext &Ctx) {
  if (const Expr *Init = Flag->getInit()) {
    Expr::EvalResult R;
    if (!Init->EvaluateAsInt(R, Ctx) || R.Val.getInt() != 0)
      return false;
  }
  ParentMap PM(const_cast<Stmt *>(Scope));
  bool Set = false;
  containsAny(Scope, [&](const Stmt *S) {
    const auto *DRE = dyn_cast<DeclRefExpr>(S);
    if (!DRE || DRE->getDecl() != Flag)
      return false;
    // Climb through the casts and parentheses of a read.
    const Stmt *Cur = DRE;
    const Stmt *P = PM.getParent(Cur);
    while (P && isa<ImplicitCastExpr, ParenExpr>(P)) {
      Cur = P;
      P = PM.getParent(P);
    }
    bool Read = false;
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(P))
      Read = U->getOpcode() == UO_LNot;
    else if (const auto *B = dyn_cast_or_null<BinaryOperator>(P))
      Read = B->isEqualityOp() || B->isLogicalOp();
    else if (const auto *If = dyn_cast_or_null<IfStmt>(P))
      Read = If->getCond() == Cur;
    if (!Read || !isa<ImplicitCastExpr>(PM.getParent(DRE)))
      Set = true;
    return Set;
  });
  return !Set;
}

/// The guard `if (!flag) { ... create ... }` around `Create` when its flag
/// is never set in the scope that can see it: a function-local static (the
/// function's body) or a variable of internal linkage (the translation
/// unit). The guard then lets every call through.
const VarDecl *neverSetGuard(const IfStmt *If, const Stmt *Branch,
                             const FunctionDecl *FD, ASTContext &Ctx) {
  if (!If || Branch != If->getThen() || If->getElse() || If->getInit() ||
      If->getConditionVariable())
    return nullptr;
  const VarDecl *Flag = negatedFlag(If->getCond());
  if (!Flag || Flag->getType()->isReferenceType() ||
      Flag->getType().isVolatileQualified())
    return nullptr;
  if (Flag->isStaticLocal()) {
    if (Flag->getParentFunctionOrMethod() != FD)
      return nullptr;
    return neverSet(Flag, FD->getBody(), Ctx) ? Flag : nullptr;
  }
  if (!Flag->hasGlobalStorage() || Flag->isExternallyVisible() ||
      Flag->isLocalVarDeclOrParm())
    return nullptr;
  // Internal linkage: every function of this file that could set it. Code
  // in namespaces, classes and templates is not followed: silence.
  const SourceManager &SM = Ctx.getSourceManager();
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    if (SM.isInSystemHeader(D->getLocation()))
      continue;
    if (const auto *Other = dyn_cast<FunctionDecl>(D)) {
      // A function with compile errors may be where the flag is being set.
      if (Other->hasBody() && (hasCompileErrors(Other) ||
                               !neverSet(Flag, Other->getBody(), Ctx)))
        return nullptr;
      continue;
    }
    if (!isa<VarDecl, TypedefNameDecl, EnumDecl, EmptyDecl, StaticAssertDecl,
             UsingDirectiveDecl, UsingDecl>(D) &&
        !(isa<RecordDecl>(D) && !isa<CXXRecordDecl>(D)) &&
        !(isa<CXXRecordDecl>(D) && cast<CXXRecordDecl>(D)->isCLike()) &&
        !D->isImplicit() && !isa<BuiltinTemplateDecl>(D))
      return nullptr;
  }
  return Flag;
}

} // namespace

std::vector<RecreatedStatic> recreatedStatics(const Decl *Function,
                                              const ResourceTable &Table) {
  std::vector<RecreatedStatic> Out;
  const auto *FD = dyn_cast_or_null<FunctionDecl>(Function);
  if (!FD || FD->isMain())
    return Out;
  // A lambda may run once (std::call_once): only its unguarded creates of
  // globals, which leak only where the caller shows it runs again (an
  // extension module registers it as an op).
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  bool Lambda = MD && MD->getParent()->isLambda();
  if (!analysableBody(FD))
    return Out;
  const ASTContext &Ctx = FD->getASTContext();
  llvm::ArrayRef<BodyStmt> Stmts = stmtsIn(FD);
  for (size_t I = 0; I < Stmts.size(); ++I) {
    const auto *Call = dyn_cast<CallExpr>(Stmts[I].S);
    const ResourceTable::Entry *E = Table.lookup(Call);
    if (!E || !E->IsCreate)
      continue;
    const VarDecl *VD = nullptr;
    if (E->ParamIndex >= 0 &&
        static_cast<unsigned>(E->ParamIndex) < Call->getNumArgs())
      VD = addressedVar(Call->getArg(E->ParamIndex));
    if (!VD || !VD->hasGlobalStorage() || VD->getType()->isReferenceType())
      continue;
    // Up to the statement of the body that holds the create: always run,
    // but for one guard whose flag is never set.
    int Cur = static_cast<int>(I);
    bool Always = true;
    const VarDecl *Guard = nullptr;
    const IfStmt *GuardIf = nullptr;
    while (Stmts[Cur].Parent > 0 && Always) {
      const Stmt *Parent = Stmts[Stmts[Cur].Parent].S;
      Always = alwaysRuns(Parent, Stmts[Cur].S, Ctx);
      if (!Always && !Guard) {
        GuardIf = dyn_cast<IfStmt>(Parent);
        Guard = neverSetGuard(GuardIf, Stmts[Cur].S, FD,
                              const_cast<ASTContext &>(Ctx));
        Always = Guard != nullptr;
      }
      Cur = Stmts[Cur].Parent;
    }
    if (!Always || Stmts[Cur].Parent != 0)
      continue;
    // An unguarded create of a global is an initialiser: the caller decides
    // whether it runs again.
    bool UnguardedGlobal = !VD->isStaticLocal() && !Guard;
    // Nothing before it guards it, releases the old one, or leaves.
    const auto *Body = cast<CompoundStmt>(Stmts[0].S);
    bool Clear = true;
    for (const Stmt *Before : Body->body()) {
      if (Before == Stmts[Cur].S)
        break;
      Clear = !containsAny(Before, [&](const Stmt *S) {
        if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
          return DRE->getDecl() == VD;
        return isa<ReturnStmt, GotoStmt, CoreturnStmt>(S);
      });
      if (!Clear)
        break;
    }
    // A destroy of it anywhere in the function releases the previous one
    // (create, use, destroy on every call: a cost, not a leak).
    if (Clear && containsAny(Stmts[0].S, [&](const Stmt *S) {
          const auto *C = dyn_cast<CallExpr>(S);
          return C && Table.destroys(C, VD);
        }))
      continue;
    // The create's own statement may not mention it elsewhere either
    // (`if (!h && cublasCreate(&h))`).
    if (Clear && !containsAny(Stmts[Cur].S, [&](const Stmt *S) {
          const auto *DRE = dyn_cast<DeclRefExpr>(S);
          return DRE && DRE->getDecl() == VD &&
                 !containsAny(Call, [&](const Stmt *In) { return In == DRE; });
        }))
      if (!Lambda || UnguardedGlobal)
        Out.push_back({VD, Call, E->KindId, Guard, GuardIf, UnguardedGlobal});
  }
  return Out;
}

// Its summary part "perCall" (facts/SummaryParts.h): the handles it
// creates and destroys on every call.

const SummaryPart PerCallSummaryPart = {
    [](const FunctionSummary &S) { return !S.PerCall.empty(); },
    [](const FunctionSummary &S, json::Object &O) {
      json::Array A;
      for (const FunctionSummary::PerCallHandle &H : S.PerCall)
        A.push_back(
            H.Through.empty()
                ? json::Array{H.Lt ? "lt-handle" : "handle", H.Create, H.Line}
                : json::Array{H.Lt ? "lt-handle" : "handle", H.Create, H.Line,
                              H.CreateFile, H.Through});
      O["perCall"] = std::move(A);
    },
    [](const json::Object &O, FunctionSummary &S) {
      return summary_json::readEach(O, "perCall", [&](const json::Value &H) {
        const json::Array *T = H.getAsArray();
        if (!T || (T->size() != 3 && T->size() != 5))
          return false;
        auto Kind = (*T)[0].getAsString(), Create = (*T)[1].getAsString();
        std::optional<unsigned> Line = summary_json::natural((*T)[2]);
        if (!Kind || (*Kind != "handle" && *Kind != "lt-handle") || !Create ||
            !Line)
          return false;
        FunctionSummary::PerCallHandle P{*Kind == "lt-handle", Create->str(),
                                         *Line, "", ""};
        if (T->size() == 5) {
          auto File = (*T)[3].getAsString(), Through = (*T)[4].getAsString();
          if (!File || !Through)
            return false;
          P.CreateFile = File->str();
          P.Through = Through->str();
        }
        S.PerCall.push_back(std::move(P));
        return true;
      });
    }};

// Its summary part "createsGlobals" (facts/SummaryParts.h): the globals
// it creates on every call, unguarded.

const SummaryPart CreatedGlobalsSummaryPart = {
    [](const FunctionSummary &S) { return !S.CreatedGlobals.empty(); },
    [](const FunctionSummary &S, json::Object &O) {
      json::Array A;
      for (const FunctionSummary::CreatedGlobal &G : S.CreatedGlobals)
        A.push_back(json::Array{G.Key, G.Name, G.Noun, G.Line});
      O["createsGlobals"] = std::move(A);
    },
    [](const json::Object &O, FunctionSummary &S) {
      return summary_json::readEach(
          O, "createsGlobals", [&](const json::Value &G) {
            const json::Array *T = G.getAsArray();
            if (!T || T->size() != 4)
              return false;
            auto Key = (*T)[0].getAsString(), Name = (*T)[1].getAsString(),
                 Noun = (*T)[2].getAsString();
            std::optional<unsigned> Line = summary_json::natural((*T)[3]);
            if (!Key || Key->empty() || !Name || !Noun || !Line)
              return false;
            S.CreatedGlobals.push_back(
                {Key->str(), Name->str(), Noun->str(), *Line});
            return true;
          });
    }};

} // namespace cublas_tidy
