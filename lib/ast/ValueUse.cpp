//===- ValueUse.cpp -------------------------------------------------------===//

#include "ast/ValueUse.h"

#include "ast/Callables.h"
#include "ast/CutOffs.h"
#include "ast/PlainUses.h"
#include "ast/SharedCfg.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace cublas_tidy {

//===----------------------------------------------------------------------===//
// classifyValueUse
//===----------------------------------------------------------------------===//

static bool isVoidCast(const Stmt *S) {
  const auto *Cast = dyn_cast<ExplicitCastExpr>(S);
  return Cast && Cast->getTypeAsWritten()->isVoidType();
}

/// The use a statement makes of its child `Child`, or nullopt when `Parent`
/// is an expression through which the value flows on (handled by the caller).
static std::optional<ValueUseInfo> useByStatement(const Stmt *Parent,
                                                  const Stmt *Child) {
  ValueUseInfo Discarded{ValueUse::Discarded, /*WholeStatement=*/true};
  ValueUseInfo Used{ValueUse::Used, false};
  if (isa<CompoundStmt, DefaultStmt, LabelStmt, AttributedStmt>(Parent))
    return Discarded;
  // Init statements and for-increments drop the value but are no place for
  // a statement macro.
  ValueUseInfo DiscardedInHeader{ValueUse::Discarded, false};
  if (const auto *If = dyn_cast<IfStmt>(Parent)) {
    if (Child == If->getInit())
      return DiscardedInHeader;
    return Child == If->getThen() || Child == If->getElse() ? Discarded : Used;
  }
  if (const auto *For = dyn_cast<ForStmt>(Parent)) {
    if (Child == For->getBody())
      return Discarded;
    if (Child == For->getInit() || Child == For->getInc())
      return DiscardedInHeader;
    return Used;
  }
  if (const auto *While = dyn_cast<WhileStmt>(Parent))
    return Child == While->getBody() ? Discarded : Used;
  if (const auto *Do = dyn_cast<DoStmt>(Parent))
    return Child == Do->getBody() ? Discarded : Used;
  if (const auto *Switch = dyn_cast<SwitchStmt>(Parent)) {
    if (Child == Switch->getInit())
      return DiscardedInHeader;
    return Child == Switch->getBody() ? Discarded : Used;
  }
  if (const auto *Case = dyn_cast<CaseStmt>(Parent))
    return Child == Case->getSubStmt() ? Discarded : Used;
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(Parent)) {
    if (Child == Range->getInit())
      return DiscardedInHeader;
    return Child == Range->getBody() ? Discarded : Used;
  }
  return Used;
}

ValueUseInfo
classifyValueUse(const Expr *E,
                 llvm::function_ref<const Stmt *(const Stmt *)> ParentOf) {
  const Stmt *Cur = E;
  bool Whole = true;
  // Bounded: parents of an expression form a chain; 256 steps is far beyond
  // any real nesting of parentheses, commas and conditionals.
  for (int Step = 0; Step < 256; ++Step) {
    const Stmt *P = ParentOf(Cur);
    if (!P)
      return {}; // outside the body: an initializer of a member, ...
    if (isa<ParenExpr, ExprWithCleanups, CXXBindTemporaryExpr, ConstantExpr>(
            P)) {
      Cur = P;
      continue;
    }
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(P)) {
      if (ICE->getCastKind() == CK_NoOp || ICE->getCastKind() == CK_ToVoid) {
        Cur = P;
        continue;
      }
      return {};
    }
    if (isVoidCast(P))
      return {ValueUse::CastToVoid, false};
    if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->getOpcode() != BO_Comma)
        return {};
      if (BO->getLHS() == Cur)
        return {ValueUse::Discarded, false};
      Cur = P;
      Whole = false;
      continue;
    }
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(P)) {
      if (CO->getCond() == Cur)
        return {};
      // For `a ?: b` the true branch is also the condition, which is read.
      if (isa<BinaryConditionalOperator>(CO) && CO->getFalseExpr() != Cur)
        return {};
      Cur = P;
      Whole = false;
      continue;
    }
    if (const auto *CS = dyn_cast<CompoundStmt>(P)) {
      // The last statement of a GNU statement expression is its value.
      if (const auto *SE = dyn_cast_or_null<StmtExpr>(ParentOf(CS)))
        if (!CS->body_empty() && CS->body_back() == Cur) {
          Cur = SE;
          Whole = false;
          continue;
        }
    }
    if (isa<Expr>(P))
      return {};
    std::optional<ValueUseInfo> Info = useByStatement(P, Cur);
    if (!Info)
      return {};
    if (Info->Use == ValueUse::Discarded)
      Info->WholeStatement = Info->WholeStatement && Whole;
    return *Info;
  }
  return {};
}

//===----------------------------------------------------------------------===//
// findDeadStores
//===----------------------------------------------------------------------===//

namespace {

/// Finds the local variables whose value may be read other than by a plain
/// load the CFG sees: address taken, bound to a reference, captured, used in
/// a catch handler, member access, ...
class EscapeFinder : public RecursiveASTVisitor<EscapeFinder> {
public:
  llvm::DenseSet<const VarDecl *> Escaped;

  bool shouldVisitLambdaBody() const { return true; }

  bool TraverseCXXCatchStmt(CXXCatchStmt *S) {
    ++InCatch;
    bool R = RecursiveASTVisitor::TraverseCXXCatchStmt(S);
    --InCatch;
    return R;
  }

  // Every statement, before its children (pre-order).
  bool VisitStmt(Stmt *S) {
    Uses.visit(S);
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return true;
    if (InCatch || DRE->refersToEnclosingVariableOrCapture() ||
        !Uses.isPlain(DRE))
      Escaped.insert(VD);
    return true;
  }

private:
  PlainUses Uses;
  int InCatch = 0;
};

bool isCandidateVar(const VarDecl *VD) {
  return VD && VD->hasLocalStorage() && !VD->getType()->isReferenceType() &&
         !VD->getType().isVolatileQualified() && !VD->hasAttr<UnusedAttr>() &&
         !isa<ParmVarDecl>(VD);
}

const DeclRefExpr *assignedVar(const BinaryOperator *BO) {
  if (BO->getOpcode() != BO_Assign)
    return nullptr;
  return dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
}

} // namespace

llvm::DenseSet<const VarDecl *> findEscapingVariables(const Stmt *Body) {
  EscapeFinder Finder;
  Finder.TraverseStmt(const_cast<Stmt *>(Body));
  return std::move(Finder.Escaped);
}

namespace {

/// A store of an interesting value, with its place in the CFG.
struct Store {
  const VarDecl *Var;
  const Expr *Value;
  const Stmt *S;
  const CFGBlock *Block;
  unsigned Index;
};

/// The stores of interesting values in `Cfg`, and every reference that is
/// the target of an assignment (`AssignedRefs`: not a read).
llvm::SmallVector<Store, 8>
storesIn(const CFG &Cfg,
         llvm::function_ref<const Expr *(const Expr *)> Interesting,
         llvm::SmallPtrSetImpl<const DeclRefExpr *> &AssignedRefs) {
  llvm::SmallVector<Store, 8> Stores;
  for (const CFGBlock *B : Cfg) {
    for (unsigned I = 0, E = B->size(); I < E; ++I) {
      std::optional<CFGStmt> CS = (*B)[I].getAs<CFGStmt>();
      if (!CS)
        continue;
      const Stmt *S = CS->getStmt();
      auto Consider = [&](const VarDecl *VD, const Expr *Value) {
        if (!isCandidateVar(VD) || !Value)
          return;
        if (const Expr *V = Interesting(Value->IgnoreParenCasts()))
          Stores.push_back({VD, V, S, B, I});
      };
      if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
        if (const DeclRefExpr *DRE = assignedVar(BO)) {
          AssignedRefs.insert(DRE);
          Consider(dyn_cast<VarDecl>(DRE->getDecl()), BO->getRHS());
        }
      } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
        for (const Decl *D : DS->decls())
          if (const auto *VD = dyn_cast<VarDecl>(D))
            Consider(VD, VD->getInit());
      }
    }
  }
  return Stores;
}

/// Drops the stores whose assignment is itself read (`(st = call()) !=
/// SUCCESS`, a loop condition, `switch (st = call())`): read right there.
void dropReadAssignments(const Decl *Callable,
                         llvm::SmallVectorImpl<Store> &Stores) {
  llvm::ArrayRef<BodyStmt> Body = stmtsIn(Callable);
  llvm::DenseMap<const Stmt *, const Stmt *> Parents;
  llvm::SmallPtrSet<const Stmt *, 8> Wanted;
  for (const Store &St : Stores)
    if (isa<BinaryOperator>(St.S))
      Wanted.insert(St.S);
  llvm::SmallPtrSet<const Stmt *, 8> ReadAssignments;
  for (size_t I = 0; I < Body.size() && !Wanted.empty(); ++I) {
    if (!Wanted.erase(Body[I].S))
      continue;
    addAncestors(Body, I, Parents);
    if (classifyValueUse(cast<Expr>(Body[I].S), [&](const Stmt *S) {
          return Parents.lookup(S);
        }).Use == ValueUse::Used)
      ReadAssignments.insert(Body[I].S);
  }
  llvm::erase_if(Stores, [&](const Store &St) {
    return ReadAssignments.contains(St.S);
  });
}

llvm::DenseSet<const CFGBlock *> reachableBlocks(const CFG &Cfg) {
  llvm::DenseSet<const CFGBlock *> Reachable;
  llvm::SmallVector<const CFGBlock *, 32> Work{&Cfg.getEntry()};
  Reachable.insert(&Cfg.getEntry());
  while (!Work.empty()) {
    const CFGBlock *B = Work.pop_back_val();
    for (const CFGBlock *Succ : B->succs())
      if (Succ && Reachable.insert(Succ).second)
        Work.push_back(Succ);
  }
  return Reachable;
}

/// Which of the stores' variables are live after each store: read on some
/// path before they are assigned again, declared again or end. One
/// backward pass over the CFG (gen/kill sets per block, to a fixpoint,
/// then each block once more): linear in the body, with no budget.
class StoreLiveness {
public:
  StoreLiveness(const CFG &Cfg, llvm::ArrayRef<Store> Stores,
                const llvm::SmallPtrSetImpl<const DeclRefExpr *> &Assigned)
      : Assigned(Assigned) {
    for (const Store &St : Stores)
      Index.try_emplace(St.Var, Index.size());
    unsigned N = Cfg.getNumBlockIDs();
    Gen.assign(N, llvm::BitVector(Index.size()));
    Kill.assign(N, llvm::BitVector(Index.size()));
    LiveIn.assign(N, llvm::BitVector(Index.size()));
    for (const CFGBlock *B : Cfg)
      summarize(*B);
    solve(Cfg);
    for (const Store &St : Stores)
      ByBlock[St.Block].push_back(&St);
    for (auto &[B, In] : ByBlock) {
      llvm::sort(In, [](const Store *L, const Store *R) {
        return L->Index > R->Index;
      });
      liveAfterStores(*B, In);
    }
  }

  bool readAfter(const Store &St) const { return Live.contains(&St); }

private:
  /// The variable `El` reads (Read) or kills, if one of the stores'.
  enum class Effect { None, Read, Kill };
  std::pair<Effect, int> effect(const CFGElement &El) const {
    auto Of = [&](const VarDecl *VD) {
      auto It = Index.find(VD);
      return It == Index.end() ? -1 : static_cast<int>(It->second);
    };
    if (std::optional<CFGLifetimeEnds> LE = El.getAs<CFGLifetimeEnds>())
      return {Effect::Kill, Of(LE->getVarDecl())};
    std::optional<CFGStmt> CS = El.getAs<CFGStmt>();
    if (!CS)
      return {Effect::None, -1};
    const Stmt *S = CS->getStmt();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      if (!Assigned.contains(DRE))
        return {Effect::Read, Of(dyn_cast<VarDecl>(DRE->getDecl()))};
    } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (const DeclRefExpr *DRE = assignedVar(BO))
        return {Effect::Kill, Of(dyn_cast<VarDecl>(DRE->getDecl()))};
    } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      // A declaration kills each variable it declares: a loop body's `T v`
      // starts a new one.
      for (const Decl *D : DS->decls())
        if (int I = Of(dyn_cast<VarDecl>(D)); I >= 0)
          return {Effect::Kill, I};
    }
    return {Effect::None, -1};
  }

  void summarize(const CFGBlock &B) {
    llvm::BitVector &G = Gen[B.getBlockID()], &K = Kill[B.getBlockID()];
    for (const CFGElement &El : B) {
      auto [E, I] = effect(El);
      if (I < 0)
        continue;
      if (E == Effect::Read && !K.test(I))
        G.set(I);
      else if (E == Effect::Kill)
        K.set(I);
    }
  }

  llvm::BitVector liveOut(const CFGBlock &B) const {
    llvm::BitVector Out(Index.size());
    for (const CFGBlock *Succ : B.succs())
      if (Succ)
        Out |= LiveIn[Succ->getBlockID()];
    return Out;
  }

  void solve(const CFG &Cfg) {
    // Backward: predecessors of a changed block are (re)visited.
    llvm::SmallVector<const CFGBlock *, 32> Work(Cfg.begin(), Cfg.end());
    llvm::BitVector Queued(Cfg.getNumBlockIDs(), true);
    while (!Work.empty()) {
      const CFGBlock *B = Work.pop_back_val();
      Queued.reset(B->getBlockID());
      llvm::BitVector In = liveOut(*B);
      In.reset(Kill[B->getBlockID()]);
      In |= Gen[B->getBlockID()];
      if (In == LiveIn[B->getBlockID()])
        continue;
      LiveIn[B->getBlockID()] = std::move(In);
      for (const CFGBlock *Pred : B->preds())
        if (Pred && !Queued.test(Pred->getBlockID())) {
          Queued.set(Pred->getBlockID());
          Work.push_back(Pred);
        }
    }
  }

  /// Walks `B` backward from its live-out set, noting at each store (in
  /// `InBlock`, last first) whether its variable is live right after it.
  void liveAfterStores(const CFGBlock &B,
                       llvm::ArrayRef<const Store *> InBlock) {
    llvm::BitVector Now = liveOut(B);
    size_t Next = 0;
    for (unsigned I = B.size(); I-- > 0;) {
      for (; Next < InBlock.size() && InBlock[Next]->Index == I; ++Next)
        if (Now.test(Index.lookup(InBlock[Next]->Var)))
          Live.insert(InBlock[Next]);
      auto [E, V] = effect(B[I]);
      if (V < 0)
        continue;
      if (E == Effect::Read)
        Now.set(V);
      else if (E == Effect::Kill)
        Now.reset(V);
    }
  }

  const llvm::SmallPtrSetImpl<const DeclRefExpr *> &Assigned;
  llvm::DenseMap<const VarDecl *, unsigned> Index;
  std::vector<llvm::BitVector> Gen, Kill, LiveIn;
  llvm::DenseMap<const CFGBlock *, llvm::SmallVector<const Store *, 2>>
      ByBlock;
  llvm::SmallPtrSet<const Store *, 16> Live;
};

enum class StoreFate { Read, Dead, TooBig };

/// Searches forward from `St` for a read of its variable before it is
/// assigned again (each such assignment into `Found.Overwrites`), declared
/// again or ends; TooBig when `Budget` runs out first. Only dead stores are
/// searched (for the assignments that overwrite them, StoreLiveness having
/// decided that nothing reads them).
StoreFate searchRead(const Store &St,
                     const llvm::SmallPtrSetImpl<const DeclRefExpr *> &Assigned,
                     unsigned &Budget, DeadStore &Found) {
  bool Read = false;
  llvm::SmallPtrSet<const CFGBlock *, 16> Entered;
  llvm::SmallVector<std::pair<const CFGBlock *, unsigned>, 16> Work;
  Work.push_back({St.Block, St.Index + 1});
  while (!Work.empty() && !Read) {
    auto [B, I] = Work.pop_back_val();
    bool Killed = false;
    for (unsigned E = B->size(); I < E && !Killed && !Read; ++I) {
      if (Budget-- == 0)
        return StoreFate::TooBig;
      const CFGElement &El = (*B)[I];
      if (std::optional<CFGLifetimeEnds> LE = El.getAs<CFGLifetimeEnds>()) {
        Killed = LE->getVarDecl() == St.Var;
        continue;
      }
      std::optional<CFGStmt> CS = El.getAs<CFGStmt>();
      if (!CS)
        continue;
      const Stmt *S = CS->getStmt();
      if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
        Read = DRE->getDecl() == St.Var && !Assigned.contains(DRE);
      } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
        if (const DeclRefExpr *DRE = assignedVar(BO))
          if (DRE->getDecl() == St.Var) {
            Killed = true;
            if (!llvm::is_contained(Found.Overwrites, S))
              Found.Overwrites.push_back(S);
          }
      } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
        Killed = llvm::is_contained(DS->decls(), St.Var);
      }
    }
    if (Killed || Read)
      continue;
    for (const CFGBlock *Succ : B->succs())
      if (Succ && Entered.insert(Succ).second)
        Work.push_back({Succ, 0});
  }
  return Read ? StoreFate::Read : StoreFate::Dead;
}

} // namespace

namespace {

/// How the next statement of a store uses the variable.
enum class NextUse { Reads, Unknown };

/// Whether the statement at `N` of `Stmts` reads `VD` (a reference whose
/// value is loaded) and nothing in it writes `VD` or takes a reference to
/// it: then the value stored just before it is read on the path that
/// reaches it.
NextUse nextStatementUse(llvm::ArrayRef<BodyStmt> Stmts, const BodyIndex &Index,
                         const VarDecl *VD, int N) {
  auto Refs = Index.RefsTo.find(VD);
  if (Refs == Index.RefsTo.end())
    return NextUse::Unknown;
  bool Read = false;
  for (int I : Refs->second) {
    int Up = I;
    while (Up >= 0 && Up != N)
      Up = Stmts[Up].Parent;
    if (Up != N)
      continue; // not in the next statement
    int P = Stmts[I].Parent;
    while (P >= 0 && isa<ParenExpr>(Stmts[P].S))
      P = Stmts[P].Parent;
    const auto *Cast = P >= 0 ? dyn_cast<ImplicitCastExpr>(Stmts[P].S) : nullptr;
    if (!Cast || Cast->getCastKind() != CK_LValueToRValue)
      return NextUse::Unknown; // written, bound, or its address taken
    Read = true;
  }
  return Read ? NextUse::Reads : NextUse::Unknown;
}

/// True when the body stores no interesting value in a candidate variable,
/// or when each store is a statement of a block whose next statement
/// reads the variable (`cublasStatus_t s = call(); if (s != ...)`, the
/// shape of every checking macro): no store can be dead, and the CFG is not
/// needed to say so.
bool everyStoreReadNext(const Decl *Callable,
                        llvm::function_ref<const Expr *(const Expr *)>
                            Interesting) {
  llvm::ArrayRef<BodyStmt> Stmts = stmtsIn(Callable);
  const BodyIndex *Index = nullptr;
  for (size_t I = 0; I < Stmts.size(); ++I) {
    const VarDecl *VD = nullptr;
    const Expr *Value = nullptr;
    if (const auto *BO = dyn_cast<BinaryOperator>(Stmts[I].S)) {
      if (const DeclRefExpr *DRE = assignedVar(BO)) {
        VD = dyn_cast<VarDecl>(DRE->getDecl());
        Value = BO->getRHS();
      }
    } else if (const auto *DS = dyn_cast<DeclStmt>(Stmts[I].S)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D);
            V && isCandidateVar(V) && V->getInit() &&
            Interesting(V->getInit()->IgnoreParenCasts())) {
          if (!DS->isSingleDecl())
            return false;
          VD = V;
          Value = V->getInit();
        }
    }
    if (!VD || !isCandidateVar(VD) || !Value ||
        !Interesting(Value->IgnoreParenCasts()))
      continue;
    // The store is a statement of a compound statement, and has a next
    // statement there.
    int Parent = Stmts[I].Parent;
    const auto *Block =
        Parent >= 0 ? dyn_cast<CompoundStmt>(Stmts[Parent].S) : nullptr;
    if (!Block)
      return false;
    const Stmt *Next = nullptr;
    for (auto It = Block->body_begin(); It != Block->body_end(); ++It)
      if (*It == Stmts[I].S) {
        if (std::next(It) != Block->body_end())
          Next = *std::next(It);
        break;
      }
    if (!Next)
      return false;
    // The next statement is the next sibling in the list: the first index
    // after the store's subtree whose parent is the block.
    int N = -1;
    for (size_t J = I + 1; J < Stmts.size(); ++J)
      if (Stmts[J].S == Next && Stmts[J].Parent == Parent) {
        N = int(J);
        break;
      }
    if (N < 0)
      return false;
    if (!Index)
      Index = &indexIn(Callable);
    if (nextStatementUse(Stmts, *Index, VD, N) != NextUse::Reads)
      return false;
  }
  return true;
}

/// Judges the stores of one body, each once: a store no path reads, of a
/// variable that does not escape, is dead. Most stores are read a few
/// elements later: a short forward search decides them. A store it does
/// not decide is asked of the liveness of the whole body, computed once,
/// when first needed: linear however many stores the body has.
class StoreJudge {
public:
  StoreJudge(const Decl *Callable, const CFG &Cfg,
             llvm::ArrayRef<Store> Stores,
             const llvm::SmallPtrSetImpl<const DeclRefExpr *> &AssignedRefs)
      : Callable(Callable), Cfg(Cfg), Stores(Stores),
        AssignedRefs(AssignedRefs), Budget(overwriteBudget(Cfg)) {
    for (const DeclRefExpr *DRE : AssignedRefs)
      AssignedVars.insert(DRE->getDecl());
  }

  /// `St` as a dead store, with the assignments that overwrite it; nullopt
  /// when something reads it or its variable escapes.
  std::optional<DeadStore> dead(const Store &St) {
    DeadStore Found{St.Var, St.Value, St.S, {}};
    unsigned Quick = 256;
    StoreFate Fate = searchRead(St, AssignedRefs, Quick, Found);
    if (Fate == StoreFate::Read)
      return std::nullopt;
    if (Fate == StoreFate::TooBig && !deadByLiveness(St, Found))
      return std::nullopt;
    // Which variables escape is asked only of stores found dead: most
    // stores are read, and the walk over the body costs more than their
    // searches.
    if (!Escaped)
      Escaped = findEscapingVariables(Callable->getBody());
    if (Escaped->contains(St.Var))
      return std::nullopt;
    return Found;
  }

private:
  const Decl *Callable;
  const CFG &Cfg;
  llvm::ArrayRef<Store> Stores;
  const llvm::SmallPtrSetImpl<const DeclRefExpr *> &AssignedRefs;
  std::optional<StoreLiveness> Liveness;
  std::optional<llvm::DenseSet<const VarDecl *>> Escaped;
  /// A variable never assigned (only initialized) has no overwrites to
  /// find.
  llvm::SmallPtrSet<const Decl *, 16> AssignedVars;
  unsigned Budget;
  bool Cut = false;

  /// The overwriting assignments of a dead store are looked for within a
  /// budget that grows with the body; past it a dead store is still
  /// reported, with the overwrites found so far.
  static unsigned overwriteBudget(const CFG &Cfg) {
    unsigned Elements = 0;
    for (const CFGBlock *B : Cfg)
      Elements += B->size();
    return 64 * Cfg.getNumBlockIDs() + 16 * Elements + 4096;
  }

  /// A store the short search did not decide: dead when the liveness of
  /// the body says so; then its overwrites, within the budget.
  bool deadByLiveness(const Store &St, DeadStore &Found) {
    if (!Liveness)
      Liveness.emplace(Cfg, Stores, AssignedRefs);
    if (Liveness->readAfter(St))
      return false;
    Found.Overwrites.clear();
    if (!Cut && AssignedVars.contains(St.Var) &&
        searchRead(St, AssignedRefs, Budget, Found) == StoreFate::TooBig) {
      Cut = true;
      reportCutOff("the dead-store analysis", Callable,
                   "the search for the assignments that overwrite its "
                   "stores ran past its budget; later findings have no "
                   "'overwritten here' notes");
    }
    return true;
  }
};

/// `Stores` in source order, one per store and variable, each with its
/// overwrites in source order.
void sortBySource(std::vector<DeadStore> &Stores, const SourceManager &SM) {
  auto Before = [&](const Stmt *L, const Stmt *R) {
    return SM.isBeforeInTranslationUnit(L->getBeginLoc(), R->getBeginLoc());
  };
  for (DeadStore &D : Stores)
    llvm::sort(D.Overwrites, Before);
  llvm::sort(Stores, [&](const DeadStore &L, const DeadStore &R) {
    return Before(L.Store, R.Store);
  });
  Stores.erase(std::unique(Stores.begin(), Stores.end(),
                           [](const DeadStore &L, const DeadStore &R) {
                             return L.Store == R.Store && L.Var == R.Var;
                           }),
               Stores.end());
}

} // namespace

std::vector<DeadStore>
findDeadStores(const Decl *Callable, ASTContext &Ctx,
               llvm::function_ref<const Expr *(const Expr *)> Interesting,
               unsigned MaxBlocks) {
  std::vector<DeadStore> Result;
  // Most bodies store their statuses in checking macros that read them in
  // the next statement: decided without the CFG.
  if (everyStoreReadNext(Callable, Interesting))
    return Result;
  const CFG *Cfg = sharedCfg(Callable, Ctx);
  if (!Cfg)
    return Result;
  if (Cfg->getNumBlockIDs() > MaxBlocks) {
    reportCutOff("the dead-store analysis", Callable,
                 "its CFG has " + llvm::Twine(Cfg->getNumBlockIDs()) +
                     " blocks, over the limit of " + llvm::Twine(MaxBlocks) +
                     "; its stores are not judged");
    return Result;
  }
  llvm::SmallPtrSet<const DeclRefExpr *, 16> AssignedRefs;
  llvm::SmallVector<Store, 8> Stores =
      storesIn(*Cfg, Interesting, AssignedRefs);
  if (Stores.empty())
    return Result;
  dropReadAssignments(Callable, Stores);
  llvm::DenseSet<const CFGBlock *> Reachable = reachableBlocks(*Cfg);
  StoreJudge Judge(Callable, *Cfg, Stores, AssignedRefs);
  for (const Store &St : Stores)
    if (Reachable.contains(St.Block))
      if (std::optional<DeadStore> Found = Judge.dead(St))
        Result.push_back(std::move(*Found));
  sortBySource(Result, Ctx.getSourceManager());
  return Result;
}

} // namespace cublas_tidy
