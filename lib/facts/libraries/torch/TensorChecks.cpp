//===- TensorChecks.cpp ---------------------------------------------------===//

#include "facts/libraries/torch/TensorChecks.h"

#include "facts/libraries/torch/TorchExprs.h"

#include "ast/AstUtils.h"
#include "ast/Callables.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace cublas_tidy::torch_facts {

namespace {

/// `cond` of a TORCH_CHECK-like statement: `if (!(cond)) fail();` where the
/// branch cannot return (a [[noreturn]] call or a throw), with
/// `__builtin_expect` and casts around the condition. Null otherwise.
const Expr *checkedCondition(const IfStmt *If) {
  if (!If || If->getElse() || If->getConditionVariable())
    return nullptr;
  bool Stops = false;
  walkStmts(If->getThen(), [&](const Stmt *S) {
    if (isa<CXXThrowExpr>(S))
      Stops = true;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *FD = Call->getDirectCallee();
          FD && FD->isNoReturn())
        Stops = true;
    return !Stops;
  });
  if (!Stops)
    return nullptr;
  const Expr *C = If->getCond();
  for (int Step = 0; C && Step < 16; ++Step) {
    C = C->IgnoreParenImpCasts();
    if (const auto *Call = dyn_cast<CallExpr>(C);
        Call && Call->getBuiltinCallee() == Builtin::BI__builtin_expect &&
        Call->getNumArgs() == 2) {
      C = Call->getArg(0);
      continue;
    }
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(C)) {
      C = Cast->getSubExpr();
      continue;
    }
    break;
  }
  const auto *Not = dyn_cast_or_null<UnaryOperator>(C);
  if (!Not || Not->getOpcode() != UO_LNot)
    return nullptr;
  return Not->getSubExpr();
}

/// Whether the conjunction `Cond` has a conjunct that `Test` accepts.
bool someConjunct(const Expr *Cond,
                  llvm::function_ref<bool(const Expr *)> Test,
                  unsigned Depth = 0) {
  if (!Cond || Depth > 16)
    return false;
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond);
      BO && BO->getOpcode() == BO_LAnd)
    return someConjunct(BO->getLHS(), Test, Depth + 1) ||
           someConjunct(BO->getRHS(), Test, Depth + 1);
  return Test(Cond);
}

} // namespace

/// `P.is_cuda()` or `P.device().is_cuda()`.
bool testsIsCuda(const Expr *Conjunct, const ParmVarDecl *P) {
  const Expr *Base = methodObject(Conjunct, "is_cuda");
  if (const Expr *Dev = methodObject(Base, "device"))
    Base = Dev;
  return Base && referencedVar(Base->IgnoreParenImpCasts()) == P;
}

/// `P.is_contiguous()`.
bool testsIsContiguous(const Expr *Conjunct, const VarDecl *P) {
  const Expr *Base = methodObject(Conjunct, "is_contiguous");
  return Base && referencedVar(Base->IgnoreParenImpCasts()) == P;
}

/// `P.dim() == N` (or `ndimension()`, either side): N.
std::optional<unsigned> testedDims(const Expr *Conjunct,
                                   const ParmVarDecl *P) {
  const auto *BO = dyn_cast<BinaryOperator>(Conjunct);
  if (!BO || BO->getOpcode() != BO_EQ)
    return std::nullopt;
  for (auto [Call, Value] : {std::pair(BO->getLHS(), BO->getRHS()),
                             std::pair(BO->getRHS(), BO->getLHS())}) {
    const Expr *Base = methodObject(Call, "dim");
    if (!Base)
      Base = methodObject(Call, "ndimension");
    std::optional<int> N = smallConstant(Value);
    if (Base && N && *N >= 0 &&
        referencedVar(Base->IgnoreParenImpCasts()) == P)
      return unsigned(*N);
  }
  return std::nullopt;
}

/// `P.scalar_type() == T` or `P.dtype() == T` (either side, also as an
/// overloaded operator): T.
const Expr *testedDType(const Expr *Conjunct, const ParmVarDecl *P) {
  const Expr *L = nullptr, *R = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(Conjunct);
      BO && BO->getOpcode() == BO_EQ) {
    L = BO->getLHS();
    R = BO->getRHS();
  } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Conjunct);
             Op && Op->getOperator() == OO_EqualEqual &&
             Op->getNumArgs() == 2) {
    L = Op->getArg(0);
    R = Op->getArg(1);
  } else {
    return nullptr;
  }
  for (auto [Call, Value] : {std::pair(L, R), std::pair(R, L)}) {
    const Expr *C = strip(Call);
    const Expr *Base = methodObject(C, "scalar_type");
    if (!Base)
      Base = methodObject(C, "dtype");
    if (Base && referencedVar(Base->IgnoreParenImpCasts()) == P)
      return Value;
  }
  return nullptr;
}

/// `P = P.contiguous();`, alone or as the only statement of
/// `if (!P.is_contiguous())`: after it `P` is row-major. The assignment;
/// null otherwise.
const Expr *madeContiguous(const Stmt *S, const ParmVarDecl *P, bool InIf) {
  if (const auto *If = dyn_cast_or_null<IfStmt>(S)) {
    if (InIf || If->getElse() || If->getConditionVariable() || If->getInit())
      return nullptr;
    const auto *Not =
        dyn_cast<UnaryOperator>(If->getCond()->IgnoreParenImpCasts());
    const Expr *Tested = Not && Not->getOpcode() == UO_LNot
                             ? methodObject(Not->getSubExpr(), "is_contiguous")
                             : nullptr;
    if (!Tested || referencedVar(Tested->IgnoreParenImpCasts()) != P)
      return nullptr;
    const Stmt *Then = If->getThen();
    if (const auto *CS = dyn_cast<CompoundStmt>(Then); CS && CS->size() == 1)
      Then = CS->body_front();
    return madeContiguous(Then, P, /*InIf=*/true);
  }
  const auto *E = dyn_cast_or_null<Expr>(S);
  const auto *Op =
      E ? dyn_cast<CXXOperatorCallExpr>(E->IgnoreImplicit()) : nullptr;
  if (!Op || Op->getOperator() != OO_Equal || Op->getNumArgs() != 2 ||
      referencedVar(Op->getArg(0)->IgnoreParenImpCasts()) != P)
    return nullptr;
  const Expr *Of = methodObject(strip(Op->getArg(1)), "contiguous");
  return Of && referencedVar(strip(Of)) == P ? Op : nullptr;
}

/// Whether every write of the parameter `P` is `P = P.contiguous()`, which
/// keeps its device, dtype and sizes.
bool onlyMadeContiguous(const ParmVarDecl *P) {
  const Decl *Callable = callableOf(P);
  if (!Callable)
    return false;
  llvm::ArrayRef<BodyStmt> Stmts = stmtsIn(Callable);
  auto It = indexIn(Callable).RefsTo.find(P);
  if (It == indexIn(Callable).RefsTo.end())
    return false;
  for (int I : It->second) {
    if (!mayChange(Stmts, I))
      continue;
    // The left side of the assignment: its parent (through parentheses).
    int Up = Stmts[I].Parent;
    while (Up >= 0 && isa<ParenExpr, ImplicitCastExpr>(Stmts[Up].S))
      Up = Stmts[Up].Parent;
    if (Up < 0 || !madeContiguous(Stmts[Up].S, P))
      return false;
  }
  return true;
}

/// The first statement of `P`'s function body before `Use` (a check macro's
/// `do { ... } while (0)` or one-statement block unwrapped) for which
/// `Test` gives an expression: that expression. Null when none, or when the
/// body may change `P` otherwise than by `P = P.contiguous()`.
const Expr *
statementBefore(const VarDecl *P, const Expr *Use,
                llvm::function_ref<const Expr *(const Stmt *)> Test) {
  bool Written;
  singleDefinition(P, Written);
  const Decl *Callable = callableOf(P);
  const auto *Param = dyn_cast<ParmVarDecl>(P);
  if ((Written && !(Param && onlyMadeContiguous(Param))) || !Callable || !Use)
    return nullptr;
  const Stmt *Body = analysableBody(Callable, /*EvenWithErrors=*/true);
  const auto *Block = dyn_cast_or_null<CompoundStmt>(Body);
  if (!Block)
    return nullptr;
  const SourceManager &SM = P->getASTContext().getSourceManager();
  SourceLocation UseLoc = SM.getExpansionLoc(Use->getBeginLoc());
  for (const Stmt *S : Block->body()) {
    SourceLocation End = SM.getExpansionLoc(S->getEndLoc());
    if (UseLoc.isInvalid() || End.isInvalid() ||
        !SM.isBeforeInTranslationUnit(End, UseLoc))
      break;
    const Stmt *Inner = S;
    if (const auto *Do = dyn_cast<DoStmt>(Inner))
      Inner = Do->getBody();
    if (const auto *CS = dyn_cast<CompoundStmt>(Inner); CS && CS->size() == 1)
      Inner = CS->body_front();
    if (const Expr *Found = Test(Inner))
      return Found;
  }
  return nullptr;
}

/// The condition of the first statement of `P`'s function body before
/// `Use` that checks a conjunct `Test` accepts and stops otherwise
/// (TORCH_CHECK(x.is_cuda(), ...), a CHECK_INPUT macro's statements).
const Expr *checkedBefore(const VarDecl *P, const Expr *Use,
                          llvm::function_ref<bool(const Expr *)> Test) {
  return statementBefore(P, Use, [&](const Stmt *S) -> const Expr * {
    const Expr *Cond = checkedCondition(dyn_cast<IfStmt>(S));
    return Cond && someConjunct(Cond, Test) ? cast<IfStmt>(S)->getCond()
                                            : nullptr;
  });
}

} // namespace cublas_tidy::torch_facts
