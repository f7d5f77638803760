//===- HandleConfig.cpp ---------------------------------------------------===//

#include "facts/HandleConfig.h"
#include "facts/HandleStates.h"

#include "ast/AstUtils.h"
#include "ast/CallSites.h"
#include "ast/Callables.h"
#include "ast/CutOffs.h"
#include "ast/LocalUses.h"
#include "ast/SharedCfg.h"
#include "facts/Exceptions.h"
#include "model/RuntimeCalls.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace cublas_tidy {

namespace {

using handle_config::ConfigFunction;
using handle_config::Setting;

/// Paths followed from one call before the search gives up (silently, with
/// a cut-off note).
constexpr unsigned MaxSteps = 20000;

using StableVariables = UnchangedVariables;

/// The handle the Create call `Call` writes, when it is one.
std::optional<HandleName> createdHandle(const CallExpr *Call,
                                        const Decl *Callable,
                                        StableVariables &Stable) {
  const FunctionInfo *F = calledCublasFunction(Call);
  if (!F || F->Creates != ResourceKind::Handle)
    return std::nullopt;
  int Out = F->findParam(ParamRole::ResourceOut);
  if (Out < 0 || unsigned(Out) >= Call->getNumArgs())
    return std::nullopt;
  const auto *UO =
      dyn_cast<UnaryOperator>(Call->getArg(Out)->IgnoreParenImpCasts());
  if (!UO || UO->getOpcode() != UO_AddrOf)
    return std::nullopt;
  // The variable itself, not what it was initialised with.
  return handleNamed(UO->getSubExpr(), Callable, Stable);
}

bool createsIn(const HandleName &H, const Decl *Callable,
               StableVariables &Stable) {
  for (const CallExpr *Call : callsIn(Callable))
    if (std::optional<HandleName> C = createdHandle(Call, Callable, Stable);
        C && *C == H)
      return true;
  return false;
}

/// The handle argument of a cuBLAS (or cuSPARSE) call that works with it
/// (not a configuration, create or destroy call); null otherwise.
const Expr *workHandleArg(const CallExpr *Call) {
  const FunctionInfo *F = calledCublasFunction(Call);
  if (!F || F->Creates != ResourceKind::None ||
      F->Destroys != ResourceKind::None || calledConfigFunction(Call))
    return nullptr;
  int At = F->findParam(ParamRole::Resource);
  if (At < 0 || unsigned(At) >= Call->getNumArgs() ||
      !isPointerModeHandleType(Call->getArg(At)->getType()))
    return nullptr;
  return Call->getArg(At);
}

/// A function of the user's that `Call` calls, with a body in this unit.
const FunctionDecl *userCallee(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || calledCublasFunction(Call))
    return nullptr;
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  if (SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())))
    return nullptr;
  return FD;
}

bool callsConfig(const Decl *Callable, Setting What) {
  return callsAny(Callable, [&](const CallExpr *C) {
    const ConfigFunction *F = calledConfigFunction(C);
    return F && F->Sets && F->What == What;
  });
}

/// Where each statement of a CFG is: its block and element index.
struct Position {
  const CFGBlock *Block = nullptr;
  unsigned Index = 0;
};

/// Where each of `Calls` is in the CFG; absent when the CFG has no element
/// for it.
llvm::DenseMap<const Stmt *, Position>
positionsIn(const CFG &Cfg, llvm::ArrayRef<const CallExpr *> Calls) {
  llvm::DenseMap<const Stmt *, Position> At;
  for (const CallExpr *Call : Calls)
    At.try_emplace(Call);
  unsigned Left = At.size();
  for (const CFGBlock *B : Cfg) {
    unsigned I = 0;
    for (const CFGElement &E : *B) {
      if (std::optional<CFGStmt> S = E.getAs<CFGStmt>())
        if (isa<CallExpr>(S->getStmt())) {
          auto It = At.find(S->getStmt());
          if (It != At.end() && !It->second.Block) {
            It->second = Position{B, I};
            if (--Left == 0)
              return At;
          }
        }
      ++I;
    }
  }
  return At;
}

/// What a statement on a path does to the fact being followed.
enum class Step : std::uint8_t {
  Pass,  // nothing
  Stop,  // ends the path: the fact no longer holds
  Hit,   // the path found what it looks for
  Mark,  // work on the handle: a way out after it counts
  Leave, // a call that may throw out of the function: a way out, or goes on
};

struct Found {
  const Stmt *Hit = nullptr;
  const CFGBlock *ExitFrom = nullptr;
  /// The call that may throw out, when the way out is one (Step::Leave).
  const Stmt *ThrownAt = nullptr;
  bool CutOff = false;
};

/// Follows the paths from just after `From`, correlating the branches on
/// conditions that nothing on the path changes.
class PathSearch {
public:
  PathSearch(const CFG &Cfg, const Decl *Callable, StableVariables &Stable)
      : Cfg(Cfg), Callable(Callable), Stable(Stable) {}

  /// The first path that reaches a Hit, or (with `ExitCounts`) the
  /// function's exit, after a Mark when `ExitNeedsMark`.
  /// The path starts inside the branches that hold `From` (`Start`): their
  /// conditions are assumed taken.
  Found run(const Stmt *Start, Position From,
            llvm::function_ref<Step(const Stmt *)> Classify, bool ExitCounts,
            bool ExitNeedsMark);

private:
  using Assumptions = llvm::SmallVector<std::pair<std::uint64_t, bool>, 4>;
  Assumptions enclosingConditions(const Stmt *S);
  struct Item {
    const CFGBlock *Block;
    unsigned Index;
    bool Marked;
    Assumptions Assumed;
  };

  std::optional<std::pair<std::uint64_t, bool>> conditionKey(const Expr *E);
  bool stableExpr(const Expr *E, unsigned Depth);

  const CFG &Cfg;
  const Decl *Callable;
  StableVariables &Stable;
};

bool PathSearch::stableExpr(const Expr *E, unsigned Depth) {
  if (!E || Depth > 8)
    return false;
  E = E->IgnoreParenImpCasts();
  if (isa<IntegerLiteral, CXXBoolLiteralExpr, CXXNullPtrLiteralExpr,
          CharacterLiteral>(E))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (isa<EnumConstantDecl>(DRE->getDecl()))
      return true;
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    return VD && !DRE->refersToEnclosingVariableOrCapture() &&
           Stable.stable(VD);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return !UO->isIncrementDecrementOp() && UO->getOpcode() != UO_AddrOf &&
           UO->getOpcode() != UO_Deref &&
           stableExpr(UO->getSubExpr(), Depth + 1);
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isAssignmentOp() && !BO->isCommaOp() &&
           stableExpr(BO->getLHS(), Depth + 1) &&
           stableExpr(BO->getRHS(), Depth + 1);
  return false;
}

std::optional<std::pair<std::uint64_t, bool>>
PathSearch::conditionKey(const Expr *E) {
  if (!E)
    return std::nullopt;
  bool Negated = false;
  E = E->IgnoreParenImpCasts();
  while (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() != UO_LNot)
      break;
    Negated = !Negated;
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  }
  if (!stableExpr(E, 0))
    return std::nullopt;
  llvm::FoldingSetNodeID ID;
  E->Profile(ID, Callable->getASTContext(), /*Canonical=*/true);
  return std::make_pair(static_cast<std::uint64_t>(ID.ComputeHash()),
                        Negated);
}

PathSearch::Assumptions PathSearch::enclosingConditions(const Stmt *S) {
  Assumptions Assumed;
  llvm::ArrayRef<BodyStmt> Stmts = stmtsIn(Callable);
  int I = indexIn(Callable).indexOf(S);
  if (I < 0)
    return Assumed;
  const Stmt *Child = S;
  for (int P = Stmts[I].Parent; P >= 0; P = Stmts[P].Parent) {
    const Stmt *Parent = Stmts[P].S;
    const auto *If = dyn_cast<IfStmt>(Parent);
    if (If && !If->isConsteval() && !If->getConditionVariable() &&
        (Child == If->getThen() || Child == If->getElse()))
      if (std::optional<std::pair<std::uint64_t, bool>> Key =
              conditionKey(If->getCond());
          Key && llvm::none_of(Assumed, [&](const auto &A) {
            return A.first == Key->first;
          }))
        Assumed.push_back(
            {Key->first, (Child == If->getThen()) != Key->second});
    Child = Parent;
  }
  llvm::sort(Assumed);
  return Assumed;
}

Found PathSearch::run(const Stmt *Start, Position From,
                      llvm::function_ref<Step(const Stmt *)> Classify,
                      bool ExitCounts, bool ExitNeedsMark) {
  Found Result;
  llvm::SmallVector<Item, 16> Work;
  // Block entries already followed, with the assumptions and mark.
  llvm::DenseMap<unsigned, llvm::SmallVector<Assumptions, 2>>
      Seen;
  Work.push_back({From.Block, From.Index + 1, false,
                  enclosingConditions(Start)});
  unsigned Steps = 0;
  while (!Work.empty()) {
    Item It = Work.pop_back_val();
    if (++Steps > MaxSteps) {
      reportCutOff("handle configuration", Callable,
                   "more than " + llvm::Twine(MaxSteps) + " path steps");
      Result = Found();
      Result.CutOff = true;
      return Result;
    }
    const CFGBlock *B = It.Block;
    bool Stopped = false;
    for (unsigned I = It.Index; I < B->size(); ++I) {
      std::optional<CFGStmt> S = (*B)[I].getAs<CFGStmt>();
      if (!S)
        continue;
      Step What = Classify(S->getStmt());
      if (What == Step::Hit) {
        Result.Hit = S->getStmt();
        return Result;
      }
      if (What == Step::Stop) {
        Stopped = true;
        break;
      }
      if (What == Step::Mark)
        It.Marked = true;
      if (What == Step::Leave && ExitCounts && (It.Marked || !ExitNeedsMark)) {
        Result.ExitFrom = B;
        Result.ThrownAt = S->getStmt();
        return Result;
      }
    }
    if (Stopped || B->hasNoReturnElement())
      continue;
    std::optional<std::pair<std::uint64_t, bool>> Key;
    if (B->succ_size() == 2)
      Key = conditionKey(dyn_cast_or_null<Expr>(B->getTerminatorCondition()));
    unsigned SuccIndex = 0;
    for (const CFGBlock *Succ : B->succs()) {
      unsigned Branch = SuccIndex++;
      if (!Succ)
        continue;
      Assumptions Assumed = It.Assumed;
      if (Key) {
        bool Taken = (Branch == 0) != Key->second;
        auto Known = llvm::find_if(
            Assumed, [&](const auto &A) { return A.first == Key->first; });
        if (Known != Assumed.end()) {
          if (Known->second != Taken)
            continue;
        } else {
          Assumed.push_back({Key->first, Taken});
          llvm::sort(Assumed);
        }
      }
      if (Succ == &Cfg.getExit()) {
        if (ExitCounts && (It.Marked || !ExitNeedsMark)) {
          Result.ExitFrom = B;
          return Result;
        }
        continue;
      }
      auto &Entries = Seen[Succ->getBlockID() * 2 + (It.Marked ? 1 : 0)];
      if (llvm::is_contained(Entries, Assumed))
        continue;
      Entries.push_back(Assumed);
      Work.push_back({Succ, 0, It.Marked, std::move(Assumed)});
    }
  }
  return Result;
}

/// The workspace calls that every path from the entry to `To` passes last
/// before it, with no stream change after them; empty when one path has
/// none.
llvm::SmallVector<const CallExpr *, 2>
workspaceOnEveryPath(const CFG &Cfg, Position To,
                     llvm::function_ref<Step(const Stmt *)> Classify) {
  llvm::SmallVector<const CallExpr *, 2> Found;
  llvm::SmallVector<Position, 16> Work{To};
  llvm::DenseSet<const CFGBlock *> Seen;
  unsigned Steps = 0;
  while (!Work.empty()) {
    if (++Steps > MaxSteps)
      return {};
    Position P = Work.pop_back_val();
    bool Ended = false;
    for (unsigned I = P.Index; I-- > 0;) {
      std::optional<CFGStmt> S = (*P.Block)[I].getAs<CFGStmt>();
      if (!S)
        continue;
      Step What = Classify(S->getStmt());
      if (What == Step::Hit) {
        const auto *Call = cast<CallExpr>(S->getStmt());
        if (!llvm::is_contained(Found, Call))
          Found.push_back(Call);
        Ended = true;
        break;
      }
      if (What == Step::Stop)
        return {};
    }
    if (Ended)
      continue;
    if (P.Block == &Cfg.getEntry())
      return {};
    if (P.Block->pred_empty())
      continue; // unreachable: the pruned back edge of `do ... while (0)`
    for (const CFGBlock *Pred : P.Block->preds())
      if (Pred && Seen.insert(Pred).second)
        Work.push_back({Pred, unsigned(Pred->size())});
  }
  return Found;
}

/// The return or throw a path leaves `From` by; null for the end of the
/// body.
const Stmt *exitStatement(const CFGBlock *From) {
  if (!From)
    return nullptr;
  if (const Stmt *T = From->getTerminatorStmt(); T && isa<CXXThrowExpr>(T))
    return T;
  for (auto It = From->rbegin(); It != From->rend(); ++It)
    if (std::optional<CFGStmt> S = It->getAs<CFGStmt>())
      if (isa<ReturnStmt, CXXThrowExpr>(S->getStmt()))
        return S->getStmt();
  return nullptr;
}

bool isDeviceMode(const Expr *E, const ASTContext &Ctx) {
  Expr::EvalResult R;
  return E && !E->isValueDependent() && E->EvaluateAsInt(R, Ctx) &&
         R.Val.isInt() && R.Val.getInt() == runtime_api::PointerModeDevice;
}

/// True when something besides the body's own statements may set the
/// pointer mode back: a lambda of the body, or a local object whose
/// destructor sets it.
bool restoredOutOfLine(const Decl *Callable) {
  for (const BodyStmt &S : stmtsIn(Callable)) {
    if (const auto *L = dyn_cast<LambdaExpr>(S.S)) {
      if (callsConfig(L->getCallOperator(), Setting::PointerMode))
        return true;
      continue;
    }
    const auto *DS = dyn_cast<DeclStmt>(S.S);
    if (!DS)
      continue;
    for (const Decl *D : DS->decls()) {
      const auto *VD = dyn_cast<VarDecl>(D);
      const CXXRecordDecl *RD =
          VD ? VD->getType()->getAsCXXRecordDecl() : nullptr;
      const CXXDestructorDecl *Dtor =
          RD && RD->hasDefinition() ? RD->getDestructor() : nullptr;
      if (!Dtor)
        continue;
      const FunctionDecl *Def = nullptr;
      if (!Dtor->hasBody(Def) || !Def)
        continue;
      if (callsConfig(Def, Setting::PointerMode))
        return true;
    }
  }
  return false;
}

/// A constructor or destructor of a guard: a class whose destructor sets
/// the pointer mode (its constructor switches, its destructor switches
/// back, whichever mode the library's convention is).
bool isModeGuard(const Decl *Callable) {
  if (!isa<CXXConstructorDecl, CXXDestructorDecl>(Callable))
    return false;
  const CXXRecordDecl *RD = cast<CXXMethodDecl>(Callable)->getParent();
  const CXXDestructorDecl *Dtor = RD ? RD->getDestructor() : nullptr;
  const FunctionDecl *Def = nullptr;
  return Dtor && Dtor->hasBody(Def) && Def &&
         callsConfig(Def, Setting::PointerMode);
}

} // namespace

const ConfigFunction *calledConfigFunction(const CallExpr *Call) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier() ||
      !FD->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return nullptr;
  return handle_config::configFunction(FD->getName());
}

const ConfigFunction *calledConfigFunction(const CallInBody &C) {
  return C.Callee ? calledConfigFunction(C.Call) : nullptr;
}

namespace {

HandleOwner ownerOf(const HandleName &H, const Decl *Callable,
                    StableVariables &Stable) {
  if (H.Library)
    return HandleOwner::Library;
  if (H.Getter) {
    // A factory (a function that creates the handle it returns) gives the
    // caller a handle of its own.
    const FunctionDecl *Def = nullptr;
    if (H.Getter->hasBody(Def) && Def &&
        callsAny(Def, [](const CallExpr *C) {
          const FunctionInfo *F = calledCublasFunction(C);
          return F && F->Creates == ResourceKind::Handle;
        }))
      return HandleOwner::Unknown;
    return HandleOwner::Accessor;
  }
  if (createsIn(H, Callable, Stable))
    return HandleOwner::Function;
  if (H.Member)
    return HandleOwner::Member;
  const auto *VD = dyn_cast_or_null<VarDecl>(H.Base);
  if (!VD)
    return HandleOwner::Unknown;
  // An element of an array the caller gives: which one the callers use is
  // not followed.
  if (const auto *P = dyn_cast<ParmVarDecl>(VD))
    return !H.Element && P->getParentFunctionOrMethod() ==
                             dyn_cast<DeclContext>(const_cast<Decl *>(Callable))
               ? HandleOwner::Parameter
               : HandleOwner::Unknown;
  if (VD->hasGlobalStorage())
    return HandleOwner::Global;
  return HandleOwner::Unknown;
}

/// Does `Call` name `H` among its arguments?
bool passesHandle(const CallExpr *Call, const HandleName &H,
                  const Decl *Callable, StableVariables &Stable) {
  for (const Expr *Arg : Call->arguments())
    if (isCublasHandleType(Arg->getType()))
      if (std::optional<HandleName> N = handleNamed(Arg, Callable, Stable);
          N && *N == H)
        return true;
  return false;
}

} // namespace

HandleOwner handleOwner(const HandleName &H, const Decl *Callable) {
  StableVariables Stable(Callable);
  return ownerOf(H, Callable, Stable);
}

namespace {

/// False for a cublasSetWorkspace that gives back the default pool (a null
/// workspace): there is nothing of the user's to lose.
bool userWorkspace(const CallExpr *Call) {
  if (Call->getNumArgs() < 2)
    return false;
  const Expr *Ws = Call->getArg(1);
  const FunctionDecl *FD = Call->getDirectCallee();
  return FD && !Ws->isNullPointerConstant(FD->getASTContext(),
                                    Expr::NPC_ValueDependentIsNotNull);
}

/// True when a caller of `Callable` in `Unit` sets a workspace itself or
/// through a function it calls (other than `Callable`, whose own set came
/// before the stream change, and `Except`): the stream change may be
/// followed by the workspace there (`bind() { setStream(s);
/// setWorkspace(); }`).
bool callerSetsWorkspace(const Decl *Callable,
                         llvm::ArrayRef<const Decl *> Unit,
                         const Decl *Except = nullptr) {
  const auto *Self = dyn_cast<FunctionDecl>(Callable);
  if (!Self)
    return false;
  for (const Decl *Caller : unitCallSites(Unit).callersOf(Self)) {
    if (Caller == Callable)
      continue;
    for (const CallExpr *Call : callsIn(Caller)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee || Callee->getCanonicalDecl() == Self->getCanonicalDecl() ||
          (Except && Callee->getCanonicalDecl() == Except->getCanonicalDecl()))
        continue;
      const ConfigFunction *F = calledConfigFunction(Call);
      const FunctionDecl *Def = nullptr;
      if ((F && F->Sets && F->What == Setting::Workspace) ||
          (!F && userCallee(Call) && Callee->hasBody(Def) && Def &&
           callsConfig(Def, Setting::Workspace)))
        return true;
    }
  }
  return false;
}

/// True for a handle other functions name the same way: a member of
/// `this` or a global.
bool sharedByFunctions(const HandleName &H) {
  const auto *Global = dyn_cast_or_null<VarDecl>(H.Base);
  return (H.Member && !H.Base) ||
         (Global && !H.Member && Global->hasGlobalStorage());
}

/// True when `Other`, another function than `Callable`, names the shared
/// handle `H` (sharedByFunctions) as `Callable` does: a member of `this`
/// only in a method of the same class.
bool seesSameHandle(const HandleName &H, const Decl *Other,
                    const Decl *Callable) {
  return Other != Callable &&
         !(H.Member && !H.Base &&
           Other->getDeclContext() != Callable->getDeclContext());
}

/// For a member of `this` or a global handle `H` that `Callable` changes
/// the stream of: the cublasSetWorkspace of another function of `Unit` that
/// creates the handle (and does not call `Callable`), with that function.
std::pair<const CallExpr *, const Decl *>
workspaceWhereCreated(const HandleName &H, const Decl *Callable,
                      llvm::ArrayRef<const Decl *> Unit) {
  if (!sharedByFunctions(H))
    return {nullptr, nullptr};
  const auto *Self = dyn_cast<FunctionDecl>(Callable);
  llvm::ArrayRef<const Decl *> Callers;
  if (Self)
    Callers = unitCallSites(Unit).callersOf(Self);
  for (const Decl *Other : Unit) {
    if (!seesSameHandle(H, Other, Callable))
      continue;
    StableVariables OtherStable(Other);
    if (!createsIn(H, Other, OtherStable))
      continue;
    bool CallsSelf = llvm::is_contained(Callers, Other);
    const CallExpr *Set = nullptr;
    for (const CallExpr *Call : callsIn(Other)) {
      const ConfigFunction *F = calledConfigFunction(Call);
      if (!Set && F && F->Sets && F->What == Setting::Workspace &&
          userWorkspace(Call))
        if (std::optional<HandleName> N =
                handleNamed(Call->getArg(0), Other, OtherStable);
            N && *N == H)
          Set = Call;
    }
    if (Set && !CallsSelf)
      return {Set, Other};
  }
  return {nullptr, nullptr};
}

/// What a statement after a stream change of `H` does to the search for
/// a call that runs without the lost workspace: a call on `H` (or given it)
/// is a hit; the workspace set again, or `H` destroyed (nothing runs on it
/// afterwards: a stream reset just before the destroy loses nothing),
/// ends the path.
struct AfterStream {
  const HandleName &H;
  const Decl *Callable;
  StableVariables &Stable;
  llvm::DenseMap<const FunctionDecl *, bool> &DestroysKnown;

  bool sameHandle(const Expr *Arg) const {
    std::optional<HandleName> N = handleNamed(Arg, Callable, Stable);
    return !N || *N == H; // an unknown handle may be this one
  }

  Step operator()(const Stmt *S) const {
    static const ResourceTable Resources = ResourceTable::fromApiModel();
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call)
      return Step::Pass;
    if (const ConfigFunction *F = calledConfigFunction(Call))
      return F->Sets && F->What == Setting::Workspace &&
                     Call->getNumArgs() > 0 && sameHandle(Call->getArg(0))
                 ? Step::Stop
                 : Step::Pass;
    if (const FunctionInfo *CF = calledCublasFunction(Call);
        CF && CF->Destroys == ResourceKind::Handle)
      return Call->getNumArgs() > 0 && sameHandle(Call->getArg(0))
                 ? Step::Stop
                 : Step::Pass;
    if (const Expr *Arg = workHandleArg(Call)) {
      std::optional<HandleName> N = handleNamed(Arg, Callable, Stable);
      return N && *N == H ? Step::Hit : Step::Pass;
    }
    const FunctionDecl *FD = userCallee(Call);
    if (!FD)
      return Step::Pass;
    // A helper that sets a workspace may set this one again (a member
    // handle is not among its arguments); one that may destroy it ends
    // its use.
    const FunctionDecl *Def = nullptr;
    if ((FD->hasBody(Def) && Def && callsConfig(Def, Setting::Workspace)) ||
        mayDestroyGiven(Call, Resources, DestroysKnown))
      return Step::Stop;
    return passesHandle(Call, H, Callable, Stable) ? Step::Hit : Step::Pass;
  }
};

/// The variable that remembers a workspace across calls: a member of
/// `this`, a global or a static; null for anything else (a local forgets).
const ValueDecl *cacheVariable(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
    if (isa<CXXThisExpr>(Base) && isa<FieldDecl>(ME->getMemberDecl()))
      return ME->getMemberDecl();
    return nullptr;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
        V && V->hasGlobalStorage())
      return V;
  return nullptr;
}

/// The parameter `E` names, or null.
const ParmVarDecl *namedParameter(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
}

/// True for a value a caller gives: a parameter, or a member of one
/// (`workspace.partials`, `ws->ptr`). A local may be looked up by the
/// stream (one workspace per stream), which makes the same workspace on a
/// new stream impossible.
bool parameterValue(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return parameterValue(ME->getBase());
  return namedParameter(E) != nullptr;
}

/// Whether two parameter values (parameterValue) are the same one.
bool sameParameterValue(const Expr *A, const Expr *B) {
  A = A->IgnoreParenImpCasts();
  B = B->IgnoreParenImpCasts();
  const auto *MA = dyn_cast<MemberExpr>(A);
  const auto *MB = dyn_cast<MemberExpr>(B);
  if (MA || MB)
    return MA && MB && MA->getMemberDecl() == MB->getMemberDecl() &&
           sameParameterValue(MA->getBase(), MB->getBase());
  const ParmVarDecl *P = namedParameter(A);
  return P && P == namedParameter(B);
}

/// One test of a cache: `cache != value` (either order), with the cache a
/// member of `this`, a global or a static and the value a caller's.
struct CacheTest {
  const ValueDecl *Cache = nullptr;
  const Expr *Value = nullptr;
};

std::optional<CacheTest> cacheTest(const Expr *E) {
  const auto *Ne = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (!Ne || Ne->getOpcode() != BO_NE)
    return std::nullopt;
  for (auto [C, V] : {std::pair(Ne->getLHS(), Ne->getRHS()),
                      std::pair(Ne->getRHS(), Ne->getLHS())})
    if (const ValueDecl *Cache = cacheVariable(C); Cache && parameterValue(V))
      return CacheTest{Cache, V};
  return std::nullopt;
}

/// The tests of a condition made only of cache tests joined by `||`
/// (`workspace_ != ws.ptr || bytes_ != ws.size`); empty when any part asks
/// something else (`new_stream || ws != cache`, a size): that is no cache.
llvm::SmallVector<CacheTest, 2> cacheTests(const Expr *Cond) {
  llvm::SmallVector<CacheTest, 2> Tests;
  llvm::SmallVector<const Expr *, 4> Work{Cond};
  while (!Work.empty()) {
    const Expr *E = Work.pop_back_val()->IgnoreParenImpCasts();
    if (const auto *Or = dyn_cast<BinaryOperator>(E);
        Or && Or->getOpcode() == BO_LOr) {
      Work.push_back(Or->getRHS());
      Work.push_back(Or->getLHS());
      continue;
    }
    std::optional<CacheTest> T = cacheTest(E);
    if (!T)
      return {};
    Tests.push_back(*T);
  }
  return Tests;
}

/// A cublasSetWorkspace on `H` that runs only on a cache miss: in the
/// `then` of `if (ws != cache)` (or of cache tests joined by `||`), with
/// `cache = ws` beside it. `Caches` are all the caches the test asks: an
/// assignment to any of them makes the next test miss.
struct CachedWorkspace {
  const CallExpr *Set = nullptr;
  const ValueDecl *Cache = nullptr;
  const Expr *Value = nullptr;
  llvm::SmallVector<const ValueDecl *, 2> Caches;
  const Stmt *Guard = nullptr; // the if
};

std::optional<CachedWorkspace> cacheMiss(const IfStmt *If, const HandleName &H,
                                         const Decl *Callable,
                                         StableVariables &Stable) {
  if (!If->getCond() || If->getConditionVariable())
    return std::nullopt;
  llvm::SmallVector<CacheTest, 2> Tests = cacheTests(If->getCond());
  if (Tests.empty())
    return std::nullopt;
  // The set gives the value one test compares; its cache remembers it.
  const CacheTest *Of = nullptr;
  CachedWorkspace C;
  walkStmts(If->getThen(), [&](const Stmt *S) {
    const auto *Call = dyn_cast<CallExpr>(S);
    const ConfigFunction *F = Call ? calledConfigFunction(Call) : nullptr;
    if (C.Set || !F || !F->Sets || F->What != Setting::Workspace ||
        !userWorkspace(Call))
      return !C.Set;
    for (const CacheTest &T : Tests)
      if (sameParameterValue(Call->getArg(1), T.Value))
        if (std::optional<HandleName> N =
                handleNamed(Call->getArg(0), Callable, Stable);
            N && *N == H) {
          C.Set = Call;
          Of = &T;
        }
    return !C.Set;
  });
  if (!C.Set)
    return std::nullopt;
  bool Remembered = anyStmt(If->getThen(), [&](const Stmt *S) {
    const auto *A = dyn_cast<BinaryOperator>(S);
    return A && A->getOpcode() == BO_Assign &&
           cacheVariable(A->getLHS()) == Of->Cache &&
           parameterValue(A->getRHS()) &&
           sameParameterValue(A->getRHS(), Of->Value);
  });
  if (!Remembered)
    return std::nullopt;
  C.Cache = Of->Cache;
  C.Value = Of->Value;
  for (const CacheTest &T : Tests)
    if (!llvm::is_contained(C.Caches, T.Cache))
      C.Caches.push_back(T.Cache);
  C.Guard = If;
  return C;
}

/// The cache-miss cublasSetWorkspace of `H` written after `Stream` in
/// `Callable`, when there is one.
std::optional<CachedWorkspace> cachedAfter(const CallExpr *Stream,
                                           const HandleName &H,
                                           const Decl *Callable,
                                           StableVariables &Stable) {
  const Stmt *Body = analysableBody(Callable);
  if (!Body)
    return std::nullopt;
  const SourceManager &SM = Callable->getASTContext().getSourceManager();
  std::optional<CachedWorkspace> Found;
  walkStmts(Body, [&](const Stmt *S) {
    const auto *If = dyn_cast<IfStmt>(S);
    if (!If || Found ||
        !SM.isBeforeInTranslationUnit(Stream->getEndLoc(), If->getBeginLoc()))
      return !Found;
    Found = cacheMiss(If, H, Callable, Stable);
    return !Found;
  });
  return Found;
}

/// The workspace of `C`'s cache lost to `Stream`: a path from the stream
/// change where the cache hits (nothing assigns it on the way) reaches
/// work on `H`, or (with `ExitCounts`, for a cache of another function)
/// the way out. The cache says a workspace is set: an earlier call set it.
std::optional<LostWorkspace>
lostToCache(const CachedWorkspace &C, const CallExpr *Stream, Position From,
            const HandleName &H, const AfterStream &After, const CFG &Cfg,
            const Decl *Callable, StableVariables &Stable,
            bool ExitCounts = false) {
  auto AfterCached = [&](const Stmt *S) {
    if (const auto *A = dyn_cast<BinaryOperator>(S);
        A && A->isAssignmentOp() &&
        llvm::is_contained(C.Caches, cacheVariable(A->getLHS())))
      return Step::Stop;
    return After(S);
  };
  PathSearch Search(Cfg, Callable, Stable);
  Found F = Search.run(Stream, From, AfterCached, ExitCounts,
                       /*ExitNeedsMark=*/false);
  const auto *Use = dyn_cast_or_null<CallExpr>(F.Hit);
  if (F.CutOff || (!Use && !F.ExitFrom))
    return std::nullopt;
  LostWorkspace L;
  L.Stream = Stream;
  L.Workspace = C.Set;
  L.Use = Use;
  L.Handle = H;
  L.Cache = C.Cache;
  L.Cached = C.Value;
  return L;
}

/// A workspace that another function sets only on a cache miss, and the
/// first work on the handle after that test there.
struct CachedElsewhere {
  CachedWorkspace Cached;
  const CallExpr *Use = nullptr;
  const Decl *In = nullptr;
};

/// For a member of `this` or a global handle `H` whose stream `Callable`
/// changes: another function of `Unit` that sets its workspace only when
/// its cache misses (`run(ws) { if (ws != ws_) { set(ws); ws_ = ws; }
/// gemm(); }`) and then works on `H`.
std::optional<CachedElsewhere>
cachedElsewhere(const HandleName &H, const Decl *Callable,
                llvm::ArrayRef<const Decl *> Unit) {
  if (!sharedByFunctions(H))
    return std::nullopt;
  const SourceManager &SM = Callable->getASTContext().getSourceManager();
  for (const Decl *Other : Unit) {
    const Stmt *Body = analysableBody(Other);
    if (!Body || !seesSameHandle(H, Other, Callable) ||
        !callsConfig(Other, Setting::Workspace))
      continue;
    StableVariables OtherStable(Other);
    CachedElsewhere E;
    walkStmts(Body, [&](const Stmt *S) {
      if (const auto *If = dyn_cast<IfStmt>(S); If && !E.Cached.Set)
        if (std::optional<CachedWorkspace> C =
                cacheMiss(If, H, Other, OtherStable))
          E.Cached = *C;
      return !E.Cached.Set;
    });
    if (!E.Cached.Set)
      continue;
    // The first work on `H` after the test, in the order of the source (the
    // walk is not).
    walkStmts(Body, [&](const Stmt *S) {
      const auto *Call = dyn_cast<CallExpr>(S);
      const Expr *Arg = Call ? workHandleArg(Call) : nullptr;
      if (!Arg ||
          !SM.isBeforeInTranslationUnit(E.Cached.Guard->getEndLoc(),
                                        Call->getBeginLoc()) ||
          (E.Use && !SM.isBeforeInTranslationUnit(Call->getBeginLoc(),
                                                  E.Use->getBeginLoc())))
        return true;
      if (std::optional<HandleName> N = handleNamed(Arg, Other, OtherStable);
          N && *N == H)
        E.Use = Call;
      return true;
    });
    if (E.Use) {
      E.In = Other;
      return E;
    }
  }
  return std::nullopt;
}

/// True when the handle `H` of `Callable` is there after it returns: a
/// parameter, a global or static, a member.
bool outlivesCall(const HandleName &H, const Decl *Callable,
                  StableVariables &Stable) {
  HandleOwner O = ownerOf(H, Callable, Stable);
  return O == HandleOwner::Parameter || O == HandleOwner::Global ||
         O == HandleOwner::Member;
}

/// What the caches say of a stream change that no workspace follows in
/// its function: nothing (not Decided), or whether a cache loses it.
struct CacheOutcome {
  bool Decided = false;
  std::optional<LostWorkspace> Lost;
};

/// A cache of `Callable` after `Stream` (cachedAfter), or, where the
/// function sets no workspace of its own, the cache of another function
/// (cachedElsewhere) that the stream change leaves full.
CacheOutcome lostToCaches(const CallExpr *Stream, Position From,
                          const HandleName &H, const AfterStream &After,
                          const CFG &Cfg, const Decl *Callable,
                          llvm::ArrayRef<const Decl *> Unit,
                          StableVariables &Stable) {
  if (outlivesCall(H, Callable, Stable))
    if (std::optional<CachedWorkspace> C =
            cachedAfter(Stream, H, Callable, Stable))
      return {true,
              lostToCache(*C, Stream, From, H, After, Cfg, Callable, Stable)};
  if (callsConfig(Callable, Setting::Workspace))
    return {true, std::nullopt};
  std::optional<CachedElsewhere> E = cachedElsewhere(H, Callable, Unit);
  if (!E)
    return {};
  if (callerSetsWorkspace(Callable, Unit, E->In))
    return {true, std::nullopt};
  std::optional<LostWorkspace> L =
      lostToCache(E->Cached, Stream, From, H, After, Cfg, Callable, Stable,
                  /*ExitCounts=*/true);
  if (L) {
    L->Use = E->Use;
    L->WorkspaceIn = E->In;
  }
  return {true, L};
}

} // namespace

std::vector<LostWorkspace>
lostWorkspaces(const Decl *Callable, llvm::ArrayRef<const Decl *> Unit) {
  std::vector<LostWorkspace> Lost;
  llvm::SmallVector<const CallExpr *, 4> Streams;
  for (const CallInBody &C : describedCallsIn(Callable))
    if (const ConfigFunction *F = calledConfigFunction(C);
        F && F->Sets && F->ResetsWorkspace)
      Streams.push_back(C.Call);
  if (Streams.empty())
    return Lost;
  const CFG *Cfg = sharedCfg(Callable, Callable->getASTContext());
  if (!Cfg)
    return Lost;
  llvm::DenseMap<const Stmt *, Position> At = positionsIn(*Cfg, Streams);
  StableVariables Stable(Callable);
  llvm::DenseMap<const FunctionDecl *, bool> DestroysKnown;
  for (const CallExpr *Stream : Streams) {
    auto Where = At.find(Stream);
    if (Where == At.end() || !Where->second.Block || Stream->getNumArgs() < 1)
      continue;
    std::optional<HandleName> H =
        handleNamed(Stream->getArg(0), Callable, Stable);
    // PyTorch's, or an accessor's: set up where this cannot see. An element
    // of an array: which element each call names is not followed.
    if (!H || H->Getter || H->Element)
      continue;
    AfterStream After{*H, Callable, Stable, DestroysKnown};
    auto Before = [&](const Stmt *S) {
      const auto *Call = dyn_cast<CallExpr>(S);
      const ConfigFunction *F = Call ? calledConfigFunction(Call) : nullptr;
      if (!F || !F->Sets || Call->getNumArgs() < 1 ||
          !After.sameHandle(Call->getArg(0)))
        return Step::Pass;
      if (F->What == Setting::Workspace)
        return userWorkspace(Call) ? Step::Hit : Step::Stop;
      return F->ResetsWorkspace ? Step::Stop : Step::Pass;
    };
    llvm::SmallVector<const CallExpr *, 2> Workspaces =
        workspaceOnEveryPath(*Cfg, Where->second, Before);
    const Decl *WorkspaceIn = nullptr;
    if (Workspaces.empty()) {
      CacheOutcome C = lostToCaches(Stream, Where->second, *H, After, *Cfg,
                                    Callable, Unit, Stable);
      if (C.Lost)
        Lost.push_back(*C.Lost);
      if (C.Decided)
        continue;
      if (callerSetsWorkspace(Callable, Unit))
        continue;
      auto [Set, In] = workspaceWhereCreated(*H, Callable, Unit);
      if (!Set)
        continue;
      Workspaces.push_back(Set);
      WorkspaceIn = In;
    }
    // Returning with the workspace lost counts too when the workspace was
    // set where the handle is created, or when the handle outlives the
    // function and no caller sets a workspace after it.
    bool ExitCounts = WorkspaceIn || (outlivesCall(*H, Callable, Stable) &&
                                      !callerSetsWorkspace(Callable, Unit));
    PathSearch Search(*Cfg, Callable, Stable);
    Found F = Search.run(Stream, Where->second, After, ExitCounts,
                         /*ExitNeedsMark=*/false);
    if (F.CutOff || (!F.Hit && !F.ExitFrom))
      continue;
    LostWorkspace L;
    L.Stream = Stream;
    L.Workspace = Workspaces.front();
    L.Use = dyn_cast_or_null<CallExpr>(F.Hit);
    L.WorkspaceIn = WorkspaceIn;
    L.AtReturn = !L.Use && !WorkspaceIn;
    L.Handle = *H;
    Lost.push_back(L);
  }
  return Lost;
}

namespace {

/// True when `Arg` is the address of a host object (`&alpha`, `&this->beta`).
bool hostScalarAddress(const Expr *Arg) {
  const auto *UO =
      Arg ? dyn_cast<UnaryOperator>(Arg->IgnoreParenImpCasts()) : nullptr;
  if (!UO || UO->getOpcode() != UO_AddrOf)
    return false;
  const Expr *Object = UO->getSubExpr()->IgnoreParenImpCasts();
  if (!isa<DeclRefExpr, MemberExpr>(Object))
    return false;
  QualType T = Object->getType();
  return T->isArithmeticType() || T->isRecordType(); // float, cuComplex
}

/// A cuBLAS call of `Other` that passes a host scalar (an alpha, or the
/// address of a result: `&norm`) on a handle for which `Same` holds, when
/// `Other` sets no pointer mode of its own; null otherwise.
const CallExpr *
hostScalarCall(const Decl *Other,
               llvm::function_ref<bool(const std::optional<HandleName> &)> Same) {
  if (callsConfig(Other, Setting::PointerMode) || restoredOutOfLine(Other))
    return nullptr;
  StableVariables Stable(Other);
  for (const CallExpr *Call : callsIn(Other)) {
    const FunctionInfo *F = calledCublasFunction(Call);
    const Expr *Handle = F ? workHandleArg(Call) : nullptr;
    if (!Handle)
      continue;
    bool HostScalar = false;
    for (unsigned I = 0; I < F->NumParams && I < Call->getNumArgs(); ++I)
      if ((F->params()[I].Role == ParamRole::Scalar ||
           F->params()[I].Role == ParamRole::ScalarResult) &&
          hostScalarAddress(Call->getArg(I)))
        HostScalar = true;
    if (HostScalar && Same(handleNamed(Handle, Other, Stable)))
      return Call;
  }
  return nullptr;
}

/// A call of a function of `Unit` other than `Self` that reads a host scalar
/// on `H` (a member or global handle) and sets no pointer mode of its own.
std::pair<const CallExpr *, const Decl *>
hostScalarUser(const HandleName &H, const Decl *Self,
               llvm::ArrayRef<const Decl *> Unit) {
  auto Same = [&](const std::optional<HandleName> &N) {
    if (!N)
      return false;
    if (H.Getter)
      return N->Getter == H.Getter; // whichever object it is asked of
    return H.Member ? N->Member == H.Member : *N == H;
  };
  for (const Decl *Other : Unit)
    if (Other != Self)
      if (const CallExpr *Call = hostScalarCall(Other, Same))
        return {Call, Other};
  return {nullptr, nullptr};
}

/// For the parameter handle `P` of `Self`: whether the callers in `Unit`
/// pay. Unknown callers (none in the unit) may: {true, null}. Known ones
/// pay when one of them passes a host scalar on the handle it gave and
/// sets no mode of its own: {true, that call}; else {false, null}.
std::pair<bool, std::pair<const CallExpr *, const Decl *>>
callerPays(const ParmVarDecl *P, const Decl *Self,
           llvm::ArrayRef<const Decl *> Unit) {
  const auto *Fn = dyn_cast<FunctionDecl>(Self);
  unsigned Index = P->getFunctionScopeIndex();
  if (!Fn)
    return {true, {nullptr, nullptr}};
  bool AnyCaller = false;
  std::optional<StableVariables> Stable;
  const Decl *StableOf = nullptr;
  for (const auto &[Call, Other] : unitCallSites(Unit).sitesOf(Fn)) {
    if (Other == Self || Index >= Call->getNumArgs())
      continue;
    if (StableOf != Other) {
      Stable.emplace(Other);
      StableOf = Other;
    }
    AnyCaller = true;
    std::optional<HandleName> Given =
        handleNamed(Call->getArg(Index), Other, *Stable);
    if (!Given)
      return {true, {nullptr, nullptr}}; // not followed: may pay
    auto Same = [&](const std::optional<HandleName> &N) {
      return N && *N == *Given;
    };
    if (const CallExpr *Victim = hostScalarCall(Other, Same))
      return {true, {Victim, Other}};
  }
  return {!AnyCaller, {nullptr, nullptr}};
}

/// The calls of `Callable` that set a handle's pointer mode to the device
/// mode.
llvm::SmallVector<const CallExpr *, 4> deviceModeSets(const Decl *Callable) {
  const ASTContext &Ctx = Callable->getASTContext();
  llvm::SmallVector<const CallExpr *, 4> Sets;
  for (const CallInBody &C : describedCallsIn(Callable))
    if (const ConfigFunction *F = calledConfigFunction(C);
        F && F->Sets && F->What == Setting::PointerMode &&
        C.Call->getNumArgs() > F->ValueArg &&
        isDeviceMode(C.Call->getArg(F->ValueArg), Ctx))
      Sets.push_back(C.Call);
  return Sets;
}

/// What a statement after the device mode is set on `H` does to the search
/// for a way out that leaves it set: the mode set again on `H` (back, or to
/// the device mode, a call judged on its own), `H` destroyed, or a helper
/// that sets a mode ends the path; work on `H` (a cuBLAS call, or a helper
/// given it) marks it.
struct AfterDeviceMode {
  const HandleName &H;
  const Decl *Callable;
  StableVariables &Stable;

  Step operator()(const Stmt *S) const {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call)
      return Step::Pass;
    if (const ConfigFunction *F = calledConfigFunction(Call))
      return modeSet(Call, *F);
    if (const FunctionInfo *F = calledCublasFunction(Call)) {
      if (F->Destroys == ResourceKind::Handle &&
          passesHandle(Call, H, Callable, Stable))
        return Step::Stop;
      const Expr *Arg = workHandleArg(Call);
      std::optional<HandleName> N =
          Arg ? handleNamed(Arg, Callable, Stable) : std::nullopt;
      return N && *N == H ? Step::Mark : Step::Pass;
    }
    if (const FunctionDecl *FD = userCallee(Call))
      return helperCall(Call, FD);
    return Step::Pass;
  }

private:
  Step modeSet(const CallExpr *Call, const ConfigFunction &F) const {
    if (!F.Sets || F.What != Setting::PointerMode ||
        Call->getNumArgs() <= F.ValueArg)
      return Step::Pass;
    std::optional<HandleName> N =
        handleNamed(Call->getArg(0), Callable, Stable);
    return N && !(*N == H) ? Step::Pass : Step::Stop;
  }

  Step helperCall(const CallExpr *Call, const FunctionDecl *FD) const {
    const FunctionDecl *Def = nullptr;
    bool Passes = passesHandle(Call, H, Callable, Stable);
    if (FD->hasBody(Def) && Def) {
      if (callsConfig(Def, Setting::PointerMode))
        return Step::Stop;
    } else if (Passes) {
      return Step::Stop; // it may set the mode back
    }
    if (Passes)
      return Step::Mark;
    // A checking function of the file that throws, as a checking macro's
    // `throw` does, unless a `try` of this body may catch it.
    return mayThrowOut(Def ? Def : FD) && !insideTryBlock(Call, Callable)
               ? Step::Leave
               : Step::Pass;
  }
};

/// Who pays for the device mode left on `H`, owned as `Owner` by
/// `Callable`: a call of another function of `Unit` that reads a host
/// scalar on it ({null, null} when a parameter's unknown callers may).
/// Nullopt when nobody does.
std::optional<std::pair<const CallExpr *, const Decl *>>
whoPays(const HandleName &H, HandleOwner Owner, const Decl *Callable,
        llvm::ArrayRef<const Decl *> Unit) {
  if (Owner == HandleOwner::Member || Owner == HandleOwner::Global ||
      Owner == HandleOwner::Accessor) {
    std::pair<const CallExpr *, const Decl *> Victim =
        hostScalarUser(H, Callable, Unit);
    if (!Victim.first)
      return std::nullopt;
    return Victim;
  }
  if (Owner == HandleOwner::Parameter) {
    auto [Pays, Call] = callerPays(cast<ParmVarDecl>(H.Base), Callable, Unit);
    if (!Pays)
      return std::nullopt;
    return Call;
  }
  return std::pair<const CallExpr *, const Decl *>{nullptr, nullptr};
}

} // namespace

std::vector<PointerModeLeak>
leakedPointerModes(const Decl *Callable, llvm::ArrayRef<const Decl *> Unit) {
  std::vector<PointerModeLeak> Leaks;
  llvm::SmallVector<const CallExpr *, 4> Sets = deviceModeSets(Callable);
  if (Sets.empty() || restoredOutOfLine(Callable) || isModeGuard(Callable))
    return Leaks;
  const CFG *Cfg = sharedCfg(Callable, Callable->getASTContext());
  if (!Cfg)
    return Leaks;
  llvm::DenseMap<const Stmt *, Position> At = positionsIn(*Cfg, Sets);
  StableVariables Stable(Callable);
  for (const CallExpr *Set : Sets) {
    auto Where = At.find(Set);
    if (Where == At.end() || !Where->second.Block)
      continue;
    std::optional<HandleName> H = handleNamed(Set->getArg(0), Callable, Stable);
    if (!H)
      continue;
    HandleOwner Owner = ownerOf(*H, Callable, Stable);
    if (Owner == HandleOwner::Unknown || Owner == HandleOwner::Function)
      continue;
    PathSearch Search(*Cfg, Callable, Stable);
    Found F = Search.run(Set, Where->second,
                         AfterDeviceMode{*H, Callable, Stable},
                         /*ExitCounts=*/true, /*ExitNeedsMark=*/true);
    if (F.CutOff || !F.ExitFrom)
      continue;
    // Who pays, asked only of a leak (it reads the other functions).
    std::optional<std::pair<const CallExpr *, const Decl *>> Victim =
        whoPays(*H, Owner, Callable, Unit);
    if (!Victim)
      continue;
    PointerModeLeak L;
    L.Set = Set;
    L.Exit = F.ThrownAt ? F.ThrownAt : exitStatement(F.ExitFrom);
    L.Handle = *H;
    L.Owner = Owner;
    L.Victim = Victim->first;
    L.VictimIn = Victim->second;
    Leaks.push_back(L);
  }
  return Leaks;
}

} // namespace cublas_tidy

namespace cublas_tidy {

namespace {

/// Whether the threads of `Where` share the handle `H` that `Config`, in
/// `In`, configures; the owner to name when they do.
std::optional<HandleOwner> sharedBetweenThreads(const HandleName &H,
                                                const CallExpr *Config,
                                                const Decl *In,
                                                const ConcurrentCode &Where) {
  if (H.Element)
    return std::nullopt; // `handles[tid]`: often one per thread
  if (const auto *VD = dyn_cast_or_null<VarDecl>(H.Base);
      VD && !H.Member && VD->getTLSKind() != VarDecl::TLS_None)
    return std::nullopt; // one per thread
  StableVariables Stable(In);
  HandleOwner Owner = ownerOf(H, In, Stable);
  if (Owner == HandleOwner::Global || Owner == HandleOwner::Member)
    return Owner;
  if (Owner != HandleOwner::Unknown)
    return std::nullopt; // created here, a parameter, PyTorch's
  const auto *VD = dyn_cast_or_null<VarDecl>(H.Base);
  if (!VD || H.Member || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD))
    return std::nullopt;
  // A local of the function that starts the threads, captured by the
  // lambda they run.
  const auto *Lambda = dyn_cast<CXXMethodDecl>(In);
  if (In == Where.Entry && Lambda && Lambda->getParent()->isLambda() &&
      VD->getParentFunctionOrMethod() ==
          dyn_cast<DeclContext>(const_cast<Decl *>(Where.StartIn)))
    return HandleOwner::Unknown;
  return std::nullopt;
}

/// Whether the threads of a parallel region (its statements `Region`) share
/// the handle `H`: not when the region declares it or creates it.
std::optional<HandleOwner> sharedInRegion(const HandleName &H,
                                          llvm::ArrayRef<BodyStmt> Region) {
  if (H.Getter || H.Element)
    return std::nullopt;
  for (const BodyStmt &S : Region) {
    if (const auto *DS = dyn_cast<DeclStmt>(S.S)) {
      for (const Decl *D : DS->decls())
        if (D == H.Base)
          return std::nullopt;
      continue;
    }
    const auto *Call = dyn_cast<CallExpr>(S.S);
    const FunctionInfo *F = Call ? calledCublasFunction(Call) : nullptr;
    if (F && F->Creates == ResourceKind::Handle)
      return HandleOwner::Function; // may be this one: not judged
  }
  const auto *VD = dyn_cast_or_null<VarDecl>(H.Base);
  if (H.Member)
    return HandleOwner::Member;
  if (VD && VD->getTLSKind() != VarDecl::TLS_None)
    return std::nullopt; // one per thread
  if (VD && VD->hasGlobalStorage())
    return HandleOwner::Global;
  if (VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD))
    return HandleOwner::Unknown; // a local declared outside the region
  return std::nullopt;
}

} // namespace

std::vector<RacedConfiguration>
racedConfigurations(llvm::ArrayRef<const Decl *> Unit) {
  std::vector<RacedConfiguration> Raced;
  llvm::DenseSet<const CallExpr *> Seen;
  for (const ConcurrentCode &Where : concurrentCode(Unit)) {
    // The functions the threads run, each with the calls that lead to it
    // unlocked; three calls deep.
    llvm::SmallVector<std::pair<const Decl *, unsigned>, 8> Work;
    llvm::DenseSet<const Decl *> Visited;
    auto Follow = [&](const CallExpr *Call, const Decl *From, unsigned Depth) {
      const FunctionDecl *FD = userCallee(Call);
      const FunctionDecl *Def = nullptr;
      if (Depth >= 3 || !FD || !FD->hasBody(Def) || !Def ||
          (From && lockHeldAt(Call, From)) || !Visited.insert(Def).second)
        return;
      Work.push_back({Def, Depth + 1});
    };
    if (Where.Region) {
      std::vector<BodyStmt> Region = regionStmts(Where.Region);
      for (size_t I = 0; I < Region.size(); ++I) {
        const auto *Call = dyn_cast<CallExpr>(Region[I].S);
        if (!Call)
          continue;
        if (!lockHeldIn(Region, int(I)))
          Follow(Call, nullptr, 0);
        const ConfigFunction *F = calledConfigFunction(Call);
        if (!F || !F->Sets || Call->getNumArgs() == 0 ||
            lockHeldIn(Region, int(I)) || Seen.contains(Call))
          continue;
        std::optional<HandleName> H =
            handleNamed(Call->getArg(0), Where.StartIn);
        if (!H)
          continue;
        if (std::optional<HandleOwner> Owner = sharedInRegion(*H, Region))
          if (*Owner != HandleOwner::Function) {
            Seen.insert(Call);
            Raced.push_back({Call, Where.StartIn, Where, *H, *Owner});
          }
      }
    } else if (Where.Entry && Visited.insert(Where.Entry).second) {
      Work.push_back({Where.Entry, 0});
    }
    while (!Work.empty()) {
      auto [Fn, Depth] = Work.pop_back_val();
      for (const CallExpr *Call : callsIn(Fn)) {
        Follow(Call, Fn, Depth);
        const ConfigFunction *F = calledConfigFunction(Call);
        if (!F || !F->Sets || Call->getNumArgs() == 0 ||
            lockHeldAt(Call, Fn) || Seen.contains(Call))
          continue;
        std::optional<HandleName> H = handleNamed(Call->getArg(0), Fn);
        if (!H)
          continue;
        if (std::optional<HandleOwner> Owner =
                sharedBetweenThreads(*H, Call, Fn, Where)) {
          Seen.insert(Call);
          Raced.push_back({Call, Fn, Where, *H, *Owner});
        }
      }
    }
  }
  return Raced;
}

} // namespace cublas_tidy
