//===- StatusFunctions.cpp ------------------------------------------------===//

#include "facts/StatusFunctions.h"

#include "ast/AstUtils.h"
#include "ast/Callables.h"
#include "ast/TranslationUnitCache.h"
#include "facts/Summaries.h"
#include "facts/SummaryParts.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>
#include <memory>
#include <set>

using namespace clang;

namespace json = llvm::json;

namespace cublas_tidy {

namespace {

thread_local TranslationUnitCache<const FunctionDecl *, StatusFunctionFacts>
    Facts;

bool isStatus(const Expr *E) {
  return E && isLibraryStatusType(E->IgnoreParenImpCasts()->getType());
}

/// True when the value of `E` (a statement of `Stmts` at index `I`) is
/// inspected by its context: compared, negated, switched on, tested, or
/// passed to a function that does not return a status.
bool inspected(llvm::ArrayRef<BodyStmt> Stmts, size_t I) {
  const Stmt *Child = Stmts[I].S;
  for (int P = Stmts[I].Parent; P >= 0; P = Stmts[P].Parent) {
    const Stmt *Parent = Stmts[P].S;
    if (isa<ParenExpr, ImplicitCastExpr, ExplicitCastExpr>(Parent)) {
      Child = Parent;
      continue;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(Parent))
      return BO->isComparisonOp() || BO->isLogicalOp();
    if (const auto *UO = dyn_cast<UnaryOperator>(Parent))
      return UO->getOpcode() == UO_LNot;
    if (const auto *If = dyn_cast<IfStmt>(Parent))
      return Child == If->getCond();
    if (const auto *W = dyn_cast<WhileStmt>(Parent))
      return Child == W->getCond();
    if (const auto *D = dyn_cast<DoStmt>(Parent))
      return Child == D->getCond();
    if (const auto *F = dyn_cast<ForStmt>(Parent))
      return Child == F->getCond();
    if (const auto *S = dyn_cast<SwitchStmt>(Parent))
      return Child == S->getCond();
    if (const auto *C = dyn_cast<ConditionalOperator>(Parent))
      return Child == C->getCond();
    if (const auto *Call = dyn_cast<CallExpr>(Parent))
      return Child != Call->getCallee() &&
             !isLibraryStatusType(Call->getType());
    return false;
  }
  return false;
}

/// What a body does with statuses, read in one pass over its statements:
/// the variables that hold the status of a cuBLAS call, the status
/// variables it inspects, what it returns.
class StatusUses {
public:
  explicit StatusUses(const FunctionDecl *Def)
      : Def(Def), SM(Def->getASTContext().getSourceManager()),
        LO(Def->getASTContext().getLangOpts()) {}

  void read(llvm::ArrayRef<BodyStmt> Stmts) {
    for (size_t I = 0; I < Stmts.size(); ++I) {
      const Stmt *S = Stmts[I].S;
      if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          if (isStatus(DRE) && inspected(Stmts, I))
            Inspected.insert(VD);
      if (const auto *DS = dyn_cast<DeclStmt>(S))
        declared(DS);
      else if (const auto *BO = dyn_cast<BinaryOperator>(S);
               BO && BO->getOpcode() == BO_Assign)
        assigned(BO);
      else if (const auto *RS = dyn_cast<ReturnStmt>(S))
        returned(RS);
    }
  }

  /// A checker looks at the status it receives, or at the status it
  /// returns (every return gives back a status it inspected, or a
  /// constant). A wrapper returns a cuBLAS status: the one call's, when
  /// every return gives back that call's status.
  StatusFunctionFacts role() const {
    StatusFunctionFacts Out;
    if (checks()) {
      Out.Role = StatusFunctionFacts::Checker;
      return Out;
    }
    if (!isLibraryStatusType(Def->getReturnType()))
      return Out;
    Out.Role = StatusFunctionFacts::Wrapper;
    if (Returned.size() == 1 && !ReturnsOther) {
      Out.Wrapped = *Returned.begin();
      Out.WrappedCall = FirstCall.lookup(Out.Wrapped);
      if (const StatusFunctionFacts *W = Through.lookup(Out.Wrapped);
          W && !Out.WrappedCall) {
        Out.WrappedFile = W->WrappedFile;
        Out.WrappedLine = W->WrappedLine;
      }
    }
    return Out;
  }

private:
  const FunctionDecl *Def;
  const SourceManager &SM;
  const LangOptions &LO;
  /// Variables that hold the status of a cuBLAS call, by the call's name.
  llvm::DenseMap<const VarDecl *, std::string> HeldStatus;
  llvm::StringMap<const CallExpr *> FirstCall; // by the name returned
  /// The wrappers of other files whose status it gets, by the name of the
  /// cuBLAS function they wrap.
  llvm::StringMap<const StatusFunctionFacts *> Through;
  std::set<std::string> Returned;
  bool ReturnsOther = false;
  /// Status variables the body inspects, and the variables it returns.
  llvm::SmallPtrSet<const VarDecl *, 4> Inspected;
  llvm::SmallVector<const VarDecl *, 4> ReturnedVars;
  bool ReturnsUninspected = false;

  bool checks() const {
    for (const ParmVarDecl *P : Def->parameters())
      if (Inspected.contains(P))
        return true;
    return !ReturnedVars.empty() && !ReturnsUninspected &&
           llvm::all_of(ReturnedVars, [&](const VarDecl *VD) {
             return Inspected.contains(VD);
           });
  }

  /// The name of the cuBLAS function `E` calls, as spelled, or of the one
  /// whose status a wrapper of another file that `E` calls returns; empty
  /// when it is neither.
  std::string cublasName(const Expr *E) {
    const auto *Call = dyn_cast_or_null<CallExpr>(E ? E->IgnoreParenImpCasts()
                                                    : nullptr);
    if (!Call)
      return "";
    if (!calledCublasFunction(Call))
      return wrappedByProject(Call);
    std::string Name = spelledCalleeName(Call, SM, LO);
    FirstCall.try_emplace(Name, Call);
    return Name;
  }

  std::string wrappedByProject(const CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || Callee->getDefinition() ||
        !isLibraryStatusType(Call->getType()))
      return "";
    const StatusFunctionFacts &F = statusFunctionFacts(Callee);
    if (!F.FromProject || F.Role != StatusFunctionFacts::Wrapper ||
        F.Wrapped.empty())
      return "";
    Through.try_emplace(F.Wrapped, &F);
    return F.Wrapped;
  }

  void declared(const DeclStmt *DS) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        if (std::string N = cublasName(VD->getInit()); !N.empty())
          HeldStatus[VD] = N;
  }

  void assigned(const BinaryOperator *BO) {
    const auto *DRE =
        dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD)
      return;
    std::string N = cublasName(BO->getRHS());
    if (N.empty() || (HeldStatus.count(VD) && HeldStatus[VD] != N))
      HeldStatus[VD] = ""; // holds something else, or several calls
    else
      HeldStatus[VD] = N;
  }

  void returned(const ReturnStmt *RS) {
    const Expr *V = RS->getRetValue();
    std::string N = cublasName(V);
    const VarDecl *RetVar = nullptr;
    if (V)
      if (const auto *DRE = dyn_cast<DeclRefExpr>(V->IgnoreParenImpCasts()))
        RetVar = dyn_cast<VarDecl>(DRE->getDecl());
    if (N.empty() && RetVar)
      N = HeldStatus.lookup(RetVar);
    if (N.empty())
      ReturnsOther = true;
    else
      Returned.insert(N);
    if (RetVar)
      ReturnedVars.push_back(RetVar);
    else if (V && !V->isIntegerConstantExpr(Def->getASTContext()) &&
             !isa<DeclRefExpr>(V->IgnoreParenImpCasts()))
      ReturnsUninspected = true; // a call's status, returned untouched
  }
};

/// What a predicate's body gives back when its status parameter is
/// success (`Zero`) or any error: true, false, no return (a throw, an
/// abort), or unknown (nullopt).
class PredicateRun {
public:
  enum Outcome { False, True, NoReturn };
  PredicateRun(const ParmVarDecl *Status, bool Zero, const ASTContext &Ctx)
      : Status(Status), Zero(Zero), Ctx(Ctx) {}

  /// The outcome of `S`, or Next when it falls through.
  std::optional<Outcome> run(const Stmt *S, unsigned Depth = 0) {
    if (!S || Depth > 16 || ++Steps > 64)
      return std::nullopt;
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *Child : CS->body()) {
        Fell = false;
        std::optional<Outcome> O = run(Child, Depth + 1);
        if (!Fell)
          return O;
      }
      Fell = true;
      return std::nullopt;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      std::optional<bool> C = truth(If->getCond());
      if (!C || If->getInit() || If->getConditionVariable())
        return std::nullopt;
      const Stmt *Taken = *C ? If->getThen() : If->getElse();
      Fell = true;
      return Taken ? run(Taken, Depth + 1) : std::nullopt;
    }
    if (const auto *R = dyn_cast<ReturnStmt>(S)) {
      std::optional<bool> V = truth(R->getRetValue());
      Fell = false;
      if (!V)
        return std::nullopt;
      return *V ? True : False;
    }
    if (isa<CXXThrowExpr>(S) || endsProcess(dyn_cast<CallExpr>(S))) {
      Fell = false;
      return NoReturn;
    }
    // Anything else (a report, a log) may run, if it neither returns nor
    // changes the status.
    bool Plain = !anyStmt(S, [&](const Stmt *N) {
      if (isa<ReturnStmt, CXXThrowExpr, GotoStmt, LambdaExpr>(N))
        return true;
      if (const auto *BO = dyn_cast<BinaryOperator>(N))
        return BO->isAssignmentOp() && refersTo(BO->getLHS());
      if (const auto *UO = dyn_cast<UnaryOperator>(N))
        return UO->getOpcode() == UO_AddrOf && refersTo(UO->getSubExpr());
      return false;
    });
    Fell = Plain;
    return std::nullopt;
  }
  bool fellThrough() const { return Fell; }

private:
  bool refersTo(const Expr *E) const {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == Status;
  }
  /// The truth of `E` in this run: a constant, the status itself, a
  /// comparison of it with success, or their negation.
  std::optional<bool> truth(const Expr *E) const {
    if (!E)
      return std::nullopt;
    E = E->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_LNot) {
      std::optional<bool> V = truth(UO->getSubExpr());
      return V ? std::optional<bool>(!*V) : std::nullopt;
    }
    if (refersTo(E))
      return !Zero;
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && (BO->getOpcode() == BO_EQ || BO->getOpcode() == BO_NE)) {
      const Expr *Other = refersTo(BO->getLHS())   ? BO->getRHS()
                          : refersTo(BO->getRHS()) ? BO->getLHS()
                                                   : nullptr;
      Expr::EvalResult R;
      if (!Other || Other->isValueDependent() ||
          !Other->EvaluateAsInt(R, Ctx) || R.Val.getInt() != 0)
        return std::nullopt; // only a test against success decides
      bool Equal = Zero;
      return BO->getOpcode() == BO_EQ ? Equal : !Equal;
    }
    Expr::EvalResult R;
    if (!E->isValueDependent() && E->getType()->isScalarType() &&
        E->EvaluateAsInt(R, Ctx))
      return R.Val.getInt() != 0;
    return std::nullopt;
  }

  const ParmVarDecl *Status;
  bool Zero;
  const ASTContext &Ctx;
  unsigned Steps = 0;
  bool Fell = false;
};

/// What a true result of `Def` says of the status its first parameter
/// receives, when its body tells.
StatusPredicate predicateOf(const FunctionDecl *Def) {
  QualType Ret = Def->getReturnType();
  if (Def->getNumParams() == 0 ||
      !isLibraryStatusType(Def->getParamDecl(0)->getType()) ||
      !(Ret->isBooleanType() || Ret->isIntegerType()) ||
      isLibraryStatusType(Ret))
    return StatusPredicate::Unknown;
  auto Outcome = [&](bool Zero) {
    PredicateRun Run(Def->getParamDecl(0), Zero, Def->getASTContext());
    std::optional<PredicateRun::Outcome> O = Run.run(Def->getBody());
    return Run.fellThrough() ? std::nullopt : O;
  };
  std::optional<PredicateRun::Outcome> OnSuccess = Outcome(true),
                                       OnError = Outcome(false);
  if (!OnSuccess || !OnError)
    return StatusPredicate::Unknown;
  using O = PredicateRun::Outcome;
  if (*OnSuccess == O::True && *OnError != O::True)
    return StatusPredicate::TrueIsSuccess;
  if (*OnSuccess == O::False && *OnError != O::False)
    return *OnError == O::True ? StatusPredicate::TrueIsFailure
                               : StatusPredicate::Unknown;
  return StatusPredicate::Unknown;
}

StatusFunctionFacts analyse(const FunctionDecl *Def) {
  if (!Def || !analysableBody(Def))
    return StatusFunctionFacts();
  StatusUses Uses(Def);
  Uses.read(stmtsIn(Def));
  StatusFunctionFacts Out = Uses.role();
  if (Out.Role == StatusFunctionFacts::Checker)
    Out.Predicate = predicateOf(Def);
  return Out;
}

/// The facts of a function defined in another unit, from its summary.
StatusFunctionFacts fromSummary(const FunctionSummary *S) {
  StatusFunctionFacts Out;
  if (!S)
    return Out;
  switch (S->Status) {
  case FunctionSummary::StatusRole::Checker:
    Out.Role = StatusFunctionFacts::Checker;
    Out.Predicate = S->Predicate;
    break;
  case FunctionSummary::StatusRole::Wrapper:
    Out.Role = StatusFunctionFacts::Wrapper;
    Out.Wrapped = S->Wrapped;
    Out.WrappedFile = S->WrappedFile.empty() ? S->File : S->WrappedFile;
    Out.WrappedLine = S->WrappedLine;
    break;
  case FunctionSummary::StatusRole::Unknown:
    return Out;
  }
  Out.FromProject = true;
  return Out;
}

} // namespace

const StatusFunctionFacts &statusFunctionFacts(const FunctionDecl *FD) {
  static const StatusFunctionFacts None;
  const FunctionDecl *Def = FD ? FD->getDefinition() : nullptr;
  if (!Def) {
    if (!FD)
      return None;
    const FunctionDecl *Canon = FD->getCanonicalDecl();
    return *Facts.get(Canon->getASTContext(), Canon, [&] {
      return std::make_unique<StatusFunctionFacts>(
          fromSummary(projectSummary(Canon)));
    });
  }
  return *Facts.get(Def->getASTContext(), Def, [&] {
    return std::make_unique<StatusFunctionFacts>(analyse(Def));
  });
}

llvm::DenseMap<const VarDecl *, const CallExpr *>
statusHoldingVars(const Decl *Callable) {
  llvm::DenseMap<const VarDecl *, const CallExpr *> Holds;
  if (!analysableBody(Callable))
    return Holds;
  llvm::SmallPtrSet<const VarDecl *, 8> Other; // also holds something else
  auto StatusCall = [](const Expr *E) -> const CallExpr * {
    if (!E)
      return nullptr;
    // A cuBLAS call, or a function of the project that returns a status
    // (a wrapper: its result is the status of a call inside it).
    const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenCasts());
    return Call && isStatus(Call) ? Call : nullptr;
  };
  auto Store = [&](const VarDecl *VD, const Expr *Value) {
    if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD) ||
        isLibraryStatusType(VD->getType()) ||
        !VD->getType()->isIntegralOrEnumerationType())
      return;
    if (const CallExpr *Call = StatusCall(Value))
      Holds.try_emplace(VD, Call);
    else
      Other.insert(VD);
  };
  llvm::ArrayRef<BodyStmt> Stmts = stmtsIn(Callable);
  for (size_t I = 0; I < Stmts.size(); ++I) {
    const Stmt *S = Stmts[I].S;
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->getInit()) {
          Store(VD, VD->getInit());
          // A reference bound to a variable may store anything in it.
          if (VD->getType()->isReferenceType())
            if (const auto *DRE = dyn_cast<DeclRefExpr>(
                    VD->getInit()->IgnoreParenImpCasts()))
              if (const auto *Bound = dyn_cast<VarDecl>(DRE->getDecl()))
                Other.insert(Bound);
        }
    } else if (const auto *BO = dyn_cast<BinaryOperator>(S);
               BO && BO->isAssignmentOp()) {
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        Store(dyn_cast<VarDecl>(DRE->getDecl()),
              BO->getOpcode() == BO_Assign ? BO->getRHS() : nullptr);
    } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
      if (UO->getOpcode() == UO_AddrOf || UO->isIncrementDecrementOp())
        if (const auto *DRE =
                dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts()))
          if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
            Other.insert(VD);
    } else if (const auto *L = dyn_cast<LambdaExpr>(S)) {
      for (const LambdaCapture &C : L->captures())
        if (C.capturesVariable())
          if (const auto *VD = dyn_cast<VarDecl>(C.getCapturedVar()))
            Other.insert(VD);
    }
  }
  for (const VarDecl *VD : Other)
    Holds.erase(VD);
  return Holds;
}

void StatusArguments::noteCall(const CallExpr *Call) {
  // The arguments are looked at first: looking up a definition costs more.
  const FunctionDecl *Callee = Call->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  for (unsigned A = 0; Callee && A < Call->getNumArgs(); ++A) {
    const auto *Arg = dyn_cast<CallExpr>(Call->getArg(A)->IgnoreParenCasts());
    if (!Arg || !calledCublasFunction(Arg) ||
        !isLibraryStatusType(Arg->getType()))
      continue;
    if (!Def) {
      Def = calledCublasFunction(Call) ? nullptr : Callee->getDefinition();
      if (!Def)
        break;
    }
    if (A < Def->getNumParams())
      Args.try_emplace({Def, A}, Arg);
  }
}

const CallExpr *
StatusArguments::statusPassedTo(const ParmVarDecl *P) const {
  const auto *FD = P ? dyn_cast<FunctionDecl>(P->getDeclContext()) : nullptr;
  if (!FD)
    return nullptr;
  auto It = Args.find({FD->getDefinition(), P->getFunctionScopeIndex()});
  return It == Args.end() ? nullptr : It->second;
}

// Its summary part "status" (facts/SummaryParts.h): a checker, or a
// wrapper of one cuBLAS call.

namespace {

constexpr llvm::StringLiteral StatusNames[] = {"unknown", "checker", "wrapper"};
constexpr llvm::StringLiteral PredicateNames[] = {"unknown", "success",
                                                  "failure"};

} // namespace

const SummaryPart StatusSummaryPart = {
    [](const FunctionSummary &S) {
      return S.Status != FunctionSummary::StatusRole::Unknown;
    },
    [](const FunctionSummary &S, json::Object &O) {
      O["status"] = StatusNames[static_cast<int>(S.Status)];
      if (!S.Wrapped.empty()) {
        O["wrapped"] = S.Wrapped;
        O["wrappedLine"] = S.WrappedLine;
        if (!S.WrappedFile.empty())
          O["wrappedFile"] = S.WrappedFile;
      }
      if (S.Predicate != StatusPredicate::Unknown)
        O["predicate"] = PredicateNames[static_cast<int>(S.Predicate)];
    },
    [](const json::Object &O, FunctionSummary &S) {
      if (O.get("status")) {
        auto Role = summary_json::enumNamed<FunctionSummary::StatusRole>(
            StatusNames, O.getString("status"));
        if (!Role)
          return false;
        S.Status = *Role;
      }
      if (auto Wrapped = O.getString("wrapped")) {
        S.Wrapped = Wrapped->str();
        S.WrappedLine = static_cast<unsigned>(
            std::max<int64_t>(0, O.getInteger("wrappedLine").value_or(0)));
        S.WrappedFile = O.getString("wrappedFile").value_or("").str();
      }
      if (O.get("predicate")) {
        auto Predicate = summary_json::enumNamed<StatusPredicate>(
            PredicateNames, O.getString("predicate"));
        if (!Predicate || *Predicate == StatusPredicate::Unknown)
          return false; // never written: a checker that does not tell
        S.Predicate = *Predicate;
      }
      return true;
    }};

} // namespace cublas_tidy
