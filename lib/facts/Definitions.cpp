//===- Definitions.cpp ----------------------------------------------------===//

#include "facts/Definitions.h"

#include "facts/MemoryObjects.h"

#include "ast/AstUtils.h"
#include "ast/Callables.h"
#include "ast/CompileErrors.h"
#include "ast/PlainUses.h"
#include "ast/SharedCfg.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <vector>

using namespace clang;

namespace cublas_tidy {

const Expr *ignoreWrappers(const Expr *E) {
  for (unsigned Step = 0; Step < 16 && E; ++Step) {
    const Expr *Next = E->IgnoreParens();
    if (const auto *CE = dyn_cast<ConstantExpr>(Next))
      Next = CE->getSubExpr();
    else if (const auto *EWC = dyn_cast<ExprWithCleanups>(Next))
      Next = EWC->getSubExpr();
    else if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(Next))
      Next = MT->getSubExpr();
    else if (const auto *BT = dyn_cast<CXXBindTemporaryExpr>(Next))
      Next = BT->getSubExpr();
    if (Next == E)
      return E;
    E = Next;
  }
  return E;
}

//===----------------------------------------------------------------------===//
// Definitions of locals and their reaching sets
//===----------------------------------------------------------------------===//

namespace {

constexpr unsigned MaxBlocks = 4000;
constexpr unsigned MaxDefinitions = 8000;

bool isTrackableType(QualType T) {
  if (T.isNull() || T->isReferenceType() || T.isVolatileQualified() ||
      T->isDependentType())
    return false;
  return T->isIntegralOrEnumerationType() || T->isPointerType() ||
         isSizedContainer(T);
}

bool isCandidate(const VarDecl *VD) {
  if (!VD || VD->hasAttr<BlocksAttr>())
    return false;
  if (!VD->hasLocalStorage())
    return false;
  return isTrackableType(VD->getType());
}

const DeclRefExpr *refTo(const Expr *E) { return plainReference(E); }

/// Decides, for each DeclRefExpr to a candidate variable, whether it is a
/// plain read, a definition the CFG scan will find, or an escape (anything
/// else). Variables with an escaping use are not tracked.
///
/// It reads the statements of the body in pre-order (stmtsIn(), shared with
/// other analyses). Lambda bodies are not among them: a variable a lambda
/// captures by reference is referenced by the capture itself, not plainly,
/// and escapes; one captured by copy is read when the lambda is made.
class UseClassifier {
public:
  llvm::DenseSet<const VarDecl *> Escaped;
  llvm::DenseMap<const VarDecl *, unsigned> DefCount;
  /// The declarations of the body, in order.
  std::vector<const DeclStmt *> Decls;

  void classify(const Decl *Callable) {
    llvm::ArrayRef<BodyStmt> Stmts = stmtsIn(Callable);
    // Operands of sizeof/alignof, typeid and noexcept are never evaluated:
    // they and everything under them are skipped.
    std::vector<char> Unevaluated(Stmts.size(), 0);
    for (size_t I = 0; I < Stmts.size(); ++I) {
      const Stmt *S = Stmts[I].S;
      int Parent = Stmts[I].Parent;
      if (const auto *DS = dyn_cast<DeclStmt>(S))
        Decls.push_back(DS);
      if ((Parent >= 0 && Unevaluated[Parent]) ||
          isa<UnaryExprOrTypeTraitExpr, CXXTypeidExpr, CXXNoexceptExpr>(S)) {
        Unevaluated[I] = 1;
        continue;
      }
      if (const DeclRefExpr *Stored = Uses.visit(S))
        countDef(Stored);
      if (const auto *Call = dyn_cast<CallExpr>(S)) {
        visitCallExpr(Call);
        if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
          visitCXXMemberCallExpr(Member);
      } else if (const auto *CE = dyn_cast<CXXConstructExpr>(S)) {
        visitCXXConstructExpr(CE);
      } else if (const auto *Range = dyn_cast<CXXForRangeStmt>(S)) {
        visitCXXForRangeStmt(Range);
      } else if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
        visitDeclRefExpr(DRE);
      }
    }
  }

private:
  void visitCallExpr(const CallExpr *Call) {
    for (unsigned I = 0, N = Call->getNumArgs(); I < N; ++I) {
      const Expr *Arg = Call->getArg(I);
      if (const auto *UO = dyn_cast<UnaryOperator>(Arg->IgnoreParenCasts());
          UO && UO->getOpcode() == UO_AddrOf &&
          PlainUses::referenceIn(UO->getSubExpr())) {
        if (isOutArgument(Call, I)) {
          if (const DeclRefExpr *Stored = Uses.markStore(UO->getSubExpr()))
            countDef(Stored);
          continue;
        }
        if (isReadThroughArgument(Call, I)) {
          Uses.markPlain(UO->getSubExpr());
          continue;
        }
      }
      markIfConstRefArgument(Call->getDirectCallee(), I, Arg);
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call))
      if (Op->getOperator() == OO_Subscript && Op->getNumArgs() >= 1)
        markContainer(Op->getArg(0));
    // `std::max(1, m)`, `std::min(a, b)`: each argument bound to a const
    // reference and read before the call returns: a load.
    if (isStdMaxOrMin(Call))
      for (const Expr *Arg : {Call->getArg(0), Call->getArg(1)})
        if (PlainUses::referenceIn(Arg->IgnoreParenImpCasts()) &&
            Arg->getType()->isIntegralOrEnumerationType())
          Uses.markPlain(Arg->IgnoreParenImpCasts());
  }
  void visitCXXMemberCallExpr(const CXXMemberCallExpr *Call) {
    // Members of a sized container that leave its size unchanged.
    const memory_api::ContainerMethod *M = calledContainerMethod(Call);
    if (M && M->preservesSize())
      markContainer(Call->getImplicitObjectArgument());
  }
  void visitCXXConstructExpr(const CXXConstructExpr *CE) {
    for (unsigned I = 0, N = CE->getNumArgs(); I < N; ++I)
      markIfConstRefArgument(CE->getConstructor(), I, CE->getArg(I));
    // `std::optional<int64_t>(k)` (PyTorch's `x.slice(1, 0, k)`) binds k
    // to its forwarding reference and copies it: a load.
    const CXXRecordDecl *Class = CE->getConstructor()->getParent();
    const auto *Space =
        dyn_cast<NamespaceDecl>(Class->getEnclosingNamespaceContext());
    if (CE->getNumArgs() == 1 && Class->getIdentifier() &&
        Class->getName() == "optional" && Space &&
        (Class->isInStdNamespace() || Space->getName() == "c10"))
      Uses.markPlain(CE->getArg(0));
  }
  void visitCXXForRangeStmt(const CXXForRangeStmt *S) {
    if (const VarDecl *Range =
            S->getRangeStmt()
                ? dyn_cast_or_null<VarDecl>(S->getRangeStmt()->getSingleDecl())
                : nullptr)
      markContainer(Range->getInit());
  }
  void visitDeclRefExpr(const DeclRefExpr *DRE) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return;
    if (DRE->refersToEnclosingVariableOrCapture() || !Uses.isPlain(DRE))
      Escaped.insert(VD);
  }

  PlainUses Uses;

  void countDef(const DeclRefExpr *DRE) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      ++DefCount[VD];
  }
  /// Uses of a container that keep its size.
  void markContainer(const Expr *E) {
    if (!E)
      return;
    const DeclRefExpr *DRE = PlainUses::referenceIn(E->IgnoreParenImpCasts());
    if (DRE && isSizedContainer(DRE->getType()))
      Uses.markPlain(DRE);
  }
  void markIfConstRefArgument(const FunctionDecl *FD, unsigned I,
                              const Expr *Arg) {
    if (!FD || I >= FD->getNumParams())
      return;
    QualType PT = FD->getParamDecl(I)->getType();
    if (!PT->isReferenceType() || !PT->getPointeeType().isConstQualified())
      return;
    markContainer(Arg);
  }
};

} // namespace

/// The definitions of the candidate variables of one body that reach each
/// read of them.
///
/// Most variables are defined once: a parameter never assigned, a local
/// never written after its initialiser. In C++ every read of such a
/// variable sees that one definition (a jump may not bypass an
/// initialisation, and a read precedes no declaration), so these are answered
/// from the statement list alone. Only a variable stored to again needs the
/// reaching definitions over the CFG, computed the first time one is asked
/// about.
struct FunctionDefinitions::Impl {
  Impl(const Decl *Callable, ASTContext &Ctx);

  bool tracks(const VarDecl *VD) const {
    classify();
    if (Single.count(VD))
      return true;
    return needsFlow(VD) && flow().Tracked.contains(VD);
  }

  std::optional<llvm::SmallVector<const Definition *, 4>>
  reaching(const VarDecl *VD, const Stmt *Use) const;

  const Definition *initOf(const VarDecl *VD) const {
    classify();
    auto It = Single.find(VD);
    if (It != Single.end())
      return SingleDefs[It->second].Kind == DefKind::Init
                 ? &SingleDefs[It->second]
                 : nullptr;
    if (!needsFlow(VD))
      return nullptr;
    for (const Definition &D : flow().Defs)
      if (D.Var == VD && D.Kind == DefKind::Init)
        return &D;
    return nullptr;
  }

private:
  /// The reaching definitions over the CFG.
  struct Flow {
    Flow(const Decl *Callable, ASTContext &Ctx, const UseClassifier &Uses);

    /// The candidates a scan of the CFG defines, and how many definitions
    /// of each it found.
    struct Scan {
      const UseClassifier &Uses;
      llvm::DenseMap<const VarDecl *, unsigned> Found;
      bool candidate(const VarDecl *VD) const {
        return isCandidate(VD) && !Uses.Escaped.contains(VD);
      }
      /// The candidate a store writes, counted.
      const VarDecl *target(const Expr *E);
    };
    bool collect(const Decl *Callable, Scan &S);
    void collectAt(const Stmt *St, unsigned Block, unsigned I, Scan &S);
    bool solve();

    void addDef(Definition D, unsigned Block, unsigned Index) {
      DefsIn[Block].push_back({Index, static_cast<unsigned>(Defs.size())});
      Defs.push_back(D);
    }
    /// Applies the definitions at the elements [From, To) of `Block`.
    void apply(llvm::BitVector &State, unsigned Block, unsigned From,
               unsigned To) const;
    std::optional<llvm::SmallVector<const Definition *, 4>>
    reaching(const VarDecl *VD, const Stmt *Use) const;

    const CFG *Cfg = nullptr;
    llvm::DenseSet<const VarDecl *> Tracked;
    std::vector<Definition> Defs; // stable after construction
    /// Per block: (element index, definition), by element index.
    std::vector<llvm::SmallVector<std::pair<unsigned, unsigned>, 2>> DefsIn;
    llvm::DenseMap<const Stmt *, std::pair<unsigned, unsigned>> Position;
    std::vector<llvm::BitVector> In;
    std::vector<llvm::BitVector> KillMaskOf; // per variable index
    llvm::DenseMap<const VarDecl *, unsigned> VarIndex;
    bool Valid = false;
  };

  /// A candidate stored to after its definition: only the CFG knows which
  /// definitions reach a read.
  bool needsFlow(const VarDecl *VD) const {
    return Analysable && isCandidate(VD) && !Uses.Escaped.contains(VD) &&
           Uses.DefCount.count(VD);
  }
  const Flow &flow() const {
    if (!TheFlow)
      TheFlow = std::make_unique<Flow>(Callable, Ctx, Uses);
    return *TheFlow;
  }

  /// Reads the uses of the body and the variables defined once, the first
  /// time a variable is asked about (many bodies only ever evaluate
  /// constants).
  void classify() const;

  const Decl *Callable;
  ASTContext &Ctx;
  mutable bool Classified = false;
  mutable bool Analysable = false;
  mutable UseClassifier Uses;
  /// The variables defined once, and their definition.
  mutable llvm::DenseMap<const VarDecl *, unsigned> Single;
  mutable std::vector<Definition> SingleDefs; // stable once classified
  mutable std::unique_ptr<Flow> TheFlow;
};

FunctionDefinitions::Impl::Impl(const Decl *Callable, ASTContext &Ctx)
    : Callable(Callable), Ctx(Ctx) {}

void FunctionDefinitions::Impl::classify() const {
  if (Classified)
    return;
  Classified = true;
  if (!Callable || !Callable->getBody() || hasCompileErrors(Callable))
    return;
  if (const auto *DC = dyn_cast<DeclContext>(Callable))
    if (DC->isDependentContext())
      return;
  Analysable = true;
  Uses.classify(Callable);
  // C lets a goto jump over an initialisation: there every variable is left
  // to the CFG.
  if (!Ctx.getLangOpts().CPlusPlus)
    return;
  auto Once = [&](const VarDecl *VD) {
    return isCandidate(VD) && !Uses.Escaped.contains(VD) &&
           !Uses.DefCount.count(VD) && !Single.count(VD);
  };
  auto Add = [&](Definition D) {
    Single.try_emplace(D.Var, SingleDefs.size());
    SingleDefs.push_back(D);
  };
  llvm::ArrayRef<ParmVarDecl *> Params;
  if (const auto *FD = dyn_cast<FunctionDecl>(Callable))
    Params = FD->parameters();
  else if (const auto *BD = dyn_cast<BlockDecl>(Callable))
    Params = BD->parameters();
  for (const ParmVarDecl *P : Params)
    if (Once(P))
      Add({P, DefKind::Entry, nullptr, nullptr, 0});
  for (const DeclStmt *DS : Uses.Decls)
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D); VD && Once(VD))
        Add({VD, DefKind::Init, DS, VD->getInit(), 0});
}

std::optional<llvm::SmallVector<const Definition *, 4>>
FunctionDefinitions::Impl::reaching(const VarDecl *VD, const Stmt *Use) const {
  classify();
  auto It = Single.find(VD);
  if (It != Single.end())
    return llvm::SmallVector<const Definition *, 4>{&SingleDefs[It->second]};
  if (!needsFlow(VD))
    return std::nullopt;
  return flow().reaching(VD, Use);
}

FunctionDefinitions::Impl::Flow::Flow(const Decl *Callable, ASTContext &Ctx,
                                const UseClassifier &Uses) {
  Cfg = sharedCfg(Callable, Ctx);
  if (!Cfg || Cfg->getNumBlockIDs() > MaxBlocks)
    return;
  DefsIn.resize(Cfg->getNumBlockIDs());
  Scan S{Uses, llvm::DenseMap<const VarDecl *, unsigned>()};
  if (!collect(Callable, S))
    return;
  // Track a variable only when the CFG holds every definition the AST has
  // (a definition in code the CFG leaves out would otherwise go unseen).
  for (const Definition &D : Defs)
    Tracked.insert(D.Var);
  for (const auto &[VD, Count] : Uses.DefCount)
    if (S.Found.lookup(VD) != Count)
      Tracked.erase(VD);
  Valid = solve();
}

const VarDecl *FunctionDefinitions::Impl::Flow::Scan::target(const Expr *E) {
  const DeclRefExpr *DRE = refTo(E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !candidate(VD))
    return nullptr;
  ++Found[VD];
  return VD;
}

/// The definitions of the parameters and of every element of the CFG;
/// false when there are too many.
bool FunctionDefinitions::Impl::Flow::collect(const Decl *Callable, Scan &S) {
  llvm::ArrayRef<ParmVarDecl *> Params;
  if (const auto *FD = dyn_cast<FunctionDecl>(Callable))
    Params = FD->parameters();
  else if (const auto *BD = dyn_cast<BlockDecl>(Callable))
    Params = BD->parameters();
  unsigned EntryID = Cfg->getEntry().getBlockID();
  for (const VarDecl *P : Params)
    if (S.candidate(P))
      addDef({P, DefKind::Entry, nullptr, nullptr, 0}, EntryID, 0);

  for (const CFGBlock *B : *Cfg) {
    if (!B)
      continue;
    unsigned Index = 0;
    for (const CFGElement &El : *B) {
      std::optional<CFGStmt> CS = El.getAs<CFGStmt>();
      unsigned I = Index++;
      if (!CS)
        continue;
      // Reads are asked about by their DeclRefExpr: only those are placed.
      if (isa<DeclRefExpr>(CS->getStmt()))
        Position.try_emplace(CS->getStmt(), B->getBlockID(), I + 1);
      if (Defs.size() > MaxDefinitions)
        return false;
      collectAt(CS->getStmt(), B->getBlockID(), I, S);
    }
  }
  return true;
}

/// The definitions element `I` of `Block`, the statement `St`, makes.
void FunctionDefinitions::Impl::Flow::collectAt(const Stmt *St, unsigned Block,
                                          unsigned I, Scan &S) {
  if (const auto *DS = dyn_cast<DeclStmt>(St)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        if (S.candidate(VD))
          addDef({VD, DefKind::Init, St, VD->getInit(), 0}, Block, I);
  } else if (const auto *BO = dyn_cast<BinaryOperator>(St)) {
    if (!BO->isAssignmentOp())
      return;
    const VarDecl *VD = S.target(BO->getLHS());
    if (!VD)
      return;
    if (BO->getOpcode() == BO_Assign)
      addDef({VD, DefKind::Assign, St, BO->getRHS(), 0}, Block, I);
    else
      addDef({VD, DefKind::Compound, St, nullptr, 0}, Block, I);
  } else if (const auto *UO = dyn_cast<UnaryOperator>(St)) {
    if (!UO->isIncrementDecrementOp())
      return;
    if (const VarDecl *VD = S.target(UO->getSubExpr()))
      addDef({VD, DefKind::IncDec, St, nullptr, 0}, Block, I);
  } else if (const auto *Call = dyn_cast<CallExpr>(St)) {
    for (unsigned A = 0, N = Call->getNumArgs(); A < N; ++A) {
      const auto *Addr =
          dyn_cast<UnaryOperator>(Call->getArg(A)->IgnoreParenCasts());
      if (!Addr || Addr->getOpcode() != UO_AddrOf || !isOutArgument(Call, A))
        continue;
      if (const VarDecl *VD = S.target(Addr->getSubExpr()))
        addDef({VD, DefKind::OutArgument, St, nullptr, A}, Block, I);
    }
  }
}

/// Reaching definitions: a forward union over the CFG; false when it does
/// not converge within its budget.
bool FunctionDefinitions::Impl::Flow::solve() {
  unsigned NumDefs = Defs.size();
  for (const Definition &D : Defs)
    VarIndex.try_emplace(D.Var, VarIndex.size());
  KillMaskOf.assign(VarIndex.size(), llvm::BitVector(NumDefs));
  for (unsigned I = 0; I < NumDefs; ++I)
    KillMaskOf[VarIndex[Defs[I].Var]].set(I);

  unsigned NumBlocks = Cfg->getNumBlockIDs();
  In.assign(NumBlocks, llvm::BitVector(NumDefs));
  std::vector<llvm::BitVector> Out(NumBlocks, llvm::BitVector(NumDefs));
  auto Transfer = [&](const CFGBlock *B, llvm::BitVector State) {
    apply(State, B->getBlockID(), 0, B->size() + 1);
    return State;
  };
  llvm::SmallVector<const CFGBlock *, 64> Work;
  llvm::BitVector Queued(NumBlocks);
  for (const CFGBlock *B : *Cfg)
    if (B) {
      Work.push_back(B);
      Queued.set(B->getBlockID());
    }
  unsigned Budget = 64 * NumBlocks + 64;
  while (!Work.empty()) {
    if (Budget-- == 0)
      return false; // not converged: know nothing
    const CFGBlock *B = Work.pop_back_val();
    unsigned ID = B->getBlockID();
    Queued.reset(ID);
    llvm::BitVector NewIn(NumDefs);
    for (const CFGBlock *P : B->preds())
      if (P)
        NewIn |= Out[P->getBlockID()];
    In[ID] = NewIn;
    llvm::BitVector NewOut = Transfer(B, NewIn);
    if (NewOut != Out[ID]) {
      Out[ID] = std::move(NewOut);
      for (const CFGBlock *Succ : B->succs())
        if (Succ && !Queued.test(Succ->getBlockID())) {
          Queued.set(Succ->getBlockID());
          Work.push_back(Succ);
        }
    }
  }
  return true;
}

void FunctionDefinitions::Impl::Flow::apply(llvm::BitVector &State,
                                      unsigned Block, unsigned From,
                                      unsigned To) const {
  llvm::ArrayRef<std::pair<unsigned, unsigned>> At = DefsIn[Block];
  // The definitions of one element kill their variables' others first, then
  // all take effect (`f(&x, &x)` defines x twice at once).
  for (size_t I = 0; I < At.size();) {
    unsigned Index = At[I].first;
    size_t End = I;
    while (End < At.size() && At[End].first == Index)
      ++End;
    if (Index >= From && Index < To) {
      for (size_t J = I; J < End; ++J) {
        auto VI = VarIndex.find(Defs[At[J].second].Var);
        if (VI != VarIndex.end())
          State.reset(KillMaskOf[VI->second]);
      }
      for (size_t J = I; J < End; ++J)
        State.set(At[J].second);
    }
    I = End;
  }
}

std::optional<llvm::SmallVector<const Definition *, 4>>
FunctionDefinitions::Impl::Flow::reaching(const VarDecl *VD, const Stmt *Use) const {
  if (!Valid || !Tracked.contains(VD))
    return std::nullopt;
  auto PosIt = Position.find(Use);
  if (PosIt == Position.end())
    return std::nullopt;
  auto [Block, After] = PosIt->second;
  // Position holds the index just after the element: the definitions
  // reaching the element itself are those before it.
  unsigned Before = After - 1;
  llvm::BitVector State = In[Block];
  apply(State, Block, 0, Before);
  auto VI = VarIndex.find(VD);
  if (VI == VarIndex.end())
    return std::nullopt;
  llvm::BitVector Mine = State;
  Mine &= KillMaskOf[VI->second];
  llvm::SmallVector<const Definition *, 4> Result;
  for (int D = Mine.find_first(); D >= 0; D = Mine.find_next(D)) {
    if (Result.size() >= 16)
      return std::nullopt;
    Result.push_back(&Defs[D]);
  }
  if (Result.empty())
    return std::nullopt;
  return Result;
}

FunctionDefinitions::FunctionDefinitions(const Decl *Callable, ASTContext &Ctx)
    : I(std::make_unique<Impl>(Callable, Ctx)) {}

FunctionDefinitions::~FunctionDefinitions() = default;

bool FunctionDefinitions::tracks(const VarDecl *VD) const {
  return I->tracks(VD);
}

std::optional<llvm::SmallVector<const Definition *, 4>>
FunctionDefinitions::reaching(const VarDecl *VD, const Stmt *Use) const {
  return I->reaching(VD, Use);
}

const Definition *FunctionDefinitions::initOf(const VarDecl *VD) const {
  return I->initOf(VD);
}

const DeclRefExpr *plainReference(const Expr *E) {
  while (const auto *P = dyn_cast_or_null<ParenExpr>(E))
    E = P->getSubExpr();
  return dyn_cast_or_null<DeclRefExpr>(E);
}

} // namespace cublas_tidy
