//===- ValueFacts.cpp -----------------------------------------------------===//

#include "facts/ValueFacts.h"

#include "facts/LibraryModel.h"
#include "facts/MemoryObjects.h"

#include "ast/CompileErrors.h"
#include "ast/SharedCfg.h"
#include "ast/AstUtils.h"
#include "ast/Callables.h"
#include "ast/PlainUses.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace clang;

namespace cublas_tidy {

//===----------------------------------------------------------------------===//
// ValueFacts
//===----------------------------------------------------------------------===//

namespace {

constexpr unsigned MaxEvalDepth = 48;
constexpr unsigned MaxContextDepth = 3;

/// Parameters that a condition in `Body` reads.
class GuardFinder : public RecursiveASTVisitor<GuardFinder> {
public:
  std::set<const ParmVarDecl *> Params;

  bool VisitIfStmt(IfStmt *S) { return collect(S->getCond()); }
  bool VisitWhileStmt(WhileStmt *S) { return collect(S->getCond()); }
  bool VisitDoStmt(DoStmt *S) { return collect(S->getCond()); }
  bool VisitForStmt(ForStmt *S) { return collect(S->getCond()); }
  bool VisitSwitchStmt(SwitchStmt *S) { return collect(S->getCond()); }
  /// `TransA == NoTrans ? K : M` picks a value: the caller's flag picks
  /// the same one, so the flag stays bound. A branch that calls something
  /// is guarded by the condition, as an `if`'s.
  bool VisitAbstractConditionalOperator(AbstractConditionalOperator *CO) {
    return calls(CO->getTrueExpr()) || calls(CO->getFalseExpr())
               ? collect(CO->getCond())
               : true;
  }
  /// `a && f(...)` guards the call by `a`; `flag == 0 && k < m` is a value.
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isLogicalOp() && calls(BO->getRHS())) {
      collect(BO->getLHS());
      collect(BO->getRHS());
    }
    return true;
  }

private:
  static bool calls(const Stmt *S) {
    bool Found = false;
    walkStmts(
        S,
        [&](const Stmt *Cur) {
          Found = Found || isa<CallExpr>(Cur);
          return !Found;
        },
        512, /*IntoLambdas=*/true);
    return Found;
  }

  bool collect(const Stmt *S) {
    if (!S)
      return true;
    walkStmts(
        S,
        [&](const Stmt *Cur) {
          if (const auto *DRE = dyn_cast<DeclRefExpr>(Cur))
            if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()))
              Params.insert(P);
          // `if (cublasSgemm(h, ..., lda, ...) != CUBLAS_STATUS_SUCCESS)`
          // tests the status, not the arguments: cuBLAS itself is what
          // rejects them.
          const auto *Call = dyn_cast<CallExpr>(Cur);
          return !(Call && calledCublasFunction(Call));
        },
        512, /*IntoLambdas=*/true);
    return true;
  }
};

} // namespace

ValueFacts::ValueFacts(const Decl *Callable, ASTContext &Ctx)
    : Callable(Callable), Ctx(Ctx),
      Guarded(std::make_shared<GuardedParams>()),
      Defs(std::make_shared<FunctionDefinitions>(Callable, Ctx)) {}

const std::set<const ParmVarDecl *> &ValueFacts::guardedParams() const {
  // Found the first time a caller's argument is asked for: most facts are
  // never asked in a caller's context.
  if (!Guarded->Params) {
    GuardFinder G;
    if (Callable && Callable->getBody())
      G.TraverseStmt(Callable->getBody());
    Guarded->Params = std::move(G.Params);
  }
  return *Guarded->Params;
}

ValueFacts::ValueFacts(const ValueFacts &Callee, const CallExpr *Site,
                       const ValueFacts &Caller)
    : Callable(Callee.Callable), Ctx(Callee.Ctx), Caller(&Caller), Site(Site),
      Depth(Caller.Depth + 1), Guarded(Callee.Guarded), Defs(Callee.Defs) {}

ValueFacts::ValueFacts(
    const ValueFacts &Own,
    llvm::ArrayRef<std::pair<const ParmVarDecl *, int64_t>> Assumed)
    : Callable(Own.Callable), Ctx(Own.Ctx),
      Assumed(Assumed.begin(), Assumed.end()), Guarded(Own.Guarded),
      Defs(Own.Defs) {}

ValueFacts::~ValueFacts() = default;

std::optional<ValueFacts::Binding>
ValueFacts::binding(const ParmVarDecl *Param) const {
  if (!Caller || !Site || Depth > MaxContextDepth ||
      (!BindTested && guardedParams().count(Param)))
    return std::nullopt;
  const auto *FD = dyn_cast_or_null<FunctionDecl>(Callable);
  if (!FD || Site->getDirectCallee() == nullptr ||
      Site->getDirectCallee()->getCanonicalDecl() != FD->getCanonicalDecl())
    return std::nullopt;
  unsigned Index = Param->getFunctionScopeIndex();
  if (Index >= FD->getNumParams() || FD->getParamDecl(Index) != Param)
    return std::nullopt;
  // Member calls have no implicit-object argument among the CallExpr's
  // arguments, operator calls do: only plain function calls are bound.
  if (isa<CXXOperatorCallExpr>(Site) || isa<CXXMethodDecl>(FD) ||
      Index >= Site->getNumArgs())
    return std::nullopt;
  return Binding{Caller, Site->getArg(Index)};
}

bool ValueFacts::skips(const Stmt *S) const {
  if (!Caller || !Site || !S)
    return false;
  // The callable's own walk of its body: the parents without the AST's
  // parent map (built for the whole unit on its first use).
  llvm::ArrayRef<BodyStmt> Stmts = stmtsIn(Callable);
  int I = indexIn(Callable).indexOf(S);
  // The conditions read with every parameter bound: a flag the body tests
  // is what decides the branch here.
  std::optional<ValueFacts> Tested;
  for (int Step = 0; I >= 0 && Step < 256; ++Step) {
    int Up = Stmts[I].Parent;
    if (Up < 0)
      return false;
    const Stmt *Cur = Stmts[I].S;
    if (const auto *If = dyn_cast<IfStmt>(Stmts[Up].S);
        If && (If->getThen() == Cur || If->getElse() == Cur) &&
        !If->getConditionVariable() && !If->isConsteval()) {
      if (!Tested) {
        Tested.emplace(*this, Site, *Caller);
        Tested->BindTested = true;
      }
      std::optional<SymExpr> C = Tested->evaluate(If->getCond());
      std::optional<int64_t> V = C ? C->getConstant() : std::nullopt;
      if (V && (*V != 0) != (If->getThen() == Cur))
        return true;
    }
    I = Up;
  }
  return false;
}

std::optional<llvm::SmallVector<const Definition *, 4>>
ValueFacts::reachingDefinitions(const VarDecl *Var, const Expr *Use) const {
  if (!Var || !Use)
    return std::nullopt;
  return Defs->reaching(Var, Use);
}

std::optional<SymExpr> ValueFacts::evaluate(const Expr *E) const {
  // The checks ask for the same arguments again (a dimension is read by
  // every operand it shapes). A value found inside another evaluation may
  // have been cut at a cycle: only outermost ones are kept.
  if (!InProgress.empty())
    return eval(E, 0);
  auto It = Evaluated.find(E);
  if (It != Evaluated.end())
    return It->second;
  std::optional<SymExpr> V = eval(E, 0);
  Evaluated.try_emplace(E, V);
  return V;
}

/// A comparison whose operands differ by a constant (two constants, or the
/// same symbols: `TransA == CblasNoTrans` with TransA bound to a constant by
/// the call site, `lda == lda`): 1 or 0. Unknown otherwise.
static std::optional<SymExpr>
compareValues(BinaryOperatorKind Op, const SymExpr &L, const SymExpr &R) {
  std::optional<SymExpr> Diff = L.sub(R);
  std::optional<int64_t> D = Diff ? Diff->getConstant() : std::nullopt;
  if (!D)
    return std::nullopt;
  bool Holds = false;
  switch (Op) {
  case BO_EQ:
    Holds = *D == 0;
    break;
  case BO_NE:
    Holds = *D != 0;
    break;
  case BO_LT:
    Holds = *D < 0;
    break;
  case BO_GT:
    Holds = *D > 0;
    break;
  case BO_LE:
    Holds = *D <= 0;
    break;
  default:
    Holds = *D >= 0;
    break;
  }
  return SymExpr::constant(Holds ? 1 : 0);
}

static std::optional<SymExpr> applyBinary(BinaryOperatorKind Op,
                                          const SymExpr &L, const SymExpr &R) {
  switch (Op) {
  case BO_Add:
  case BO_AddAssign:
    return L.add(R);
  case BO_Sub:
  case BO_SubAssign:
    return L.sub(R);
  case BO_Mul:
  case BO_MulAssign:
    return L.mul(R);
  case BO_Div:
  case BO_DivAssign: {
    std::optional<int64_t> D = R.getConstant();
    if (!D || *D == 0)
      return std::nullopt;
    if (std::optional<int64_t> N = L.getConstant()) {
      if (*N == INT64_MIN && *D == -1)
        return std::nullopt;
      return SymExpr::constant(*N / *D);
    }
    return L.divExact(*D);
  }
  case BO_Rem:
  case BO_RemAssign: {
    std::optional<int64_t> N = L.getConstant(), D = R.getConstant();
    if (!N || !D || *D == 0 || (*N == INT64_MIN && *D == -1))
      return std::nullopt;
    return SymExpr::constant(*N % *D);
  }
  case BO_Shl:
  case BO_ShlAssign: {
    std::optional<int64_t> S = R.getConstant();
    if (!S || *S < 0 || *S > 40)
      return std::nullopt;
    return L.mul(SymExpr::constant(int64_t(1) << *S));
  }
  case BO_Shr:
  case BO_ShrAssign: {
    std::optional<int64_t> N = L.getConstant(), S = R.getConstant();
    if (!N || !S || *S < 0 || *S > 62)
      return std::nullopt;
    return SymExpr::constant(*N >> *S);
  }
  case BO_EQ:
  case BO_NE:
  case BO_LT:
  case BO_GT:
  case BO_LE:
  case BO_GE:
    return compareValues(Op, L, R);
  case BO_LAnd:
  case BO_LOr: {
    std::optional<int64_t> A = L.getConstant(), B = R.getConstant();
    if (!A || !B)
      return std::nullopt;
    return SymExpr::constant(Op == BO_LAnd ? (*A && *B) : (*A || *B));
  }
  default:
    return std::nullopt;
  }
}

/// True when clang's constant evaluator cannot fold `E`: it reads a
/// variable that is neither const nor constexpr (or a const local whose
/// initializer cannot be folded) through operators that evaluate every
/// operand. Asking the evaluator anyway costs as much as the rest of an
/// evaluation, and most size arguments are such variables.
static bool cannotFold(const Expr *E, unsigned Depth = 0) {
  if (Depth > 8)
    return false;
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V || V->isConstexpr() || V->getType()->isReferenceType())
      return false;
    if (!V->getType().isConstQualified())
      return true;
    // `const int lda = m;` in a function: as foldable as `m`.
    const Expr *Init = V->getInit();
    return V->hasLocalStorage() && Init && cannotFold(Init, Depth + 1);
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    switch (B->getOpcode()) {
    case BO_Add:
    case BO_Sub:
    case BO_Mul:
    case BO_Div:
    case BO_Rem:
    case BO_Shl:
    case BO_Shr:
      return cannotFold(B->getLHS(), Depth + 1) ||
             cannotFold(B->getRHS(), Depth + 1);
    default:
      return false;
    }
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    if (U->getOpcode() == UO_Minus || U->getOpcode() == UO_Plus)
      return cannotFold(U->getSubExpr(), Depth + 1);
  return false;
}

/// The value of an integer literal or enumerator, seen through integral
/// conversions, as the constant evaluator would give it in `E`'s type;
/// nothing for anything else (which the evaluator is then asked about).
static std::optional<llvm::APSInt> literalValue(const Expr *E,
                                                const ASTContext &Ctx,
                                                unsigned Depth = 0);

/// `E` under the conversions between integer types, written or not; null
/// under any other cast.
static const Expr *throughIntegralCasts(const Expr *E) {
  while (const auto *Cast = dyn_cast<CastExpr>(E)) {
    if (!isa<ImplicitCastExpr, CStyleCastExpr, CXXFunctionalCastExpr,
             CXXStaticCastExpr>(Cast))
      return nullptr;
    CastKind K = Cast->getCastKind();
    if (K != CK_IntegralCast && K != CK_NoOp && K != CK_LValueToRValue)
      return nullptr;
    E = Cast->getSubExpr()->IgnoreParens();
  }
  return E;
}

/// `+`, `-`, `*` of constants, in the operator's type (its operands are
/// converted to it already): an unsigned result wraps, a signed one that
/// overflows is left to the constant evaluator (which refuses it).
static std::optional<llvm::APSInt> arithmeticValue(const BinaryOperator *BO,
                                                   const ASTContext &Ctx,
                                                   unsigned Depth) {
  BinaryOperatorKind Op = BO->getOpcode();
  QualType OT = BO->getType();
  if ((Op != BO_Add && Op != BO_Sub && Op != BO_Mul) ||
      !OT->isIntegerType() || OT->isBooleanType() ||
      BO->getLHS()->getType() != OT || BO->getRHS()->getType() != OT)
    return std::nullopt;
  std::optional<llvm::APSInt> L =
      literalValue(BO->getLHS()->IgnoreParens(), Ctx, Depth + 1);
  std::optional<llvm::APSInt> R =
      L ? literalValue(BO->getRHS()->IgnoreParens(), Ctx, Depth + 1)
        : std::nullopt;
  if (!L || !R || L->getBitWidth() != R->getBitWidth())
    return std::nullopt;
  bool Signed = OT->isSignedIntegerType(), Overflow = false;
  llvm::APInt Result;
  switch (Op) {
  case BO_Add:
    Result = Signed ? L->sadd_ov(*R, Overflow) : *L + *R;
    break;
  case BO_Sub:
    Result = Signed ? L->ssub_ov(*R, Overflow) : *L - *R;
    break;
  default:
    Result = Signed ? L->smul_ov(*R, Overflow) : *L * *R;
    break;
  }
  if (Overflow)
    return std::nullopt;
  return llvm::APSInt(Result, !Signed);
}

/// An enumerator, or `const int lda = 64;`: the constant its initializer
/// is.
static std::optional<llvm::APSInt> namedValue(const DeclRefExpr *DRE,
                                              const ASTContext &Ctx,
                                              unsigned Depth) {
  if (const auto *ECD = dyn_cast<EnumConstantDecl>(DRE->getDecl()))
    return ECD->getInitVal();
  const auto *Var = dyn_cast<VarDecl>(DRE->getDecl());
  QualType VT = Var ? Var->getType() : QualType();
  if (!Var || VT.isNull() || !VT.isConstQualified() ||
      VT.isVolatileQualified() || VT->isReferenceType() ||
      !VT->isIntegralOrEnumerationType() || !Var->getInit())
    return std::nullopt;
  return literalValue(Var->getInit()->IgnoreParens(), Ctx, Depth + 1);
}

/// `sizeof(float)`, `sizeof x`: the size of a complete type of fixed size.
static std::optional<llvm::APSInt>
sizeofValue(const UnaryExprOrTypeTraitExpr *Size, const ASTContext &Ctx) {
  QualType Of = Size->getTypeOfArgument();
  if (!Of.isNull())
    Of = Of.getNonReferenceType(); // sizeof(T &) is sizeof(T)
  if (Size->getKind() != UETT_SizeOf || Of.isNull() ||
      Of->isDependentType() || Of->isIncompleteType() ||
      Of->isVariablyModifiedType() || Of->isFunctionType() ||
      Of->isVoidType())
    return std::nullopt;
  return llvm::APSInt(
      llvm::APInt(64, Ctx.getTypeSizeInChars(Of).getQuantity()),
      /*isUnsigned=*/true);
}

static std::optional<llvm::APSInt>
literalValue(const Expr *E, const ASTContext &Ctx, unsigned Depth) {
  if (Depth > 8)
    return std::nullopt;
  QualType T = E->getType();
  const Expr *Inner = throughIntegralCasts(E);
  if (!Inner)
    return std::nullopt;
  std::optional<llvm::APSInt> V;
  if (const auto *BO = dyn_cast<BinaryOperator>(Inner))
    V = arithmeticValue(BO, Ctx, Depth);
  else if (const auto *Lit = dyn_cast<IntegerLiteral>(Inner))
    V = llvm::APSInt(Lit->getValue(),
                     !Lit->getType()->isSignedIntegerOrEnumerationType());
  else if (const auto *DRE = dyn_cast<DeclRefExpr>(Inner))
    V = namedValue(DRE, Ctx, Depth);
  else if (const auto *Size = dyn_cast<UnaryExprOrTypeTraitExpr>(Inner))
    V = sizeofValue(Size, Ctx);
  if (!V || !T->isIntegralOrEnumerationType() || T->isBooleanType())
    return std::nullopt;
  *V = V->extOrTrunc(Ctx.getIntWidth(T));
  V->setIsSigned(T->isSignedIntegerOrEnumerationType());
  return V;
}

std::optional<SymExpr> ValueFacts::eval(const Expr *E, unsigned Depth) const {
  if (!E || Depth > MaxEvalDepth)
    return std::nullopt;
  if (E->isValueDependent() || E->isTypeDependent() || E->containsErrors())
    return std::nullopt;
  E = E->IgnoreParens();
  QualType T = E->getType();
  if (T.isNull())
    return std::nullopt;

  if (T->isIntegralOrEnumerationType() && !cannotFold(E)) {
    Expr::EvalResult R;
    std::optional<llvm::APSInt> Literal = literalValue(E, Ctx);
    if (Literal || (E->EvaluateAsInt(R, Ctx) && R.Val.isInt())) {
      const llvm::APSInt &V = Literal ? *Literal : R.Val.getInt();
      if (V.getSignificantBits() <= 64 &&
          (V.isSigned() || V.getActiveBits() < 64))
        return SymExpr::constant(V.getExtValue());
      return std::nullopt;
    }
  }

  E = ignoreWrappers(E);
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    switch (Cast->getCastKind()) {
    case CK_LValueToRValue:
    case CK_NoOp:
    case CK_IntegralCast:
      if (!Cast->getSubExpr()->getType()->isIntegralOrEnumerationType())
        return std::nullopt;
      return eval(Cast->getSubExpr(), Depth + 1);
    default:
      return std::nullopt;
    }
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return evalVar(DRE, Depth + 1);
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Comma)
      return eval(BO->getRHS(), Depth + 1);
    if (BO->isAssignmentOp() || !BO->getType()->isIntegralOrEnumerationType())
      return std::nullopt;
    std::optional<SymExpr> L = eval(BO->getLHS(), Depth + 1);
    if (!L)
      return std::nullopt;
    std::optional<SymExpr> R = eval(BO->getRHS(), Depth + 1);
    if (!R)
      return std::nullopt;
    return applyBinary(BO->getOpcode(), *L, *R);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Plus)
      return eval(UO->getSubExpr(), Depth + 1);
    if (UO->getOpcode() == UO_LNot) {
      std::optional<SymExpr> V = eval(UO->getSubExpr(), Depth + 1);
      std::optional<int64_t> C = V ? V->getConstant() : std::nullopt;
      return C ? std::optional(SymExpr::constant(*C == 0)) : std::nullopt;
    }
    if (UO->getOpcode() == UO_Minus) {
      std::optional<SymExpr> V = eval(UO->getSubExpr(), Depth + 1);
      return V ? V->neg() : std::nullopt;
    }
    return std::nullopt;
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return evalConditional(CO, Depth);
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return evalCall(Call, Depth);
  return std::nullopt;
}

/// `c ? a : b`: the branch a constant condition takes, or the value both
/// branches share.
std::optional<SymExpr>
ValueFacts::evalConditional(const ConditionalOperator *CO,
                            unsigned Depth) const {
  std::optional<SymExpr> Cond = eval(CO->getCond(), Depth + 1);
  if (Cond && Cond->isConstant())
    return eval(*Cond->getConstant() ? CO->getTrueExpr() : CO->getFalseExpr(),
                Depth + 1);
  std::optional<SymExpr> L = eval(CO->getTrueExpr(), Depth + 1);
  std::optional<SymExpr> R =
      L ? eval(CO->getFalseExpr(), Depth + 1) : std::nullopt;
  if (L && R && *L == *R)
    return L;
  return std::nullopt;
}

namespace {

/// How deep an expression of a small function is folded.
constexpr unsigned MaxFoldDepth = 32;

using Bound = llvm::ArrayRef<std::pair<const ParmVarDecl *, int64_t>>;

std::optional<int64_t> foldAny(const Expr *E, Bound Params,
                               const ASTContext &Ctx, unsigned Depth);

/// The value of `E`, an integer expression over the parameters `Params`
/// holds, as C++ computes it; nullopt for anything else, a value its type
/// cannot hold (an overflow, or a conversion that would wrap), a division
/// by zero or a shift out of range.
std::optional<int64_t> fold(const Expr *E, Bound Params, const ASTContext &Ctx,
                            unsigned Depth) {
  std::optional<int64_t> V = foldAny(E, Params, Ctx, Depth);
  if (!V || !E->getType()->isIntegerType())
    return std::nullopt;
  unsigned Width = Ctx.getIntWidth(E->getType());
  bool Signed = E->getType()->isSignedIntegerOrEnumerationType();
  if (Width >= 64)
    return Signed || *V >= 0 ? V : std::nullopt;
  int64_t Max =
      Signed ? (int64_t(1) << (Width - 1)) - 1 : (int64_t(1) << Width) - 1;
  int64_t Min = Signed ? -(int64_t(1) << (Width - 1)) : 0;
  return *V >= Min && *V <= Max ? V : std::nullopt;
}

/// `L op R` for the operator of `B`, as C++ computes it.
std::optional<int64_t> foldBinary(const BinaryOperator *B, int64_t L,
                                  int64_t R) {
  int64_t Out = 0;
  switch (B->getOpcode()) {
  case BO_Add:
    return __builtin_add_overflow(L, R, &Out) ? std::nullopt
                                              : std::optional<int64_t>(Out);
  case BO_Sub:
    return __builtin_sub_overflow(L, R, &Out) ? std::nullopt
                                              : std::optional<int64_t>(Out);
  case BO_Mul:
    return __builtin_mul_overflow(L, R, &Out) ? std::nullopt
                                              : std::optional<int64_t>(Out);
  case BO_Div:
  case BO_Rem:
    if (R == 0 || (L == INT64_MIN && R == -1))
      return std::nullopt;
    return B->getOpcode() == BO_Div ? L / R : L % R;
  case BO_Shl:
  case BO_Shr:
    if (R < 0 || R > 62 || L < 0)
      return std::nullopt;
    if (B->getOpcode() == BO_Shr)
      return L >> R;
    return L > (INT64_MAX >> R) ? std::nullopt : std::optional<int64_t>(L << R);
  case BO_And:
    return L & R;
  case BO_Or:
    return L | R;
  case BO_Xor:
    return L ^ R;
  case BO_LT:
    return L < R;
  case BO_GT:
    return L > R;
  case BO_LE:
    return L <= R;
  case BO_GE:
    return L >= R;
  case BO_EQ:
    return L == R;
  case BO_NE:
    return L != R;
  case BO_LAnd:
    return L && R;
  case BO_LOr:
    return L || R;
  default:
    return std::nullopt;
  }
}

std::optional<int64_t> foldAny(const Expr *E, Bound Params,
                               const ASTContext &Ctx, unsigned Depth) {
  if (!E || Depth > MaxFoldDepth || E->isValueDependent())
    return std::nullopt;
  E = E->IgnoreParens();
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    if (!Cast->getType()->isIntegerType() ||
        !Cast->getSubExpr()->getType()->isIntegerType())
      return std::nullopt;
    std::optional<int64_t> V = fold(Cast->getSubExpr(), Params, Ctx, Depth + 1);
    if (V && Cast->getCastKind() == CK_IntegralToBoolean)
      return *V != 0;
    return V;
  }
  if (const auto *Lit = dyn_cast<IntegerLiteral>(E)) {
    if (Lit->getValue().getActiveBits() > 62)
      return std::nullopt;
    return static_cast<int64_t>(Lit->getValue().getZExtValue());
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    for (const auto &[P, V] : Params)
      if (DRE->getDecl() == P)
        return V;
    return std::nullopt;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    std::optional<int64_t> V = fold(U->getSubExpr(), Params, Ctx, Depth + 1);
    if (!V)
      return std::nullopt;
    switch (U->getOpcode()) {
    case UO_Minus:
      return *V == INT64_MIN ? std::nullopt : std::optional<int64_t>(-*V);
    case UO_Plus:
      return V;
    case UO_Not:
      return ~*V;
    case UO_LNot:
      return *V == 0 ? 1 : 0;
    default:
      return std::nullopt;
    }
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    std::optional<int64_t> C = fold(CO->getCond(), Params, Ctx, Depth + 1);
    if (!C)
      return std::nullopt;
    return fold(*C ? CO->getTrueExpr() : CO->getFalseExpr(), Params, Ctx,
                Depth + 1);
  }
  const auto *B = dyn_cast<BinaryOperator>(E);
  if (!B)
    return std::nullopt;
  std::optional<int64_t> L = fold(B->getLHS(), Params, Ctx, Depth + 1);
  std::optional<int64_t> R =
      L ? fold(B->getRHS(), Params, Ctx, Depth + 1) : std::nullopt;
  if (!L || !R)
    return std::nullopt;
  return foldBinary(B, *L, *R);
}

/// The return value of a small function of the user's: one whose body is a
/// single `return` of an integer expression over its integer parameters
/// (`int pad(int x) { return (x + 31) / 32 * 32; }`).
const Expr *smallFunctionValue(const FunctionDecl *FD) {
  const FunctionDecl *Def = FD ? FD->getDefinition() : nullptr;
  if (!Def || Def->isVariadic() || !Def->getReturnType()->isIntegerType() ||
      (isa<CXXMethodDecl>(Def) && !cast<CXXMethodDecl>(Def)->isStatic()))
    return nullptr;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  const auto *Ret = Body && Body->size() == 1
                        ? dyn_cast<ReturnStmt>(Body->body_front())
                        : nullptr;
  if (!Ret || !Ret->getRetValue())
    return nullptr;
  for (const ParmVarDecl *P : Def->parameters())
    if (!P->getType()->isIntegerType())
      return nullptr;
  if (Def->getASTContext().getSourceManager().isInSystemHeader(
          Def->getLocation()))
    return nullptr;
  return Ret->getRetValue();
}

} // namespace

/// What a library model knows, a container's size(), std::max / std::min
/// of known values, a small function of the user's of constant arguments.
std::optional<SymExpr> ValueFacts::evalCall(const CallExpr *Call,
                                            unsigned Depth) const {
  if (std::optional<SymExpr> V = evalLibrary(Call, Depth))
    return V;
  if (const Expr *Value = smallFunctionValue(Call->getDirectCallee());
      Value && Call->getNumArgs() ==
                   Call->getDirectCallee()->getDefinition()->getNumParams()) {
    const FunctionDecl *Def = Call->getDirectCallee()->getDefinition();
    llvm::SmallVector<std::pair<const ParmVarDecl *, int64_t>, 4> Args;
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      std::optional<SymExpr> V = eval(Call->getArg(I), Depth + 1);
      std::optional<int64_t> C = V ? V->getConstant() : std::nullopt;
      if (!C)
        return std::nullopt;
      Args.push_back({Def->getParamDecl(I), *C});
    }
    if (std::optional<int64_t> R = fold(Value, Args, Ctx, 0))
      return SymExpr::constant(*R);
    return std::nullopt;
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    if (callsContainerMethod(MC, memory_api::MethodKind::Size) &&
        MC->getNumArgs() == 0)
      if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(
              MC->getImplicitObjectArgument()
                  ? MC->getImplicitObjectArgument()->IgnoreParenImpCasts()
                  : nullptr))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          return containerSize(VD);
    return std::nullopt;
  }
  if (!isStdMaxOrMin(Call))
    return std::nullopt;
  // The arguments bind to `const T &`: a literal is a temporary.
  std::optional<SymExpr> L = eval(Call->getArg(0)->IgnoreImplicit(), Depth + 1);
  std::optional<SymExpr> R =
      L ? eval(Call->getArg(1)->IgnoreImplicit(), Depth + 1) : std::nullopt;
  if (!L || !R)
    return std::nullopt;
  Order O = compare(*L, *R);
  bool Max = Call->getDirectCallee()->getName() == "max";
  if (O == Order::Equal)
    return L;
  if (O == Order::Less || O == Order::LessOrEqual)
    return Max ? R : L;
  if (O == Order::Greater || O == Order::GreaterOrEqual)
    return Max ? L : R;
  // `std::max(1, m)`, the LAPACK way of writing a leading dimension: m
  // wherever m >= 1, which a size is whenever cuBLAS touches memory (a
  // dimension of 0 returns at once). Where m < 1 the value is below the
  // true one: a span from it is never longer than the call's.
  if (Max) {
    if (std::optional<int64_t> C = L->getConstant(); C && *C <= 1 && *C >= 0)
      return R;
    if (std::optional<int64_t> C = R->getConstant(); C && *C <= 1 && *C >= 0)
      return L;
  }
  return std::nullopt;
}

std::optional<SymExpr> ValueFacts::evalVar(const DeclRefExpr *DRE,
                                           unsigned Depth) const {
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (!VD || !VD->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  if (DRE->refersToEnclosingVariableOrCapture())
    return std::nullopt;
  if (Defs->tracks(VD)) {
    auto Reaching = Defs->reaching(VD, DRE);
    if (!Reaching)
      return std::nullopt;
    std::optional<SymExpr> Value;
    for (const Definition *D : *Reaching) {
      std::optional<SymExpr> V = evalDefinition(*D, Depth + 1);
      if (!V || (Value && *V != *Value))
        return std::nullopt;
      Value = V;
    }
    return Value;
  }
  // Not tracked here: a constant whose initializer fixes it.
  if (VD->getType().isConstQualified() && VD->getInit() &&
      !isa<ParmVarDecl>(VD))
    return eval(VD->getInit(), Depth + 1);
  return std::nullopt;
}

std::optional<SymExpr> ValueFacts::evalDefinition(const Definition &D,
                                                  unsigned Depth) const {
  auto Cached = Memo.find(&D);
  if (Cached != Memo.end())
    return Cached->second;
  if (InProgress.count(&D) || Depth > MaxEvalDepth)
    return std::nullopt;
  InProgress.insert(&D);

  const VarDecl *VD = D.Var;
  bool Integral = VD->getType()->isIntegralOrEnumerationType();
  Symbol Opaque = receivedValue(VD, D.S);
  std::optional<SymExpr> Result;
  switch (D.Kind) {
  case DefKind::Entry:
    if (auto It = llvm::find_if(Assumed,
                                [&](const auto &A) { return A.first == VD; });
        It != Assumed.end()) {
      Result = SymExpr::constant(It->second);
      break;
    }
    if (const auto *P = dyn_cast<ParmVarDecl>(VD))
      if (std::optional<Binding> B = binding(P)) {
        Result = B->Facts->evaluate(B->Arg);
        break;
      }
    if (Integral)
      Result = SymExpr::symbol(Opaque);
    break;
  case DefKind::Init:
  case DefKind::Assign:
    Result = eval(D.Value, Depth + 1);
    break;
  case DefKind::Compound:
  case DefKind::IncDec: {
    const Expr *Target = nullptr;
    std::optional<SymExpr> Step;
    BinaryOperatorKind Op = BO_Add;
    if (const auto *BO = dyn_cast<CompoundAssignOperator>(D.S)) {
      Target = BO->getLHS();
      Op = BO->getOpcode();
      Step = eval(BO->getRHS(), Depth + 1);
    } else if (const auto *UO = dyn_cast<UnaryOperator>(D.S)) {
      Target = UO->getSubExpr();
      Op = UO->isIncrementOp() ? BO_Add : BO_Sub;
      Step = SymExpr::constant(1);
    }
    const DeclRefExpr *DRE = plainReference(Target);
    std::optional<SymExpr> Old =
        DRE && Step ? evalVar(DRE, Depth + 1) : std::nullopt;
    if (Old && Step)
      Result = applyBinary(Op, *Old, *Step);
    break;
  }
  case DefKind::OutArgument:
    break;
  }
  bool Uninitialized = D.Kind == DefKind::Init && !D.Value;
  if (!Result && Integral && D.Kind != DefKind::Entry && !Uninitialized) {
    // What the variable received here, by name: equal only to itself.
    Result = SymExpr::symbol(Opaque);
  }
  InProgress.erase(&D);
  Memo[&D] = Result;
  return Result;
}

/// The value a library model gives `E` (an object's size, ...), its
/// subexpressions evaluated in this context.
std::optional<SymExpr> ValueFacts::evalLibrary(const Expr *E,
                                               unsigned Depth) const {
  auto Evaluate = [&](const Expr *Sub) { return eval(Sub, Depth + 1); };
  for (const LibraryModel *M : libraryModels())
    if (std::optional<SymExpr> V = M->integer(E, Evaluate))
      return V;
  return std::nullopt;
}

std::optional<SymExpr> ValueFacts::containerSize(const VarDecl *Var) const {
  if (!Var || !isSizedContainer(Var->getType()) || !Defs->tracks(Var))
    return std::nullopt;
  const Definition *Init = Defs->initOf(Var);
  if (!Init || !Init->Value)
    return std::nullopt;
  const Expr *E = Init->Value;
  for (unsigned Step = 0; Step < 8 && E; ++Step) {
    E = ignoreWrappers(E->IgnoreParenImpCasts());
    if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E))
      E = FC->getSubExpr();
    else
      break;
  }
  const auto *CE = dyn_cast_or_null<CXXConstructExpr>(E);
  if (!CE)
    return std::nullopt;
  if (CE->getNumArgs() == 0)
    return SymExpr::constant(0);
  const Expr *First = CE->getArg(0);
  if (isa<CXXDefaultArgExpr>(First))
    return SymExpr::constant(0);
  if (const auto *IL =
          dyn_cast<CXXStdInitializerListExpr>(First->IgnoreImplicit()))
    if (const auto *Arr = dyn_cast<ConstantArrayType>(
            Ctx.getAsArrayType(IL->getSubExpr()->getType())))
      return SymExpr::constant(Arr->getSize().getZExtValue());
  if (!First->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  return eval(First, 0);
}

} // namespace cublas_tidy
