//===- IntegerWidths.cpp - Integers that outgrow the type they pass through ===//

#include "facts/IntegerWidths.h"

#include "ast/AstUtils.h"
#include "facts/LibraryModel.h"
#include "facts/MemoryObjects.h"
#include "model/LtAttributes.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace cublas_tidy {

unsigned integerWidth(QualType T, const ASTContext &Ctx) {
  if (T.isNull())
    return 0;
  T = T.getCanonicalType();
  if (!T->isIntegerType() || T->isBooleanType() || T->isEnumeralType() ||
      T->isAnyCharacterType())
    return 0;
  return Ctx.getIntWidth(T);
}

bool fitsType(int64_t V, QualType T, const ASTContext &Ctx) {
  unsigned W = integerWidth(T, Ctx);
  if (W == 0 || W >= 64)
    return T->isUnsignedIntegerType() ? V >= 0 : true;
  if (T->isUnsignedIntegerType())
    return V >= 0 && static_cast<uint64_t>(V) < (uint64_t(1) << W);
  int64_t Max = (int64_t(1) << (W - 1)) - 1;
  return V >= -Max - 1 && V <= Max;
}

int64_t wrappedTo(int64_t V, QualType T, const ASTContext &Ctx) {
  unsigned W = integerWidth(T, Ctx);
  if (W == 0 || W >= 64)
    return V;
  uint64_t U = static_cast<uint64_t>(V) & ((uint64_t(1) << W) - 1);
  if (T->isSignedIntegerType() && U >= (uint64_t(1) << (W - 1)))
    return static_cast<int64_t>(U) - (int64_t(1) << W);
  return static_cast<int64_t>(U);
}

namespace {

const Expr *stripped(const Expr *E) {
  while (E) {
    E = E->IgnoreParens();
    if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
      E = EWC->getSubExpr();
    else if (const auto *CE = dyn_cast<ConstantExpr>(E))
      E = CE->getSubExpr();
    else
      return E;
  }
  return E;
}

/// `E` when it is an integral conversion from a `From`-bit to a `To`-bit
/// type (widths compared as `From <= 32 && To == 64` for a widening,
/// `From == 64 && To <= 32` for a narrowing).
const CastExpr *integralCast(const Expr *E, bool Widening,
                             const ASTContext &Ctx) {
  const auto *Cast = dyn_cast_or_null<CastExpr>(stripped(E));
  // `(long long)(m * n)` is a no-op cast around the implicit conversion.
  while (Cast && Cast->getCastKind() == CK_NoOp)
    Cast = dyn_cast<CastExpr>(stripped(Cast->getSubExpr()));
  if (!Cast || Cast->getCastKind() != CK_IntegralCast)
    return nullptr;
  unsigned From = integerWidth(Cast->getSubExpr()->getType(), Ctx);
  unsigned To = integerWidth(Cast->getType(), Ctx);
  if (!From || !To)
    return nullptr;
  bool Ok = Widening ? From <= 32 && To == 64 : From == 64 && To <= 32;
  return Ok ? Cast : nullptr;
}

/// The local variable (not a parameter) that `E` reads, and the read.
const DeclRefExpr *localRead(const Expr *E) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(stripped(E)->IgnoreParenImpCasts());
  if (!DRE)
    return nullptr;
  const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
  if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V))
    return nullptr;
  return DRE;
}

/// The values stored by the definitions of the local `Read` reads that
/// reach it (empty when unknown).
llvm::SmallVector<const Expr *, 4> storedValues(const DeclRefExpr *Read,
                                                const ValueFacts &Facts) {
  llvm::SmallVector<const Expr *, 4> Values;
  const auto *V = cast<VarDecl>(Read->getDecl());
  // A const local has the one value of its initializer.
  if (V->getType().isConstQualified() && V->getInit() &&
      !V->getType()->isReferenceType()) {
    Values.push_back(V->getInit());
    return Values;
  }
  auto Defs = Facts.reachingDefinitions(V, Read);
  if (!Defs)
    return Values;
  for (const Definition *D : *Defs)
    if ((D->Kind == DefKind::Init || D->Kind == DefKind::Assign) && D->Value)
      Values.push_back(D->Value);
  return Values;
}

/// The variable `E` asks the size of (`v.size()`), or null.
const VarDecl *sizedVariable(const Expr *E) {
  const auto *MC =
      dyn_cast<CXXMemberCallExpr>(stripped(E)->IgnoreParenImpCasts());
  if (!callsContainerMethod(MC, memory_api::MethodKind::Size))
    return nullptr;
  const auto *Obj = dyn_cast<DeclRefExpr>(
      MC->getImplicitObjectArgument()->IgnoreParenImpCasts());
  return Obj ? dyn_cast<VarDecl>(Obj->getDecl()) : nullptr;
}

/// The element count a local container `V` is constructed with
/// (`std::vector<float> v(n)`), or null.
const Expr *constructedCount(const VarDecl *V) {
  if (!V->hasLocalStorage() || !isSizedContainer(V->getType()))
    return nullptr;
  const auto *Construct =
      dyn_cast_or_null<CXXConstructExpr>(stripped(V->getInit()));
  if (!Construct || Construct->getNumArgs() == 0 ||
      !Construct->getArg(0)->getType()->isIntegerType())
    return nullptr;
  return Construct->getArg(0);
}

class Widths {
public:
  Widths(const CallExpr *Call, const ValueFacts &Facts,
         const UpperBounds &Bounds)
      : Call(Call), Facts(Facts), Bounds(Bounds),
        Ctx(Facts.context()) {}

  /// The value of `E` when the code fixes it: a constant, or the size of
  /// a local container that never changes size (`c.size()` of a
  /// `std::vector<float> c(m * n)` with constant m, n).
  std::optional<int64_t> constantValue(const Expr *E) const {
    if (std::optional<SymExpr> V = Facts.evaluate(E); V && V->isConstant())
      return V->getConstant();
    const VarDecl *V = sizedVariable(E);
    if (!V)
      return std::nullopt;
    if (std::optional<SymExpr> Size = Facts.containerSize(V))
      return Size->getConstant();
    // A container made with a constant count and later passed on by
    // reference: a callee could resize it, but not past 32 bits from a
    // count that fitted (the answer is about widths, not the exact size).
    const Expr *Made = constructedCount(V);
    if (!Made)
      return std::nullopt;
    std::optional<SymExpr> Count = Facts.evaluate(Made);
    if (Count && Count->isConstant() &&
        fitsType(*Count->getConstant(), Ctx.IntTy, Ctx))
      return Count->getConstant();
    return std::nullopt;
  }

  bool isConstant(const Expr *E) const { return constantValue(E).has_value(); }

  /// Whether the 64-bit value `E` holds an `int` the code widened: a
  /// conversion from a signed type of 32 bits or less, a local set only
  /// from such values, or the size of a local container made with such a
  /// count (`std::vector<float> v(n)` with `int n`). Narrowed back to an
  /// `int`, it is what it was.
  bool widenedFromInt(const Expr *E, unsigned Depth = 0) const {
    if (!E || Depth > 2)
      return false;
    E = stripped(E);
    while (const auto *Cast = dyn_cast<CastExpr>(E)) {
      if (Cast->getCastKind() == CK_IntegralCast) {
        QualType From = Cast->getSubExpr()->getType();
        unsigned W = integerWidth(From, Ctx);
        return W && (W < 32 || (W == 32 && From->isSignedIntegerType()));
      }
      E = stripped(Cast->getSubExpr());
    }
    if (const DeclRefExpr *Read = localRead(E)) {
      llvm::SmallVector<const Expr *, 4> Values = storedValues(Read, Facts);
      return !Values.empty() && llvm::all_of(Values, [&](const Expr *V) {
        return widenedFromInt(V, Depth + 1);
      });
    }
    const VarDecl *V = sizedVariable(E);
    const Expr *Made = V ? constructedCount(V) : nullptr;
    return Made && widenedFromInt(Made, Depth + 1);
  }

  /// Whether the code keeps `E` from growing: bounded from above, a
  /// `min(...)`, kept in a local set from such a value, or of a type of
  /// at most 16 bits.
  bool boundedOperand(const Expr *E) const {
    if (const Expr *Bare = E->IgnoreParenImpCasts();
        integerWidth(Bare->getType(), Ctx) &&
        integerWidth(Bare->getType(), Ctx) <= 16)
      return true;
    if (Bounds.boundedExpr(E, Call))
      return true;
    if (const DeclRefExpr *Read = localRead(E)) {
      llvm::SmallVector<const Expr *, 4> Values = storedValues(Read, Facts);
      return !Values.empty() && llvm::all_of(Values, [&](const Expr *V) {
        return Bounds.boundedExpr(V, Call);
      });
    }
    return false;
  }

  bool grows(const Expr *E) const {
    return !isConstant(E) && !boundedOperand(E);
  }

  /// A multiplication of two growing values inside the 32-bit arithmetic
  /// `E`.
  const BinaryOperator *growingProduct(const Expr *E, unsigned Depth) const {
    const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParens());
    if (!BO || Depth > 8 || integerWidth(BO->getType(), Ctx) != 32)
      return nullptr;
    BinaryOperatorKind Op = BO->getOpcode();
    if (Op != BO_Mul && Op != BO_Add && Op != BO_Sub)
      return nullptr;
    if (Op == BO_Mul && grows(BO->getLHS()) && grows(BO->getRHS()))
      return BO;
    if (const BinaryOperator *P = growingProduct(BO->getLHS(), Depth + 1))
      return P;
    return growingProduct(BO->getRHS(), Depth + 1);
  }

  /// The wrap in the 32-bit arithmetic `E`, if it can wrap.
  std::optional<WrapBeforeWidening> wrapIn(const Expr *E,
                                           const VarDecl *Through) const {
    const auto *BO = dyn_cast<BinaryOperator>(stripped(E));
    if (!BO || integerWidth(BO->getType(), Ctx) != 32)
      return std::nullopt;
    BinaryOperatorKind Op = BO->getOpcode();
    if (Op != BO_Mul && Op != BO_Add && Op != BO_Sub && Op != BO_Shl)
      return std::nullopt;
    WrapBeforeWidening W;
    W.Operation = BO;
    W.ComputedIn = BO->getType();
    W.Through = Through;
    if (std::optional<SymExpr> V = Facts.evaluate(BO); V && V->isConstant()) {
      if (fitsType(*V->getConstant(), BO->getType(), Ctx))
        return std::nullopt;
      W.Value = V->getConstant();
      W.Product = BO;
      return W;
    }
    W.Product = growingProduct(BO, 0);
    if (!W.Product)
      return std::nullopt;
    return W;
  }

  /// The wrap in the 32-bit value `E`, or in the definitions of the
  /// 32-bit local it reads.
  std::optional<WrapBeforeWidening> wrapInValue(const Expr *E,
                                                const VarDecl *Through) const {
    if (const DeclRefExpr *Read = localRead(E)) {
      if (Through)
        return std::nullopt; // one local on the way, not two
      for (const Expr *V : storedValues(Read, Facts))
        if (auto W = wrapIn(V, cast<VarDecl>(Read->getDecl())))
          return W;
      return std::nullopt;
    }
    return wrapIn(E, Through);
  }

  bool isProduct(const Expr *E, unsigned Depth = 0) const {
    E = stripped(E)->IgnoreParenImpCasts();
    if (const auto *BO = dyn_cast<BinaryOperator>(E))
      return BO->getOpcode() == BO_Mul && !isConstant(BO->getLHS()) &&
             !isConstant(BO->getRHS());
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
      if (MC->getMethodDecl())
        return llvm::any_of(libraryModels(), [&](const LibraryModel *M) {
          return M->isElementCount(MC);
        });
    if (const DeclRefExpr *Read = localRead(E); Read && Depth == 0)
      return llvm::any_of(storedValues(Read, Facts), [&](const Expr *V) {
        return isProduct(V, Depth + 1);
      });
    return false;
  }

  const CallExpr *Call;
  const ValueFacts &Facts;
  const UpperBounds &Bounds;
  const ASTContext &Ctx;
};

} // namespace

std::optional<WrapBeforeWidening>
wrapBeforeWidening(const Expr *Arg, QualType ParamType, const CallExpr *Call,
                   const ValueFacts &Facts, const UpperBounds &Bounds) {
  const ASTContext &Ctx = Facts.context();
  if (!Arg || integerWidth(ParamType, Ctx) != 64)
    return std::nullopt;
  Widths W(Call, Facts, Bounds);
  if (const CastExpr *Cast = integralCast(Arg, /*Widening=*/true, Ctx))
    return W.wrapInValue(Cast->getSubExpr(), nullptr);
  // `long long s = m * k;` and then `s`.
  if (const DeclRefExpr *Read = localRead(Arg)) {
    const auto *V = cast<VarDecl>(Read->getDecl());
    if (integerWidth(V->getType(), Ctx) != 64)
      return std::nullopt;
    for (const Expr *Value : storedValues(Read, Facts))
      if (const CastExpr *Cast = integralCast(Value, /*Widening=*/true, Ctx))
        if (auto Wrap = W.wrapIn(Cast->getSubExpr(), V))
          return Wrap;
  }
  return std::nullopt;
}

namespace {

/// Whether the local `V` keeps the value of its initializer in `Callable`:
/// no assignment, compound assignment or increment names it.
bool setOnlyAtDeclaration(const VarDecl *V, const Decl *Callable) {
  const Stmt *Body = Callable ? Callable->getBody() : nullptr;
  if (!Body || !V->getInit())
    return false;
  auto Names = [V](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == V;
  };
  bool Changed = false;
  walkStmts(Body, [&](const Stmt *S) {
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp() && Names(BO->getLHS()))
      Changed = true;
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && UO->isIncrementDecrementOp() && Names(UO->getSubExpr()))
      Changed = true;
    return !Changed;
  });
  return !Changed;
}

const char *layoutAttributeName(int64_t A) {
  switch (A) {
  case lt_api::LayoutRows:
    return "CUBLASLT_MATRIX_LAYOUT_ROWS";
  case lt_api::LayoutCols:
    return "CUBLASLT_MATRIX_LAYOUT_COLS";
  case lt_api::LayoutLd:
    return "CUBLASLT_MATRIX_LAYOUT_LD";
  case lt_api::LayoutStridedBatchOffset:
    return "CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET";
  default:
    return nullptr;
  }
}

} // namespace

std::optional<WrapBeforeWidening>
wrapInLayoutAttribute(const CallExpr *Set, const ValueFacts &Facts,
                      const UpperBounds &Bounds, const char *&Attribute) {
  const ASTContext &Ctx = Facts.context();
  const FunctionDecl *Callee = Set->getDirectCallee();
  if (!Callee || Callee->getName() != "cublasLtMatrixLayoutSetAttribute" ||
      Set->getNumArgs() < 3)
    return std::nullopt;
  std::optional<SymExpr> A = Facts.evaluate(Set->getArg(1));
  if (!A || !A->isConstant() ||
      !(Attribute = layoutAttributeName(*A->getConstant())))
    return std::nullopt;
  const VarDecl *V = addressedVar(Set->getArg(2));
  if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) ||
      integerWidth(V->getType(), Ctx) != 64 ||
      !setOnlyAtDeclaration(V, Facts.callable()))
    return std::nullopt;
  const CastExpr *Cast = integralCast(V->getInit(), /*Widening=*/true, Ctx);
  if (!Cast)
    return std::nullopt;
  return Widths(Set, Facts, Bounds).wrapIn(Cast->getSubExpr(), V);
}

std::optional<Narrowing> narrowing(const Expr *Arg, QualType ParamType,
                                   const CallExpr *Call,
                                   const ValueFacts &Facts,
                                   const UpperBounds &Bounds) {
  const ASTContext &Ctx = Facts.context();
  if (!Arg || integerWidth(ParamType, Ctx) != 32)
    return std::nullopt;
  Narrowing N;
  const CastExpr *Cast = integralCast(Arg, /*Widening=*/false, Ctx);
  if (!Cast) {
    const DeclRefExpr *Read = localRead(Arg);
    if (!Read)
      return std::nullopt;
    const auto *V = cast<VarDecl>(Read->getDecl());
    if (integerWidth(V->getType(), Ctx) > 32)
      return std::nullopt;
    for (const Expr *Value : storedValues(Read, Facts))
      if ((Cast = integralCast(Value, /*Widening=*/false, Ctx))) {
        N.Through = V;
        break;
      }
    if (!Cast)
      return std::nullopt;
  }
  N.Conversion = Cast;
  N.Source = Cast->getSubExpr()->IgnoreParenImpCasts();
  Widths W(Call, Facts, Bounds);
  if (std::optional<int64_t> V = W.constantValue(Cast->getSubExpr())) {
    if (fitsType(*V, ParamType, Ctx))
      return std::nullopt;
    N.Value = *V;
    N.FromProduct = true;
    return N;
  }
  if (W.boundedOperand(Cast->getSubExpr()) ||
      W.widenedFromInt(Cast->getSubExpr()) ||
      (N.Through && Bounds.bounded(N.Through, Call)))
    return std::nullopt;
  N.FromProduct = W.isProduct(Cast->getSubExpr());
  return N;
}

bool fitsAtEveryCallSite(const Expr *E, QualType T, const Decl *Callable,
                         CallerFacts &Callers) {
  const auto *Fn = dyn_cast_or_null<FunctionDecl>(Callable);
  if (!E || !Fn)
    return false;
  ASTContext &Ctx = Fn->getASTContext();
  return Callers.holdsAtEveryCallSite(Fn, Ctx, [&](const ValueFacts &Facts) {
    std::optional<SymExpr> V = Facts.evaluate(E);
    return V && V->isConstant() && fitsType(*V->getConstant(), T, Ctx);
  });
}

std::optional<GrowthEvidence> growthEvidence(const Expr *E, QualType T,
                                             const Decl *Callable,
                                             const ValueFacts &Facts,
                                             CallerFacts &Callers) {
  if (!E)
    return std::nullopt;
  auto InputOf = [&](const ValueFacts &F) { return programInput(E, F); };
  if (auto In = InputOf(Facts))
    return GrowthEvidence{std::nullopt, In, {}};
  const auto *Fn = dyn_cast_or_null<FunctionDecl>(Callable);
  if (!Fn || !CallerFacts::hasCallerFacts(Fn))
    return std::nullopt;
  ASTContext &Ctx = Fn->getASTContext();
  // A constant that does not fit comes first: the program's own values.
  const std::vector<CallerFacts::Context> &Contexts =
      Callers.contextsOf(Fn, Ctx);
  for (const CallerFacts::Context &C : Contexts) {
    std::optional<SymExpr> V = C.Facts->evaluate(E);
    if (V && V->isConstant() && !fitsType(*V->getConstant(), T, Ctx))
      return GrowthEvidence{V->getConstant(), std::nullopt, C.Chain};
  }
  for (const CallerFacts::Context &C : Contexts)
    if (auto In = InputOf(*C.Facts))
      return GrowthEvidence{std::nullopt, In, C.Chain};
  return std::nullopt;
}

} // namespace cublas_tidy
