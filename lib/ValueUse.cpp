//===- ValueUse.cpp -------------------------------------------------------===//

#include "ValueUse.h"

#include "PlainUses.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/Analyses/LiveVariables.h"
#include "clang/Analysis/AnalysisDeclContext.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
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

ValueUseInfo classifyValueUse(const Expr *E, const ParentMap &Parents) {
  const Stmt *Cur = E;
  bool Whole = true;
  // Bounded: parents of an expression form a chain; 256 steps is far beyond
  // any real nesting of parentheses, commas and conditionals.
  for (int Step = 0; Step < 256; ++Step) {
    const Stmt *P = Parents.getParent(Cur);
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
      if (const auto *SE = dyn_cast_or_null<StmtExpr>(Parents.getParent(CS)))
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
class EscapeFinder : public PlainUses<EscapeFinder> {
public:
  llvm::DenseSet<const VarDecl *> Escaped;

  bool TraverseCXXCatchStmt(CXXCatchStmt *S) {
    ++InCatch;
    bool R = PlainUses::TraverseCXXCatchStmt(S);
    --InCatch;
    return R;
  }

  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return true;
    if (InCatch || DRE->refersToEnclosingVariableOrCapture() || !isPlain(DRE))
      Escaped.insert(VD);
    return true;
  }

private:
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

class DeadStoreObserver : public LiveVariables::Observer {
public:
  DeadStoreObserver(
      const llvm::DenseSet<const VarDecl *> &Escaped,
      const llvm::DenseSet<const CFGBlock *> &Reachable,
      llvm::function_ref<const Expr *(const Expr *)> Interesting,
      std::vector<DeadStore> &Out)
      : Escaped(Escaped), Reachable(Reachable), Interesting(Interesting),
        Out(Out) {}

  void observeStmt(const Stmt *S, const CFGBlock *Block,
                   const LiveVariables::LivenessValues &Live) override {
    if (!Reachable.contains(Block))
      return;
    if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (const DeclRefExpr *DRE = assignedVar(BO))
        check(dyn_cast<VarDecl>(DRE->getDecl()), BO->getRHS(), S, Live);
      return;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          if (const Expr *Init = VD->getInit())
            check(VD, Init, S, Live);
  }

private:
  void check(const VarDecl *VD, const Expr *Value, const Stmt *Store,
             const LiveVariables::LivenessValues &Live) {
    if (!isCandidateVar(VD) || Escaped.contains(VD))
      return;
    const Expr *V = Interesting(Value->IgnoreParenCasts());
    if (!V || Live.isLive(VD))
      return;
    Out.push_back({VD, V, Store, {}});
  }

  const llvm::DenseSet<const VarDecl *> &Escaped;
  const llvm::DenseSet<const CFGBlock *> &Reachable;
  llvm::function_ref<const Expr *(const Expr *)> Interesting;
  std::vector<DeadStore> &Out;
};

/// The first assignment to `VD` on each path leaving element `Index` of
/// `Start`, up to a small number of blocks.
void findOverwrites(const CFGBlock *Start, unsigned Index, const VarDecl *VD,
                    llvm::SmallVectorImpl<const Stmt *> &Out) {
  llvm::SmallPtrSet<const CFGBlock *, 16> Seen;
  llvm::SmallVector<std::pair<const CFGBlock *, unsigned>, 16> Work;
  Work.push_back({Start, Index + 1});
  unsigned Budget = 256;
  while (!Work.empty() && Budget--) {
    auto [B, I] = Work.pop_back_val();
    bool Stopped = false;
    for (unsigned E = B->size(); I < E && !Stopped; ++I) {
      std::optional<CFGStmt> CS = (*B)[I].getAs<CFGStmt>();
      if (!CS)
        continue;
      const Stmt *S = CS->getStmt();
      if (const auto *BO = dyn_cast<BinaryOperator>(S))
        if (const DeclRefExpr *DRE = assignedVar(BO))
          if (DRE->getDecl() == VD) {
            if (!llvm::is_contained(Out, S))
              Out.push_back(S);
            Stopped = true;
          }
    }
    if (Stopped)
      continue;
    for (const CFGBlock *Succ : B->succs())
      if (Succ && Seen.insert(Succ).second)
        Work.push_back({Succ, 0});
  }
}

} // namespace

llvm::DenseSet<const VarDecl *> findEscapingVariables(const Stmt *Body) {
  EscapeFinder Finder;
  Finder.TraverseStmt(const_cast<Stmt *>(Body));
  return std::move(Finder.Escaped);
}

std::vector<DeadStore>
findDeadStores(const Decl *Callable, ASTContext &Ctx,
               llvm::function_ref<const Expr *(const Expr *)> Interesting,
               unsigned MaxBlocks) {
  std::vector<DeadStore> Result;
  if (!Callable || !Callable->getBody())
    return Result;

  AnalysisDeclContextManager Manager(Ctx);
  AnalysisDeclContext *AC = Manager.getContext(Callable);
  // Liveness reads every expression as its own CFG element.
  AC->getCFGBuildOptions().setAllAlwaysAdd();
  CFG *Cfg = AC->getCFG();
  if (!Cfg || Cfg->getNumBlockIDs() > MaxBlocks)
    return Result;

  llvm::DenseSet<const VarDecl *> Escaped =
      findEscapingVariables(Callable->getBody());

  llvm::DenseSet<const CFGBlock *> Reachable;
  {
    llvm::SmallVector<const CFGBlock *, 32> Work{&Cfg->getEntry()};
    Reachable.insert(&Cfg->getEntry());
    while (!Work.empty()) {
      const CFGBlock *B = Work.pop_back_val();
      for (const CFGBlock *Succ : B->succs())
        if (Succ && Reachable.insert(Succ).second)
          Work.push_back(Succ);
    }
  }

  std::unique_ptr<LiveVariables> Live = LiveVariables::computeLiveness(
      *AC, /*killAtAssign=*/true);
  if (!Live)
    return Result;
  DeadStoreObserver Observer(Escaped, Reachable, Interesting, Result);
  Live->runOnAllBlocks(Observer);

  // Attach the overwriting assignments and order the result by position.
  for (DeadStore &DS : Result) {
    for (const CFGBlock *B : *Cfg) {
      for (unsigned I = 0, E = B->size(); I < E; ++I) {
        std::optional<CFGStmt> CS = (*B)[I].getAs<CFGStmt>();
        if (CS && CS->getStmt() == DS.Store)
          findOverwrites(B, I, DS.Var, DS.Overwrites);
      }
    }
    llvm::sort(DS.Overwrites, [&](const Stmt *L, const Stmt *R) {
      return Ctx.getSourceManager().isBeforeInTranslationUnit(
          L->getBeginLoc(), R->getBeginLoc());
    });
  }
  llvm::sort(Result, [&](const DeadStore &L, const DeadStore &R) {
    return Ctx.getSourceManager().isBeforeInTranslationUnit(
        L.Store->getBeginLoc(), R.Store->getBeginLoc());
  });
  Result.erase(std::unique(Result.begin(), Result.end(),
                           [](const DeadStore &L, const DeadStore &R) {
                             return L.Store == R.Store && L.Var == R.Var;
                           }),
               Result.end());
  return Result;
}

} // namespace cublas_tidy
