//===- Allocations.cpp ----------------------------------------------------===//

#include "facts/Allocations.h"
#include "facts/CallerFacts.h"
#include "facts/LibraryModel.h"
#include "facts/MemoryObjects.h"

#include "ast/AstUtils.h"
#include "ast/Callables.h"
#include "ast/TypeNames.h"
#include "model/CublasApi.h"
#include "model/RuntimeCalls.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace cublas_tidy {

using runtime_api::RuntimeKind;

namespace {

constexpr unsigned MaxDepth = 32;

const FunctionDecl *callee(const CallExpr *Call) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  return FD && FD->getIdentifier() ? FD : nullptr;
}

bool sameExtent(const Extent &L, const Extent &R) {
  return L.Origin == R.Origin && L.OriginVar == R.OriginVar &&
         L.Bytes == R.Bytes && L.OffsetBytes == R.OffsetBytes;
}

class Resolver {
public:
  explicit Resolver(const ValueFacts &Facts) : Facts(Facts) {}

  std::optional<Extent> resolve(const Expr *E, unsigned Depth);

private:
  std::optional<Extent> offsetBy(std::optional<Extent> Base, const Expr *Index,
                                 QualType Pointee, bool Subtract);
  std::optional<Extent> variable(const DeclRefExpr *DRE, unsigned Depth);
  std::optional<Extent> definition(const Definition &D, const DeclRefExpr *Use,
                                   unsigned Depth);
  std::optional<Extent> outArgument(const CallExpr *Call, const VarDecl *Var);
  std::optional<Extent> container(const Expr *Object);
  std::optional<Extent> allocatorResult(const CallExpr *Call);
  std::optional<Extent> element(const Expr *Object, const Expr *Index);
  std::optional<Extent> arithmetic(const BinaryOperator *BO, unsigned Depth);
  std::optional<Extent> address(const UnaryOperator *UO, unsigned Depth);
  std::optional<Extent> conditional(const ConditionalOperator *CO,
                                    unsigned Depth);
  std::optional<Extent> newArray(const CXXNewExpr *New);
  std::optional<Extent> call(const CallExpr *Call, unsigned Depth);
  std::optional<Extent> helperResult(const CallExpr *Call, unsigned Depth);
  class Query;

  const ValueFacts &Facts;
};

/// The resolver at one depth, as a library model asks it.
class Resolver::Query : public ExtentQuery {
public:
  Query(Resolver &R, unsigned Depth) : R(R), Depth(Depth) {}
  const ValueFacts &facts() const override { return R.Facts; }
  std::optional<Extent> extent(const Expr *E) const override {
    return R.resolve(E, Depth + 1);
  }
  std::optional<Extent> element(const Expr *Object,
                                const Expr *Index) const override {
    return R.element(Object, Index);
  }

private:
  Resolver &R;
  unsigned Depth;
};

std::optional<Extent> Resolver::offsetBy(std::optional<Extent> Base,
                                         const Expr *Index, QualType Pointee,
                                         bool Subtract) {
  if (!Base)
    return std::nullopt;
  std::optional<int64_t> Size = sizeInBytes(Pointee, Facts.context());
  std::optional<SymExpr> I = Facts.evaluate(Index);
  if (!Size || !I)
    return std::nullopt;
  std::optional<SymExpr> Bytes = I->mul(SymExpr::constant(*Size));
  if (!Bytes)
    return std::nullopt;
  std::optional<SymExpr> Off =
      Subtract ? Base->OffsetBytes.sub(*Bytes) : Base->OffsetBytes.add(*Bytes);
  if (!Off)
    return std::nullopt;
  Base->OffsetBytes = *Off;
  return Base;
}

std::optional<Extent> Resolver::container(const Expr *Object) {
  if (!Object)
    return std::nullopt;
  const auto *DRE = dyn_cast<DeclRefExpr>(Object->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  QualType Elem;
  if (!VD || !isSizedContainer(VD->getType(), &Elem) ||
      DRE->refersToEnclosingVariableOrCapture())
    return std::nullopt;
  std::optional<Extent> Made = Extent::ofElements(
      Facts.containerSize(VD), sizeInBytes(Elem, Facts.context()));
  if (!Made)
    return std::nullopt;
  Extent X = *Made;
  X.Origin = VD->getInit();
  X.OriginVar = VD;
  std::optional<ContainerType> C =
      containerType(VD->getType().getCanonicalType());
  X.Allocator = C ? C->Row->Display : "container";
  X.ElementType = Elem;
  if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(
          VD->getInit() ? VD->getInit()->IgnoreImplicit() : nullptr))
    if (CE->getNumArgs() > 0 && !isa<CXXDefaultArgExpr>(CE->getArg(0)))
      X.SizeExpr = CE->getArg(0);
  return X;
}

std::optional<Extent> Resolver::outArgument(const CallExpr *Call,
                                            const VarDecl *Var) {
  const memory_api::Allocator *A = calledAllocator(Call);
  if (!A || !A->outParameter() ||
      unsigned(A->PointerArg) >= Call->getNumArgs())
    return std::nullopt;
  Extent X;
  X.Origin = Call;
  X.Allocator = A->Name;
  X.ElementType = Var->getType()->isPointerType()
                      ? Var->getType()->getPointeeType()
                      : QualType();
  if (A->SizeArg >= 0) {
    if (unsigned(A->SizeArg) >= Call->getNumArgs())
      return std::nullopt;
    std::optional<SymExpr> Bytes = Facts.evaluate(Call->getArg(A->SizeArg));
    if (!Bytes)
      return std::nullopt;
    X.Bytes = *Bytes;
    X.SizeExpr = Call->getArg(A->SizeArg);
    return X;
  }
  // cudaMallocPitch: pitch * height bytes; the pitch is what the call
  // writes, named by the same symbol ValueFacts gives the pitch variable.
  if (A->PitchArg < 0 || A->HeightArg < 0 ||
      unsigned(A->HeightArg) >= Call->getNumArgs())
    return std::nullopt;
  const auto *UO =
      dyn_cast<UnaryOperator>(Call->getArg(A->PitchArg)->IgnoreParenCasts());
  const auto *PitchRef =
      UO && UO->getOpcode() == UO_AddrOf
          ? dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParens())
          : nullptr;
  const auto *PitchVar =
      PitchRef ? dyn_cast<VarDecl>(PitchRef->getDecl()) : nullptr;
  if (!PitchVar)
    return std::nullopt;
  SymExpr Pitch = SymExpr::symbol(
      {PitchVar, Call,
       PitchVar->getType()->isUnsignedIntegerOrEnumerationType()});
  std::optional<SymExpr> Height = Facts.evaluate(Call->getArg(A->HeightArg));
  std::optional<SymExpr> Bytes = Height ? Pitch.mul(*Height) : std::nullopt;
  if (!Bytes)
    return std::nullopt;
  X.Bytes = *Bytes;
  X.PitchBytes = Pitch;
  X.SizeExpr = Call->getArg(A->HeightArg);
  return X;
}

std::optional<Extent> Resolver::definition(const Definition &D,
                                           const DeclRefExpr *Use,
                                           unsigned Depth) {
  switch (D.Kind) {
  case DefKind::Entry: {
    const auto *P = dyn_cast<ParmVarDecl>(D.Var);
    std::optional<ValueFacts::Binding> B = P ? Facts.binding(P) : std::nullopt;
    if (!B)
      return std::nullopt;
    return Resolver(*B->Facts).resolve(B->Arg, Depth + 1);
  }
  case DefKind::Init:
  case DefKind::Assign:
    return resolve(D.Value, Depth + 1);
  case DefKind::OutArgument:
    return outArgument(dyn_cast_or_null<CallExpr>(D.S), D.Var);
  case DefKind::Compound: {
    const auto *BO = dyn_cast_or_null<CompoundAssignOperator>(D.S);
    if (!BO ||
        (BO->getOpcode() != BO_AddAssign && BO->getOpcode() != BO_SubAssign))
      return std::nullopt;
    return offsetBy(resolve(BO->getLHS(), Depth + 1), BO->getRHS(),
                    D.Var->getType()->getPointeeType(),
                    BO->getOpcode() == BO_SubAssign);
  }
  case DefKind::IncDec:
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<Extent> Resolver::variable(const DeclRefExpr *DRE,
                                         unsigned Depth) {
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (!VD || DRE->refersToEnclosingVariableOrCapture())
    return std::nullopt;
  QualType T = VD->getType();
  if (const auto *Arr = Facts.context().getAsConstantArrayType(T)) {
    if (isa<ParmVarDecl>(VD))
      return std::nullopt;
    std::optional<int64_t> Size = sizeInBytes(T, Facts.context());
    if (!Size)
      return std::nullopt;
    Extent X;
    X.Bytes = SymExpr::constant(*Size);
    X.OriginVar = VD;
    X.Allocator = "array";
    X.ElementType = Arr->getElementType();
    return X;
  }
  if (!T->isPointerType())
    return std::nullopt;
  auto Reaching = Facts.reachingDefinitions(VD, DRE);
  if (!Reaching)
    return std::nullopt;
  std::optional<Extent> Result;
  for (const Definition *D : *Reaching) {
    std::optional<Extent> X = definition(*D, DRE, Depth + 1);
    if (!X || (Result && !sameExtent(*Result, *X)))
      return std::nullopt;
    if (!Result)
      Result = X;
  }
  return Result;
}

std::optional<Extent> Resolver::resolve(const Expr *E, unsigned Depth) {
  if (!E || Depth > MaxDepth || E->isValueDependent() || E->isTypeDependent() ||
      E->containsErrors())
    return std::nullopt;
  E = ignoreWrappers(E);
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    switch (Cast->getCastKind()) {
    case CK_LValueToRValue:
    case CK_NoOp:
    case CK_BitCast:
    case CK_ArrayToPointerDecay:
    case CK_AddressSpaceConversion:
      return resolve(Cast->getSubExpr(), Depth + 1);
    default:
      return std::nullopt;
    }
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return variable(DRE, Depth + 1);
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return arithmetic(BO, Depth);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return address(UO, Depth);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return conditional(CO, Depth);
  if (const auto *New = dyn_cast<CXXNewExpr>(E))
    return newArray(New);
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    // A device_ptr copied or converted on its way.
    if (Construct->getNumArgs() == 1 && Construct->getConstructor() &&
        Construct->getConstructor()->isCopyOrMoveConstructor())
      return resolve(Construct->getArg(0), Depth + 1);
    return std::nullopt;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return call(Call, Depth);
  return std::nullopt;
}

/// `p + i`, `i + p`, `p - i`, `(a, p)`.
std::optional<Extent> Resolver::arithmetic(const BinaryOperator *BO,
                                           unsigned Depth) {
  if (BO->getOpcode() == BO_Comma)
    return resolve(BO->getRHS(), Depth + 1);
  if (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub)
    return std::nullopt;
  const Expr *Ptr = BO->getLHS(), *Index = BO->getRHS();
  if (!Ptr->getType()->isPointerType())
    std::swap(Ptr, Index);
  if (!Ptr->getType()->isPointerType() ||
      !Index->getType()->isIntegralOrEnumerationType() ||
      (BO->getOpcode() == BO_Sub && Ptr != BO->getLHS()))
    return std::nullopt;
  return offsetBy(resolve(Ptr, Depth + 1), Index,
                  Ptr->getType()->getPointeeType(), BO->getOpcode() == BO_Sub);
}

/// `&p[i]`, `&v[i]`.
std::optional<Extent> Resolver::address(const UnaryOperator *UO,
                                        unsigned Depth) {
  if (UO->getOpcode() != UO_AddrOf)
    return std::nullopt;
  const Expr *Sub = UO->getSubExpr()->IgnoreParens();
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Sub)) {
    const Expr *Base = AS->getBase(), *Index = AS->getIdx();
    if (!Base->getType()->isPointerType())
      return std::nullopt;
    return offsetBy(resolve(Base, Depth + 1), Index,
                    Base->getType()->getPointeeType(), false);
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Sub))
    if (Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2)
      return element(Op->getArg(0), Op->getArg(1));
  return std::nullopt;
}

/// `c ? p : q`: the branch a constant condition takes, or the extent both
/// branches share.
std::optional<Extent> Resolver::conditional(const ConditionalOperator *CO,
                                            unsigned Depth) {
  std::optional<SymExpr> Cond = Facts.evaluate(CO->getCond());
  if (Cond && Cond->isConstant())
    return resolve(*Cond->getConstant() ? CO->getTrueExpr()
                                        : CO->getFalseExpr(),
                   Depth + 1);
  std::optional<Extent> L = resolve(CO->getTrueExpr(), Depth + 1);
  std::optional<Extent> R =
      L ? resolve(CO->getFalseExpr(), Depth + 1) : std::nullopt;
  if (L && R && sameExtent(*L, *R))
    return L;
  return std::nullopt;
}

/// `new T[n]`.
std::optional<Extent> Resolver::newArray(const CXXNewExpr *New) {
  if (!New->isArray() || New->getNumPlacementArgs() != 0)
    return std::nullopt;
  std::optional<const Expr *> Count = New->getArraySize();
  if (!Count || !*Count)
    return std::nullopt;
  std::optional<Extent> X =
      Extent::ofElements(Facts.evaluate(*Count),
                         sizeInBytes(New->getAllocatedType(), Facts.context()));
  if (!X)
    return std::nullopt;
  X->Origin = New;
  X->Allocator = "new[]";
  X->SizeExpr = *Count;
  X->ElementType = New->getAllocatedType();
  return X;
}

/// What a library model knows, a container's data(), an allocator's
/// result.
std::optional<Extent> Resolver::call(const CallExpr *Call, unsigned Depth) {
  Query Q(*this, Depth);
  for (const LibraryModel *M : libraryModels())
    if (std::optional<Extent> X = M->extent(Call, Q))
      return X;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    if (callsContainerMethod(MC, memory_api::MethodKind::StoragePointer) &&
        MC->getNumArgs() == 0)
      return container(MC->getImplicitObjectArgument());
    return std::nullopt;
  }
  if (!callee(Call))
    return std::nullopt;
  if (std::optional<Extent> X = allocatorResult(Call))
    return X;
  return helperResult(Call, Depth);
}

/// The buffer a function of the unit returns: one whose body has a single
/// `return`, of a pointer this file resolves there (`float *p;
/// cudaMalloc(&p, n * sizeof(float)); return p;`), with the parameters
/// bound to the call's arguments. A helper that may return something else
/// (a pool, a cached buffer) is not followed, nor one a chain of helpers
/// more than two deep reaches.
std::optional<Extent> Resolver::helperResult(const CallExpr *Call,
                                             unsigned Depth) {
  const FunctionDecl *FD = Call->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def || isa<CXXMethodDecl>(Def) ||
      Def->isVariadic() || Def->getNumParams() != Call->getNumArgs() ||
      !Def->getReturnType()->isPointerType() || Facts.contextDepth() >= 2)
    return std::nullopt;
  const ReturnStmt *Only = nullptr;
  bool Many = anyStmt(Def->getBody(), [&](const Stmt *S) {
    if (isa<LambdaExpr>(S))
      return true;
    const auto *R = dyn_cast<ReturnStmt>(S);
    if (!R)
      return false;
    if (Only)
      return true;
    Only = R;
    return false;
  });
  if (Many || !Only || !Only->getRetValue())
    return std::nullopt;
  ValueFacts Inner(sharedValueFacts(Def, Def->getASTContext()), Call, Facts);
  std::optional<Extent> X =
      Resolver(Inner).resolve(Only->getRetValue(), Depth + 1);
  if (X)
    X->Through = Call;
  return X;
}

/// The buffer of the sized container `Object` from element `Index` on.
std::optional<Extent> Resolver::element(const Expr *Object,
                                        const Expr *Index) {
  QualType Elem;
  if (!Object || !isSizedContainer(Object->getType(), &Elem))
    return std::nullopt;
  return offsetBy(container(Object), Index, Elem, false);
}

/// The buffer an allocator returns: malloc(bytes), calloc(count, size).
std::optional<Extent> Resolver::allocatorResult(const CallExpr *Call) {
  const memory_api::Allocator *A = calledAllocator(Call);
  if (!A || A->outParameter() || A->SizeArg < 0 ||
      unsigned(A->SizeArg) >= Call->getNumArgs() ||
      (A->CountArg >= 0 && unsigned(A->CountArg) >= Call->getNumArgs()))
    return std::nullopt;
  const Expr *SizeExpr =
      Call->getArg(A->CountArg >= 0 ? A->CountArg : A->SizeArg);
  std::optional<SymExpr> Bytes = Facts.evaluate(Call->getArg(A->SizeArg));
  if (Bytes && A->CountArg >= 0) {
    std::optional<SymExpr> Count = Facts.evaluate(Call->getArg(A->CountArg));
    Bytes = Count ? Count->mul(*Bytes) : std::nullopt;
  }
  if (!Bytes)
    return std::nullopt;
  Extent X;
  X.Bytes = *Bytes;
  X.Origin = Call;
  X.Allocator = A->Name;
  X.SizeExpr = SizeExpr;
  return X;
}

} // namespace

const CallExpr *onlyCopyInto(const VarDecl *Var, const Decl *Callable) {
  if (!Var || !analysableBody(Callable))
    return nullptr;
  llvm::ArrayRef<BodyStmt> Stmts = stmtsIn(Callable);
  const CallExpr *Copy = nullptr;
  for (size_t I = 0; I < Stmts.size(); ++I) {
    const auto *Ref = dyn_cast<DeclRefExpr>(Stmts[I].S);
    if (!Ref || Ref->getDecl() != Var)
      continue;
    // Up through parentheses, casts and `&` to the call it is an argument
    // of.
    int At = static_cast<int>(I), Up = Stmts[I].Parent;
    bool AddressTaken = false;
    while (Up >= 0 && isa<ParenExpr, CastExpr, UnaryOperator>(Stmts[Up].S)) {
      if (const auto *U = dyn_cast<UnaryOperator>(Stmts[Up].S)) {
        if (U->getOpcode() != UO_AddrOf || AddressTaken)
          return nullptr;
        AddressTaken = true;
      }
      At = Up;
      Up = Stmts[Up].Parent;
    }
    const auto *Call = Up >= 0 ? dyn_cast<CallExpr>(Stmts[Up].S) : nullptr;
    const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
    if (!FD || !FD->getIdentifier())
      return nullptr;
    int Arg = -1;
    for (unsigned A = 0; A < Call->getNumArgs(); ++A)
      if (Call->getArg(A) == Stmts[At].S)
        Arg = static_cast<int>(A);
    if (Arg < 0)
      return nullptr; // the callee itself
    llvm::StringRef Name = FD->getName();
    if (AddressTaken) {
      if (!calledAllocator(Call))
        return nullptr;
      continue;
    }
    const runtime_api::RuntimeCall *R = runtime_api::lookupRuntimeCall(Name);
    if (lookupFunction(Name) || (R && R->Kind == RuntimeKind::Free))
      continue;
    if (R && R->Kind == RuntimeKind::Copy) {
      if (Arg == R->SourceArg)
        continue; // copied from
      if (Arg != R->TargetArg || Copy)
        return nullptr;
      Copy = Call;
      continue;
    }
    return nullptr;
  }
  return Copy;
}

std::optional<ShortPointerArray>
shortPointerArray(const Expr *Array, const SymExpr &Count,
                  int64_t PointerBytes, const ValueFacts &Facts,
                  const SymbolBounds &Bounds) {
  std::optional<SymExpr> Needed = Count.mul(SymExpr::constant(PointerBytes));
  if (!Array || !Needed)
    return std::nullopt;
  if (std::optional<Extent> X = pointerExtent(Array, Facts)) {
    if (X->provenShorterThan(Count, PointerBytes, Bounds))
      return ShortPointerArray{*X->remainingBytes(), X, nullptr};
    if (X->OffsetBytes != SymExpr::constant(0))
      return std::nullopt;
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(Array->IgnoreParenCasts());
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  const CallExpr *Copy = onlyCopyInto(Var, Facts.callable());
  const runtime_api::RuntimeCall *R =
      Copy ? runtime_api::lookupRuntimeCall(
                 Copy->getDirectCallee()->getName())
           : nullptr;
  if (!R || R->BytesArg < 0 || Copy->getNumArgs() <= unsigned(R->BytesArg))
    return std::nullopt;
  std::optional<SymExpr> Copied = Facts.evaluate(Copy->getArg(R->BytesArg));
  if (!Copied || !provenLess(*Copied, *Needed, Bounds))
    return std::nullopt;
  return ShortPointerArray{*Copied, std::nullopt, Copy};
}

bool isSquare(const Extent &X, int64_t ElementBytes) {
  std::optional<SymExpr> N = X.totalElements(ElementBytes);
  if (!N || N->constantTerm() != 0 || N->terms().size() != 1)
    return false;
  const auto &[M, Coefficient] = N->terms().front();
  return Coefficient == 1 && M.degree() == 2 && M.First == M.Second;
}

std::optional<Extent> pointerExtent(const Expr *Ptr, const ValueFacts &Facts) {
  return Resolver(Facts).resolve(Ptr, 0);
}

} // namespace cublas_tidy
