//===- DestroyedMembers.cpp -----------------------------------------------===//

#include "facts/DestroyedMembers.h"

#include "ast/AstUtils.h"
#include "ast/Callables.h"
#include "ast/LocalUses.h"
#include "ast/SharedCfg.h"
#include "facts/HandleStates.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <tuple>

using namespace clang;

namespace cublas_tidy {

namespace {

/// How deep the functions that destroy a member are followed.
constexpr unsigned MaxDepth = 3;
/// How deep the methods that may write a member of `this` are read.
constexpr unsigned MaxWriterDepth = 3;
/// Bounds the fixpoint: the sets only shrink, so it settles well before.
constexpr unsigned MaxVisits = 32;

/// A member destroyed on every path so far.
struct Destroyed {
  HandleName Name;
  const CallExpr *Destroy;
  unsigned KindId;
};

struct FlowState {
  bool Reached = false;
  llvm::SmallVector<Destroyed, 2> Members;

  const Destroyed *find(const HandleName &N) const {
    for (const Destroyed &D : Members)
      if (D.Name == N)
        return &D;
    return nullptr;
  }
  void add(const Destroyed &D) {
    kill(D.Name);
    Members.push_back(D);
  }
  void kill(const HandleName &N) {
    llvm::erase_if(Members, [&](const Destroyed &D) { return D.Name == N; });
  }
  void killBase(const ValueDecl *Base) {
    llvm::erase_if(Members,
                   [&](const Destroyed &D) { return D.Name.Base == Base; });
  }
  /// Members of `this` that `Writes` says may change.
  template <typename Fn> void killThisMembers(Fn &&Writes) {
    llvm::erase_if(Members, [&](const Destroyed &D) {
      return !D.Name.Base && Writes(D.Name.Member);
    });
  }
  /// Keeps what both paths destroyed.
  void join(const FlowState &O) {
    if (!O.Reached)
      return;
    if (!Reached) {
      *this = O;
      return;
    }
    llvm::erase_if(Members,
                   [&](const Destroyed &D) { return !O.find(D.Name); });
  }
  bool operator==(const FlowState &O) const {
    if (Reached != O.Reached || Members.size() != O.Members.size())
      return false;
    return llvm::all_of(Members, [&](const Destroyed &D) {
      const Destroyed *Other = O.find(D.Name);
      return Other && Other->Destroy == D.Destroy;
    });
  }
};

/// A member of `this` or of a local or parameter: the names this analysis
/// follows (not variables, accessors or library handles).
bool followedMember(const HandleName &N) {
  if (!N.Member || N.Getter || N.Library || N.Element)
    return false;
  if (!N.Base)
    return true;
  const auto *VD = dyn_cast<VarDecl>(N.Base);
  return VD && VD->hasLocalStorage();
}

/// The member `E` names, directly (`e.h`, `this->h_`), without following
/// local copies: what a write changes.
std::optional<HandleName> memberWritten(const Expr *E, const Decl *Callable) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (!isa_and_nonnull<MemberExpr>(E))
    return std::nullopt;
  std::optional<HandleName> N = handleNamed(E, Callable);
  return N && followedMember(*N) ? N : std::nullopt;
}

/// The variable `E` names, or whose address it takes (`e`, `&e`).
const ValueDecl *objectVariable(const Expr *E) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(E);
      U && U->getOpcode() == UO_AddrOf)
    E = U->getSubExpr()->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E);
  return DRE ? DRE->getDecl() : nullptr;
}

bool isThis(const Expr *E) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(E);
      U && U->getOpcode() == UO_Deref)
    E = U->getSubExpr()->IgnoreParenImpCasts();
  return isa_and_nonnull<CXXThisExpr>(E);
}

/// Whether a parameter of type `T` binds what it is given to a reference
/// the callee may change it through.
bool mutableReference(QualType T) {
  return T->isReferenceType() && !T->getPointeeType().isConstQualified();
}

/// Whether a parameter of type `T` lets the callee change the object it is
/// given: a reference, or a pointer to something not const.
bool mayChangeThrough(QualType T) {
  return mutableReference(T) ||
         (T->isPointerType() && !T->getPointeeType().isConstQualified());
}

/// "h_", "e.h", "e->h".
std::string spell(const HandleName &N) {
  std::string Member = N.Member->getNameAsString();
  if (!N.Base)
    return Member;
  bool Pointer = N.Base->getType().getNonReferenceType()->isPointerType();
  return N.Base->getNameAsString() + (Pointer ? "->" : ".") + Member;
}

/// A call of a virtual method that may run an override: what the
/// definition in sight does is not what every call does.
bool virtualCall(const CallExpr *Call) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
  const CXXMethodDecl *M = MC ? MC->getMethodDecl() : nullptr;
  if (!M || !M->isVirtual() || M->hasAttr<FinalAttr>())
    return false;
  const auto *Callee = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens());
  return !Callee || !Callee->hasQualifier();
}

class MemberFlow;

/// What the functions of a unit do to handle members, asked once each.
class Effects {
public:
  explicit Effects(const ResourceTable &Table) : Table(Table) {}

  /// The members `FD` leaves destroyed on every way out: of `this` (Base
  /// null) and of its parameters (Base the parameter).
  llvm::ArrayRef<Destroyed> destroyedBy(const FunctionDecl *FD, unsigned Depth);

  /// Whether a call of the method `M` may change the member `F` of its
  /// object: a method without a body, one that writes `F` or takes its
  /// address, gives its object to other code, or calls such a method on it.
  bool mayWrite(const CXXMethodDecl *M, const ValueDecl *F, unsigned Depth);

  bool mayDestroy(const FunctionDecl *FD) {
    return mayDestroyResource(FD, Table, DestroyKnown);
  }

  /// Whether `FD` gives the member `N` (of `this`, or of a parameter) to
  /// cuBLAS on every path from its entry, and never writes it.
  /// `Destroys`, when given, is set when what the paths reach are
  /// destroys only (a second destroy).
  bool usesOnEntry(const FunctionDecl *FD, const HandleName &N,
                   bool *Destroys = nullptr);

  /// Whether `Callable` destroys a member, directly (a destroy given a
  /// member) or through functions of the unit: a pre-filter, the flow
  /// decides.
  bool destroysMember(const Decl *Callable, unsigned Depth);

  const ResourceTable &Table;

private:
  llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<Destroyed, 2>>
      Summaries;
  llvm::DenseMap<std::pair<const CXXMethodDecl *, const ValueDecl *>, bool>
      Writers;
  llvm::DenseMap<const FunctionDecl *, bool> DestroyKnown;
  /// 0: not used on entry; 1: used; 2: destroyed.
  llvm::DenseMap<
      std::tuple<const FunctionDecl *, const ValueDecl *, const ValueDecl *>,
      char>
      EntryUses;
  llvm::DenseMap<const FunctionDecl *, bool> MemberDestroyers;
};

/// The flow over one function.
class MemberFlow {
public:
  MemberFlow(const Decl *Callable, Effects &E, unsigned Depth)
      : Callable(Callable), E(E), Depth(Depth) {}

  /// Runs to the fixpoint; false when it did not settle.
  bool run(const CFG &Cfg) {
    BlockOrder Order = reversePostOrder(Cfg);
    In.assign(Cfg.getNumBlockIDs(), FlowState());
    In[Cfg.getEntry().getBlockID()].Reached = true;
    std::vector<unsigned> Visits(Cfg.getNumBlockIDs(), 0);
    bool Changed = true;
    while (Changed) {
      Changed = false;
      for (const CFGBlock *B : Order.ByOrder) {
        if (++Visits[B->getBlockID()] > MaxVisits)
          return false;
        FlowState Out = In[B->getBlockID()];
        transferBlock(*B, Out, /*Report=*/false);
        for (const CFGBlock *S : B->succs()) {
          if (!S)
            continue;
          FlowState Joined = In[S->getBlockID()];
          Joined.join(Out);
          if (!(Joined == In[S->getBlockID()])) {
            In[S->getBlockID()] = std::move(Joined);
            Changed = true;
          }
        }
      }
    }
    return true;
  }

  std::vector<MemberUseAfterDestroy> report(const CFG &Cfg) {
    for (const CFGBlock *B : reversePostOrder(Cfg).ByOrder) {
      FlowState S = In[B->getBlockID()];
      transferBlock(*B, S, /*Report=*/true);
    }
    return std::move(Found);
  }

  const FlowState &atExit(const CFG &Cfg) const {
    return In[Cfg.getExit().getBlockID()];
  }

private:
  void transferBlock(const CFGBlock &B, FlowState &S, bool Report) {
    if (!S.Reached)
      return;
    for (const CFGElement &El : B) {
      if (std::optional<CFGStmt> CS = El.getAs<CFGStmt>())
        transfer(CS->getStmt(), S, Report);
      else if (std::optional<CFGLifetimeEnds> LE = El.getAs<CFGLifetimeEnds>();
               LE && Report && !S.Members.empty())
        scopeEnds(*LE, S);
    }
  }

  /// A local object's scope ends: its destructor, a function of the unit,
  /// runs on it; one that destroys a destroyed member of it on every path
  /// destroys it again.
  void scopeEnds(const CFGLifetimeEnds &LE, const FlowState &S) {
    const VarDecl *V = LE.getVarDecl();
    const CXXRecordDecl *RD =
        V && V->hasLocalStorage() && !V->getType()->isReferenceType()
            ? V->getType()->getAsCXXRecordDecl()
            : nullptr;
    const CXXDestructorDecl *Dtor =
        RD && RD->hasDefinition() ? RD->getDestructor() : nullptr;
    const FunctionDecl *Def = nullptr;
    if (!Dtor || !Dtor->hasBody(Def) || !Def)
      return;
    for (const Destroyed &D : S.Members) {
      if (D.Name.Base != V)
        continue;
      HandleName Callee;
      Callee.Member = D.Name.Member;
      bool Destroys = false;
      if (!E.usesOnEntry(Def, Callee, &Destroys))
        continue;
      const Stmt *Trigger = LE.getTriggerStmt();
      SourceLocation At = !Trigger                     ? V->getLocation()
                          : isa<CompoundStmt>(Trigger) ? Trigger->getEndLoc()
                                                       : Trigger->getBeginLoc();
      Found.push_back({D.Name, spell(D.Name), nullptr, Def, Destroys, D.Destroy,
                       D.KindId, At});
      return;
    }
  }

  void transfer(const Stmt *St, FlowState &S, bool Report) {
    if (S.Members.empty() && !isa<CallExpr>(St))
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(St)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          S.killBase(V);
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(St)) {
      if (BO->isAssignmentOp())
        written(BO->getLHS(), S);
      return;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(St)) {
      if (UO->getOpcode() == UO_AddrOf || UO->isIncrementDecrementOp())
        written(UO->getSubExpr(), S);
      return;
    }
    if (const auto *Call = dyn_cast<CallExpr>(St))
      call(Call, S, Report);
  }

  /// A write to `E`: the member it names, or every member of the object it
  /// names.
  void written(const Expr *E, FlowState &S) {
    if (std::optional<HandleName> N = memberWritten(E, Callable))
      S.kill(*N);
    else if (const ValueDecl *V = objectVariable(E))
      S.killBase(V);
  }

  void call(const CallExpr *Call, FlowState &S, bool Report) {
    if (const ResourceTable::Entry *Entry = E.Table.lookup(Call)) {
      if (!Entry->IsCreate)
        destroy(Call, *Entry, S, Report);
      return;
    }
    if (const FunctionInfo *F = calledCublasFunction(Call)) {
      if (Report)
        for (unsigned I = 0; I < F->NumParams && I < Call->getNumArgs(); ++I)
          if (F->params()[I].Role == ParamRole::Resource)
            used(Call, Call->getArg(I), /*IsDestroy=*/false, S);
      return;
    }
    otherCall(Call, S, Report);
  }

  void destroy(const CallExpr *Call, const ResourceTable::Entry &Entry,
               FlowState &S, bool Report) {
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      if (Entry.ParamIndex >= 0 && I != unsigned(Entry.ParamIndex))
        continue;
      std::optional<HandleName> N = handleNamed(Call->getArg(I), Callable);
      if (!N || !followedMember(*N))
        continue;
      if (Report)
        used(Call, Call->getArg(I), /*IsDestroy=*/true, S);
      S.add({*N, Call, Entry.KindId});
      return;
    }
  }

  void used(const CallExpr *Call, const Expr *Arg, bool IsDestroy,
            const FlowState &S) {
    std::optional<HandleName> N = handleNamed(Arg, Callable);
    const Destroyed *D = N ? S.find(*N) : nullptr;
    if (!D)
      return;
    if (llvm::any_of(Found, [&](const MemberUseAfterDestroy &U) {
          return U.Use == Call;
        }))
      return;
    Found.push_back(
        {*N, spell(*N), Call, nullptr, IsDestroy, D->Destroy, D->KindId, {}});
  }

  /// A call of code other than cuBLAS: what it may change is unknown after
  /// it, and what a function of the unit destroys on every way out is
  /// destroyed.
  void otherCall(const CallExpr *Call, FlowState &S, bool Report) {
    const FunctionDecl *FD = Call->getDirectCallee();
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(FD);
    const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
    const Expr *Object = MC ? MC->getImplicitObjectArgument() : nullptr;
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
        Op && Method && Op->getNumArgs() > 0)
      Object = Op->getArg(0);
    bool OnThis = Object && isThis(Object);
    const ValueDecl *ObjectVar = Object ? objectVariable(Object) : nullptr;
    if (Report && !S.Members.empty())
      usedInside(Call, FD, OnThis, ObjectVar, S);
    // The object of a method that is not const may change.
    if (Method && !Method->isConst() && !Method->isStatic()) {
      if (OnThis)
        S.killThisMembers(
            [&](const ValueDecl *F) { return E.mayWrite(Method, F, 0); });
      else if (ObjectVar)
        S.killBase(ObjectVar);
    }
    // What the arguments let the callee change.
    unsigned Offset = isa<CXXOperatorCallExpr>(Call) && Method ? 1 : 0;
    for (unsigned I = Offset; I < Call->getNumArgs(); ++I) {
      const Expr *Arg = Call->getArg(I);
      if (isThis(Arg)) {
        S.killThisMembers([](const ValueDecl *) { return true; });
        continue;
      }
      unsigned P = I - Offset;
      QualType T = FD && P < FD->getNumParams() ? FD->getParamDecl(P)->getType()
                                                : Arg->getType();
      bool Variadic = !FD || FD->isVariadic();
      // A member itself changes only through a reference (its value, a
      // handle, is a pointer to cuBLAS's object, not to the member).
      if (std::optional<HandleName> N = memberWritten(Arg, Callable)) {
        if (Variadic || mutableReference(T))
          S.kill(*N);
      } else if (const ValueDecl *V = objectVariable(Arg)) {
        if (Variadic || mayChangeThrough(T))
          S.killBase(V);
      }
    }
    applySummary(Call, FD, OnThis, ObjectVar, S);
  }

  /// A destroyed member that the callee, a function of the unit, works on
  /// on every path from its entry: a use inside it.
  void usedInside(const CallExpr *Call, const FunctionDecl *FD, bool OnThis,
                  const ValueDecl *ObjectVar, const FlowState &S) {
    const FunctionDecl *Def = FD ? FD->getDefinition() : nullptr;
    if (!Def || !Def->hasBody() || virtualCall(Call) ||
        calledCublasFunction(Call))
      return;
    unsigned Offset =
        isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(FD) ? 1 : 0;
    for (const Destroyed &D : S.Members) {
      // The member as the callee names it.
      HandleName Callee;
      Callee.Member = D.Name.Member;
      bool Known = false;
      if (isa<CXXMethodDecl>(Def) &&
          ((OnThis && !D.Name.Base) || (ObjectVar && D.Name.Base == ObjectVar)))
        Known = true;
      for (unsigned I = Offset; !Known && I < Call->getNumArgs(); ++I)
        if (D.Name.Base && objectVariable(Call->getArg(I)) == D.Name.Base &&
            I - Offset < Def->getNumParams()) {
          Callee.Base = Def->getParamDecl(I - Offset);
          Known = true;
        }
      bool Destroys = false;
      if (!Known || !E.usesOnEntry(Def, Callee, &Destroys))
        continue;
      if (llvm::any_of(Found, [&](const MemberUseAfterDestroy &U) {
            return U.Use == Call;
          }))
        return;
      Found.push_back({D.Name,
                       spell(D.Name),
                       Call,
                       Def,
                       Destroys,
                       D.Destroy,
                       D.KindId,
                       {}});
      return;
    }
  }

  /// The members the callee, a function of the unit, destroys on every way
  /// out, named as this function names them.
  void applySummary(const CallExpr *Call, const FunctionDecl *FD, bool OnThis,
                    const ValueDecl *ObjectVar, FlowState &S) {
    const FunctionDecl *Def = FD ? FD->getDefinition() : nullptr;
    if (!Def || !Def->hasBody() || Depth >= MaxDepth || !E.mayDestroy(Def) ||
        virtualCall(Call))
      return;
    unsigned Offset =
        isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(FD) ? 1 : 0;
    for (const Destroyed &D : E.destroyedBy(Def, Depth + 1)) {
      HandleName N;
      N.Member = D.Name.Member;
      if (!D.Name.Base) {
        if (OnThis)
          N.Base = nullptr;
        else if (ObjectVar)
          N.Base = ObjectVar;
        else
          continue;
      } else {
        const auto *P = dyn_cast<ParmVarDecl>(D.Name.Base);
        unsigned I = P ? P->getFunctionScopeIndex() + Offset : ~0u;
        if (I >= Call->getNumArgs())
          continue;
        const ValueDecl *V = objectVariable(Call->getArg(I));
        if (!V)
          continue;
        N.Base = V;
      }
      if (followedMember(N))
        S.add({N, Call, D.KindId});
    }
  }

  const Decl *Callable;
  Effects &E;
  unsigned Depth;
  std::vector<FlowState> In;
  std::vector<MemberUseAfterDestroy> Found;
};

llvm::ArrayRef<Destroyed> Effects::destroyedBy(const FunctionDecl *FD,
                                               unsigned Depth) {
  auto [It, New] = Summaries.try_emplace(FD);
  if (!New)
    return It->second; // known, or being computed (recursion): none yet
  const CFG *Cfg = sharedCfg(FD, FD->getASTContext());
  if (!Cfg)
    return {};
  MemberFlow Flow(FD, *this, Depth);
  if (!Flow.run(*Cfg))
    return {};
  llvm::SmallVector<Destroyed, 2> Out;
  for (const Destroyed &D : Flow.atExit(*Cfg).Members)
    if (!D.Name.Base || isa<ParmVarDecl>(D.Name.Base))
      Out.push_back(D);
  auto &Slot = Summaries[FD];
  Slot = std::move(Out);
  return Slot;
}

bool Effects::mayWrite(const CXXMethodDecl *M, const ValueDecl *F,
                       unsigned Depth) {
  auto [It, New] = Writers.try_emplace({M, F}, true);
  if (!New)
    return It->second; // known, or being read (recursion): may write
  const FunctionDecl *Def = M->getDefinition();
  if (!Def || !Def->hasBody() || Depth >= MaxWriterDepth || M->isVirtual())
    return true;
  bool Writes = anyStmt(Def->getBody(), [&](const Stmt *S) {
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp())
      if (const auto *ME = dyn_cast<MemberExpr>(BO->getLHS()->IgnoreParens()))
        return ME->getMemberDecl() == F;
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && (UO->getOpcode() == UO_AddrOf || UO->isIncrementDecrementOp()))
      if (const auto *ME =
              dyn_cast<MemberExpr>(UO->getSubExpr()->IgnoreParenImpCasts()))
        return ME->getMemberDecl() == F;
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call)
      return false;
    if (llvm::any_of(Call->arguments(),
                     [](const Expr *A) { return isThis(A); }))
      return true;
    // A member bound to a reference the callee may change through.
    const FunctionDecl *Callee = Call->getDirectCallee();
    for (unsigned I = 0;
         Callee && I < Call->getNumArgs() && I < Callee->getNumParams(); ++I)
      if (const auto *ME =
              dyn_cast<MemberExpr>(Call->getArg(I)->IgnoreParenImpCasts());
          ME && ME->getMemberDecl() == F &&
          mutableReference(Callee->getParamDecl(I)->getType()))
        return true;
    const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
    const auto *Inner = MC ? MC->getMethodDecl() : nullptr;
    return Inner && isThis(MC->getImplicitObjectArgument()) &&
           !Inner->isConst() && mayWrite(Inner, F, Depth + 1);
  });
  Writers[{M, F}] = Writes;
  return Writes;
}

/// Whether `Body` may change the member `N` of its parameter: an
/// assignment to it or to the parameter, its address taken, or the member
/// or the object given to code that may change it.
static bool mayWriteParameterMember(const Stmt *Body, const FunctionDecl *FD,
                                    const HandleName &N) {
  return anyStmt(Body, [&](const Stmt *S) {
    const Expr *Target = nullptr;
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp())
      Target = BO->getLHS();
    else if (const auto *UO = dyn_cast<UnaryOperator>(S);
             UO &&
             (UO->getOpcode() == UO_AddrOf || UO->isIncrementDecrementOp()))
      Target = UO->getSubExpr();
    if (Target) {
      std::optional<HandleName> W = memberWritten(Target, FD);
      return (W && *W == N) || objectVariable(Target) == N.Base;
    }
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call || calledCublasFunction(Call))
      return false;
    const FunctionDecl *Callee = Call->getDirectCallee();
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      QualType T = Callee && I < Callee->getNumParams()
                       ? Callee->getParamDecl(I)->getType()
                       : Call->getArg(I)->getType();
      if (objectVariable(Call->getArg(I)) == N.Base &&
          (!Callee || mayChangeThrough(T)))
        return true;
      std::optional<HandleName> W = memberWritten(Call->getArg(I), FD);
      if (W && *W == N && (!Callee || mutableReference(T)))
        return true;
    }
    return false;
  });
}

bool Effects::usesOnEntry(const FunctionDecl *FD, const HandleName &N,
                          bool *Destroys) {
  auto Key = std::make_tuple(FD, N.Base, N.Member);
  auto [It, New] = EntryUses.try_emplace(Key, 0);
  if (New) {
    const Stmt *Body = FD->getBody();
    const auto *Method = dyn_cast<CXXMethodDecl>(FD);
    bool OnlyDestroys = false;
    if (Body &&
        !(N.Base ? mayWriteParameterMember(Body, FD, N)
                 : !Method || mayWrite(Method, N.Member, 0)) &&
        usedOnEveryPath(FD, N, Table, &OnlyDestroys))
      EntryUses[Key] = OnlyDestroys ? 2 : 1;
  }
  char Result = EntryUses.lookup(Key);
  if (Destroys)
    *Destroys = Result == 2;
  return Result != 0;
}

bool Effects::destroysMember(const Decl *Callable, unsigned Depth) {
  const auto *FD = dyn_cast<FunctionDecl>(Callable);
  if (FD) {
    if (auto It = MemberDestroyers.find(FD); It != MemberDestroyers.end())
      return It->second;
    MemberDestroyers[FD] = false; // recursion reads as "no"
  }
  bool Destroys = llvm::any_of(callsIn(Callable), [&](const CallExpr *Call) {
    if (const ResourceTable::Entry *Entry = Table.lookup(Call))
      return !Entry->IsCreate &&
             llvm::any_of(Call->arguments(), [](const Expr *A) {
               return isa<MemberExpr>(A->IgnoreParenImpCasts());
             });
    const FunctionDecl *Callee = Call->getDirectCallee();
    const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
    return Def && Def->hasBody() && Depth < MaxDepth &&
           !calledCublasFunction(Call) && !virtualCall(Call) &&
           destroysMember(Def, Depth + 1);
  });
  if (FD)
    MemberDestroyers[FD] = Destroys;
  return Destroys;
}

} // namespace

struct MemberDestroyFacts::Impl {
  explicit Impl(const ResourceTable &Table) : E(Table) {}
  Effects E;
};

MemberDestroyFacts::MemberDestroyFacts(const ResourceTable &Table)
    : P(std::make_unique<Impl>(Table)) {}
MemberDestroyFacts::~MemberDestroyFacts() = default;

std::vector<MemberUseAfterDestroy>
MemberDestroyFacts::usesAfterDestroy(const Decl *Callable) {
  // Nothing to find where no member is destroyed, directly or by a
  // function of the unit.
  if (!P->E.destroysMember(Callable, 0))
    return {};
  const CFG *Cfg = sharedCfg(Callable, Callable->getASTContext());
  if (!Cfg)
    return {};
  MemberFlow Flow(Callable, P->E, 0);
  if (!Flow.run(*Cfg))
    return {};
  return Flow.report(*Cfg);
}

} // namespace cublas_tidy
