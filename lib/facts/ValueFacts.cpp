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
// Symbols and symbolic expressions
//===----------------------------------------------------------------------===//

SymbolTag::~SymbolTag() = default;

std::string Symbol::name() const {
  if (!Decl)
    return "?";
  std::string N = Decl->getNameAsString();
  if (N.empty())
    return "?";
  return Tag ? Tag->name(N) : N;
}

SymExpr SymExpr::constant(int64_t V) {
  SymExpr E;
  E.Const = V;
  return E;
}

SymExpr SymExpr::symbol(const Symbol &S) {
  SymExpr E;
  E.Terms.push_back({Monomial{S, Symbol()}, 1});
  return E;
}

bool SymExpr::addTerm(const Monomial &M, int64_t C) {
  auto It = llvm::lower_bound(
      Terms, M, [](const std::pair<Monomial, int64_t> &T, const Monomial &K) {
        return T.first < K;
      });
  if (It == Terms.end() || !(It->first == M)) {
    if (C != 0)
      Terms.insert(It, {M, C});
    return true;
  }
  if (llvm::AddOverflow(It->second, C, It->second))
    return false;
  if (It->second == 0)
    Terms.erase(It);
  return true;
}

std::optional<Symbol> SymExpr::asSymbol() const {
  if (Const != 0 || Terms.size() != 1)
    return std::nullopt;
  const auto &[M, C] = *Terms.begin();
  if (C != 1 || M.degree() != 1)
    return std::nullopt;
  return M.First;
}

std::optional<SymExpr> SymExpr::add(const SymExpr &O) const {
  SymExpr R = *this;
  if (llvm::AddOverflow(R.Const, O.Const, R.Const))
    return std::nullopt;
  for (const auto &[M, C] : O.Terms)
    if (!R.addTerm(M, C))
      return std::nullopt;
  return R;
}

std::optional<SymExpr> SymExpr::neg() const {
  SymExpr R;
  if (Const == INT64_MIN)
    return std::nullopt;
  R.Const = -Const;
  for (const auto &[M, C] : Terms) {
    if (C == INT64_MIN)
      return std::nullopt;
    R.Terms.push_back({M, -C}); // same order
  }
  return R;
}

std::optional<SymExpr> SymExpr::sub(const SymExpr &O) const {
  std::optional<SymExpr> N = O.neg();
  if (!N)
    return std::nullopt;
  return add(*N);
}

static std::optional<SymExpr::Monomial> multiply(const SymExpr::Monomial &L,
                                                 const SymExpr::Monomial &R) {
  if (L.degree() + R.degree() > 2)
    return std::nullopt;
  SymExpr::Monomial M{L.First, R.First};
  if (M.Second < M.First)
    std::swap(M.First, M.Second);
  return M;
}

std::optional<SymExpr> SymExpr::mul(const SymExpr &O) const {
  SymExpr R;
  if (llvm::MulOverflow(Const, O.Const, R.Const))
    return std::nullopt;
  int64_t P;
  for (const auto &[M, C] : Terms)
    if (llvm::MulOverflow(C, O.Const, P) || (P != 0 && !R.addTerm(M, P)))
      return std::nullopt;
  for (const auto &[M, C] : O.Terms)
    if (llvm::MulOverflow(C, Const, P) || (P != 0 && !R.addTerm(M, P)))
      return std::nullopt;
  for (const auto &[LM, LC] : Terms)
    for (const auto &[RM, RC] : O.Terms) {
      std::optional<Monomial> M = multiply(LM, RM);
      if (!M || llvm::MulOverflow(LC, RC, P) || !R.addTerm(*M, P))
        return std::nullopt;
    }
  return R;
}

std::optional<SymExpr> SymExpr::divExact(int64_t D) const {
  if (D == 0 || (D == -1 && Const == INT64_MIN) || Const % D != 0)
    return std::nullopt;
  SymExpr R;
  R.Const = Const / D;
  for (const auto &[M, C] : Terms) {
    if (C % D != 0 || (D == -1 && C == INT64_MIN))
      return std::nullopt;
    R.Terms.push_back({M, C / D}); // same order, none zero
  }
  return R;
}

std::optional<int64_t> SymExpr::lowerBound(const SymbolBounds &Bounds) const {
  auto Least = [&Bounds](const Symbol &S) -> std::optional<int64_t> {
    if (Bounds.Positive.count(S))
      return 1;
    if (S.NonNegative)
      return 0;
    return std::nullopt;
  };
  int64_t Sum = Const;
  for (const auto &[M, C] : Terms) {
    int64_t Min;
    if (M.degree() == 2 && M.First == M.Second) {
      // A square is never negative, whatever the symbol.
      std::optional<int64_t> L = Least(M.First);
      Min = L ? *L * *L : 0;
    } else {
      std::optional<int64_t> L1 = Least(M.First);
      if (!L1)
        return std::nullopt;
      Min = *L1;
      if (M.degree() == 2) {
        std::optional<int64_t> L2 = Least(M.Second);
        if (!L2)
          return std::nullopt;
        Min *= *L2;
      }
    }
    if (C < 0)
      return std::nullopt;
    int64_t T;
    if (llvm::MulOverflow(C, Min, T) || llvm::AddOverflow(Sum, T, Sum))
      return std::nullopt;
  }
  return Sum;
}

std::string SymExpr::str() const {
  std::vector<std::pair<std::string, int64_t>> Parts;
  for (const auto &[M, C] : Terms) {
    std::string Name = M.First.name();
    if (M.degree() == 2)
      Name += "*" + M.Second.name();
    Parts.push_back({Name, C});
  }
  std::sort(Parts.begin(), Parts.end());
  std::string Out;
  for (const auto &[Name, C] : Parts) {
    if (Out.empty())
      Out = C == 1    ? Name
            : C == -1 ? "-" + Name
                      : std::to_string(C) + "*" + Name;
    else if (C < 0)
      Out += " - " + (C == -1 ? Name : std::to_string(-C) + "*" + Name);
    else
      Out += " + " + (C == 1 ? Name : std::to_string(C) + "*" + Name);
  }
  if (Out.empty())
    return std::to_string(Const);
  if (Const > 0)
    Out += " + " + std::to_string(Const);
  else if (Const < 0)
    Out += " - " + std::to_string(static_cast<uint64_t>(-(Const + 1)) + 1);
  return Out;
}

Order compare(const SymExpr &L, const SymExpr &R, const SymbolBounds &Bounds) {
  std::optional<SymExpr> D = L.sub(R);
  if (!D)
    return Order::Unknown;
  if (std::optional<int64_t> C = D->getConstant())
    return *C < 0 ? Order::Less : *C > 0 ? Order::Greater : Order::Equal;
  if (std::optional<int64_t> LB = D->lowerBound(Bounds))
    return *LB > 0 ? Order::Greater : Order::GreaterOrEqual;
  if (std::optional<SymExpr> N = D->neg())
    if (std::optional<int64_t> LB = N->lowerBound(Bounds))
      return *LB > 0 ? Order::Less : Order::LessOrEqual;
  return Order::Unknown;
}

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
constexpr unsigned MaxEvalDepth = 48;
constexpr unsigned MaxContextDepth = 3;

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

const Expr *skipParens(const Expr *E) {
  // Only parentheses: an implicit cast changes how the value is used.
  while (const auto *P = dyn_cast_or_null<ParenExpr>(E))
    E = P->getSubExpr();
  return E;
}

const DeclRefExpr *refTo(const Expr *E) {
  return dyn_cast_or_null<DeclRefExpr>(skipParens(E));
}

/// Members of a sized container that leave its size unchanged.
bool isSizePreservingMember(StringRef Name) {
  return Name == "size" || Name == "data" || Name == "begin" || Name == "end" ||
         Name == "cbegin" || Name == "cend" || Name == "empty" ||
         Name == "front" || Name == "back" || Name == "at" ||
         Name == "rbegin" || Name == "rend" || Name == "capacity";
}

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
      if (const auto *UO = dyn_cast<UnaryOperator>(Arg->IgnoreParenCasts()))
        if (UO->getOpcode() == UO_AddrOf && isAllocatorOutArgument(Call, I))
          if (PlainUses::referenceIn(UO->getSubExpr())) {
            if (const DeclRefExpr *Stored = Uses.markStore(UO->getSubExpr()))
              countDef(Stored);
            continue;
          }
      markIfConstRefArgument(Call->getDirectCallee(), I, Arg);
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call))
      if (Op->getOperator() == OO_Subscript && Op->getNumArgs() >= 1)
        markContainer(Op->getArg(0));
  }
  void visitCXXMemberCallExpr(const CXXMemberCallExpr *Call) {
    const CXXMethodDecl *MD = Call->getMethodDecl();
    if (MD && MD->getIdentifier() && isSizePreservingMember(MD->getName()))
      markContainer(Call->getImplicitObjectArgument());
  }
  void visitCXXConstructExpr(const CXXConstructExpr *CE) {
    for (unsigned I = 0, N = CE->getNumArgs(); I < N; ++I)
      markIfConstRefArgument(CE->getConstructor(), I, CE->getArg(I));
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
class FunctionDefinitions {
public:
  FunctionDefinitions(const Decl *Callable, ASTContext &Ctx);

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

FunctionDefinitions::FunctionDefinitions(const Decl *Callable, ASTContext &Ctx)
    : Callable(Callable), Ctx(Ctx) {}

void FunctionDefinitions::classify() const {
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
FunctionDefinitions::reaching(const VarDecl *VD, const Stmt *Use) const {
  classify();
  auto It = Single.find(VD);
  if (It != Single.end())
    return llvm::SmallVector<const Definition *, 4>{&SingleDefs[It->second]};
  if (!needsFlow(VD))
    return std::nullopt;
  return flow().reaching(VD, Use);
}

FunctionDefinitions::Flow::Flow(const Decl *Callable, ASTContext &Ctx,
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

const VarDecl *FunctionDefinitions::Flow::Scan::target(const Expr *E) {
  const DeclRefExpr *DRE = refTo(E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !candidate(VD))
    return nullptr;
  ++Found[VD];
  return VD;
}

/// The definitions of the parameters and of every element of the CFG;
/// false when there are too many.
bool FunctionDefinitions::Flow::collect(const Decl *Callable, Scan &S) {
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
void FunctionDefinitions::Flow::collectAt(const Stmt *St, unsigned Block,
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
      if (!Addr || Addr->getOpcode() != UO_AddrOf ||
          !isAllocatorOutArgument(Call, A))
        continue;
      if (const VarDecl *VD = S.target(Addr->getSubExpr()))
        addDef({VD, DefKind::OutArgument, St, nullptr, A}, Block, I);
    }
  }
}

/// Reaching definitions: a forward union over the CFG; false when it does
/// not converge within its budget.
bool FunctionDefinitions::Flow::solve() {
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

void FunctionDefinitions::Flow::apply(llvm::BitVector &State,
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
FunctionDefinitions::Flow::reaching(const VarDecl *VD, const Stmt *Use) const {
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

//===----------------------------------------------------------------------===//
// ValueFacts
//===----------------------------------------------------------------------===//

namespace {

/// Parameters that a condition in `Body` reads.
class GuardFinder : public RecursiveASTVisitor<GuardFinder> {
public:
  std::set<const ParmVarDecl *> Params;

  bool VisitIfStmt(IfStmt *S) { return collect(S->getCond()); }
  bool VisitWhileStmt(WhileStmt *S) { return collect(S->getCond()); }
  bool VisitDoStmt(DoStmt *S) { return collect(S->getCond()); }
  bool VisitForStmt(ForStmt *S) { return collect(S->getCond()); }
  bool VisitSwitchStmt(SwitchStmt *S) { return collect(S->getCond()); }
  bool VisitAbstractConditionalOperator(AbstractConditionalOperator *CO) {
    return collect(CO->getCond());
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isLogicalOp()) {
      collect(BO->getLHS());
      collect(BO->getRHS());
    }
    return true;
  }

private:
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

ValueFacts::~ValueFacts() = default;

std::optional<ValueFacts::Binding>
ValueFacts::binding(const ParmVarDecl *Param) const {
  if (!Caller || !Site || Depth > MaxContextDepth ||
      guardedParams().count(Param))
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
                                                unsigned Depth = 0) {
  if (Depth > 8)
    return std::nullopt;
  QualType T = E->getType();
  const Expr *Inner = E;
  // Conversions between integer types, written or not.
  while (const auto *Cast = dyn_cast<CastExpr>(Inner)) {
    if (!isa<ImplicitCastExpr, CStyleCastExpr, CXXFunctionalCastExpr,
             CXXStaticCastExpr>(Cast))
      return std::nullopt;
    CastKind K = Cast->getCastKind();
    if (K != CK_IntegralCast && K != CK_NoOp && K != CK_LValueToRValue)
      return std::nullopt;
    Inner = Cast->getSubExpr()->IgnoreParens();
  }
  llvm::APSInt V;
  if (const auto *BO = dyn_cast<BinaryOperator>(Inner)) {
    // `+`, `-`, `*` of constants, in the operator's type (its operands are
    // converted to it already): an unsigned result wraps, a signed one that
    // overflows is left to the constant evaluator (which refuses it).
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
    V = llvm::APSInt(Result, !Signed);
  } else if (const auto *Lit = dyn_cast<IntegerLiteral>(Inner))
    V = llvm::APSInt(Lit->getValue(),
                     !Lit->getType()->isSignedIntegerOrEnumerationType());
  else if (const auto *DRE = dyn_cast<DeclRefExpr>(Inner)) {
    if (const auto *ECD = dyn_cast<EnumConstantDecl>(DRE->getDecl())) {
      V = ECD->getInitVal();
    } else {
      // `const int lda = 64;`: the constant its initializer is.
      const auto *Var = dyn_cast<VarDecl>(DRE->getDecl());
      QualType VT = Var ? Var->getType() : QualType();
      if (!Var || VT.isNull() || !VT.isConstQualified() ||
          VT.isVolatileQualified() || VT->isReferenceType() ||
          !VT->isIntegralOrEnumerationType() || !Var->getInit())
        return std::nullopt;
      std::optional<llvm::APSInt> Init =
          literalValue(Var->getInit()->IgnoreParens(), Ctx, Depth + 1);
      if (!Init)
        return std::nullopt;
      V = *Init;
    }
  } else if (const auto *Size = dyn_cast<UnaryExprOrTypeTraitExpr>(Inner)) {
    // `sizeof(float)`, `sizeof x`: the size of a complete type of fixed size.
    QualType Of = Size->getTypeOfArgument();
    if (!Of.isNull())
      Of = Of.getNonReferenceType(); // sizeof(T &) is sizeof(T)
    if (Size->getKind() != UETT_SizeOf || Of.isNull() ||
        Of->isDependentType() || Of->isIncompleteType() ||
        Of->isVariablyModifiedType() || Of->isFunctionType() ||
        Of->isVoidType())
      return std::nullopt;
    V = llvm::APSInt(llvm::APInt(64, Ctx.getTypeSizeInChars(Of).getQuantity()),
                     /*isUnsigned=*/true);
  } else {
    return std::nullopt;
  }
  if (!T->isIntegralOrEnumerationType() || T->isBooleanType())
    return std::nullopt;
  V = V.extOrTrunc(Ctx.getIntWidth(T));
  V.setIsSigned(T->isSignedIntegerOrEnumerationType());
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

/// What a library model knows, a container's size(), std::max / std::min
/// of known values.
std::optional<SymExpr> ValueFacts::evalCall(const CallExpr *Call,
                                            unsigned Depth) const {
  if (std::optional<SymExpr> V = evalLibrary(Call, Depth))
    return V;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (MD && MD->getIdentifier() && MD->getName() == "size" &&
        MC->getNumArgs() == 0)
      if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(
              MC->getImplicitObjectArgument()
                  ? MC->getImplicitObjectArgument()->IgnoreParenImpCasts()
                  : nullptr))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          return containerSize(VD);
    return std::nullopt;
  }
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier() || !FD->isInStdNamespace() ||
      (FD->getName() != "max" && FD->getName() != "min") ||
      Call->getNumArgs() != 2)
    return std::nullopt;
  std::optional<SymExpr> L = eval(Call->getArg(0), Depth + 1);
  std::optional<SymExpr> R = L ? eval(Call->getArg(1), Depth + 1) : std::nullopt;
  if (!L || !R)
    return std::nullopt;
  Order O = compare(*L, *R);
  bool Max = FD->getName() == "max";
  if (O == Order::Equal)
    return L;
  if (O == Order::Less || O == Order::LessOrEqual)
    return Max ? R : L;
  if (O == Order::Greater || O == Order::GreaterOrEqual)
    return Max ? L : R;
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
  Symbol Opaque{VD, D.S, VD->getType()->isUnsignedIntegerOrEnumerationType()};
  std::optional<SymExpr> Result;
  switch (D.Kind) {
  case DefKind::Entry:
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
    const DeclRefExpr *DRE = refTo(Target);
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

/// The value a library model gives `E` (a tensor's size, ...), its
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
