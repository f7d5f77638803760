//===- HandleStates.cpp ---------------------------------------------------===//

#include "facts/HandleStates.h"

#include "facts/HandleUses.h"
#include "facts/StatusFunctions.h"

#include "ast/SharedCfg.h"

#include "ast/AstUtils.h"
#include "ast/Callables.h"
#include "ast/CompileErrors.h"
#include "ast/CutOffs.h"
#include "ast/ObjectChanges.h"
#include "ast/ValueUse.h"
#include "facts/Exceptions.h"
#include "facts/Summaries.h"
#include "facts/SummaryParts.h"
#include "model/CublasApi.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/Builtins.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <deque>
#include <optional>

using namespace clang;

namespace json = llvm::json;

namespace cublas_tidy {

//===----------------------------------------------------------------------===//
// Path states
//===----------------------------------------------------------------------===//

namespace {

enum class HState : std::uint8_t {
  Allocated,   // created, and not known to have failed
  MaybeFailed, // created, but a test of its status we cannot read happened
  Released,    // destroyed
  Escaped,     // out of our sight
};

/// What a create's status is held in, and how to read it.
struct StatusKey {
  enum Polarity : std::uint8_t {
    Status,        // a cublasStatus_t: 0 is success
    TrueIsSuccess, // a bool computed as status == SUCCESS
    TrueIsFailure, // a bool computed as status != SUCCESS
  };
  const void *Holder = nullptr; // the create CallExpr, or a VarDecl
  Polarity Pol = Status;
  bool operator==(const StatusKey &O) const {
    return Holder == O.Holder && Pol == O.Pol;
  }
};

struct Handle {
  const VarDecl *Var;
  HState S;
  unsigned KindId;
  const CallExpr *Create;  // null for a summarised parameter
  const CallExpr *Destroy; // the destroy that released it
  StatusKey Key;
  bool Persistent; // a global or static: its life does not end here
  /// The destroy whose way on this path follows, until a use, or a call
  /// that may not return, or the handle's end (Engine::Claims).
  const CallExpr *Pending = nullptr;
  bool operator==(const Handle &O) const {
    return Var == O.Var && S == O.S && KindId == O.KindId &&
           Create == O.Create && Destroy == O.Destroy && Key == O.Key &&
           Persistent == O.Persistent && Pending == O.Pending;
  }
};

/// A variable (Field null), or a field of a local object, known zero or
/// non-zero along a path, and known equal to a non-zero constant where a
/// test `X == C` held (`format == CSR`: a later `format == CSC` is false).
struct Assumption {
  const VarDecl *Var;
  const FieldDecl *Field;
  bool NonZero;
  std::optional<int64_t> Equals;
  bool operator==(const Assumption &O) const {
    return Var == O.Var && Field == O.Field && NonZero == O.NonZero &&
           Equals == O.Equals;
  }
};

struct PathState {
  llvm::SmallVector<Handle, 4> Handles;       // sorted by Var
  llvm::SmallVector<Assumption, 4> Assumes;   // sorted by Var

  bool operator==(const PathState &O) const {
    return Handles == O.Handles && Assumes == O.Assumes;
  }

  Handle *find(const VarDecl *VD) {
    for (Handle &H : Handles)
      if (H.Var == VD)
        return &H;
    return nullptr;
  }
  void set(const Handle &H) {
    if (Handle *Old = find(H.Var)) {
      *Old = H;
      return;
    }
    auto It = llvm::lower_bound(Handles, H.Var,
                                [](const Handle &L, const VarDecl *R) {
                                  return L.Var < R;
                                });
    Handles.insert(It, H);
  }
  void erase(const VarDecl *VD) {
    llvm::erase_if(Handles, [&](const Handle &H) { return H.Var == VD; });
  }
  const Assumption *assumed(const VarDecl *VD,
                            const FieldDecl *Field = nullptr) const {
    for (const Assumption &A : Assumes)
      if (A.Var == VD && A.Field == Field)
        return &A;
    return nullptr;
  }
  /// Whether the test `T` of the variable (or field) can hold with what
  /// the path knows of it; when it can, the path knows the test's outcome
  /// from here on. Only tests against 0, and `X == C` that holds, teach
  /// the path anything: `X != C` leaves many values.
  bool test(const VarDecl *VD, const FieldDecl *Field, const llvm::APSInt &C,
            bool Holds) {
    if (C.getSignificantBits() > 64)
      return true;
    int64_t Value = C.getExtValue();
    const Assumption *A = assumed(VD, Field);
    if (Value == 0) {
      if (A)
        return A->NonZero == !Holds;
      assume(VD, !Holds, Field);
      return true;
    }
    if (A && A->Equals)
      return (*A->Equals == Value) == Holds;
    if (A && !A->NonZero)
      return !Holds; // known zero: never equal to C
    if (Holds)
      assume(VD, true, Field, Value);
    return true;
  }
  void assume(const VarDecl *VD, bool NonZero, const FieldDecl *Field = nullptr,
              std::optional<int64_t> Equals = std::nullopt) {
    llvm::erase_if(Assumes, [&](const Assumption &A) {
      return A.Var == VD && A.Field == Field;
    });
    auto Key = std::make_pair(VD, Field);
    auto It =
        llvm::lower_bound(Assumes, Key,
                          [](const Assumption &L,
                             std::pair<const VarDecl *, const FieldDecl *> R) {
                            return std::make_pair(L.Var, L.Field) < R;
                          });
    Assumes.insert(It, {VD, Field, NonZero, Equals});
  }
  /// Forgets what is known of the variable, and of every field of it.
  void forget(const VarDecl *VD) {
    llvm::erase_if(Assumes, [&](const Assumption &A) { return A.Var == VD; });
  }
  bool assumesFields() const {
    return llvm::any_of(Assumes, [](const Assumption &A) { return A.Field; });
  }
  /// The variable's value changed: assumptions on it and status keys held
  /// in it are void. A create whose status was never tested counts as a
  /// success from here on.
  void written(const VarDecl *VD) {
    forget(VD);
    for (Handle &H : Handles)
      if (H.Key.Holder == VD)
        H.Key = {};
  }
};

const Expr *strip(const Expr *E) {
  return E ? E->IgnoreParenImpCasts() : nullptr;
}

std::optional<llvm::APSInt> intValue(const Expr *E, const ASTContext &Ctx) {
  E = strip(E);
  if (!E || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  if (isa<CXXNullPtrLiteralExpr, GNUNullExpr>(E))
    return llvm::APSInt::get(0);
  // A variable that is neither const nor constexpr holds no constant (and
  // asking the constant evaluator costs most of a test's analysis).
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && !VD->isConstexpr() && !VD->getType().isConstQualified() &&
        !VD->getType()->isReferenceType())
      return std::nullopt;
    // `CUBLAS_STATUS_SUCCESS`: the enumerator's value, read directly.
    if (const auto *ECD = dyn_cast<EnumConstantDecl>(DRE->getDecl())) {
      // As the constant evaluator gives it: in the reference's type.
      QualType T = DRE->getType();
      llvm::APSInt V = ECD->getInitVal().extOrTrunc(Ctx.getIntWidth(T));
      V.setIsSigned(T->isSignedIntegerOrEnumerationType());
      return V;
    }
  }
  if (const auto *Lit = dyn_cast<IntegerLiteral>(E))
    return llvm::APSInt(Lit->getValue(),
                        !Lit->getType()->isSignedIntegerOrEnumerationType());
  Expr::EvalResult R;
  if (E->EvaluateAsInt(R, Ctx))
    return R.Val.getInt();
  if (E->isNullPointerConstant(const_cast<ASTContext &>(Ctx),
                               Expr::NPC_ValueDependentIsNotNull))
    return llvm::APSInt::get(0);
  return std::nullopt;
}

/// A branch condition read as `(X == C) == Holds`.
struct Test {
  const Expr *X;
  llvm::APSInt C;
  bool Holds;
};

/// Reads the condition `Cond` when it evaluates to `Value`.
std::optional<Test> readCondition(const Expr *Cond, bool Value,
                                  const ASTContext &Ctx) {
  for (int Depth = 0; Depth < 32 && Cond; ++Depth) {
    Cond = strip(Cond);
    // LIKELY(x)/UNLIKELY(x), TORCH_CHECK: __builtin_expect(x, c) is x.
    if (const auto *Call = dyn_cast<CallExpr>(Cond)) {
      unsigned Builtin = Call->getBuiltinCallee();
      if ((Builtin == Builtin::BI__builtin_expect ||
           Builtin == Builtin::BI__builtin_expect_with_probability) &&
          Call->getNumArgs() >= 1) {
        Cond = Call->getArg(0);
        continue;
      }
      // `ok(status)`, a function of the user's whose result says whether
      // the status it is given is success (facts/StatusFunctions.h).
      if (const FunctionDecl *FD = Call->getDirectCallee();
          FD && Call->getNumArgs() >= 1)
        switch (statusFunctionFacts(FD).Predicate) {
        case StatusPredicate::TrueIsSuccess:
          return Test{strip(Call->getArg(0)), llvm::APSInt::get(0), Value};
        case StatusPredicate::TrueIsFailure:
          return Test{strip(Call->getArg(0)), llvm::APSInt::get(0), !Value};
        case StatusPredicate::Unknown:
          break;
        }
    }
    // static_cast<bool>(x) (TORCH_CHECK's C10_UNLIKELY), (bool)x.
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(Cond);
        Cast && Cast->getType()->isBooleanType()) {
      Cond = Cast->getSubExpr();
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(Cond)) {
      if (UO->getOpcode() != UO_LNot)
        break;
      Cond = UO->getSubExpr();
      Value = !Value;
      continue;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(Cond)) {
      if (BO->getOpcode() != BO_EQ && BO->getOpcode() != BO_NE)
        break;
      bool Eq = BO->getOpcode() == BO_EQ;
      if (std::optional<llvm::APSInt> C = intValue(BO->getRHS(), Ctx))
        return Test{strip(BO->getLHS()), *C, Eq ? Value : !Value};
      if (std::optional<llvm::APSInt> C = intValue(BO->getLHS(), Ctx))
        return Test{strip(BO->getRHS()), *C, Eq ? Value : !Value};
      return std::nullopt;
    }
    // A plain value: true means non-zero.
    if (Cond->getType()->isScalarType())
      return Test{Cond, llvm::APSInt::get(0), !Value};
    break;
  }
  return std::nullopt;
}

bool mentions(const Stmt *S, const void *Holder, unsigned Budget = 256) {
  return anyStmt(
      S,
      [&](const Stmt *Cur) {
        const auto *DRE = dyn_cast<DeclRefExpr>(Cur);
        return Cur == Holder || (DRE && DRE->getDecl() == Holder);
      },
      Budget);
}

/// Where the variable's life ended, from a LifetimeEnds element's trigger.
LeakExit exitFromTrigger(const Stmt *Trigger, const Stmt *Body) {
  if (!Trigger)
    return {LeakExit::ScopeEnd, SourceLocation()};
  if (isa<ReturnStmt>(Trigger))
    return {LeakExit::Return, Trigger->getBeginLoc(), Trigger};
  if (isa<CXXThrowExpr>(Trigger))
    return {LeakExit::Throw, Trigger->getBeginLoc(), Trigger};
  if (isa<BreakStmt, ContinueStmt, GotoStmt, IndirectGotoStmt>(Trigger))
    return {LeakExit::Jump, Trigger->getBeginLoc(), Trigger};
  if (const auto *CS = dyn_cast<CompoundStmt>(Trigger))
    return {Trigger == Body ? LeakExit::FunctionEnd : LeakExit::ScopeEnd,
            CS->getRBracLoc(), Trigger};
  return {LeakExit::ScopeEnd, Trigger->getEndLoc(), Trigger};
}

using ObjectField = std::pair<const VarDecl *, const FieldDecl *>;

/// Variables, and fields of local objects (`opts.use_gpu`), tested by two
/// or more branch conditions of the body (`Stmts`, from stmtsIn(): a
/// lambda's conditions are its own): only these can correlate branches, so
/// only their values are remembered along a path (remembering every tested
/// variable would multiply the paths for nothing).
struct Correlatable {
  llvm::DenseSet<const VarDecl *> Vars;
  llvm::DenseSet<ObjectField> Fields;
};

Correlatable findCorrelatable(llvm::ArrayRef<BodyStmt> Stmts) {
  llvm::DenseMap<const VarDecl *, unsigned> Count;
  llvm::DenseMap<ObjectField, unsigned> FieldCount;
  unsigned Budget = 200000;
  auto CountIn = [&](const Expr *Cond) {
    if (!Cond)
      return;
    llvm::SmallPtrSet<const VarDecl *, 4> InThis;
    llvm::SmallPtrSet<const FieldDecl *, 4> FieldsInThis;
    walkStmts(
        Cond,
        [&](const Stmt *S) {
          if (!Budget)
            return WalkStep::Stop;
          --Budget;
          if (const VarDecl *VD = referencedVar(dyn_cast<Expr>(S)))
            if (InThis.insert(VD).second)
              ++Count[VD];
          if (isa<MemberExpr>(S))
            if (auto F = fieldOfLocalObject(cast<Expr>(S));
                F && FieldsInThis.insert(F->second).second)
              ++FieldCount[*F];
          return WalkStep::Enter;
        },
        ~0u, /*IntoLambdas=*/true);
  };
  for (const BodyStmt &N : Stmts) {
    if (!Budget)
      break;
    --Budget;
    const Stmt *S = N.S;
    if (const auto *If = dyn_cast<IfStmt>(S))
      CountIn(If->getCond());
    else if (const auto *W = dyn_cast<WhileStmt>(S))
      CountIn(W->getCond());
    else if (const auto *D = dyn_cast<DoStmt>(S))
      CountIn(D->getCond());
    else if (const auto *F = dyn_cast<ForStmt>(S))
      CountIn(F->getCond());
    else if (const auto *CO = dyn_cast<ConditionalOperator>(S))
      CountIn(CO->getCond());
  }
  Correlatable Result;
  for (const auto &[VD, N] : Count)
    if (N >= 2)
      Result.Vars.insert(VD);
  for (const auto &[F, N] : FieldCount)
    if (N >= 2)
      Result.Fields.insert(F);
  return Result;
}

//===----------------------------------------------------------------------===//
// The engine: one run over one function
//===----------------------------------------------------------------------===//

class Engine {
public:
  Engine(HandleAnalyzer &Analyzer, ASTContext &Ctx, const ResourceTable &Table,
         const HandleAnalysisOptions &Options, unsigned Depth)
      : Analyzer(Analyzer), Ctx(Ctx), Table(Table), Options(Options),
        Depth(Depth) {}

  /// Runs over `Callable`; with `SeedParam`, that parameter starts out as a
  /// live resource and only its fate is recorded.
  bool run(const Decl *Callable, const ParmVarDecl *SeedParam = nullptr);

  std::vector<LeakReport> Leaks;
  std::vector<UseAfterDestroyReport> takeUsesAfterDestroy();
  /// For summaries: the fates of the seeded parameter at the exits.
  bool SeedDestroyed = false, SeedKept = false, SeedEscaped = false;
  /// Runs only to find the globals destroyed on every way out
  /// (HandleAnalyzer::globalsDestroyed): nothing is reported.
  bool GlobalsSummary = false;
  /// With GlobalsSummary: the global resources released at every exit seen,
  /// with their kinds; unset before the first exit.
  std::optional<GlobalResources> GlobalsReleased;
  /// For summaries: what the returns return.
  unsigned FreshReturns = 0, OtherReturns = 0;
  std::optional<unsigned> FreshKind;
  const ReturnStmt *FreshReturn = nullptr;

private:
  void processBlock(const CFGBlock *B, PathState S);
  void processElement(const CFGElement &E, PathState &S);
  void processCall(const CallExpr *CE, PathState &S);
  void noteUnkeptResource(const CallExpr *CE);
  void createOrDestroy(const CallExpr *CE, const ResourceTable::Entry &Entry,
                       PathState &S);
  void otherCall(const CallExpr *CE, PathState &S);
  GlobalResources releasedByProject(const CallExpr *CE);
  /// The globals the callable names, by their canonical declarations.
  std::optional<llvm::DenseMap<const VarDecl *, const VarDecl *>> NamedGlobals;
  void callOfGlobals(const CallExpr *CE, const FunctionDecl *Def,
                     PathState &S);
  bool summarising() const { return Seed || GlobalsSummary; }
  void throwingCall(const CallExpr *CE, const PathState &S);
  void processConstruct(const CXXConstructExpr *CE, PathState &S);
  void processDeclRef(const DeclRefExpr *DRE, PathState &S);
  void processDecl(const DeclStmt *DS, PathState &S);
  void processAssign(const BinaryOperator *BO, PathState &S);
  void bindStatus(const VarDecl *Holder, const Expr *Value, PathState &S);
  void create(const CallExpr *CE, const VarDecl *VD, unsigned KindId,
              PathState &S);
  void destroy(const CallExpr *CE, const VarDecl *VD, unsigned KindId,
               PathState &S);
  void use(const Expr *Use, const VarDecl *VD, bool IsDestroy, unsigned KindId,
           PathState &S);
  void forgetChangedFields(const Stmt *St, PathState &S);
  void escape(const VarDecl *VD, PathState &S);
  void processReturn(const ReturnStmt *RS, PathState &S);
  std::optional<unsigned> newResourceCall(const Expr *E);
  void adoptNewResource(const VarDecl *VD, const CallExpr *CE, unsigned KindId,
                        PathState &S);
  void leak(const Handle &H, LeakExit Exit);
  /// The exit ends the process: not a leak (an exception leaving main,
  /// main returning a failure code).
  bool endsProcess(const LeakExit &Exit) const;
  void atExit(const CFGBlock *From, PathState &S);
  bool refine(PathState &S, const Expr *Cond, bool Value);
  bool refineTest(PathState &S, const Test &T, const Expr *Cond);
  void branch(const CFGBlock *B, const PathState &S);
  void enqueue(const CFGBlock *B, PathState S);
  bool isTrackable(const VarDecl *VD) const;

  HandleAnalyzer &Analyzer;
  ASTContext &Ctx;
  const ResourceTable &Table;
  const HandleAnalysisOptions &Options;
  unsigned Depth;

  const Stmt *Body = nullptr;
  const CFG *Cfg = nullptr;
  /// The statements of the body (stmtsIn()) and where each call and
  /// variable reference is among them: the parents of those are all the
  /// analysis asks for.
  const Decl *Callable = nullptr;
  llvm::ArrayRef<BodyStmt> Stmts;
  /// The index of the parent of the statement at `I` (-1 at the top).
  int parentIndex(int I) const { return I >= 0 ? Stmts[I].Parent : -1; }
  int indexOf(const Stmt *S) const { return indexIn(Callable).indexOf(S); }
  const Stmt *at(int I) const { return I >= 0 ? Stmts[I].S : nullptr; }
  /// Found the first time a correlatable variable is tested.
  std::optional<llvm::DenseSet<const VarDecl *>> EscapingVars;
  Correlatable Correlated;
  /// Where the local objects whose fields correlate may change.
  std::optional<LocalObjectChanges> ObjectChangesIn;
  const ObjectChanges &objectChanges(const VarDecl *Object) {
    if (!ObjectChangesIn)
      ObjectChangesIn.emplace(Callable);
    return ObjectChangesIn->of(Object);
  }
  bool escapes(const VarDecl *VD) {
    if (!EscapingVars)
      EscapingVars = findEscapingVariables(Body);
    return EscapingVars->contains(VD);
  }
  const ParmVarDecl *Seed = nullptr;
  std::deque<std::pair<const CFGBlock *, PathState>> Work;
  llvm::DenseMap<const CFGBlock *, llvm::SmallVector<PathState, 4>> Seen;
  unsigned Steps = 0;
  bool Aborted = false;
  bool InMain = false;
  /// Creates whose resource some path destroys or hands on.
  llvm::SmallPtrSet<const CallExpr *, 8> Released;

public:
  bool releasedSomewhere(const CallExpr *Create) const {
    return Released.count(Create);
  }

private:

  struct UseObservation {
    const VarDecl *Var;
    const Expr *Use;
    bool IsDestroy;
    unsigned KindId;
    bool AlwaysReleased = true;
    const CallExpr *Destroy = nullptr;
    const FunctionDecl *Inside = nullptr;
  };

  std::vector<UseObservation> Uses;
  llvm::DenseMap<std::pair<const Expr *, const VarDecl *>, unsigned> UseIndex;

  /// A destroy's ways on: the first use each reached, and whether one
  /// avoided every use (an exit, the handle made again or reset, a call
  /// that may not return). A destroy none of whose ways on avoids a use is
  /// followed by a use whenever it runs.
  struct Claim {
    const VarDecl *Var;
    const Expr *Use = nullptr; // the first reached, in source order
    bool IsDestroy = false;
    unsigned KindId = 0;
    bool Avoided = false;
  };
  llvm::MapVector<const CallExpr *, Claim> Claims;
  /// The destroys a use claimed in the element being processed.
  llvm::SmallVector<const CallExpr *, 2> JustClaimed;
  void claim(Handle &H, const Expr *Use, bool IsDestroy);
  void avoid(Handle &H) {
    if (H.Pending)
      Claims[H.Pending].Avoided = true;
    H.Pending = nullptr;
  }
  /// The path ends here, or may: no destroy it follows reaches its use.
  void avoidAll(PathState &S) {
    for (Handle &H : S.Handles)
      avoid(H);
  }
  bool mayNotReturn(const CallExpr *CE) const;
};

bool Engine::isTrackable(const VarDecl *VD) const {
  return VD && !VD->getType()->isReferenceType() &&
         (VD->hasLocalStorage() || VD->hasGlobalStorage());
}

bool Engine::run(const Decl *Callable, const ParmVarDecl *SeedParam) {
  Body = Callable ? Callable->getBody() : nullptr;
  if (!Body)
    return false;
  if (const auto *FD = dyn_cast<FunctionDecl>(Callable))
    InMain = FD->isMain();
  Cfg = sharedCfg(Callable, Ctx);
  if (!Cfg)
    return false;
  this->Callable = Callable;
  Stmts = stmtsIn(Callable);
  Correlated = findCorrelatable(Stmts);
  Seed = SeedParam;

  PathState Initial;
  if (Seed)
    Initial.set(
        {Seed, HState::Allocated, 0, nullptr, nullptr, {}, false, nullptr});
  enqueue(&Cfg->getEntry(), std::move(Initial));
  while (!Work.empty() && !Aborted) {
    auto [B, S] = std::move(Work.front());
    Work.pop_front();
    if (++Steps > Options.MaxSteps) {
      Aborted = true;
      break;
    }
    processBlock(B, std::move(S));
  }
  // A summary of a helper's parameter stops quietly: its caller says so.
  if (Aborted && !summarising())
    reportCutOff("the handle analysis", Callable,
                 Steps > Options.MaxSteps
                     ? "it followed more than " +
                           llvm::Twine(Options.MaxSteps) +
                           " blocks; its handles are not judged"
                     : "more than " + llvm::Twine(Options.MaxStatesPerBlock) +
                           " distinct states of its handles reach one block; "
                           "its handles are not judged");
  return !Aborted;
}

void Engine::enqueue(const CFGBlock *B, PathState S) {
  if (!B)
    return;
  auto &States = Seen[B];
  if (llvm::is_contained(States, S))
    return;
  if (States.size() >= Options.MaxStatesPerBlock) {
    Aborted = true;
    return;
  }
  States.push_back(S);
  Work.emplace_back(B, std::move(S));
}

void Engine::processBlock(const CFGBlock *B, PathState S) {
  if (B == &Cfg->getExit()) {
    atExit(nullptr, S);
    return;
  }
  for (const CFGElement &E : *B) {
    // A destroy whose way on stops following without a use here (the
    // handle made again, reset, out of scope) avoided the use.
    llvm::SmallVector<const CallExpr *, 2> Before;
    for (const Handle &H : S.Handles)
      if (H.Pending)
        Before.push_back(H.Pending);
    JustClaimed.clear();
    processElement(E, S);
    for (const CallExpr *D : Before)
      if (!llvm::is_contained(JustClaimed, D) &&
          llvm::none_of(S.Handles,
                        [&](const Handle &H) { return H.Pending == D; }))
        Claims[D].Avoided = true;
  }
  // Paths through abort(), exit() or a [[noreturn]] function end here,
  // avoiding whatever use was to come.
  if (B->hasNoReturnElement()) {
    avoidAll(S);
    return;
  }
  branch(B, S);
}

void Engine::processElement(const CFGElement &E, PathState &S) {
  if (std::optional<CFGLifetimeEnds> LE = E.getAs<CFGLifetimeEnds>()) {
    const VarDecl *VD = LE->getVarDecl();
    if (VD == Seed)
      return;
    if (Handle *H = S.find(VD)) {
      if (H->S == HState::Allocated && !H->Persistent)
        leak(*H, exitFromTrigger(LE->getTriggerStmt(), Body));
      S.erase(VD);
    }
    S.written(VD);
    return;
  }
  std::optional<CFGStmt> CS = E.getAs<CFGStmt>();
  if (!CS)
    return;
  const Stmt *St = CS->getStmt();
  if (S.assumesFields())
    forgetChangedFields(St, S);
  if (const auto *CE = dyn_cast<CallExpr>(St))
    processCall(CE, S);
  else if (const auto *Construct = dyn_cast<CXXConstructExpr>(St))
    processConstruct(Construct, S);
  else if (const auto *DRE = dyn_cast<DeclRefExpr>(St))
    processDeclRef(DRE, S);
  else if (const auto *DS = dyn_cast<DeclStmt>(St))
    processDecl(DS, S);
  else if (const auto *RS = dyn_cast<ReturnStmt>(St))
    processReturn(RS, S);
  else if (const auto *Lambda = dyn_cast<LambdaExpr>(St)) {
    // Captured, by copy or by reference: the lambda may destroy it later.
    for (const LambdaCapture &C : Lambda->captures())
      if (C.capturesVariable())
        if (const auto *VD = dyn_cast<VarDecl>(C.getCapturedVar()))
          escape(VD, S);
  }
  else if (const auto *BO = dyn_cast<BinaryOperator>(St)) {
    if (BO->isAssignmentOp())
      processAssign(BO, S);
  } else if (const auto *UO = dyn_cast<UnaryOperator>(St)) {
    if (UO->isIncrementDecrementOp())
      if (const VarDecl *VD = referencedVar(UO->getSubExpr()))
        S.written(VD);
  }
}

void Engine::forgetChangedFields(const Stmt *St, PathState &S) {
  llvm::SmallVector<const VarDecl *, 2> Changed;
  for (const Assumption &A : S.Assumes)
    if (A.Field && objectChanges(A.Var).ChangedAt.contains(St) &&
        !llvm::is_contained(Changed, A.Var))
      Changed.push_back(A.Var);
  for (const VarDecl *VD : Changed)
    S.forget(VD);
}

void Engine::escape(const VarDecl *VD, PathState &S) {
  if (Handle *H = S.find(VD)) {
    avoid(*H); // it may be made again where it went
    if (H->S == HState::Allocated || H->S == HState::MaybeFailed) {
      H->S = HState::Escaped;
      if (H->Create)
        Released.insert(H->Create);
    }
  }
}

bool Engine::endsProcess(const LeakExit &Exit) const {
  // An exception that leaves main ends the process (std::terminate), and
  // so does one that leaves a static function only main calls, outside
  // any try (facts/Exceptions.h).
  if (Exit.Kind == LeakExit::Throw || Exit.Kind == LeakExit::ThrowingCall)
    return exceptionEndsProcess(dyn_cast_or_null<FunctionDecl>(Callable));
  // A function that answers EXIT_FAILURE hands its caller a process exit
  // status: the program ends on that path (NVIDIA's samples' CHECK macros
  // return it from the helpers main calls).
  if (Exit.Kind == LeakExit::Return)
    if (const auto *RS = dyn_cast_or_null<ReturnStmt>(Exit.S))
      if (RS->getRetValue() &&
          writtenWithMacro(RS->getRetValue(), "EXIT_FAILURE",
                           Ctx.getSourceManager(), Ctx.getLangOpts()))
        return true;
  if (!InMain)
    return false;
  // main returning a failure code: the process exits on an error path, the
  // driver frees what the process held.
  if (Exit.Kind == LeakExit::Return)
    if (const auto *RS = dyn_cast_or_null<ReturnStmt>(Exit.S))
      if (std::optional<llvm::APSInt> V = intValue(RS->getRetValue(), Ctx))
        return *V != 0;
  return false;
}

void Engine::leak(const Handle &H, LeakExit Exit) {
  if (summarising() || !H.Create || endsProcess(Exit))
    return;
  auto It = llvm::find_if(Leaks, [&](const LeakReport &R) {
    return R.Create == H.Create && R.Var == H.Var;
  });
  if (It == Leaks.end()) {
    Leaks.push_back({H.Var, H.Create, H.KindId, {}});
    It = std::prev(Leaks.end());
  }
  bool Known = llvm::any_of(It->Exits, [&](const LeakExit &X) {
    return X.Kind == Exit.Kind && X.Loc == Exit.Loc;
  });
  if (!Known)
    It->Exits.push_back(Exit);
}

void Engine::create(const CallExpr *CE, const VarDecl *VD, unsigned KindId,
                    PathState &S) {
  if (Handle *Old = S.find(VD))
    if (Old->S == HState::Allocated)
      leak(*Old, {LeakExit::Recreated, userLocation(CE->getBeginLoc(),
                                                    Ctx.getSourceManager()),
                  CE});
  S.written(VD);
  // The call's result says whether it worked: a status (0 is success, as
  // for every cuBLAS, cuSOLVER or cuSPARSE status), a bool, or nothing.
  StatusKey Key{CE, StatusKey::Status};
  QualType Ret = CE->getCallReturnType(Ctx);
  if (Ret->isVoidType())
    Key = {};
  else if (Ret->isBooleanType())
    Key.Pol = StatusKey::TrueIsSuccess;
  S.set({VD, HState::Allocated, KindId, CE, nullptr, Key,
         !VD->hasLocalStorage(), nullptr});
}

void Engine::destroy(const CallExpr *CE, const VarDecl *VD, unsigned KindId,
                     PathState &S) {
  use(CE, VD, /*IsDestroy=*/true, KindId, S);
  Handle *H = S.find(VD);
  if (!H) {
    // Destroyed here, wherever it came from: later uses are after destroy.
    S.set({VD,
           HState::Released,
           KindId,
           nullptr,
           CE,
           {},
           false,
           summarising() ? nullptr : CE});
    return;
  }
  if (H->S != HState::Released) {
    H->S = HState::Released;
    H->Destroy = CE;
    H->Key = {};
    H->Pending = summarising() ? nullptr : CE;
  }
  if (H->Create)
    Released.insert(H->Create);
}

void Engine::use(const Expr *Use, const VarDecl *VD, bool IsDestroy,
                 unsigned KindId, PathState &S) {
  if (summarising())
    return;
  auto [It, New] = UseIndex.try_emplace({Use, VD}, Uses.size());
  if (New)
    Uses.push_back({VD, Use, IsDestroy, KindId});
  UseObservation &O = Uses[It->second];
  Handle *H = S.find(VD);
  if (H && H->S == HState::Released) {
    if (!O.Destroy)
      O.Destroy = H->Destroy;
    claim(*H, Use, IsDestroy);
  } else {
    O.AlwaysReleased = false;
  }
}

void Engine::claim(Handle &H, const Expr *Use, bool IsDestroy) {
  if (!H.Pending)
    return;
  Claim &C = Claims[H.Pending];
  C.Var = H.Var;
  C.KindId = H.KindId;
  if (!C.Use || Ctx.getSourceManager().isBeforeInTranslationUnit(
                    Use->getBeginLoc(), C.Use->getBeginLoc())) {
    C.Use = Use;
    C.IsDestroy = IsDestroy;
  }
  JustClaimed.push_back(H.Pending);
  H.Pending = nullptr;
}

/// A call after which the path may not go on: a function of another unit
/// the program declares (`die(msg)` may exit), or a call through a
/// pointer. Functions of the system headers and of this unit return, or
/// say they do not (`[[noreturn]]`, which the CFG follows).
bool Engine::mayNotReturn(const CallExpr *CE) const {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return !isa<CXXOperatorCallExpr>(CE);
  if (FD->hasBody() || FD->getBuiltinID() || calledCublasFunction(CE))
    return false;
  return !Ctx.getSourceManager().isInSystemHeader(
      FD->getCanonicalDecl()->getLocation());
}

std::vector<UseAfterDestroyReport> Engine::takeUsesAfterDestroy() {
  std::vector<UseAfterDestroyReport> Result;
  for (const UseObservation &O : Uses)
    if (O.AlwaysReleased && O.Destroy)
      Result.push_back(
          {O.Var, O.Use, O.IsDestroy, O.Destroy, O.KindId, O.Inside, false});
  // A destroy every way on from which reaches a use: one report a use.
  for (const auto &Entry : Claims) {
    const Claim &C = Entry.second;
    if (C.Avoided || !C.Use)
      continue;
    bool Known = llvm::any_of(Result, [&](const UseAfterDestroyReport &R) {
      return R.Use == C.Use && R.Var == C.Var;
    });
    if (!Known)
      Result.push_back(
          {C.Var, C.Use, C.IsDestroy, Entry.first, C.KindId, nullptr, true});
  }
  return Result;
}

void Engine::processReturn(const ReturnStmt *RS, PathState &S) {
  // A return of a handle created here was counted when its value was read
  // (before the variable's lifetime ended).
  if (RS == FreshReturn) {
    FreshReturn = nullptr;
    return;
  }
  const Expr *V = strip(RS->getRetValue());
  if (!V)
    return;
  if (std::optional<llvm::APSInt> Null = intValue(V, Ctx); Null && *Null == 0)
    return; // the failure return of a creating function
  ++OtherReturns;
}

/// The kind of resource a call of a same-file function returns new, if it
/// does.
std::optional<unsigned> Engine::newResourceCall(const Expr *E) {
  const auto *CE = dyn_cast_or_null<CallExpr>(strip(E));
  const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
  if (!FD || !FD->getReturnType()->isPointerType() ||
      Depth >= Options.MaxSummaryDepth || calledCublasFunction(CE))
    return std::nullopt;
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || !Def->hasBody())
    return std::nullopt;
  return Analyzer.returnsNewResource(Def, Depth + 1);
}

void Engine::adoptNewResource(const VarDecl *VD, const CallExpr *CE,
                              unsigned KindId, PathState &S) {
  if (Handle *Old = S.find(VD))
    if (Old->S == HState::Allocated && !Old->Persistent)
      leak(*Old, {LeakExit::Overwritten,
                  userLocation(CE->getBeginLoc(), Ctx.getSourceManager()),
                  CE});
  S.written(VD);
  // The helper returns null when its create failed: a non-null handle is
  // the success.
  S.set({VD, HState::Allocated, KindId, CE, nullptr,
         StatusKey{VD, StatusKey::TrueIsSuccess}, !VD->hasLocalStorage(),
         nullptr});
}

void Engine::processCall(const CallExpr *CE, PathState &S) {
  const ResourceTable::Entry *Entry = Table.lookup(CE);
  if (!Entry && !summarising())
    noteUnkeptResource(CE);
  if (Entry) {
    createOrDestroy(CE, *Entry, S);
    return;
  }
  // A cuBLAS call reads its handles and descriptors. The model decides
  // before any body is looked at: the Init helpers of cublasLt.h
  // (cublasLtMatmulPreferenceInit, ...) are defined in the header, and their
  // bodies, which hand the descriptor to an unmodelled ..._Init_internal,
  // would read as an escape.
  if (const FunctionInfo *F = calledCublasFunction(CE)) {
    auto Args = llvm::ArrayRef(CE->getArgs(), CE->getNumArgs());
    for (unsigned I = 0; I < F->NumParams && I < Args.size(); ++I) {
      const VarDecl *VD = referencedVar(Args[I]);
      if (!VD)
        continue;
      if (F->ParamsBegin[I].Role == ParamRole::Resource) {
        if (const Handle *H = S.find(VD))
          use(CE, VD, /*IsDestroy=*/false, H->KindId, S);
        else
          // A parameter or global this path neither creates nor destroys:
          // live as far as this path knows, and the use is no use after
          // destroy.
          use(CE, VD, /*IsDestroy=*/false, 0, S);
      }
    }
    for (const Expr *A : Args)
      if (const VarDecl *VD = addressedVar(A))
        escape(VD, S);
    return;
  }
  if (mayNotReturn(CE))
    avoidAll(S);
  otherCall(CE, S);
  throwingCall(CE, S);
}

/// A call of a function of the project that can throw (facts/Exceptions.h),
/// outside any `try` block here: its exception leaves this function with
/// what is still allocated after the call. Not the handles the call itself
/// creates or whose status it checks (a throw there means the create
/// failed), nor those it is given (it may destroy them before throwing).
void Engine::throwingCall(const CallExpr *CE, const PathState &S) {
  if (summarising() || !mayThrowOut(CE->getDirectCallee()) ||
      insideTryBlock(CE, Callable))
    return;
  LeakExit Exit{LeakExit::ThrowingCall, CE->getBeginLoc(), CE};
  for (const Handle &H : S.Handles) {
    if (H.S != HState::Allocated || H.Persistent || !H.Var ||
        !H.Var->hasLocalStorage() || (H.Create && containsStmt(CE, H.Create)))
      continue;
    bool Given = llvm::any_of(CE->arguments(), [&](const Expr *A) {
      return referencedVar(A) == H.Var || addressedVar(A) == H.Var;
    });
    if (!Given)
      leak(H, Exit);
  }
}

/// A new resource from a helper that nobody keeps: handed straight to a
/// cuBLAS call, or dropped.
void Engine::noteUnkeptResource(const CallExpr *CE) {
  std::optional<unsigned> Kind = newResourceCall(CE);
  if (!Kind)
    return;
  int PI = parentIndex(indexOf(CE));
  while (PI >= 0 && isa<ParenExpr, ImplicitCastExpr, ExprWithCleanups>(at(PI)))
    PI = parentIndex(PI);
  const Stmt *P = at(PI);
  const auto *Outer = dyn_cast_or_null<CallExpr>(P);
  bool Dropped = P && !isa<Expr>(P) && !isa<ReturnStmt, DeclStmt>(P);
  bool Known = llvm::any_of(Leaks, [&](const LeakReport &R) {
    return R.Create == CE && !R.Var;
  });
  if (!Known && (Dropped || (Outer && calledCublasFunction(Outer) &&
                             !Table.lookup(Outer))))
    Leaks.push_back({nullptr, CE, *Kind, {}});
}

/// A create or destroy of the resource table.
void Engine::createOrDestroy(const CallExpr *CE,
                             const ResourceTable::Entry &Entry,
                             PathState &S) {
  auto Args = llvm::ArrayRef(CE->getArgs(), CE->getNumArgs());
  // The resource argument: the model's, or the first that fits.
  auto Pick = [&](auto Get) -> const VarDecl * {
    if (Entry.ParamIndex >= 0)
      return static_cast<unsigned>(Entry.ParamIndex) < Args.size()
                 ? Get(Args[Entry.ParamIndex])
                 : nullptr;
    for (const Expr *A : Args)
      if (const VarDecl *VD = Get(A))
        return VD;
    return nullptr;
  };
  if (Entry.IsCreate) {
    const VarDecl *VD = Pick(addressedVar);
    if (isTrackable(VD))
      create(CE, VD, Entry.KindId, S);
    // A create into anything else (a member, an out-parameter) is not
    // followed; the other arguments are plain inputs.
    return;
  }
  const VarDecl *VD = Pick(referencedVar);
  if (isTrackable(VD))
    destroy(CE, VD, Entry.KindId, S);
}

/// What a function defined in another unit does with a cuBLAS handle
/// parameter, by its summary (facts/Summaries.h); unknown is an escape.
HandleAnalyzer::ParamEffect projectEffect(const FunctionDecl *FD,
                                          unsigned Param) {
  const FunctionSummary *Summary = nullptr;
  if (Param < FD->getNumParams() &&
      isCublasResourceType(FD->getParamDecl(Param)->getType()))
    Summary = projectSummary(FD);
  std::optional<FunctionSummary::HandleEffect> Effect =
      Summary ? Summary->handleEffect(Param) : std::nullopt;
  if (!Effect)
    return HandleAnalyzer::ParamEffect::Escapes;
  return *Effect == FunctionSummary::HandleEffect::Destroys
             ? HandleAnalyzer::ParamEffect::Destroys
             : HandleAnalyzer::ParamEffect::Keeps;
}

/// Anything else: a same-TU function is summarised, a function of another
/// unit answers by its summary, others let the resource escape.
void Engine::otherCall(const CallExpr *CE, PathState &S) {
  const FunctionDecl *FD = CE->getDirectCallee();
  auto Args = llvm::ArrayRef(CE->getArgs(), CE->getNumArgs());
  const FunctionDecl *Def = nullptr;
  if (FD && !FD->isVariadic() && (Def = FD->getDefinition()) &&
      !Def->hasBody())
    Def = nullptr;
  unsigned Offset = isa<CXXOperatorCallExpr>(CE) &&
                            isa_and_nonnull<CXXMethodDecl>(FD) ? 1 : 0;
  for (unsigned I = 0; I < Args.size(); ++I) {
    if (const VarDecl *VD = addressedVar(Args[I])) {
      escape(VD, S);
      continue;
    }
    const VarDecl *VD = referencedVar(Args[I]);
    Handle *H = VD ? S.find(VD) : nullptr;
    if (!H || H->S == HState::Escaped)
      continue;
    unsigned Param = I - Offset;
    // The object of an operator call escapes.
    HandleAnalyzer::ParamEffect Effect = HandleAnalyzer::ParamEffect::Escapes;
    if (I >= Offset && Def) {
      if (Param < Def->getNumParams() && Depth < Options.MaxSummaryDepth)
        Effect = Analyzer.summarize(Def, Param, Depth + 1);
    } else if (I >= Offset && FD) {
      Effect = projectEffect(FD, Param);
    }
    // A destroyed resource stays destroyed, whatever the function does
    // with it; a second destroy there is a use after destroy.
    if (H->S == HState::Released &&
        Effect != HandleAnalyzer::ParamEffect::Destroys)
      continue;
    switch (Effect) {
    case HandleAnalyzer::ParamEffect::Keeps:
      break;
    case HandleAnalyzer::ParamEffect::Destroys:
      destroy(CE, VD, H->KindId, S);
      break;
    case HandleAnalyzer::ParamEffect::Escapes:
      escape(VD, S);
      break;
    }
  }
  callOfGlobals(CE, Def, S);
}

/// What a call does to the global resources: one the callee may create
/// into or assign (a function of the project the unit cannot read, or one
/// whose body names the global or calls such a function) is unknown after
/// it, even destroyed before; one the callee, a function of the unit,
/// destroys on every way out (`void teardown() { cublasDestroy(g); }`) is
/// destroyed by the call.
void Engine::callOfGlobals(const CallExpr *CE, const FunctionDecl *Def,
                           PathState &S) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return;
  GlobalResources Destroyed;
  if (Def && Depth < Options.MaxSummaryDepth)
    Destroyed = llvm::to_vector<2>(Analyzer.globalsDestroyed(Def, Depth + 1));
  else if (!Def)
    Destroyed = releasedByProject(CE);
  auto DestroyedHere = [&](const VarDecl *VD) {
    return llvm::any_of(Destroyed,
                        [&](const auto &P) { return P.first == VD; });
  };
  // A global the callee works on before anything else: used here.
  if (Def && !summarising() && Depth < Options.MaxSummaryDepth)
    for (const VarDecl *VD : Analyzer.globalsUsedOnEntry(Def, Depth + 1)) {
      const Handle *H = S.find(VD);
      use(CE, VD, /*IsDestroy=*/false, H ? H->KindId : 0, S);
      Uses[UseIndex.lookup({CE, VD})].Inside = Def;
    }
  for (Handle &H : S.Handles)
    if (H.S == HState::Released && H.Var->hasGlobalStorage() &&
        !DestroyedHere(H.Var) && Analyzer.mayWriteGlobal(CE, H.Var, Depth + 1))
      H.S = HState::Escaped;
  for (auto [VD, KindId] : Destroyed)
    destroy(CE, VD, KindId, S);
}

} // namespace

llvm::ArrayRef<const VarDecl *>
HandleAnalyzer::globalsUsedOnEntry(const FunctionDecl *Def, unsigned Depth) {
  auto [It, New] = GlobalsUsedOnEntry.try_emplace(Def);
  if (!New)
    return It->second;
  llvm::SmallVector<const VarDecl *, 2> Named;
  for (const CallExpr *Call : callsIn(Def))
    if (const FunctionInfo *F = calledCublasFunction(Call);
        F && !Table.lookup(Call))
      for (unsigned I = 0; I < F->NumParams && I < Call->getNumArgs(); ++I)
        if (const VarDecl *VD = referencedVar(Call->getArg(I));
            VD && F->ParamsBegin[I].Role == ParamRole::Resource &&
            VD->hasGlobalStorage() && !VD->isStaticLocal() &&
            !llvm::is_contained(Named, VD))
          Named.push_back(VD);
  llvm::SmallVector<const VarDecl *, 2> Out;
  for (const VarDecl *VD : Named) {
    // Nothing in the callee may set the global first: no create into it,
    // no assignment, no call that may write it.
    bool Written = llvm::any_of(callsIn(Def), [&](const CallExpr *Call) {
      if (const ResourceTable::Entry *E = Table.lookup(Call))
        return E->IsCreate &&
               llvm::any_of(Call->arguments(), [&](const Expr *A) {
                 return addressedVar(A) == VD;
               });
      return !calledCublasFunction(Call) && mayWriteGlobal(Call, VD, Depth);
    });
    Written = Written || anyStmt(Def->getBody(), [&](const Stmt *S) {
                if (const auto *BO = dyn_cast<BinaryOperator>(S);
                    BO && BO->isAssignmentOp())
                  return referencedVar(BO->getLHS()) == VD;
                if (const auto *UO = dyn_cast<UnaryOperator>(S);
                    UO && UO->getOpcode() == UO_AddrOf)
                  return referencedVar(UO->getSubExpr()) == VD;
                return false;
              });
    HandleName N;
    N.Base = VD;
    if (!Written && usedOnEveryPath(Def, N, Table))
      Out.push_back(VD);
  }
  auto &Slot = GlobalsUsedOnEntry[Def];
  Slot = std::move(Out);
  return Slot;
}

namespace {

/// The globals named in this callable that the function of another file
/// `CE` calls leaves destroyed on every way out, by its summary.
GlobalResources Engine::releasedByProject(const CallExpr *CE) {
  GlobalResources Out;
  const FunctionSummary *Summary = projectSummaryOfCall(CE);
  if (!Summary || Summary->ReleasedGlobals.empty())
    return Out;
  const llvm::StringMap<const VarDecl *> &Globals = Analyzer.globalResources();
  // The state follows the declaration the body names (the definition, or
  // an extern declaration before it).
  if (!NamedGlobals) {
    NamedGlobals.emplace();
    for (const BodyStmt &B : Stmts)
      if (const VarDecl *VD = referencedVar(dyn_cast<Expr>(B.S));
          VD && VD->hasGlobalStorage())
        NamedGlobals->try_emplace(VD->getCanonicalDecl(), VD);
  }
  for (const auto &[Key, Kind] : Summary->ReleasedGlobals)
    if (auto It = Globals.find(Key);
        It != Globals.end() && Kind < Table.kindCount()) {
      const VarDecl *Named = NamedGlobals->lookup(It->second);
      Out.push_back({Named ? Named : It->second, Kind});
    }
  return Out;
}

void Engine::processConstruct(const CXXConstructExpr *CE, PathState &S) {
  for (const Expr *A : CE->arguments()) {
    if (const VarDecl *VD = addressedVar(A))
      escape(VD, S);
    else if (const VarDecl *VD = referencedVar(A))
      escape(VD, S);
  }
}

void Engine::processDeclRef(const DeclRefExpr *DRE, PathState &S) {
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (!VD || !S.find(VD))
    return;
  // Find the context that consumes the value.
  const Stmt *Child = DRE;
  int PI = parentIndex(indexOf(DRE));
  const Stmt *P = at(PI);
  while (P && (isa<ParenExpr, ImplicitCastExpr>(P) ||
               (isa<UnaryOperator>(P) &&
                cast<UnaryOperator>(P)->getOpcode() == UO_AddrOf &&
                Child == DRE))) {
    Child = P;
    PI = parentIndex(PI);
    P = at(PI);
  }
  if (!P)
    return;
  // Calls, constructions, assignments and declarations decide themselves.
  if (isa<CallExpr, CXXConstructExpr, DeclStmt>(P))
    return;
  if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
    if (BO->isAssignmentOp())
      return;
    if (BO->isComparisonOp() || BO->isLogicalOp())
      return; // read
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(P))
    if (UO->getOpcode() == UO_LNot)
      return; // read
  if (isa<IfStmt, WhileStmt, DoStmt, ForStmt, ConditionalOperator,
          SwitchStmt>(P) &&
      Child != DRE && isa<ImplicitCastExpr>(Child))
    return; // a condition
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(P))
    if (Cast->getTypeAsWritten()->isVoidType() ||
        Cast->getTypeAsWritten()->isBooleanType())
      return;
  if (const auto *RS = dyn_cast<ReturnStmt>(P)) {
    const Handle *H = S.find(VD);
    if (H->Create && !H->Persistent && H->S == HState::Allocated &&
        VD->hasLocalStorage() && (!FreshKind || *FreshKind == H->KindId)) {
      FreshKind = H->KindId;
      ++FreshReturns;
      FreshReturn = RS;
    }
  }
  // Returned, captured, put in an aggregate, cast to something else...
  escape(VD, S);
}

void Engine::bindStatus(const VarDecl *Holder, const Expr *Value,
                        PathState &S) {
  Value = strip(Value);
  if (!Value)
    return;
  // `st = cublasCreate(&h)` or `st = other_status_holder`.
  for (Handle &H : S.Handles) {
    if (!H.Key.Holder)
      continue;
    if (H.Key.Holder == Value ||
        (isa<DeclRefExpr>(Value) &&
         cast<DeclRefExpr>(Value)->getDecl() == H.Key.Holder)) {
      H.Key.Holder = Holder;
      continue;
    }
    // `ok = cublasCreate(&h) == CUBLAS_STATUS_SUCCESS`.
    if (const auto *BO = dyn_cast<BinaryOperator>(Value)) {
      if (BO->getOpcode() != BO_EQ && BO->getOpcode() != BO_NE)
        continue;
      const Expr *L = strip(BO->getLHS()), *R = strip(BO->getRHS());
      std::optional<llvm::APSInt> C = intValue(R, Ctx);
      const Expr *X = L;
      if (!C) {
        C = intValue(L, Ctx);
        X = R;
      }
      if (!C || *C != 0 || H.Key.Pol != StatusKey::Status)
        continue;
      bool IsKey = X == H.Key.Holder ||
                   (isa<DeclRefExpr>(X) &&
                    cast<DeclRefExpr>(X)->getDecl() == H.Key.Holder);
      if (IsKey)
        H.Key = {Holder, BO->getOpcode() == BO_EQ ? StatusKey::TrueIsSuccess
                                                  : StatusKey::TrueIsFailure};
    }
  }
}

void Engine::processDecl(const DeclStmt *DS, PathState &S) {
  for (const Decl *D : DS->decls()) {
    const auto *VD = dyn_cast<VarDecl>(D);
    if (!VD)
      continue;
    S.written(VD);
    if (Handle *H = S.find(VD)) {
      // A new instance of the variable (a loop came back to it).
      if (H->S == HState::Allocated && !H->Persistent)
        leak(*H, {LeakExit::ScopeEnd,
                  userLocation(DS->getBeginLoc(), Ctx.getSourceManager()),
                  DS});
      S.erase(VD);
    }
    const Expr *Init = VD->getInit();
    if (!Init)
      continue;
    if (std::optional<unsigned> Kind = newResourceCall(Init);
        Kind && isTrackable(VD) && VD->hasLocalStorage()) {
      adoptNewResource(VD, cast<CallExpr>(strip(Init)), *Kind, S);
      continue;
    }
    if (const VarDecl *Alias = addressedVar(Init))
      escape(Alias, S);
    else if (const VarDecl *Copied = referencedVar(Init))
      escape(Copied, S);
    bindStatus(VD, Init, S);
  }
}

void Engine::processAssign(const BinaryOperator *BO, PathState &S) {
  const VarDecl *Target = referencedVar(BO->getLHS());
  const Expr *RHS = BO->getRHS();
  if (BO->getOpcode() == BO_Assign) {
    if (const VarDecl *Alias = addressedVar(RHS))
      escape(Alias, S);
    else if (const VarDecl *Copied = referencedVar(RHS))
      escape(Copied, S);
  }
  if (!Target)
    return;
  if (Handle *H = S.find(Target)) {
    if (H->S == HState::Allocated && !H->Persistent)
      leak(*H, {LeakExit::Overwritten,
                userLocation(BO->getOperatorLoc(), Ctx.getSourceManager()),
                BO});
    S.erase(Target);
  }
  S.written(Target);
  if (BO->getOpcode() != BO_Assign)
    return;
  if (std::optional<unsigned> Kind = newResourceCall(RHS);
      Kind && isTrackable(Target) && Target->hasLocalStorage()) {
    adoptNewResource(Target, cast<CallExpr>(strip(RHS)), *Kind, S);
    return;
  }
  bindStatus(Target, RHS, S);
}

void Engine::atExit(const CFGBlock *From, PathState &S) {
  avoidAll(S);
  if (GlobalsSummary) {
    GlobalResources Here;
    for (const Handle &H : S.Handles)
      if (H.S == HState::Released && H.Var->hasGlobalStorage() &&
          !H.Var->isStaticLocal())
        Here.push_back({H.Var, H.KindId});
    if (!GlobalsReleased)
      GlobalsReleased = std::move(Here);
    else
      llvm::erase_if(*GlobalsReleased, [&](const auto &P) {
        return !llvm::is_contained(Here, P);
      });
    return;
  }
  for (const Handle &H : S.Handles) {
    if (Seed && H.Var == Seed) {
      switch (H.S) {
      case HState::Released:
        SeedDestroyed = true;
        break;
      case HState::Escaped:
        SeedEscaped = true;
        break;
      case HState::Allocated:
      case HState::MaybeFailed:
        SeedKept = true;
        break;
      }
      continue;
    }
    if (H.S != HState::Allocated || H.Persistent || !H.Var->hasLocalStorage())
      continue;
    // Locals normally end at a LifetimeEnds element; what is left here left
    // through a throw.
    LeakExit Exit{LeakExit::FunctionEnd, SourceLocation()};
    if (From) {
      if (const Stmt *T = From->getTerminatorStmt())
        if (isa<CXXThrowExpr>(T))
          Exit = {LeakExit::Throw, T->getBeginLoc(), T};
      for (const CFGElement &E : *From)
        if (std::optional<CFGStmt> CS = E.getAs<CFGStmt>())
          if (isa<CXXThrowExpr>(CS->getStmt()))
            Exit = {LeakExit::Throw, CS->getStmt()->getBeginLoc(),
                    CS->getStmt()};
    }
    if (Exit.Kind == LeakExit::FunctionEnd)
      if (const auto *CS = dyn_cast<CompoundStmt>(Body))
        Exit.Loc = CS->getRBracLoc();
    leak(H, Exit);
  }
  if (Seed && !S.find(Seed))
    SeedKept = true; // overwritten: the caller's value is untouched
}

bool Engine::refineTest(PathState &S, const Test &T, const Expr *Cond) {
  const VarDecl *XVar = referencedVar(T.X);
  // Tests of a create's status.
  for (auto It = S.Handles.begin(); It != S.Handles.end();) {
    Handle &H = *It;
    bool IsKey = H.Key.Holder &&
                 (H.Key.Holder == T.X || (XVar && H.Key.Holder == XVar));
    if (!IsKey) {
      ++It;
      continue;
    }
    // Is the create known to have succeeded (true), failed (false), or
    // neither on this branch?
    std::optional<bool> Success;
    bool IsZero = T.C == 0;
    switch (H.Key.Pol) {
    case StatusKey::Status:
      if (IsZero)
        Success = T.Holds;
      else if (T.Holds)
        Success = false; // equals a particular error
      break;
    case StatusKey::TrueIsSuccess:
    case StatusKey::TrueIsFailure: {
      // The holder is non-zero exactly when the test says so.
      std::optional<bool> NonZero;
      if (IsZero)
        NonZero = !T.Holds;
      else if (T.Holds)
        NonZero = true;
      if (NonZero)
        Success = H.Key.Pol == StatusKey::TrueIsSuccess ? *NonZero : !*NonZero;
      break;
    }
    }
    if (!Success) {
      if (H.S == HState::Allocated)
        H.S = HState::MaybeFailed;
      ++It;
    } else if (*Success) {
      H.Key = {};
      ++It;
    } else if (H.S == HState::Allocated || H.S == HState::MaybeFailed) {
      It = S.Handles.erase(It); // the create failed: nothing to destroy
    } else {
      ++It;
    }
  }
  // A live handle is not null.
  if (XVar && T.C == 0) {
    if (const Handle *H = S.find(XVar))
      if (H->S == HState::Allocated && T.Holds)
        return false;
  }
  // Assumptions about plain variables.
  if (XVar && Correlated.Vars.contains(XVar) && !escapes(XVar) &&
      (XVar->hasLocalStorage() || isa<ParmVarDecl>(XVar)) &&
      !XVar->getType().isVolatileQualified())
    return S.test(XVar, nullptr, T.C, T.Holds);
  // Fields of a local object that nothing aliases (forgotten where the
  // object may change: processElement).
  if (Correlated.Fields.empty())
    return true;
  if (std::optional<ObjectField> F = fieldOfLocalObject(T.X);
      F && Correlated.Fields.contains(*F) && !objectChanges(F->first).Aliased)
    return S.test(F->first, F->second, T.C, T.Holds);
  return true;
}

bool Engine::refine(PathState &S, const Expr *Cond, bool Value) {
  if (std::optional<Test> T = readCondition(Cond, Value, Ctx)) {
    if (!refineTest(S, *T, Cond))
      return false;
  }
  // A status consumed by a test we cannot read: either branch may be the
  // failure.
  for (Handle &H : S.Handles)
    if (H.Key.Holder && H.S == HState::Allocated &&
        mentions(Cond, H.Key.Holder))
      H.S = HState::MaybeFailed;
  return true;
}

void Engine::branch(const CFGBlock *B, const PathState &S) {
  const Stmt *Term = B->getTerminatorStmt();
  // A switch: each case is a test of the condition against its value.
  if (const auto *Switch = dyn_cast_or_null<SwitchStmt>(Term)) {
    const Expr *X = strip(Switch->getCond());
    bool HasZeroCase = false;
    for (const SwitchCase *SC = Switch->getSwitchCaseList(); SC;
         SC = SC->getNextSwitchCase())
      if (const auto *Case = dyn_cast<CaseStmt>(SC))
        if (std::optional<llvm::APSInt> V = intValue(Case->getLHS(), Ctx))
          HasZeroCase |= *V == 0;
    for (const CFGBlock *Succ : B->succs()) {
      if (!Succ)
        continue;
      PathState Next = S;
      const Stmt *Label = Succ->getLabel();
      bool Feasible = true;
      if (const auto *Case = dyn_cast_or_null<CaseStmt>(Label)) {
        if (std::optional<llvm::APSInt> V = intValue(Case->getLHS(), Ctx);
            V && !Case->getRHS())
          Feasible = refineTest(Next, Test{X, *V, true}, X);
      } else if (HasZeroCase) {
        Feasible = refineTest(Next, Test{X, llvm::APSInt::get(0), false}, X);
      }
      for (Handle &H : Next.Handles)
        if (H.Key.Holder && H.S == HState::Allocated && mentions(X, H.Key.Holder))
          H.S = HState::MaybeFailed;
      if (Feasible)
        enqueue(Succ, std::move(Next));
    }
    return;
  }
  const Expr *Cond = B->succ_size() == 2 ? B->getLastCondition() : nullptr;
  if (Term && isa<AbstractConditionalOperator, BinaryOperator>(Term) &&
      B->succ_size() == 2) {
    // `a ? b : c` and the short-circuit operators branch on their left part.
    if (const auto *BO = dyn_cast<BinaryOperator>(Term))
      Cond = BO->isLogicalOp() ? BO->getLHS() : Cond;
    else
      Cond = cast<AbstractConditionalOperator>(Term)->getCond();
  }
  if (!Cond) {
    for (const CFGBlock *Succ : B->succs()) {
      if (!Succ)
        continue;
      if (Succ == &Cfg->getExit()) {
        PathState Last = S;
        atExit(B, Last);
        continue;
      }
      enqueue(Succ, S);
    }
    return;
  }
  for (unsigned I = 0; I < 2; ++I) {
    const CFGBlock *Succ = *(B->succ_begin() + I);
    if (!Succ)
      continue;
    PathState Next = S;
    if (!refine(Next, Cond, /*Value=*/I == 0))
      continue;
    if (Succ == &Cfg->getExit()) {
      atExit(B, Next);
      continue;
    }
    enqueue(Succ, std::move(Next));
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// HandleAnalyzer
//===----------------------------------------------------------------------===//

HandleAnalyzer::HandleAnalyzer(ASTContext &Ctx, const ResourceTable &Table,
                               HandleAnalysisOptions Options)
    : Ctx(Ctx), Table(Table), Options(Options) {}

HandleAnalyzer::~HandleAnalyzer() = default;

HandleAnalysisResult HandleAnalyzer::analyze(const Decl *Callable) {
  HandleAnalysisResult Result;
  Engine E(*this, Ctx, Table, Options, /*Depth=*/0);
  if (!E.run(Callable))
    return Result;
  Result.Completed = true;
  const SourceManager &SM = Ctx.getSourceManager();
  auto Before = [&](SourceLocation L, SourceLocation R) {
    return SM.isBeforeInTranslationUnit(L, R);
  };
  Result.Leaks = std::move(E.Leaks);
  for (LeakReport &R : Result.Leaks) {
    llvm::sort(R.Exits, [&](const LeakExit &L, const LeakExit &X) {
      return Before(L.Loc, X.Loc);
    });
    R.NeverReleased = !E.releasedSomewhere(R.Create);
  }
  llvm::sort(Result.Leaks, [&](const LeakReport &L, const LeakReport &R) {
    return Before(L.Create->getBeginLoc(), R.Create->getBeginLoc());
  });
  Result.UsesAfterDestroy = E.takeUsesAfterDestroy();
  llvm::sort(Result.UsesAfterDestroy,
             [&](const UseAfterDestroyReport &L, const UseAfterDestroyReport &R) {
               return Before(L.Use->getBeginLoc(), R.Use->getBeginLoc());
             });
  return Result;
}

std::optional<unsigned>
HandleAnalyzer::returnsNewResource(const FunctionDecl *FD, unsigned Depth) {
  auto It = ReturnSummaries.find(FD);
  if (It != ReturnSummaries.end())
    return It->second;
  ReturnSummaries[FD] = std::nullopt; // recursion reads as "no"
  std::optional<unsigned> Result;
  if (FD->hasBody() && FD->getReturnType()->isPointerType()) {
    Engine E(*this, Ctx, Table, Options, Depth);
    if (E.run(FD) && E.FreshReturns && !E.OtherReturns)
      Result = E.FreshKind;
  }
  ReturnSummaries[FD] = Result;
  return Result;
}

HandleAnalyzer::ParamEffect
HandleAnalyzer::summarize(const FunctionDecl *FD, unsigned Param,
                          unsigned Depth) {
  auto Key = std::make_pair(FD, Param);
  auto It = Summaries.find(Key);
  if (It != Summaries.end())
    return It->second;
  // Recursion: while this summary is computed, it reads as an escape.
  Summaries[Key] = ParamEffect::Escapes;
  ParamEffect Effect = ParamEffect::Escapes;
  if (Param < FD->getNumParams() && FD->hasBody()) {
    Engine E(*this, Ctx, Table, Options, Depth);
    if (E.run(FD, FD->getParamDecl(Param)) && !E.SeedEscaped) {
      if (E.SeedDestroyed && !E.SeedKept)
        Effect = ParamEffect::Destroys;
      else if (E.SeedKept && !E.SeedDestroyed)
        Effect = ParamEffect::Keeps;
    }
  }
  Summaries[Key] = Effect;
  return Effect;
}

/// A call that is given a cuBLAS status (`check(cublasSgemm(...))`): a
/// checker of a function the unit cannot read, which leaves handles alone.
static bool givenCublasStatus(const CallExpr *Call) {
  return llvm::any_of(Call->arguments(), [](const Expr *A) {
    return isLibraryStatusType(A->getType());
  });
}

llvm::ArrayRef<GlobalResources::value_type>
HandleAnalyzer::globalsDestroyed(const FunctionDecl *FD, unsigned Depth) {
  auto It = GlobalSummaries.find(FD);
  if (It != GlobalSummaries.end())
    return It->second;
  GlobalSummaries[FD]; // recursion reads as "none"
  GlobalResources Result;
  if (FD->hasBody() && mayDestroyResource(FD, Table, DestroysInBody)) {
    Engine E(*this, Ctx, Table, Options, Depth);
    E.GlobalsSummary = true;
    if (E.run(FD) && E.GlobalsReleased)
      Result = std::move(*E.GlobalsReleased);
  }
  return GlobalSummaries[FD] = std::move(Result);
}

const llvm::StringMap<const VarDecl *> &HandleAnalyzer::globalResources() {
  if (GlobalsByKey)
    return *GlobalsByKey;
  GlobalsByKey.emplace();
  llvm::SmallVector<const DeclContext *, 8> Work{Ctx.getTranslationUnitDecl()};
  while (!Work.empty()) {
    const DeclContext *DC = Work.pop_back_val();
    for (const Decl *D : DC->decls()) {
      if (isa<NamespaceDecl, LinkageSpecDecl>(D)) {
        Work.push_back(cast<DeclContext>(D));
        continue;
      }
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD || !VD->hasGlobalStorage() ||
          !isCublasResourceType(VD->getType()))
        continue;
      if (std::string Key = globalKey(VD); !Key.empty())
        GlobalsByKey->try_emplace(Key, VD->getCanonicalDecl());
    }
  }
  return *GlobalsByKey;
}

bool HandleAnalyzer::mayWriteGlobal(const CallExpr *Call, const VarDecl *VD,
                                    unsigned Depth) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD)
    return true;
  if (Ctx.getSourceManager().isInSystemHeader(FD->getLocation()) ||
      Table.lookup(Call) || calledCublasFunction(Call))
    return false;
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || !Def->hasBody() || Depth > Options.MaxSummaryDepth)
    // What the unit cannot read may create it again, unless it is a
    // checker (`check(cublasSgemm(...))`).
    return !givenCublasStatus(Call);
  auto Key = std::make_pair(Def, VD);
  if (auto It = GlobalWriters.find(Key); It != GlobalWriters.end())
    return It->second;
  GlobalWriters[Key] = false; // recursion reads as "no"
  bool Writes = false;
  for (const BodyStmt &N : stmtsIn(Def)) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(N.S))
      Writes = DRE->getDecl() == VD;
    else if (const auto *Inner = dyn_cast<CallExpr>(N.S))
      Writes = mayWriteGlobal(Inner, VD, Depth + 1);
    if (Writes)
      break;
  }
  GlobalWriters[Key] = Writes;
  return Writes;
}

bool mayReturnNewResource(const FunctionDecl *FD, const ResourceTable &Table,
                          llvm::DenseMap<const FunctionDecl *, bool> &Known) {
  if (!FD || !FD->getReturnType()->isPointerType())
    return false;
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || !Def->hasBody())
    return false;
  auto [It, New] = Known.try_emplace(Def, false);
  if (New)
    It->second = callsAny(Def, [&](const CallExpr *Inner) {
      const ResourceTable::Entry *E = Table.lookup(Inner);
      return E && E->IsCreate;
    });
  return It->second;
}

bool mayDestroyGlobal(
    const CallExpr *Call, const VarDecl *Global, const ResourceTable &Table,
    llvm::DenseMap<std::pair<const FunctionDecl *, const VarDecl *>, bool>
        &Known) {
  if (Table.destroys(Call, Global))
    return true;
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD)
    return true;
  if (Table.lookup(Call) || calledCublasFunction(Call) ||
      FD->getASTContext().getSourceManager().isInSystemHeader(
          FD->getLocation()))
    return false;
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || !Def->hasBody()) {
    if (const FunctionSummary *Summary = projectSummary(FD))
      return llvm::is_contained(Summary->DestroyedGlobals, globalKey(Global));
    // Unknown, unless it is a checker.
    return !givenCublasStatus(Call);
  }
  auto Key = std::make_pair(Def, Global);
  if (auto It = Known.find(Key); It != Known.end())
    return It->second;
  Known[Key] = false; // recursion reads as "no"
  bool Destroys = callsAny(Def, [&](const CallExpr *Inner) {
    return mayDestroyGlobal(Inner, Global, Table, Known);
  });
  Known[Key] = Destroys;
  return Destroys;
}

bool mayDestroyGiven(const CallExpr *Call, const ResourceTable &Table,
                     llvm::DenseMap<const FunctionDecl *, bool> &Known) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD)
    return false;
  // A function of another file destroys only what it is given, or the
  // globals its summary says it leaves destroyed: the project's summaries
  // are asked only then (each question is recorded).
  const FunctionDecl *Def = FD->getDefinition();
  if ((!Def || !Def->hasBody()) &&
      llvm::none_of(Call->arguments(), [](const Expr *A) {
        return isCublasResourceType(A->getType());
      })) {
    const FunctionSummary *S = projectSummaryOfCall(Call);
    return S && !S->ReleasedGlobals.empty();
  }
  return mayDestroyResource(FD, Table, Known);
}

bool mayDestroyResource(const FunctionDecl *FD, const ResourceTable &Table,
                        llvm::DenseMap<const FunctionDecl *, bool> &Known) {
  if (!FD || FD->isVariadic())
    return false;
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || !Def->hasBody()) {
    const FunctionSummary *Summary = projectSummary(FD);
    return Summary &&
           llvm::any_of(Summary->Handles, [](const auto &P) {
             return P.Effect == FunctionSummary::HandleEffect::Destroys;
           });
  }
  if (auto It = Known.find(Def); It != Known.end())
    return It->second;
  Known[Def] = false; // recursion reads as "no"
  bool Destroys = callsAny(Def, [&](const CallExpr *Inner) {
    if (const ResourceTable::Entry *E = Table.lookup(Inner))
      return !E->IsCreate;
    return !calledCublasFunction(Inner) && mayDestroyGiven(Inner, Table, Known);
  });
  Known[Def] = Destroys;
  return Destroys;
}

// Its summary part "handles" (facts/SummaryParts.h): the handle parameters
// it destroys or keeps.

namespace {

constexpr llvm::StringLiteral EffectNames[] = {"keeps", "destroys"};

} // namespace

const SummaryPart HandlesSummaryPart = {
    [](const FunctionSummary &S) { return !S.Handles.empty(); },
    [](const FunctionSummary &S, json::Object &O) {
      json::Array A;
      for (const FunctionSummary::HandleParam &H : S.Handles)
        A.push_back(
            json::Array{H.Index, EffectNames[static_cast<int>(H.Effect)]});
      O["handles"] = std::move(A);
    },
    [](const json::Object &O, FunctionSummary &S) {
      return summary_json::readEach(O, "handles", [&](const json::Value &H) {
        const json::Array *Pair = H.getAsArray();
        if (!Pair || Pair->size() != 2)
          return false;
        std::optional<unsigned> Index = summary_json::natural((*Pair)[0]);
        auto Effect = summary_json::enumNamed<FunctionSummary::HandleEffect>(
            EffectNames, (*Pair)[1].getAsString());
        if (!Index || !Effect)
          return false;
        S.Handles.push_back({*Index, *Effect});
        return true;
      });
    }};

// Its summary part "releasesGlobals" (facts/SummaryParts.h): the globals
// it leaves destroyed on every way out.

const SummaryPart ReleasedGlobalsSummaryPart = {
    [](const FunctionSummary &S) { return !S.ReleasedGlobals.empty(); },
    [](const FunctionSummary &S, json::Object &O) {
      json::Array A;
      for (const auto &[Key, Kind] : S.ReleasedGlobals)
        A.push_back(json::Array{Key, Kind});
      O["releasesGlobals"] = std::move(A);
    },
    [](const json::Object &O, FunctionSummary &S) {
      return summary_json::readEach(
          O, "releasesGlobals", [&](const json::Value &G) {
            const json::Array *Pair = G.getAsArray();
            if (!Pair || Pair->size() != 2 || !(*Pair)[0].getAsString())
              return false;
            std::optional<unsigned> Kind = summary_json::natural((*Pair)[1]);
            if (!Kind)
              return false;
            S.ReleasedGlobals.push_back(
                {(*Pair)[0].getAsString()->str(), *Kind});
            return true;
          });
    }};

} // namespace cublas_tidy
