//===- PointerProvenance.cpp ----------------------------------------------===//

#include "facts/PointerProvenance.h"

#include "ast/CutOffs.h"
#include "facts/HandleNames.h"
#include "facts/LibraryModel.h"
#include "facts/MemoryObjects.h"

#include "ast/SharedCfg.h"

#include "ast/AstUtils.h"
#include "ast/TypeNames.h"
#include "ast/Callables.h"
#include "ast/LocalUses.h"
#include "ast/PlainUses.h"
#include "model/CublasApi.h"
#include "model/RuntimeCalls.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <map>
#include <set>

#include <cstring>

using namespace clang;

namespace cublas_tidy {

SourceLocation PointerOrigin::location() const {
  if (Where)
    return Where->getBeginLoc();
  if (Object)
    return Object->getLocation();
  return {};
}

namespace {

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

/// The memory an allocator's or a container's memory space is.
MemoryKind kindOf(memory_api::MemorySpace Space) {
  switch (Space) {
  case memory_api::MemorySpace::Device:
    return MemoryKind::Device;
  case memory_api::MemorySpace::Managed:
    return MemoryKind::Managed;
  case memory_api::MemorySpace::PinnedHost:
    return MemoryKind::PinnedHost;
  case memory_api::MemorySpace::PageableHost:
    return MemoryKind::PageableHost;
  }
  return MemoryKind::Unknown;
}

/// std::unique_ptr<T, std::default_delete<T>>: what it holds was made by
/// `new`, or deleting it would be undefined.
bool isDefaultDeleteUniquePtr(QualType T, bool ThroughPointer) {
  std::string Name;
  const ClassTemplateSpecializationDecl *Spec =
      specialization(T, ThroughPointer, Name);
  return Spec && Name == "std::unique_ptr" &&
         templateArgIs(Spec, 1, "std::default_delete");
}

/// The variable an object expression names, when it is one.
const ValueDecl *namedVariable(const Expr *E) {
  if (!E)
    return nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

/// The parameter argument `I` of `Call` initialises, if known.
const ParmVarDecl *paramForArg(const CallExpr *Call, unsigned I) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD)
    return nullptr;
  // A member operator's object is its first argument.
  if (isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(FD) &&
      !cast<CXXMethodDecl>(FD)->isStatic()) {
    if (I == 0)
      return nullptr;
    --I;
  }
  return I < FD->getNumParams() ? FD->getParamDecl(I) : nullptr;
}

bool isMutableReference(const ParmVarDecl *P) {
  if (!P)
    return false;
  QualType T = P->getType();
  if (T->isRValueReferenceType())
    return true;
  return T->isLValueReferenceType() &&
         !T.getNonReferenceType().isConstQualified();
}

bool isDeviceCode(const Decl *D) {
  const auto *FD = dyn_cast<FunctionDecl>(D);
  if (!FD)
    return false;
  if (FD->hasAttr<CUDAGlobalAttr>())
    return true;
  return FD->hasAttr<CUDADeviceAttr>() && !FD->hasAttr<CUDAHostAttr>();
}

//===----------------------------------------------------------------------===//
// Escapes
//===----------------------------------------------------------------------===//

/// Variables used other than through the forms the analysis follows: the
/// plain uses every flow analysis follows (ast/PlainUses.h: loads,
/// assignments, increments, casts to void), and besides them an array's
/// decay, `sizeof`, and `&v` or `v` bound to a reference as a direct
/// argument of a call (followed at the call). Captures by reference escape;
/// handles captured in any way escape too (a copy shares the context).
/// One pass over the statements of the body in pre-order (stmtsIn(), which
/// other analyses share): a use is marked plain by its parent before the
/// reference is reached.
class EscapeScan {
public:
  llvm::DenseSet<const VarDecl *> Escaped;

  void scan(const Decl *Callable) {
    for (const BodyStmt &N : stmtsIn(Callable)) {
      const Stmt *S = N.S;
      Uses.visit(S);
      if (const auto *E = dyn_cast<DeclRefExpr>(S))
        visitDeclRefExpr(E);
      else if (const auto *E = dyn_cast<ImplicitCastExpr>(S))
        visitImplicitCastExpr(E);
      else if (const auto *E = dyn_cast<CallExpr>(S))
        visitCallExpr(E);
      else if (const auto *E = dyn_cast<BinaryOperator>(S))
        visitBinaryOperator(E);
      else if (const auto *E = dyn_cast<DeclStmt>(S)) {
        for (const Decl *D : E->decls())
          if (const auto *VD = dyn_cast<VarDecl>(D))
            visitVarDecl(VD);
      } else if (const auto *E = dyn_cast<InitListExpr>(S))
        visitInitListExpr(E);
      else if (const auto *E = dyn_cast<CXXConstructExpr>(S))
        visitCXXConstructExpr(E);
      else if (const auto *E = dyn_cast<CXXNewExpr>(S))
        visitCXXNewExpr(E);
      else if (const auto *E = dyn_cast<UnaryExprOrTypeTraitExpr>(S))
        visitUnaryExprOrTypeTraitExpr(E);
      else if (const auto *E = dyn_cast<LambdaExpr>(S))
        visitLambdaExpr(E);
    }
  }

private:
  void visitCallExpr(const CallExpr *Call) {
    for (unsigned I = 0, E = Call->getNumArgs(); I < E; ++I) {
      const Expr *Arg = Call->getArg(I);
      if (!Arg)
        continue;
      if (const auto *UO = dyn_cast<UnaryOperator>(Arg->IgnoreParenCasts()))
        if (UO->getOpcode() == UO_AddrOf)
          markPlain(UO->getSubExpr());
      if (const ParmVarDecl *P = paramForArg(Call, I))
        if (P->getType()->isReferenceType())
          markPlain(Arg->IgnoreParenImpCasts());
    }
  }
  void visitImplicitCastExpr(const ImplicitCastExpr *ICE) {
    if (ICE->getCastKind() == CK_ArrayToPointerDecay)
      Uses.markPlain(ICE->getSubExpr());
  }
  void visitBinaryOperator(const BinaryOperator *BO) {
    if (BO->isAssignmentOp()) {
      // A handle copied anywhere but into a local variable may have its
      // mode changed through the copy.
      const auto *To = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens());
      const auto *ToVar = To ? dyn_cast<VarDecl>(To->getDecl()) : nullptr;
      if (!ToVar || !ToVar->hasLocalStorage())
        escapeHandle(BO->getRHS());
    }
  }
  void visitVarDecl(const VarDecl *VD) {
    if (!VD->hasLocalStorage() || VD->getType()->isReferenceType())
      escapeHandle(VD->getInit());
  }
  void visitInitListExpr(const InitListExpr *ILE) {
    for (const Expr *Init : ILE->inits())
      escapeHandle(Init);
  }
  void visitCXXConstructExpr(const CXXConstructExpr *CE) {
    for (const Expr *Arg : CE->arguments())
      escapeHandle(Arg);
  }
  void visitCXXNewExpr(const CXXNewExpr *NE) {
    for (const Expr *Arg : NE->placement_arguments())
      escapeHandle(Arg);
  }
  void visitUnaryExprOrTypeTraitExpr(const UnaryExprOrTypeTraitExpr *E) {
    if (!E->isArgumentType())
      markPlain(E->getArgumentExpr());
  }
  void visitLambdaExpr(const LambdaExpr *LE) {
    for (const LambdaCapture &C : LE->captures()) {
      if (!C.capturesVariable())
        continue;
      const auto *VD = dyn_cast_or_null<VarDecl>(C.getCapturedVar());
      if (!VD)
        continue;
      if (LE->isInitCapture(&C))
        visitVarDecl(VD); // `[&h2 = h]` binds h to a reference
      if (C.getCaptureKind() == LCK_ByRef ||
          isPointerModeHandleType(VD->getType()))
        Escaped.insert(VD);
    }
  }
  void visitDeclRefExpr(const DeclRefExpr *DRE) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (!Uses.isPlain(DRE))
        Escaped.insert(VD);
  }

  void escapeHandle(const Expr *E) {
    if (!E)
      return;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (isPointerModeHandleType(VD->getType()))
          Escaped.insert(VD);
  }
  void markPlain(const Expr *E) {
    if (E)
      Uses.markPlain(E);
  }
  PlainUses Uses;
};

//===----------------------------------------------------------------------===//
// The lattice
//===----------------------------------------------------------------------===//

/// A pointer's value: Bottom (null or not assigned yet), a known kind of
/// memory with its origin, or Top (unknown).
struct Value {
  enum Tag : std::uint8_t { Bottom, Known, Top };
  Tag T = Top;
  MemoryKind Kind = MemoryKind::Unknown;
  PointerOrigin Origin;

  static Value bottom() {
    Value V;
    V.T = Bottom;
    return V;
  }
  static Value top() { return Value(); }
  static Value known(MemoryKind K, PointerOrigin O) {
    Value V;
    V.T = Known;
    V.Kind = K;
    V.Origin = O;
    return V;
  }
  friend bool operator==(const Value &L, const Value &R) {
    return L.T == R.T && L.Kind == R.Kind && L.Origin == R.Origin;
  }
};

/// A handle's pointer mode. Absent from the state means unknown.
struct ModeValue {
  PointerMode Mode = PointerMode::Unknown;
  const CallExpr *Where = nullptr;
  bool FromCreate = false;
  /// The cublasCreate call that made the context, when it is in this
  /// function: handles from different calls are different contexts.
  const CallExpr *CreatedBy = nullptr;

  friend bool operator==(const ModeValue &L, const ModeValue &R) {
    return L.Mode == R.Mode && L.Where == R.Where &&
           L.FromCreate == R.FromCreate && L.CreatedBy == R.CreatedBy;
  }
};

/// A map kept as a vector sorted by key: the states are small, copied at
/// every block and call, and compared at every join, which a node-based map
/// pays for in allocations. Iteration is in key order, as std::map's.
template <class K, class V> class FlatMap {
  using Entry = std::pair<K, V>;
  llvm::SmallVector<Entry, 4> Entries;
  static bool keyLess(const Entry &E, K Key) { return E.first < Key; }

public:
  using iterator = typename llvm::SmallVector<Entry, 4>::iterator;
  using const_iterator = typename llvm::SmallVector<Entry, 4>::const_iterator;
  iterator begin() { return Entries.begin(); }
  iterator end() { return Entries.end(); }
  const_iterator begin() const { return Entries.begin(); }
  const_iterator end() const { return Entries.end(); }
  bool empty() const { return Entries.empty(); }
  void clear() { Entries.clear(); }
  iterator find(K Key) {
    iterator It = llvm::lower_bound(Entries, Key, keyLess);
    return It != Entries.end() && It->first == Key ? It : Entries.end();
  }
  const_iterator find(K Key) const {
    const_iterator It = llvm::lower_bound(Entries, Key, keyLess);
    return It != Entries.end() && It->first == Key ? It : Entries.end();
  }
  std::pair<iterator, bool> emplace(K Key, const V &Val) {
    iterator It = llvm::lower_bound(Entries, Key, keyLess);
    if (It != Entries.end() && It->first == Key)
      return {It, false};
    return {Entries.insert(It, Entry(Key, Val)), true};
  }
  V &operator[](K Key) { return emplace(Key, V()).first->second; }
  iterator erase(iterator It) { return Entries.erase(It); }
  size_t erase(K Key) {
    iterator It = find(Key);
    if (It == Entries.end())
      return 0;
    Entries.erase(It);
    return 1;
  }
  friend bool operator==(const FlatMap &L, const FlatMap &R) {
    return L.Entries == R.Entries;
  }
};

struct State {
  /// Tracked local pointers; absent means Bottom.
  FlatMap<const VarDecl *, Value> Ptrs;
  /// Handles (variables, members of `this`); absent means unknown.
  FlatMap<const ValueDecl *, ModeValue> Modes;

  friend bool operator==(const State &L, const State &R) {
    return L.Ptrs == R.Ptrs && L.Modes == R.Modes;
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// The analysis
//===----------------------------------------------------------------------===//

struct PointerProvenance::Impl {
  ASTContext *Ctx = nullptr;
  const Decl *Callable = nullptr;
  const DeclContext *Scope = nullptr;
  bool Complete = false;
  llvm::DenseSet<const VarDecl *> Escaped;
  const CFG *Cfg = nullptr;
  std::vector<const CallExpr *> Calls;
  llvm::DenseMap<const CallExpr *, unsigned> CallIndex;
  std::vector<State> Snapshots;
  /// What the first argument of each cudaHostRegister call pointed to.
  std::vector<Value> Registered;
  bool Recording = false;
  /// Options::CublasCallsOnly, Options::AlsoKeep.
  bool CublasCallsOnly = false;
  std::function<bool(const clang::CallExpr *)> AlsoKeep;

  // Variables.
  bool isTrackedPointer(const VarDecl *VD) const {
    return VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) &&
           !VD->isInvalidDecl() && VD->getType()->isPointerType() &&
           !isPointerModeHandleType(VD->getType()) &&
           !VD->getType().isVolatileQualified() &&
           VD->getDeclContext() == Scope && !Escaped.contains(VD);
  }
  /// What the tracked pointer variable `VD` holds in `S` (nothing set on
  /// any path yet: bottom).
  static Value heldIn(const VarDecl *VD, const State &S) {
    auto It = S.Ptrs.find(VD);
    return It == S.Ptrs.end() ? Value::bottom() : It->second;
  }
  /// The state kept at `Call`, or null (an incomplete analysis, a call it
  /// did not keep).
  const State *stateAt(const CallExpr *Call) const {
    auto It = Complete && Call ? CallIndex.find(Call) : CallIndex.end();
    return It == CallIndex.end() ? nullptr : &Snapshots[It->second];
  }
  const VarDecl *trackedPointer(const Expr *E) const {
    if (!E)
      return nullptr;
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParens());
    if (!DRE || DRE->refersToEnclosingVariableOrCapture())
      return nullptr;
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    return isTrackedPointer(VD) ? VD : nullptr;
  }
  /// The handle an expression names (HandleNames.h) when the analysis
  /// can key its state on it: a variable, a member of `this`, or the local
  /// or parameter a local copy holds when neither changes. Any other local
  /// (one holding a library's, an accessor's or a member's handle) is keyed
  /// on itself.
  const ValueDecl *handleKey(const Expr *E) const {
    if (!E)
      return nullptr;
    E = E->IgnoreParenImpCasts();
    if (!isPointerModeHandleType(E->getType()))
      return nullptr;
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    if (DRE && DRE->refersToEnclosingVariableOrCapture())
      return nullptr;
    if (!Unchanged)
      Unchanged = std::make_unique<UnchangedVariables>(Callable);
    std::optional<HandleName> N = handleNamed(E, Callable, *Unchanged);
    const ValueDecl *Key = N ? N->plainKey() : nullptr;
    // A copy is keyed on its source only when the source keeps its value
    // too: `copy = h; cublasCreate(&h);` leaves copy on the old handle.
    if (DRE && Key != DRE->getDecl()) {
      const auto *Source = dyn_cast_or_null<VarDecl>(Key);
      if (!Source || !Unchanged->stable(Source))
        Key = DRE->getDecl();
    }
    const auto *VD = dyn_cast_or_null<VarDecl>(Key);
    if (VD && (VD->isInvalidDecl() || Escaped.contains(VD) ||
               VD->getType()->isReferenceType()))
      return nullptr;
    return VD || isa_and_nonnull<FieldDecl>(Key) ? Key : nullptr;
  }
  mutable std::unique_ptr<UnchangedVariables> Unchanged;

  // Evaluation.
  Value join(const Value &A, const Value &B) const;
  Value eval(const Expr *E, const State &S, unsigned Depth = 0) const;
  Value evalAddress(const Expr *E, const State &S, unsigned Depth) const;
  Value evalCast(const CastExpr *Cast, const State &S, unsigned Depth) const;
  Value evalBinary(const BinaryOperator *BO, const State &S,
                   unsigned Depth) const;
  Value evalCall(const CallExpr *Call, const State &S, unsigned Depth) const;
  Value evalContainer(const Expr *Whole, const Expr *Object, bool Arrow,
                      const State &S, unsigned Depth) const;
  class Query;
  Value hostStorageOf(const VarDecl *VD) const;
  bool spelledManaged(const VarDecl *VD) const;

  // Transfer.
  void transfer(const Stmt *S, State &St);
  void transferCall(const CallExpr *Call, State &St);
  void record(const CallExpr *Call, bool Cublas, const State &St);
  void transferOutArguments(const CallExpr *Call, int CreatedOut, State &St);
  void setPointerMode(const CallExpr *Call, const Expr *HandleArg,
                      const Expr *ModeExpr, State &St);
  void userCodeRuns(const FunctionDecl *FD, llvm::ArrayRef<const Expr *> Args,
                    bool OnThis, State &St) const;
  void assignHandle(const ValueDecl *Key, const Expr *From, State &St);
  void invalidateHandle(const ValueDecl *Key, State &St) const;
  void joinInto(State &Into, const State &From) const;

  void run(const PointerProvenance::Options &Opts);
  bool solve(const PointerProvenance::Options &Opts);
  void sortCalls();
  Value applyRegistrations(Value V) const;
};

Value PointerProvenance::Impl::join(const Value &A, const Value &B) const {
  if (A.T == Value::Bottom)
    return B;
  if (B.T == Value::Bottom)
    return A;
  if (A.T == Value::Top || B.T == Value::Top || A.Kind != B.Kind)
    return Value::top();
  if (A.Origin == B.Origin)
    return A;
  // Same kind from two origins: name the one first in the source.
  SourceLocation LA = A.Origin.location(), LB = B.Origin.location();
  if (LA.isInvalid())
    return B;
  if (LB.isInvalid())
    return A;
  return Ctx->getSourceManager().isBeforeInTranslationUnit(LB, LA) ? B : A;
}

Value PointerProvenance::Impl::hostStorageOf(const VarDecl *VD) const {
  if (!VD || VD->isInvalidDecl() || VD->getType()->isReferenceType())
    return Value::top();
  PointerOrigin O;
  O.Kind =
      VD->getType()->isArrayType() ? OriginKind::Array : OriginKind::Variable;
  O.Object = VD;
  if (VD->hasLocalStorage())
    return Value::known(MemoryKind::PageableHost, O);
  // Globals and statics: a __device__ or __constant__ variable's address in
  // host code is a shadow, a __managed__ one is managed memory.
  if (VD->hasAttr<CUDADeviceAttr>() || VD->hasAttr<CUDAConstantAttr>() ||
      VD->hasAttr<CUDASharedAttr>())
    return Value::top();
  if (VD->hasAttr<HIPManagedAttr>() || spelledManaged(VD))
    return Value::known(MemoryKind::Managed, O);
  return Value::known(MemoryKind::PageableHost, O);
}

/// clang drops CUDA's `__managed__` (`__attribute__((managed))`) with a
/// warning: look for it in the declaration's text before the name.
bool PointerProvenance::Impl::spelledManaged(const VarDecl *VD) const {
  const SourceManager &SM = Ctx->getSourceManager();
  SourceLocation Begin = SM.getExpansionLoc(VD->getBeginLoc());
  SourceLocation Name = SM.getExpansionLoc(VD->getLocation());
  if (Begin.isInvalid() || Name.isInvalid() ||
      SM.getFileID(Begin) != SM.getFileID(Name))
    return false;
  unsigned From = SM.getFileOffset(Begin), To = SM.getFileOffset(Name);
  if (To <= From || To - From > 512)
    return false;
  bool Invalid = false;
  llvm::StringRef Buffer = SM.getBufferData(SM.getFileID(Begin), &Invalid);
  if (Invalid || To > Buffer.size())
    return false;
  llvm::StringRef Text = Buffer.slice(From, To);
  return Text.contains("__managed__") || Text.contains("managed))") ||
         Text.contains("managed) ");
}

/// Recursion through nested expressions is bounded by `MaxDepth`.
static constexpr unsigned MaxDepth = 64;

Value PointerProvenance::Impl::eval(const Expr *E, const State &S,
                                    unsigned Depth) const {
  if (!E || Depth > MaxDepth || E->isTypeDependent() || E->isValueDependent())
    return Value::top();
  E = E->IgnoreParens();
  ++Depth;

  if (isa<CXXNullPtrLiteralExpr, GNUNullExpr>(E))
    return Value::bottom();
  if (const auto *IL = dyn_cast<IntegerLiteral>(E))
    return IL->getValue() == 0 ? Value::bottom() : Value::top();

  if (const auto *Cast = dyn_cast<CastExpr>(E))
    return evalCast(Cast, S, Depth);

  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_AddrOf)
      return evalAddress(UO->getSubExpr(), S, Depth);
    if (UO->isIncrementDecrementOp() && UO->getType()->isPointerType()) {
      if (const VarDecl *VD = trackedPointer(UO->getSubExpr()))
        return heldIn(VD, S);
    }
    return Value::top();
  }

  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return evalBinary(BO, S, Depth);

  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return join(eval(CO->getTrueExpr(), S, Depth),
                eval(CO->getFalseExpr(), S, Depth));
  if (const auto *BCO = dyn_cast<BinaryConditionalOperator>(E))
    return join(eval(BCO->getCommon(), S, Depth),
                eval(BCO->getFalseExpr(), S, Depth));
  if (const auto *OVE = dyn_cast<OpaqueValueExpr>(E))
    return eval(OVE->getSourceExpr(), S, Depth);

  if (const auto *FE = dyn_cast<FullExpr>(E))
    return eval(FE->getSubExpr(), S, Depth);
  if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E))
    return eval(MTE->getSubExpr(), S, Depth);
  if (const auto *BTE = dyn_cast<CXXBindTemporaryExpr>(E))
    return eval(BTE->getSubExpr(), S, Depth);
  if (const auto *ILE = dyn_cast<InitListExpr>(E)) {
    if (ILE->getNumInits() == 1 && ILE->getType()->isPointerType())
      return eval(ILE->getInit(0), S, Depth);
    return Value::top();
  }

  if (const auto *Call = dyn_cast<CallExpr>(E))
    return evalCall(Call, S, Depth);

  if (const auto *New = dyn_cast<CXXNewExpr>(E)) {
    const FunctionDecl *Op = New->getOperatorNew();
    if (New->getNumPlacementArgs() != 0 ||
        (Op && !Op->isReplaceableGlobalAllocationFunction()))
      return Value::top();
    PointerOrigin O;
    O.Kind = OriginKind::New;
    O.Where = New;
    O.Name = New->isArray() ? "new[]" : "new";
    return Value::known(MemoryKind::PageableHost, O);
  }
  return Value::top();
}

/// A cast of a pointer: the null pointer, a load of a tracked variable, an
/// array's decay, or a conversion that keeps the address.
Value PointerProvenance::Impl::evalCast(const CastExpr *Cast, const State &S,
                                        unsigned Depth) const {
  switch (Cast->getCastKind()) {
  case CK_NullToPointer:
    return Value::bottom();
  case CK_LValueToRValue:
    if (const VarDecl *VD = trackedPointer(Cast->getSubExpr()))
      return heldIn(VD, S);
    return Value::top();
  case CK_ArrayToPointerDecay:
    return evalAddress(Cast->getSubExpr(), S, Depth);
  case CK_NoOp:
  case CK_BitCast:
  case CK_BaseToDerived:
  case CK_DerivedToBase:
  case CK_UncheckedDerivedToBase:
  case CK_AddressSpaceConversion:
    if (Cast->getType()->isPointerType() &&
        Cast->getSubExpr()->getType()->isPointerType())
      return eval(Cast->getSubExpr(), S, Depth);
    return Value::top();
  default:
    return Value::top();
  }
}

/// Pointer arithmetic, assignments and commas.
Value PointerProvenance::Impl::evalBinary(const BinaryOperator *BO,
                                          const State &S,
                                          unsigned Depth) const {
  switch (BO->getOpcode()) {
  case BO_Add:
  case BO_Sub:
    if (!BO->getType()->isPointerType())
      return Value::top();
    if (BO->getLHS()->getType()->isPointerType())
      return eval(BO->getLHS(), S, Depth);
    if (BO->getRHS()->getType()->isPointerType())
      return eval(BO->getRHS(), S, Depth);
    return Value::top();
  case BO_Assign:
  case BO_Comma:
    return eval(BO->getRHS(), S, Depth);
  case BO_AddAssign:
  case BO_SubAssign:
    return eval(BO->getLHS(), S, Depth);
  default:
    return Value::top();
  }
}

/// The address of the lvalue `E`.
Value PointerProvenance::Impl::evalAddress(const Expr *E, const State &S,
                                           unsigned Depth) const {
  if (!E || Depth > MaxDepth || E->isTypeDependent() || E->isValueDependent())
    return Value::top();
  E = E->IgnoreParens();
  ++Depth;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (DRE->refersToEnclosingVariableOrCapture())
      return Value::top();
    return hostStorageOf(dyn_cast<VarDecl>(DRE->getDecl()));
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    Value Base = ME->isArrow() ? eval(ME->getBase(), S, Depth)
                               : evalAddress(ME->getBase(), S, Depth);
    // A part of an object is in the object's memory.
    if (Base.T == Value::Known && Base.Origin.Kind == OriginKind::Array)
      Base.Origin.Kind = OriginKind::Variable;
    return Base;
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    return eval(ASE->getBase(), S, Depth);
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Deref)
      return eval(UO->getSubExpr(), S, Depth);
    return Value::top();
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
    // &v[i]
    if (Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2)
      return evalContainer(E, Op->getArg(0), false, S, Depth);
    return Value::top();
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    // &v.front(), &v.back(), &v.at(i)
    if (callsContainerMethod(MC, memory_api::MethodKind::ElementAccess))
      if (const auto *ME =
              dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens()))
        return evalContainer(E, ME->getBase(), ME->isArrow(), S, Depth);
    return Value::top();
  }
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E))
    if (Cast->getCastKind() == CK_NoOp ||
        Cast->getCastKind() == CK_UncheckedDerivedToBase ||
        Cast->getCastKind() == CK_DerivedToBase)
      return evalAddress(Cast->getSubExpr(), S, Depth);
  return Value::top();
}

/// The storage of the container `Object` (`Arrow`: Object is a pointer to
/// it), taken by the expression `Whole`.
Value PointerProvenance::Impl::evalContainer(const Expr *Whole,
                                             const Expr *Object, bool Arrow,
                                             const State &S,
                                             unsigned Depth) const {
  if (!Object || Depth > MaxDepth)
    return Value::top();
  const Expr *Obj = Object->IgnoreParenImpCasts();
  std::optional<ContainerType> C = containerType(Obj->getType(), Arrow);
  if (!C)
    return Value::top();
  PointerOrigin O;
  O.Kind = OriginKind::Container;
  O.Where = Whole;
  O.Object = Arrow ? nullptr : namedVariable(Obj);
  O.Name = C->Row->Display;
  if (C->Row->Where == memory_api::Storage::Inline) {
    // A std::array's elements are where the array object is.
    Value Where =
        Arrow ? eval(Obj, S, Depth + 1) : evalAddress(Obj, S, Depth + 1);
    if (Where.T != Value::Known)
      return Where;
    return Value::known(Where.Kind, O);
  }
  if (!C->Space)
    return Value::top();
  return Value::known(kindOf(*C->Space), O);
}

/// A fact as the lattice holds it: Null is bottom, Unknown top.
static Value fromFact(const PointerFact &F) {
  switch (F.Kind) {
  case MemoryKind::Null:
    return Value::bottom();
  case MemoryKind::Unknown:
    return Value::top();
  default:
    return Value::known(F.Kind, F.Origin);
  }
}

static PointerFact toFact(const Value &V) {
  PointerFact F;
  switch (V.T) {
  case Value::Bottom:
    F.Kind = MemoryKind::Null;
    break;
  case Value::Top:
    break;
  case Value::Known:
    F.Kind = V.Kind;
    F.Origin = V.Origin;
    break;
  }
  return F;
}

/// The analysis at one point, as a library model asks it.
class PointerProvenance::Impl::Query : public PointerQuery {
public:
  Query(const Impl &I, const State &S, unsigned Depth)
      : I(I), S(S), Depth(Depth) {}
  ASTContext &context() const override { return *I.Ctx; }
  PointerFact pointee(const Expr *E) const override {
    return toFact(I.eval(E, S, Depth + 1));
  }
  PointerFact storage(const Expr *Whole, const Expr *Object,
                      bool Arrow) const override {
    return toFact(I.evalContainer(Whole, Object, Arrow, S, Depth + 1));
  }

private:
  const Impl &I;
  const State &S;
  unsigned Depth;
};

Value PointerProvenance::Impl::evalCall(const CallExpr *Call, const State &S,
                                        unsigned Depth) const {
  // What a library's call gives: t.data_ptr<float>(), buf.data(),
  // thrust::raw_pointer_cast(dv.data()).
  Query Q(*this, S, Depth);
  for (const LibraryModel *M : libraryModels())
    if (std::optional<PointerFact> F = M->pointee(Call, Q))
      return fromFact(*F);
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier())
    return Value::top();
  llvm::StringRef Name = FD->getName();

  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens());
    if (!ME)
      return Value::top();
    if (callsContainerMethod(MC, memory_api::MethodKind::StoragePointer) &&
        MC->getNumArgs() == 0 && MC->getType()->isPointerType())
      return evalContainer(Call, ME->getBase(), ME->isArrow(), S, Depth);
    // std::unique_ptr::get() with the default deleter: memory from `new`.
    if (Name == "get" && MC->getNumArgs() == 0 &&
        isDefaultDeleteUniquePtr(
            ME->getBase()->IgnoreParenImpCasts()->getType(), ME->isArrow())) {
      PointerOrigin O;
      O.Kind = OriginKind::Container;
      O.Where = Call;
      O.Object = ME->isArrow() ? nullptr : namedVariable(ME->getBase());
      O.Name = "std::unique_ptr";
      return Value::known(MemoryKind::PageableHost, O);
    }
    return Value::top();
  }

  if (Name == "addressof" && Call->getNumArgs() == 1 &&
      qualifiedName(FD) == "std::addressof")
    return evalAddress(Call->getArg(0), S, Depth);

  if (const memory_api::Allocator *A = allocatorOf(FD);
      A && !A->outParameter()) {
    PointerOrigin O;
    O.Kind = OriginKind::Allocation;
    O.Where = Call;
    O.Name = A->Name;
    return Value::known(kindOf(A->Space), O);
  }
  return Value::top();
}

//===----------------------------------------------------------------------===//
// Transfer functions
//===----------------------------------------------------------------------===//

void PointerProvenance::Impl::invalidateHandle(const ValueDecl *Key,
                                               State &St) const {
  auto It = St.Modes.find(Key);
  const CallExpr *Created =
      It == St.Modes.end() ? nullptr : It->second.CreatedBy;
  // Any handle that may share its context goes too.
  for (auto I = St.Modes.begin(); I != St.Modes.end();) {
    bool Distinct =
        Created && I->second.CreatedBy && I->second.CreatedBy != Created;
    if (I->first == Key || !Distinct)
      I = St.Modes.erase(I);
    else
      ++I;
  }
}

void PointerProvenance::Impl::assignHandle(const ValueDecl *Key,
                                           const Expr *From, State &St) {
  const ValueDecl *Src = handleKey(From);
  std::optional<ModeValue> V;
  if (Src) {
    auto It = St.Modes.find(Src);
    if (It != St.Modes.end())
      V = It->second;
  }
  St.Modes.erase(Key);
  if (V)
    St.Modes[Key] = *V;
}

void PointerProvenance::Impl::transfer(const Stmt *S, State &St) {
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls()) {
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD)
        continue;
      if (isTrackedPointer(VD)) {
        Value V = VD->getInit() ? eval(VD->getInit(), St) : Value::bottom();
        if (V.T == Value::Bottom)
          St.Ptrs.erase(VD);
        else
          St.Ptrs[VD] = V;
      } else if (isPointerModeHandleType(VD->getType()) &&
                 !VD->getType()->isReferenceType() && !Escaped.contains(VD)) {
        assignHandle(VD, VD->getInit(), St);
      }
    }
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->getOpcode() != BO_Assign)
      return;
    if (const VarDecl *VD = trackedPointer(BO->getLHS())) {
      Value V = eval(BO->getRHS(), St);
      if (V.T == Value::Bottom)
        St.Ptrs.erase(VD);
      else
        St.Ptrs[VD] = V;
      return;
    }
    if (const ValueDecl *Key = handleKey(BO->getLHS()))
      assignHandle(Key, BO->getRHS(), St);
    return;
  }
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    transferCall(Call, St);
    return;
  }
  // A constructor of the user's, e.g. a guard that sets the pointer mode of
  // the handle it is given and restores it when destroyed.
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(S))
    userCodeRuns(Construct->getConstructor(),
                 llvm::ArrayRef(Construct->getArgs(), Construct->getNumArgs()),
                 false, St);
}

void PointerProvenance::Impl::transferCall(const CallExpr *Call, State &St) {
  const FunctionInfo *Cublas = calledCublasFunction(Call);
  if (Recording)
    record(Call, Cublas != nullptr, St);

  int CreatedOut = -1, ModeArg = -1, ModeHandle = -1;
  if (Cublas) {
    if (carriesPointerMode(Cublas->Creates))
      CreatedOut = Cublas->findParam(ParamRole::ResourceOut);
    ModeArg = Cublas->findParam(ParamRole::PointerMode);
    if (ModeArg >= 0)
      ModeHandle = Cublas->findParam(ParamRole::Resource);
  }
  transferOutArguments(Call, CreatedOut, St);

  if (ModeArg >= 0 && ModeHandle >= 0 &&
      static_cast<unsigned>(std::max(ModeArg, ModeHandle)) <
          Call->getNumArgs()) {
    setPointerMode(Call, Call->getArg(ModeHandle), Call->getArg(ModeArg), St);
    return;
  }

  if (Cublas)
    return;
  bool OnThis = false;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    if (const Expr *Obj = MC->getImplicitObjectArgument())
      OnThis = isa<CXXThisExpr>(Obj->IgnoreParenImpCasts());
  userCodeRuns(Call->getDirectCallee(),
               llvm::ArrayRef(Call->getArgs(), Call->getNumArgs()), OnThis,
               St);
}

/// Keeps the state at a call the analysis answers for, and what
/// cudaHostRegister registers.
void PointerProvenance::Impl::record(const CallExpr *Call, bool Cublas,
                                     const State &St) {
  if (Cublas || !CublasCallsOnly || (AlsoKeep && AlsoKeep(Call))) {
    auto [It, New] = CallIndex.try_emplace(Call, Snapshots.size());
    if (New) {
      Calls.push_back(Call);
      Snapshots.push_back(St);
    }
  }
  const FunctionDecl *FD = Call->getDirectCallee();
  const runtime_api::RuntimeCall *R =
      FD && isGlobalFunction(FD)
          ? runtime_api::lookupRuntimeCall(FD->getName())
          : nullptr;
  if (R && R->Kind == runtime_api::RuntimeKind::Register &&
      Call->getNumArgs() > unsigned(R->TargetArg))
    Registered.push_back(eval(Call->getArg(R->TargetArg), St));
}

/// What the call may write through its arguments (`&p`, or `p` bound to a
/// reference): an allocator's pointer, a new handle (argument
/// `CreatedOut`), anything else.
void PointerProvenance::Impl::transferOutArguments(const CallExpr *Call,
                                                   int CreatedOut,
                                                   State &St) {
  const memory_api::Allocator *Alloc = allocatorOf(Call->getDirectCallee());
  for (unsigned I = 0, E = Call->getNumArgs(); I < E; ++I) {
    const Expr *Arg = Call->getArg(I);
    if (!Arg)
      continue;
    const Expr *Target = nullptr;
    if (const auto *UO = dyn_cast<UnaryOperator>(Arg->IgnoreParenCasts()))
      if (UO->getOpcode() == UO_AddrOf)
        Target = UO->getSubExpr();
    if (!Target && isMutableReference(paramForArg(Call, I)))
      Target = Arg->IgnoreParenImpCasts();
    if (!Target)
      continue;
    if (const VarDecl *VD = trackedPointer(Target)) {
      if (Alloc && Alloc->outParameter() &&
          I == unsigned(Alloc->PointerArg)) {
        PointerOrigin O;
        O.Kind = OriginKind::Allocation;
        O.Where = Call;
        O.Name = Alloc->Name;
        St.Ptrs[VD] = Value::known(kindOf(Alloc->Space), O);
      } else {
        St.Ptrs[VD] = Value::top();
      }
      continue;
    }
    if (const ValueDecl *Key = handleKey(Target)) {
      if (static_cast<int>(I) == CreatedOut) {
        // A new context: copies of the old value keep the old one.
        ModeValue M;
        M.Mode = PointerMode::Host;
        M.Where = Call;
        M.FromCreate = true;
        M.CreatedBy = Call;
        St.Modes[Key] = M;
      } else {
        invalidateHandle(Key, St);
      }
    }
  }
}

/// cublasSetPointerMode(HandleArg, ModeExpr).
void PointerProvenance::Impl::setPointerMode(const CallExpr *Call,
                                             const Expr *HandleArg,
                                             const Expr *ModeExpr, State &St) {
  const ValueDecl *Key = handleKey(HandleArg);
  PointerMode Mode = PointerMode::Unknown;
  Expr::EvalResult R;
  if (!ModeExpr->isValueDependent() && ModeExpr->EvaluateAsInt(R, *Ctx) &&
      R.Val.isInt()) {
    llvm::APSInt V = R.Val.getInt();
    if (V == runtime_api::PointerModeHost)
      Mode = PointerMode::Host;
    else if (V == runtime_api::PointerModeDevice)
      Mode = PointerMode::Device;
  }
  if (!Key) {
    // A handle the analysis does not follow may share its context with any
    // other.
    St.Modes.clear();
    return;
  }
  auto It = St.Modes.find(Key);
  const CallExpr *Created =
      It == St.Modes.end() ? nullptr : It->second.CreatedBy;
  invalidateHandle(Key, St);
  if (Mode != PointerMode::Unknown) {
    ModeValue M;
    M.Mode = Mode;
    M.Where = Call;
    M.CreatedBy = Created;
    St.Modes[Key] = M;
  }
}

void PointerProvenance::Impl::userCodeRuns(const FunctionDecl *FD,
                                           llvm::ArrayRef<const Expr *> Args,
                                           bool OnThis, State &St) const {
  // A function of the user's may set the pointer mode of the handles it can
  // reach: the ones passed to it, the members of `this` when it is a member
  // function of the object or is given `this`, and global handles.
  const SourceManager &SM = Ctx->getSourceManager();
  if (St.Modes.empty() ||
      (FD && SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation()))))
    return;
  bool ReachesThis = OnThis;
  for (const Expr *Arg : Args) {
    if (!Arg)
      continue;
    if (isa<CXXThisExpr>(Arg->IgnoreParenImpCasts()))
      ReachesThis = true;
    if (const ValueDecl *Key = handleKey(Arg))
      invalidateHandle(Key, St);
  }
  for (auto I = St.Modes.begin(); I != St.Modes.end();) {
    bool Reached = isa<FieldDecl>(I->first)
                       ? ReachesThis
                       : !cast<VarDecl>(I->first)->hasLocalStorage();
    I = Reached ? St.Modes.erase(I) : std::next(I);
  }
}

void PointerProvenance::Impl::joinInto(State &Into, const State &From) const {
  // Pointers: absent is Bottom.
  for (const auto &[VD, V] : From.Ptrs) {
    auto It = Into.Ptrs.find(VD);
    if (It == Into.Ptrs.end())
      Into.Ptrs.emplace(VD, V);
    else
      It->second = join(It->second, V);
  }
  // Modes: absent is unknown.
  for (auto I = Into.Modes.begin(); I != Into.Modes.end();) {
    auto Other = From.Modes.find(I->first);
    if (Other == From.Modes.end() || Other->second.Mode != I->second.Mode ||
        Other->second.CreatedBy != I->second.CreatedBy) {
      I = Into.Modes.erase(I);
      continue;
    }
    if (Other->second.Where != I->second.Where) {
      // Same mode set in two places: keep the first in the source.
      const CallExpr *A = I->second.Where, *B = Other->second.Where;
      if (A && B &&
          Ctx->getSourceManager().isBeforeInTranslationUnit(B->getBeginLoc(),
                                                            A->getBeginLoc()))
        I->second = Other->second;
      I->second.FromCreate = I->second.FromCreate && Other->second.FromCreate;
    }
    ++I;
  }
}

void PointerProvenance::Impl::run(const PointerProvenance::Options &Opts) {
  const Stmt *Body = Callable->getBody();
  if (!Body || isDeviceCode(Callable))
    return;
  if (const auto *DC = dyn_cast<DeclContext>(Callable);
      !DC || DC->isDependentContext())
    return;
  Scope = dyn_cast<DeclContext>(Callable);
  CublasCallsOnly = Opts.CublasCallsOnly;
  AlsoKeep = Opts.AlsoKeep;

  Cfg = sharedCfg(Callable, *Ctx);
  if (!Cfg)
    return;
  if (Cfg->getNumBlockIDs() > Opts.MaxBlocks) {
    reportCutOff("the pointer provenance analysis", Callable,
                 "its CFG has " + llvm::Twine(Cfg->getNumBlockIDs()) +
                     " blocks, over the limit of " +
                     llvm::Twine(Opts.MaxBlocks) +
                     "; its pointers are not judged");
    return;
  }

  EscapeScan Scan;
  Scan.scan(Callable);
  Escaped = std::move(Scan.Escaped);

  if (!solve(Opts)) {
    // Incomplete: everything unknown.
    reportCutOff("the pointer provenance analysis", Callable,
                 "it visited more than " + llvm::Twine(Opts.MaxBlockVisits) +
                     " blocks without reaching a fixpoint; its pointers are "
                     "not judged");
    return;
  }
  sortCalls();
  Complete = true;
}

/// The fixpoint over the blocks in reverse post-order, recording the state
/// at each call; false when the visit budget runs out.
bool PointerProvenance::Impl::solve(const PointerProvenance::Options &Opts) {
  BlockOrder O = reversePostOrder(*Cfg);
  // Without a back edge every block is visited once, after all its
  // predecessors (the work list takes the lowest reverse post-order index
  // first): its state is final on that visit, so the calls are recorded
  // then, and the second pass is not needed.
  Recording = O.Acyclic;

  auto Run = [&](const CFGBlock *B, State St) {
    for (const CFGElement &El : *B)
      if (std::optional<CFGStmt> CS = El.getAs<CFGStmt>())
        transfer(CS->getStmt(), St);
    return St;
  };

  std::vector<std::optional<State>> In(Cfg->getNumBlockIDs());
  In[Cfg->getEntry().getBlockID()] = State();
  // The work list: the pending blocks by reverse post-order index, lowest
  // first.
  llvm::BitVector Work(O.ByOrder.size());
  Work.set(0);
  unsigned Visits = 0;
  for (int Index = Work.find_first(); Index >= 0; Index = Work.find_first()) {
    Work.reset(Index);
    if (++Visits > Opts.MaxBlockVisits) {
      Recording = false;
      return false;
    }
    const CFGBlock *B = O.ByOrder[Index];
    State Out = Run(B, *In[B->getBlockID()]);
    for (const CFGBlock *Succ : B->succs()) {
      if (O.indexOf(Succ) < 0)
        continue;
      std::optional<State> &SuccIn = In[Succ->getBlockID()];
      if (!SuccIn) {
        SuccIn = Out;
      } else {
        State Joined = *SuccIn;
        joinInto(Joined, Out);
        if (Joined == *SuccIn)
          continue;
        SuccIn = std::move(Joined);
      }
      Work.set(O.indexOf(Succ));
    }
  }

  // The fixpoint: record what holds at each call.
  if (!O.Acyclic) {
    Recording = true;
    for (const CFGBlock *B : O.ByOrder)
      if (In[B->getBlockID()])
        Run(B, *In[B->getBlockID()]);
  }
  Recording = false;
  return true;
}

void PointerProvenance::Impl::sortCalls() {
  // Calls in source order: by where they are expanded in the user's file
  // (decomposed once per call: comparing every pair's raw locations through
  // the SourceManager cost a sixth of the whole analysis).
  const SourceManager &SM = Ctx->getSourceManager();
  struct Placed {
    const CallExpr *Call;
    SourceLocation At;
    std::pair<FileID, unsigned> Decomposed;
    unsigned Index;
  };
  std::vector<Placed> Sorted;
  Sorted.reserve(Calls.size());
  for (const CallExpr *C : Calls) {
    SourceLocation At = SM.getExpansionLoc(C->getBeginLoc());
    Sorted.push_back({C, At, SM.getDecomposedLoc(At), CallIndex.lookup(C)});
  }
  llvm::sort(Sorted, [&](const Placed &L, const Placed &R) {
    if (L.Decomposed.first != R.Decomposed.first)
      return SM.isBeforeInTranslationUnit(L.At, R.At);
    if (L.Decomposed.second != R.Decomposed.second)
      return L.Decomposed.second < R.Decomposed.second;
    // One macro expansion: where the calls begin in it (rare, so exact).
    SourceLocation A = L.Call->getBeginLoc(), B = R.Call->getBeginLoc();
    if (A != B)
      return SM.isBeforeInTranslationUnit(A, B);
    return L.Index < R.Index;
  });
  Calls.clear();
  for (const Placed &P : Sorted)
    Calls.push_back(P.Call);
}

Value PointerProvenance::Impl::applyRegistrations(Value V) const {
  if (V.T != Value::Known || V.Kind != MemoryKind::PageableHost)
    return V;
  // cudaHostRegister pins pageable memory: that memory, or, when the
  // registered pointer is unknown, any, is no longer known to be pageable.
  for (const Value &R : Registered) {
    if (R.T == Value::Bottom)
      continue;
    if (R.T == Value::Top)
      return Value::top();
    bool Same = (R.Origin.Where && R.Origin.Where == V.Origin.Where) ||
                (R.Origin.Object && R.Origin.Object == V.Origin.Object);
    if (Same)
      return Value::known(MemoryKind::PinnedHost, V.Origin);
  }
  return V;
}

//===----------------------------------------------------------------------===//
// The interface
//===----------------------------------------------------------------------===//

PointerProvenance::PointerProvenance(std::unique_ptr<Impl> I)
    : I(std::move(I)) {}
PointerProvenance::~PointerProvenance() = default;
PointerProvenance::PointerProvenance(PointerProvenance &&) = default;
PointerProvenance &PointerProvenance::operator=(PointerProvenance &&) = default;

PointerProvenance PointerProvenance::analyze(const Decl *Callable,
                                             ASTContext &Ctx, Options Opts) {
  auto I = std::make_unique<Impl>();
  I->Ctx = &Ctx;
  I->Callable = Callable;
  if (Callable)
    I->run(Opts);
  if (!I->Complete) {
    I->Calls.clear();
    I->CallIndex.clear();
    I->Snapshots.clear();
  }
  return PointerProvenance(std::move(I));
}

bool PointerProvenance::complete() const { return I->Complete; }

llvm::ArrayRef<const CallExpr *> PointerProvenance::calls() const {
  return I->Calls;
}

PointerFact PointerProvenance::pointee(const CallExpr *Call,
                                       const Expr *E) const {
  const State *S = I->stateAt(Call);
  if (!S || !E)
    return {};
  return toFact(I->applyRegistrations(I->eval(E, *S)));
}

PointerFact PointerProvenance::heldBy(const CallExpr *Call,
                                      const Expr *Lvalue) const {
  const State *S = I->stateAt(Call);
  const VarDecl *VD = Lvalue ? I->trackedPointer(Lvalue) : nullptr;
  if (!S || !VD)
    return {};
  return toFact(I->applyRegistrations(Impl::heldIn(VD, *S)));
}

PointerFact PointerProvenance::argument(const CallExpr *Call,
                                        unsigned Index) const {
  if (!Call || Index >= Call->getNumArgs())
    return {};
  return pointee(Call, Call->getArg(Index));
}

PointerModeFact PointerProvenance::pointerMode(const CallExpr *Call,
                                               const Expr *Handle) const {
  PointerModeFact F;
  const State *S = I->stateAt(Call);
  const ValueDecl *Key = S && Handle ? I->handleKey(Handle) : nullptr;
  if (!Key)
    return F;
  auto M = S->Modes.find(Key);
  if (M == S->Modes.end())
    return F;
  F.Mode = M->second.Mode;
  F.Where = M->second.Where;
  F.FromCreate = M->second.FromCreate;
  return F;
}

namespace {

/// A parameter of the function that the body never changes, through casts,
/// an offset or `&p[i]`.
bool unchangedParameter(const Expr *E, UnchangedVariables &Unchanged,
                        unsigned Depth = 0) {
  if (!E || Depth > 8)
    return false;
  E = E->IgnoreParenCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub)
      return false;
    const Expr *Ptr = BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                               : BO->getRHS();
    return unchangedParameter(Ptr, Unchanged, Depth + 1);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    const auto *Sub =
        dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens());
    return UO->getOpcode() == UO_AddrOf && Sub &&
           unchangedParameter(Sub->getBase(), Unchanged, Depth + 1);
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  return P && !DRE->refersToEnclosingVariableOrCapture() &&
         P->getType()->isPointerType() && Unchanged.stable(P);
}

/// `&x` of a variable that is not a pointer or an array: host memory.
bool addressOfHostVariable(const Expr *E) {
  const auto *UO = dyn_cast<UnaryOperator>(E->IgnoreParenCasts());
  if (!UO || UO->getOpcode() != UO_AddrOf)
    return false;
  const auto *DRE = dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParens());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return VD && !VD->getType()->isPointerType() &&
         !VD->getType()->isArrayType() && !VD->getType()->isReferenceType();
}

/// `v.data()` of a container whose buffer is host memory.
bool hostContainerData(const Expr *E) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(E->IgnoreParenCasts());
  if (!callsContainerMethod(MC, memory_api::MethodKind::StoragePointer) ||
      !MC->getImplicitObjectArgument())
    return false;
  std::optional<ContainerType> C =
      containerType(MC->getImplicitObjectArgument()->getType());
  return C && C->Space &&
         (*C->Space == memory_api::MemorySpace::PageableHost ||
          *C->Space == memory_api::MemorySpace::PinnedHost);
}

} // namespace

bool PointerProvenance::learnsNothingWrong(const Decl *Callable) {
  llvm::ArrayRef<CallInBody> Calls = describedCallsIn(Callable);
  for (const CallInBody &C : Calls) {
    const FunctionInfo *F = C.Callee;
    if (F && (F->findParam(ParamRole::PointerMode) >= 0 ||
              std::strcmp(F->Name, "cublasLtMatmulDescSetAttribute") == 0))
      return false;
  }
  UnchangedVariables Unchanged(Callable);
  for (const auto &[Call, F, InSystemHeader] : Calls) {
    if (!F)
      continue;
    llvm::ArrayRef<ParamInfo> Params = F->params();
    for (unsigned I = 0, E = std::min<unsigned>(Params.size(),
                                                Call->getNumArgs());
         I < E; ++I) {
      const Expr *Arg = Call->getArg(I);
      if (!Arg->getType()->isPointerType())
        continue;
      ParamRole Role = Params[I].Role;
      if (!holdsMemory(Role))
        continue; // not a memory the checks judge
      bool Scalar = Role == ParamRole::Scalar ||
                    Role == ParamRole::ScalarResult;
      bool Host = Scalar || Role == ParamRole::HostMatrix ||
                  Role == ParamRole::HostVector ||
                  Role == ParamRole::HostArray ||
                  Role == ParamRole::HostScalar;
      if (unchangedParameter(Arg, Unchanged) ||
          (Scalar && addressOfHostVariable(Arg)) ||
          (Host && hostContainerData(Arg)))
        continue;
      return false;
    }
  }
  return true;
}

} // namespace cublas_tidy
