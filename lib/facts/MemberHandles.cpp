//===- MemberHandles.cpp - Handles kept in class members ------------------===//

#include "facts/MemberHandles.h"

#include "facts/HandleNames.h"
#include "facts/HandleStates.h"

#include "facts/MemoryObjects.h"
#include "facts/Summaries.h"
#include "facts/SummaryParts.h"

#include "ast/AstUtils.h"
#include "ast/Callables.h"

#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <optional>

namespace json = llvm::json;

namespace cublas_tidy {

namespace {

using namespace clang;

/// `this->f` (or `f` in a member function) for a data member f.
const FieldDecl *memberOfThis(const Expr *E) {
  const auto *ME = E ? dyn_cast<MemberExpr>(E->IgnoreParenImpCasts()) : nullptr;
  if (!ME || !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    return nullptr;
  return dyn_cast<FieldDecl>(ME->getMemberDecl());
}

/// The member an element names (`handles_[d]`, a raw array's or a
/// container's `operator[]`), or null.
const MemberExpr *elementOf(const Expr *E) {
  return dyn_cast_or_null<MemberExpr>(subscriptedObject(E));
}

/// `&this->f`, or `&this->f[i]` for an array or a container of handles.
const FieldDecl *addressedMember(const Expr *E) {
  const auto *U = E ? dyn_cast<UnaryOperator>(E->IgnoreParenImpCasts()) : nullptr;
  if (!U || U->getOpcode() != UO_AddrOf)
    return nullptr;
  if (const MemberExpr *Array = elementOf(U->getSubExpr()))
    return memberOfThis(Array);
  return memberOfThis(U->getSubExpr());
}

/// Calls `Visit` on every statement of `S` (not nested lambdas); false
/// when the walk was cut short.
template <class Fn> bool walk(const Stmt *S, Fn &&Visit) {
  return walkStmts(S, [&](const Stmt *N) {
    Visit(N);
    return true;
  });
}

/// The statements of a callable: its body and, for a constructor, its
/// member initializers.
llvm::SmallVector<const Stmt *, 4> partsOf(const Decl *D) {
  llvm::SmallVector<const Stmt *, 4> Out;
  if (const Stmt *Body = analysableBody(D))
    Out.push_back(Body);
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(D))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init->isWritten() && Init->getInit())
        Out.push_back(Init->getInit());
  return Out;
}

/// Calls `Visit` on the statements of a callable in pre-order: its body's
/// from the shared statement list, then, for a constructor, its member
/// initializers'. False when a walk of an initializer was cut short.
template <class Fn> bool visitParts(const Decl *D, Fn &&Visit) {
  bool Whole = true;
  if (analysableBody(D))
    for (const BodyStmt &N : stmtsIn(D))
      Visit(N.S);
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(D))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init->isWritten() && Init->getInit())
        Whole = walk(Init->getInit(), Visit) && Whole;
  return Whole;
}

/// The same, giving the visitor the body's statement list and the index
/// of the statement in it (an empty list and -1 for an initializer's).
template <class Fn> bool visitPartsIndexed(const Decl *D, Fn &&Visit) {
  bool Whole = true;
  if (analysableBody(D)) {
    llvm::ArrayRef<BodyStmt> Stmts = stmtsIn(D);
    for (size_t I = 0; I < Stmts.size(); ++I)
      Visit(Stmts[I].S, Stmts, static_cast<int>(I));
  }
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(D))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init->isWritten() && Init->getInit())
        Whole = walk(Init->getInit(),
                     [&](const Stmt *S) {
                       Visit(S, llvm::ArrayRef<BodyStmt>(), -1);
                     }) &&
                Whole;
  return Whole;
}

/// The member `M` returns, when `M` is an accessor of one of `Fields`: a
/// non-static member function whose body is `return F;` alone, returning
/// the handle by value (a reference would let the caller change it).
const MemberExpr *
accessedMember(const CXXMethodDecl *M,
               const llvm::DenseSet<const FieldDecl *> &Fields) {
  if (!M || M->isStatic() || M->getReturnType()->isReferenceType() ||
      !isCublasResourceType(M->getReturnType()))
    return nullptr;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(analysableBody(M));
  const auto *Ret = Body && Body->size() == 1
                        ? dyn_cast<ReturnStmt>(Body->body_front())
                        : nullptr;
  const auto *ME = Ret && Ret->getRetValue()
                       ? dyn_cast<MemberExpr>(
                             Ret->getRetValue()->IgnoreParenImpCasts())
                       : nullptr;
  const auto *F = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  if (!F || !Fields.count(F) || F->getParent() != M->getParent() ||
      !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    return nullptr;
  return ME;
}

struct Candidate {
  const CXXRecordDecl *Class;
  const FieldDecl *Field;
  const CallExpr *Create;
  unsigned KindId;
  /// The function that creates it, for a member created after
  /// construction: a method (`init()`, InitParam -1), or a function given
  /// the object by pointer or reference (`ctx_create(&ctx)`, InitParam its
  /// index); null for one the constructor creates.
  const FunctionDecl *Init = nullptr;
  int InitParam = -1;
  /// Init is a factory: it creates the member in an object it makes and
  /// returns (`Ctx *ctx_create()`).
  bool Returns = false;
};

/// The bodies that run on `this` when `Fn` runs: its own, and those of the
/// member functions of its class it calls on `this` (one level, at most 8).
llvm::SmallVector<const Stmt *, 8> bodiesOnThis(const CXXMethodDecl *Fn) {
  llvm::SmallVector<const Stmt *, 8> Bodies;
  const Stmt *Own = analysableBody(Fn);
  if (!Own)
    return Bodies;
  Bodies.push_back(Own);
  walk(Own, [&](const Stmt *S) {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(S);
    const CXXMethodDecl *M = MC ? MC->getMethodDecl() : nullptr;
    if (!M || M->getParent() != Fn->getParent() ||
        !isa<CXXThisExpr>(
            MC->getImplicitObjectArgument()->IgnoreParenImpCasts()))
      return;
    if (const Stmt *Body = analysableBody(M->getDefinition()))
      if (Bodies.size() < 8 && !llvm::is_contained(Bodies, Body))
        Bodies.push_back(Body);
  });
  return Bodies;
}

} // namespace

/// A create of the resource table into a member of `this` of `Class`: it
/// is added to `Candidates` (one per member, in `Fields`).
static void createInto(const CallExpr *C, const CXXRecordDecl *Class,
                       const FunctionDecl *Init, const ResourceTable &Table,
                       llvm::DenseSet<const FieldDecl *> &Fields,
                       std::vector<Candidate> &Candidates) {
  const ResourceTable::Entry *E = Table.lookup(C);
  if (!E || !E->IsCreate)
    return;
  for (unsigned I = 0; I < C->getNumArgs(); ++I) {
    if (E->ParamIndex >= 0 && static_cast<int>(I) != E->ParamIndex)
      continue;
    const FieldDecl *F = addressedMember(C->getArg(I));
    if (F && F->getParent() == Class && Fields.insert(F).second)
      Candidates.push_back({Class, F, C, E->KindId, Init});
  }
}

/// The creates into members of `Class` in `Body`, added to `Candidates`.
static void createsInto(const Stmt *Body, const CXXRecordDecl *Class,
                        const FunctionDecl *Init, const ResourceTable &Table,
                        llvm::DenseSet<const FieldDecl *> &Fields,
                        std::vector<Candidate> &Candidates) {
  walk(Body, [&](const Stmt *S) {
    if (const auto *C = dyn_cast<CallExpr>(S))
      createInto(C, Class, Init, Table, Fields, Candidates);
  });
}

/// Whether members of `Class` are followed: a class of its own, not a
/// lambda's or a template's.
static bool followedClass(const CXXRecordDecl *Class) {
  return Class && !Class->isLambda() && !Class->isDependentContext();
}

/// The class of the object a parameter of type `T` is given: a pointer or
/// a reference to it.
static const CXXRecordDecl *objectClassOf(QualType T) {
  if (T->isPointerType() || T->isReferenceType())
    return T->getPointeeCXXRecordDecl();
  return nullptr;
}

/// Whether `Fn` returns the local `V` (`return ctx;`) on some path: a
/// factory of the object `V` points to.
static bool returnsLocal(const FunctionDecl *Fn, const VarDecl *V) {
  if (!V->hasLocalStorage() || isa<ParmVarDecl>(V) ||
      !V->getType()->isPointerType() || !Fn->getReturnType()->isPointerType())
    return false;
  return llvm::any_of(stmtsIn(Fn), [&](const BodyStmt &S) {
    const auto *R = dyn_cast<ReturnStmt>(S.S);
    const auto *DRE =
        R && R->getRetValue()
            ? dyn_cast<DeclRefExpr>(R->getRetValue()->IgnoreParenImpCasts())
            : nullptr;
    return DRE && DRE->getDecl() == V;
  });
}

/// The creates in `Fn`'s body into a public member of an object it is
/// given by pointer or reference (`cublasCreate(&ctx->handle)`), or of
/// one it makes and returns (`Ctx *c = malloc(...); ... return c;`),
/// added to `Candidates`.
static void createsThroughParameters(const FunctionDecl *Fn,
                                     const ResourceTable &Table,
                                     llvm::DenseSet<const FieldDecl *> &Fields,
                                     std::vector<Candidate> &Candidates) {
  if (!analysableBody(Fn))
    return;
  for (const CallExpr *C : callsIn(Fn)) {
    const ResourceTable::Entry *E = Table.lookup(C);
    if (!E || !E->IsCreate)
      continue;
    for (unsigned I = 0; I < C->getNumArgs(); ++I) {
      if (E->ParamIndex >= 0 && static_cast<int>(I) != E->ParamIndex)
        continue;
      const auto *U =
          dyn_cast<UnaryOperator>(C->getArg(I)->IgnoreParenImpCasts());
      const auto *ME =
          U && U->getOpcode() == UO_AddrOf
              ? dyn_cast<MemberExpr>(U->getSubExpr()->IgnoreParenImpCasts())
              : nullptr;
      const auto *F = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
      const auto *Base =
          ME ? dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts())
             : nullptr;
      const auto *V = Base ? dyn_cast<VarDecl>(Base->getDecl()) : nullptr;
      const auto *P = dyn_cast_or_null<ParmVarDecl>(V);
      bool Returned = V && !P && returnsLocal(Fn, V);
      if (!F || (!P && !Returned) || F->getAccess() == AS_private ||
          F->getAccess() == AS_protected)
        continue;
      const CXXRecordDecl *Class = objectClassOf(V->getType());
      if (Class && followedClass(Class) && F->getParent() == Class &&
          Fields.insert(F).second)
        Candidates.push_back(
            {Class, F, C, E->KindId, Fn,
             P ? static_cast<int>(P->getFunctionScopeIndex()) : -1, Returned});
    }
  }
}

/// Creates into data members from constructors, or from member functions
/// of the same class that a constructor calls; then, for the members no
/// constructor creates, from other member functions (`init()`, called
/// after construction). One per member, in `Fields`.
static std::vector<Candidate>
memberCreates(llvm::ArrayRef<const Decl *> Callables,
              const ResourceTable &Table,
              llvm::DenseSet<const FieldDecl *> &Fields) {
  std::vector<Candidate> Candidates;
  for (const Decl *D : Callables) {
    const auto *Ctor = dyn_cast<CXXConstructorDecl>(D);
    if (!Ctor || Ctor->isCopyOrMoveConstructor() || !analysableBody(Ctor) ||
        !followedClass(Ctor->getParent()))
      continue;
    for (const Stmt *Body : bodiesOnThis(Ctor))
      createsInto(Body, Ctor->getParent(), nullptr, Table, Fields, Candidates);
  }
  for (const Decl *D : Callables) {
    const auto *M = dyn_cast<CXXMethodDecl>(D);
    if (!M || isa<CXXConstructorDecl, CXXDestructorDecl>(M) || M->isStatic() ||
        !followedClass(M->getParent()))
      continue;
    if (analysableBody(M))
      for (const CallExpr *C : callsIn(M))
        createInto(C, M->getParent(), M, Table, Fields, Candidates);
  }
  for (const Decl *D : Callables)
    if (const auto *Fn = dyn_cast<FunctionDecl>(D);
        Fn && !isa<CXXConstructorDecl, CXXDestructorDecl>(Fn))
      createsThroughParameters(Fn, Table, Fields, Candidates);
  return Candidates;
}

namespace {

/// The uses of the candidate members in the callables of a file, one
/// statement at a time (unclearMembers()): which members may be released,
/// and which accessors only hand their member to cuBLAS.
class MemberUses {
public:
  MemberUses(const ResourceTable &Table,
             const llvm::DenseSet<const FieldDecl *> &Fields)
      : Table(Table), Fields(Fields),
        AnyPublic(llvm::any_of(Fields, [](const FieldDecl *F) {
          return F->getAccess() != AS_private && F->getAccess() != AS_protected;
        })) {}

  llvm::DenseSet<const FieldDecl *> Unclear;
  /// Accessors (canonical) and the member each returns.
  llvm::DenseMap<const CXXMethodDecl *, const FieldDecl *> Getters;

  /// Follows the calls of the accessors of the candidates instead of
  /// taking their reads of the member as unclear.
  void followAccessors(llvm::ArrayRef<Candidate> Candidates) {
    for (const Candidate &C : Candidates)
      for (const CXXMethodDecl *M : C.Class->methods())
        if (const MemberExpr *ME = accessedMember(
                dyn_cast_or_null<CXXMethodDecl>(M->getDefinition()), Fields);
            ME && ME->getMemberDecl() == C.Field) {
          Getters[M->getCanonicalDecl()] = C.Field;
          Allowed.insert(ME);
        }
  }

  /// One statement, in pre-order: a call is seen before the member
  /// expressions among its arguments, so they are allowed before they are
  /// looked at.
  void visit(const Stmt *S, llvm::ArrayRef<BodyStmt> Stmts, int Index) {
    if (const auto *C = dyn_cast<CallExpr>(S))
      return visitCall(C);
    if (!Getters.empty()) {
      if (const auto *DS = dyn_cast<DeclStmt>(S))
        return visitHolders(DS);
      if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
        return visitHolderUse(DRE);
    }
    const auto *ME = dyn_cast<MemberExpr>(S);
    const auto *F = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
    if (F && Fields.count(F) && !Allowed.count(ME) &&
        !testedAgainstNull(Stmts, Index))
      Unclear.insert(F);
  }

  /// After every callable: the member of an accessor whose result goes
  /// anywhere but to cuBLAS is unclear.
  void settleAccessorCalls() {
    for (const CXXMemberCallExpr *MC : GetterCalls) {
      bool Kept =
          ToCublas.count(MC) || (HeldCalls.count(MC) && !Spilled.count(MC));
      if (!Kept)
        Unclear.insert(
            Getters.lookup(MC->getMethodDecl()->getCanonicalDecl()));
    }
  }

private:
  using EntryFn = llvm::function_ref<const ResourceTable::Entry *()>;

  const ResourceTable &Table;
  const llvm::DenseSet<const FieldDecl *> &Fields;
  /// Whether a candidate is public: an object given to code the unit does
  /// not see may lose it there.
  bool AnyPublic;
  /// Summarises the functions of the unit a member is given to.
  std::unique_ptr<HandleAnalyzer> Analyzer;
  llvm::DenseSet<const MemberExpr *> Allowed;
  /// The calls of accessors, and where their results go.
  llvm::SmallVector<const CXXMemberCallExpr *, 8> GetterCalls;
  llvm::DenseSet<const Expr *> ToCublas; // a call or a reference
  llvm::DenseMap<const VarDecl *, const CXXMemberCallExpr *> Holders;
  llvm::DenseSet<const CXXMemberCallExpr *> HeldCalls, Spilled;

  /// An object given to a function the unit does not define (a release
  /// function of another file): its public members may be destroyed there.
  void givenToUnseenCode(const CallExpr *C) {
    if (!AnyPublic)
      return;
    bool Asked = false; // the callee, asked once: for the first object
    for (const Expr *Arg : C->arguments()) {
      QualType T = Arg->getType();
      const CXXRecordDecl *Class = T->isPointerType()
                                       ? T->getPointeeCXXRecordDecl()
                                       : T->getAsCXXRecordDecl();
      if (!Class)
        continue;
      for (const FieldDecl *F : Fields) {
        if (F->getParent() != Class || F->getAccess() == AS_private ||
            F->getAccess() == AS_protected)
          continue;
        if (!Asked) {
          Asked = true;
          const FunctionDecl *FD = C->getDirectCallee();
          if (FD && (FD->hasBody() || calledCublasFunction(C) ||
                     FD->getASTContext().getSourceManager().isInSystemHeader(
                         FD->getLocation())))
            return;
        }
        Unclear.insert(F);
      }
    }
  }

  /// Whether `Stmts[Index]`, a member, is tested against null (`if (h_)`,
  /// `!h_`, `h_ == nullptr`): a read that releases nothing.
  static bool testedAgainstNull(llvm::ArrayRef<BodyStmt> Stmts, int Index) {
    if (Index < 0)
      return false;
    int P = parentThroughWrappers(Stmts, Index);
    const Stmt *Parent = P >= 0 ? Stmts[P].S : nullptr;
    const Expr *Member = cast<Expr>(Stmts[Index].S);
    auto Is = [&](const Expr *E) {
      return E && E->IgnoreParenImpCasts() == Member;
    };
    if (const auto *If = dyn_cast_or_null<IfStmt>(Parent))
      return Is(If->getCond());
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(Parent))
      return U->getOpcode() == UO_LNot;
    const auto *B = dyn_cast_or_null<BinaryOperator>(Parent);
    if (!B || !B->isEqualityOp())
      return false;
    const Expr *Other = Is(B->getLHS()) ? B->getRHS() : B->getLHS();
    return Other->isNullPointerConstant(
        const_cast<ASTContext &>(
            cast<MemberExpr>(Member)->getMemberDecl()->getASTContext()),
        Expr::NPC_ValueDependentIsNotNull);
  }

  const CXXMemberCallExpr *getterCall(const Expr *E) const {
    const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(
        E ? E->IgnoreParenImpCasts() : nullptr);
    const CXXMethodDecl *M = MC ? MC->getMethodDecl() : nullptr;
    return M && Getters.count(M->getCanonicalDecl()) ? MC : nullptr;
  }

  void visitCall(const CallExpr *C) {
    if (const CXXMemberCallExpr *MC = getterCall(C))
      GetterCalls.push_back(MC);
    givenToUnseenCode(C);
    // Only the candidate members matter: what the call is, is looked up
    // when one of them is among its arguments.
    std::optional<const ResourceTable::Entry *> Looked;
    auto Entry = [&] {
      if (!Looked)
        Looked = Table.lookup(C);
      return *Looked;
    };
    for (unsigned I = 0; I < C->getNumArgs(); ++I)
      visitArgument(C, I, C->getArg(I)->IgnoreParenImpCasts(), Entry);
  }

  /// Whether argument `I` of `C`, a call of a function of the project other
  /// than cuBLAS, is a handle the function only works on: its body in the
  /// unit (HandleAnalyzer's summary of the parameter), or its summary in
  /// the project's, says it keeps it.
  bool keptBy(const CallExpr *C, unsigned I) {
    const FunctionDecl *FD = C->getDirectCallee();
    unsigned Offset =
        isa<CXXOperatorCallExpr>(C) && isa_and_nonnull<CXXMethodDecl>(FD) ? 1
                                                                          : 0;
    if (!FD || I < Offset || calledCublasFunction(C) || FD->isVariadic())
      return false;
    unsigned Param = I - Offset;
    if (Param >= FD->getNumParams() ||
        !isCublasResourceType(FD->getParamDecl(Param)->getType()))
      return false;
    if (const FunctionDecl *Def = FD->getDefinition(); Def && Def->hasBody()) {
      if (!Analyzer)
        Analyzer =
            std::make_unique<HandleAnalyzer>(Def->getASTContext(), Table);
      return Analyzer->summarize(Def, Param, 1) ==
             HandleAnalyzer::ParamEffect::Keeps;
    }
    const FunctionSummary *S = projectSummary(FD);
    std::optional<FunctionSummary::HandleEffect> Effect =
        S ? S->handleEffect(Param) : std::nullopt;
    return Effect && *Effect == FunctionSummary::HandleEffect::Keeps;
  }

  /// Argument `A` of `C`: an accessor's result (or a local holding one)
  /// given to cuBLAS; a candidate member created, destroyed or used.
  void visitArgument(const CallExpr *C, unsigned Index, const Expr *A,
                     EntryFn Entry) {
    if (!Getters.empty()) {
      const auto *DRE = dyn_cast<DeclRefExpr>(A);
      const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      if ((getterCall(A) || (VD && Holders.count(VD))) &&
          calledCublasFunction(C) && !(Entry() && !Entry()->IsCreate))
        ToCublas.insert(A);
    }
    if (const auto *U = dyn_cast<UnaryOperator>(A);
        U && U->getOpcode() == UO_AddrOf) {
      if (!Entry() || !Entry()->IsCreate)
        return;
      A = U->getSubExpr()->IgnoreParenImpCasts();
    }
    // An element stands for its array: created, destroyed or used.
    if (const MemberExpr *Array = elementOf(A))
      A = Array;
    const auto *ME = dyn_cast<MemberExpr>(A);
    const auto *F = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
    if (!F || !Fields.count(F))
      return;
    if (const ResourceTable::Entry *E = Entry(); E && !E->IsCreate)
      Unclear.insert(F); // destroyed here
    else if ((E && E->IsCreate) || calledCublasFunction(C) || keptBy(C, Index))
      Allowed.insert(ME);
  }

  /// Locals initialised with an accessor's result.
  void visitHolders(const DeclStmt *DS) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D);
          VD && VD->hasLocalStorage() && !VD->getType()->isReferenceType())
        if (const CXXMemberCallExpr *MC =
                getterCall(VD->getInit() ? VD->getInit()->IgnoreImplicit()
                                         : nullptr)) {
          Holders[VD] = MC;
          HeldCalls.insert(MC);
        }
  }

  /// A read of such a local that is not an argument of cuBLAS.
  void visitHolderUse(const DeclRefExpr *DRE) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    auto It = VD ? Holders.find(VD) : Holders.end();
    if (It != Holders.end() && !ToCublas.count(DRE))
      Spilled.insert(It->second);
  }
};

/// The callables that may name the candidates: a private member of a
/// class without friends is named only inside the class (its member
/// functions, their lambdas, nested classes), so when every candidate is
/// one, only those callables are read. An accessor's calls may be anywhere.
class NamingScope {
public:
  NamingScope(llvm::ArrayRef<Candidate> Candidates, bool FollowsAccessors)
      : AllPrivate(!FollowsAccessors) {
    for (const Candidate &C : Candidates) {
      Classes.insert(C.Class->getCanonicalDecl());
      AllPrivate = AllPrivate && C.Field->getAccess() == AS_private &&
                   !C.Class->hasFriends();
    }
  }

  bool mayName(const Decl *D) const {
    if (!AllPrivate)
      return true;
    for (const DeclContext *DC = D->getDeclContext(); DC;
         DC = DC->getParent())
      if (const auto *RD = dyn_cast<CXXRecordDecl>(DC);
          RD && Classes.contains(RD->getCanonicalDecl()))
        return true;
    return false;
  }

private:
  llvm::SmallPtrSet<const CXXRecordDecl *, 4> Classes;
  bool AllPrivate;
};

} // namespace

/// What the file does with the candidate members: passing one to cuBLAS is
/// fine; a destroy, or anything else, means it may be released (Unclear).
///
/// With `Accessors`, an accessor of a member (`cublasHandle_t get() const {
/// return h_; }`) does not make it unclear by itself: its calls are
/// followed instead. A call whose result goes to cuBLAS calls only (as an
/// argument, or through a local variable initialised with it) keeps the
/// member in the class; any other (a destroy, a function of the project, a
/// store) makes it unclear. The accessors followed are put there.
static llvm::DenseSet<const FieldDecl *>
unclearMembers(llvm::ArrayRef<const Decl *> Callables,
               const ResourceTable &Table,
               llvm::ArrayRef<Candidate> Candidates,
               const llvm::DenseSet<const FieldDecl *> &Fields,
               llvm::DenseMap<const FieldDecl *, const CXXMethodDecl *>
                   *Accessors = nullptr) {
  MemberUses Uses(Table, Fields);
  if (Accessors)
    Uses.followAccessors(Candidates);
  NamingScope Scope(Candidates, !Uses.Getters.empty());
  // One pre-order pass per callable, over the shared statement lists.
  for (const Decl *D : Callables) {
    if (!Scope.mayName(D))
      continue;
    if (!visitPartsIndexed(D, [&](const Stmt *S, llvm::ArrayRef<BodyStmt> Stmts,
                                  int I) { Uses.visit(S, Stmts, I); }))
      for (const Candidate &C : Candidates)
        Uses.Unclear.insert(C.Field);
  }
  Uses.settleAccessorCalls();
  if (Accessors)
    for (const auto &[M, F] : Uses.Getters)
      if (!Uses.Unclear.count(F))
        (*Accessors)[F] = M;
  return std::move(Uses.Unclear);
}

/// Whether `Call` makes an object of `Class` in the standard library:
/// `std::make_unique<Class>(...)`, `std::make_shared<Class>(...)`,
/// `std::allocate_shared<Class>(...)`. Its constructor runs in the
/// library's template, so the call is where the file makes the object.
static bool madeByLibrary(const CallExpr *Call, const CXXRecordDecl *Class) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->isInStdNamespace() || !FD->getIdentifier() ||
      !llvm::is_contained({"make_unique", "make_shared", "allocate_shared"},
                          FD->getName()))
    return false;
  const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs();
  if (!Args || Args->size() == 0 ||
      Args->get(0).getKind() != TemplateArgument::Type)
    return false;
  const CXXRecordDecl *Made = Args->get(0).getAsType()->getAsCXXRecordDecl();
  return Made && Made->getCanonicalDecl() == Class->getCanonicalDecl();
}

/// A local of the function that holds an object it makes: the object
/// itself (`Layer l;`), or a pointer initialised with `new` or
/// `std::make_unique` / `std::make_shared`.
static bool ownObject(const Expr *Object, const CXXRecordDecl *Class) {
  Object = Object ? Object->IgnoreParenImpCasts() : nullptr;
  // `p->init()` on a smart pointer: its operator->.
  if (const auto *Arrow = dyn_cast_or_null<CXXOperatorCallExpr>(Object);
      Arrow && Arrow->getOperator() == OO_Arrow && Arrow->getNumArgs() == 1)
    Object = Arrow->getArg(0)->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(Object);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) ||
      V->getType()->isReferenceType())
    return false;
  if (!V->getType()->isPointerType() && V->getType()->isRecordType() &&
      V->getType()->getAsCXXRecordDecl() == Class)
    return true;
  const Expr *Init = V->getInit() ? V->getInit()->IgnoreImplicit() : nullptr;
  if (const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(Init);
      Construct && Construct->getNumArgs() == 1)
    Init = Construct->getArg(0)->IgnoreImplicit(); // a smart pointer's copy
  if (const auto *New = dyn_cast_or_null<CXXNewExpr>(Init))
    return New->getAllocatedType()->getAsCXXRecordDecl() == Class;
  const auto *Call = dyn_cast_or_null<CallExpr>(Init);
  return Call && madeByLibrary(Call, Class);
}

/// Whether `S`, a statement of `D`, runs once per process: in `main`,
/// outside any loop.
static bool runsOnceInMain(const Decl *D, const Stmt *S) {
  const auto *Fn = dyn_cast<FunctionDecl>(D);
  if (!Fn || !Fn->isMain())
    return false;
  llvm::ArrayRef<BodyStmt> Stmts = stmtsIn(D);
  for (int I = 0; I < static_cast<int>(Stmts.size()); ++I) {
    if (Stmts[I].S != S)
      continue;
    for (int P = Stmts[I].Parent; P >= 0; P = Stmts[P].Parent)
      if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(Stmts[P].S))
        return false;
    return true;
  }
  return false;
}

/// The object a call of the candidate's init function runs on: the
/// method's object, or the argument of its parameter (`&ctx`, `ctx`).
static const Expr *initObject(const CallExpr *Call, const Candidate &C) {
  if (C.InitParam < 0) {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
    return MC ? MC->getImplicitObjectArgument() : nullptr;
  }
  if (static_cast<unsigned>(C.InitParam) >= Call->getNumArgs())
    return nullptr;
  const Expr *Arg = Call->getArg(C.InitParam)->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(Arg);
      U && U->getOpcode() == UO_AddrOf)
    return U->getSubExpr();
  return Arg;
}

/// The local of `D` (not static, not a parameter) that `Call` initialises
/// or is assigned to: `Ctx *c = ctx_create();`, `c = ctx_create();`.
static bool keptInLocal(const Decl *D, const CallExpr *Call) {
  auto Local = [](const Decl *V) {
    const auto *VD = dyn_cast_or_null<VarDecl>(V);
    return VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD);
  };
  return llvm::any_of(stmtsIn(D), [&](const BodyStmt &S) {
    if (const auto *DS = dyn_cast<DeclStmt>(S.S))
      return llvm::any_of(DS->decls(), [&](const Decl *V) {
        const auto *VD = dyn_cast<VarDecl>(V);
        return Local(VD) && VD->getInit() &&
               VD->getInit()->IgnoreParenImpCasts() == Call;
      });
    const auto *A = dyn_cast<BinaryOperator>(S.S);
    const auto *L =
        A && A->getOpcode() == BO_Assign
            ? dyn_cast<DeclRefExpr>(A->getLHS()->IgnoreParenImpCasts())
            : nullptr;
    return L && Local(L->getDecl()) &&
           A->getRHS()->IgnoreParenImpCasts() == Call;
  });
}

/// A call of the candidate's `init()` on an object the calling function
/// makes, or of its factory kept in a local of the calling function, where
/// it may run more than once; null when none.
static const Expr *initCallOf(llvm::ArrayRef<const Decl *> Callables,
                              const Candidate &C) {
  const FunctionDecl *Init = C.Init->getCanonicalDecl();
  for (const Decl *D : Callables)
    for (const CallExpr *Call : callsIn(D)) {
      const FunctionDecl *FD = Call->getDirectCallee();
      if (!FD || FD->getCanonicalDecl() != Init || runsOnceInMain(D, Call))
        continue;
      if (C.Returns ? keptInLocal(D, Call)
                    : ownObject(initObject(Call, C), C.Class))
        return Call;
    }
  return nullptr;
}

/// An object of the candidate's class made in the file, not of static
/// storage; null when none. For a member an `init()` creates, a call of
/// it on such an object.
static const Expr *objectOf(llvm::ArrayRef<const Decl *> Callables,
                            const Candidate &C) {
  if (C.Init)
    return initCallOf(Callables, C);
  const Expr *Object = nullptr;
  for (const Decl *D : Callables) {
    for (const Stmt *Part : partsOf(D)) {
      llvm::DenseSet<const Stmt *> StaticInits;
      walk(Part, [&](const Stmt *S) {
        if (const auto *DS = dyn_cast<DeclStmt>(S))
          for (const Decl *VD : DS->decls())
            if (const auto *V = dyn_cast<VarDecl>(VD))
              if (V->hasGlobalStorage() && V->getInit())
                StaticInits.insert(V->getInit()->IgnoreImplicit());
        if (const auto *Call = dyn_cast<CallExpr>(S);
            !Object && Call && !StaticInits.count(Call) &&
            madeByLibrary(Call, C.Class)) {
          Object = Call;
          return;
        }
        const auto *CE = dyn_cast<CXXConstructExpr>(S);
        if (Object || !CE || StaticInits.count(CE))
          return;
        const CXXConstructorDecl *Ctor = CE->getConstructor();
        if (Ctor && Ctor->getParent() == C.Class &&
            !Ctor->isCopyOrMoveConstructor())
          Object = CE;
      });
      if (Object)
        break;
    }
    if (Object)
      break;
  }
  return Object;
}

/// The key of a handle member in summaries: "ns::Class::field".
static std::string memberKey(const FieldDecl *F) {
  return F->getQualifiedNameAsString();
}

/// Whether a function of `Class` that the user wrote (its destructor, a
/// `shutdown()`) has no body in this unit and may do something with
/// `Field` there: its summary (facts/Summaries.h) does not say it leaves
/// the member alone.
static bool touchedElsewhere(const CXXRecordDecl *Class,
                             const FieldDecl *Field) {
  for (const CXXMethodDecl *M : Class->methods()) {
    if (M->isImplicit() || M->isDeleted() || M->isDefaulted() ||
        M->isPureVirtual() || M->hasBody() || M->isTemplateInstantiation() ||
        isa<CXXConstructorDecl>(M))
      continue;
    const FunctionSummary *S = projectSummary(M);
    if (!S || !S->TouchedMembers ||
        llvm::is_contained(*S->TouchedMembers, memberKey(Field)))
      return true;
  }
  // A constructor of another file may hand the member over, and a member
  // template without a body is unknown.
  for (const Decl *D : Class->decls()) {
    if (const auto *C = dyn_cast<CXXConstructorDecl>(D);
        C && !C->isImplicit() && !C->isDeleted() && !C->isDefaulted() &&
        !C->hasBody())
      return true;
    if (const auto *T = dyn_cast<FunctionTemplateDecl>(D))
      if (!T->getTemplatedDecl()->hasBody())
        return true;
  }
  return false;
}

std::optional<std::vector<std::string>>
membersTouchedBy(const CXXMethodDecl *M, const ResourceTable &Table) {
  const CXXRecordDecl *Class = M->getParent();
  if (!Class || isa<CXXConstructorDecl>(M) || !M->hasBody())
    return std::nullopt;
  std::vector<Candidate> Candidates;
  llvm::DenseSet<const FieldDecl *> Fields;
  for (const FieldDecl *F : Class->fields())
    if (isCublasResourceType(F->getType())) {
      Candidates.push_back({Class, F, nullptr, 0});
      Fields.insert(F);
    }
  if (Candidates.empty())
    return std::nullopt;
  const Decl *Callables[] = {M};
  llvm::DenseSet<const FieldDecl *> Unclear =
      unclearMembers(Callables, Table, Candidates, Fields);
  std::vector<std::string> Out;
  for (const FieldDecl *F : Unclear)
    Out.push_back(memberKey(F));
  llvm::sort(Out);
  return Out;
}

std::vector<LeakedMember>
leakedMembers(llvm::ArrayRef<const Decl *> Callables,
              const ResourceTable &Table) {
  std::vector<LeakedMember> Out;
  llvm::DenseSet<const FieldDecl *> Fields;
  std::vector<Candidate> Candidates = memberCreates(Callables, Table, Fields);
  if (Candidates.empty())
    return Out;
  llvm::DenseMap<const FieldDecl *, const CXXMethodDecl *> Accessors;
  llvm::DenseSet<const FieldDecl *> Unclear =
      unclearMembers(Callables, Table, Candidates, Fields, &Accessors);
  for (const Candidate &C : Candidates) {
    if (Unclear.count(C.Field) || touchedElsewhere(C.Class, C.Field))
      continue;
    if (const Expr *Object = objectOf(Callables, C))
      Out.push_back({C.Class, C.Field, C.Create, C.KindId, Object,
                     Accessors.lookup(C.Field), C.Init, C.InitParam,
                     C.Returns});
  }
  return Out;
}

//===----------------------------------------------------------------------===//
// Copies that share a handle member
//===----------------------------------------------------------------------===//

namespace {

/// The condition a statement's children depend on (the left side for
/// `&&` and `||`), or null.
const Expr *conditionOf(const Stmt *S) {
  if (const auto *I = dyn_cast<IfStmt>(S))
    return I->getCond();
  if (const auto *W = dyn_cast<WhileStmt>(S))
    return W->getCond();
  if (const auto *F = dyn_cast<ForStmt>(S))
    return F->getCond();
  if (const auto *D = dyn_cast<DoStmt>(S))
    return D->getCond();
  if (const auto *Sw = dyn_cast<SwitchStmt>(S))
    return Sw->getCond();
  if (const auto *C = dyn_cast<AbstractConditionalOperator>(S))
    return C->getCond();
  if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isLogicalOp())
    return B->getLHS();
  return nullptr;
}

/// Whether `Cond` reads nothing but `Field` of this (and constants,
/// functions, enumerators): `if (h_)`, `if (h_ != nullptr)`.
bool testsOnly(const Expr *Cond, const FieldDecl *Field) {
  bool Other = false;
  bool Whole = walkStmts(Cond, [&](const Stmt *S) {
    if (const auto *ME = dyn_cast<MemberExpr>(S)) {
      if (memberOfThis(ME) != Field)
        Other = true;
      return false;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (!isa<FunctionDecl, EnumConstantDecl>(DRE->getDecl()))
        Other = true;
    if (isa<CXXThisExpr>(S))
      Other = true; // `this` read otherwise than through the handle
    return true;
  });
  return Whole && !Other;
}

/// The handle member a destructor destroys.
struct DestroyedMember {
  const FieldDecl *Field = nullptr;
  const CallExpr *Destroy = nullptr;
  unsigned KindId = 0;
};

/// The first destroy of a handle member of `Class` in `Bodies`.
std::optional<DestroyedMember>
firstMemberDestroy(llvm::ArrayRef<const Stmt *> Bodies,
                   const CXXRecordDecl *Class, const ResourceTable &Table) {
  std::optional<DestroyedMember> Found;
  for (const Stmt *Body : Bodies)
    walk(Body, [&](const Stmt *S) {
      const auto *C = dyn_cast<CallExpr>(S);
      const ResourceTable::Entry *E = Table.lookup(C);
      if (Found || !E || E->IsCreate)
        return;
      for (const Expr *Arg : C->arguments())
        if (const FieldDecl *F = memberOfThis(Arg); F && F->getParent() == Class)
          Found = DestroyedMember{F, C, E->KindId};
    });
  return Found;
}

/// The bodies that run on `this` in a destructor (bodiesOnThis(), the
/// destructor's first), with the parent of each statement and the ways out
/// of them: whether a destroy among them runs depending on nothing but the
/// handle it destroys.
class DestructorBodies {
public:
  explicit DestructorBodies(llvm::ArrayRef<const Stmt *> Bodies)
      : Bodies(Bodies) {}

  /// Reads the parents and the ways out; false when a body is cut short.
  bool index() {
    for (const Stmt *Body : Bodies) {
      bool Whole = walk(Body, [&](const Stmt *S) {
        if (isa<ReturnStmt, CXXThrowExpr, GotoStmt, CXXTryStmt>(S))
          Exits.push_back({S, Body});
        if (!isa<LambdaExpr>(S))
          for (const Stmt *Child : S->children())
            if (Child)
              Parent[Child] = S;
      });
      if (!Whole)
        return false;
    }
    return true;
  }

  /// The conditions around the destroy (and around the call that leads to
  /// it) test the handle alone, and so do all of them when a body can leave
  /// before it.
  bool onlyHandleDecides(const DestroyedMember &D,
                         const SourceManager &SM) const {
    llvm::DenseMap<const Stmt *, const Stmt *> Point;
    if (!reachPoints(D, Point) || !conditionsClear(D.Destroy, D.Field))
      return false;
    return !mayLeaveBefore(Point, SM) || allConditionsTest(D.Field);
  }

private:
  llvm::ArrayRef<const Stmt *> Bodies;
  llvm::DenseMap<const Stmt *, const Stmt *> Parent;
  /// A way out, and the body it leaves.
  llvm::SmallVector<std::pair<const Stmt *, const Stmt *>, 4> Exits;

  const Stmt *rootOf(const Stmt *S) const {
    while (const Stmt *P = Parent.lookup(S))
      S = P;
    return S;
  }

  /// Every condition around `From` tests `Field` alone.
  bool conditionsClear(const Stmt *From, const FieldDecl *Field) const {
    for (const Stmt *S = Parent.lookup(From); S; S = Parent.lookup(S))
      if (const Expr *Cond = conditionOf(S); Cond && !testsOnly(Cond, Field))
        return false;
    return true;
  }

  /// Where each body reaches the destroy (`Point`): the destroy itself,
  /// or (in the destructor) the call of the member function that holds
  /// it. False when such a call is under a condition on anything else.
  bool reachPoints(const DestroyedMember &D,
                   llvm::DenseMap<const Stmt *, const Stmt *> &Point) const {
    const Stmt *Holder = rootOf(D.Destroy);
    Point[Holder] = D.Destroy;
    if (Holder == Bodies.front())
      return true;
    bool Clear = true;
    walk(Bodies.front(), [&](const Stmt *S) {
      const auto *MC = dyn_cast<CXXMemberCallExpr>(S);
      const CXXMethodDecl *M = MC ? MC->getMethodDecl() : nullptr;
      if (!M || analysableBody(M->getDefinition()) != Holder)
        return;
      Clear &= conditionsClear(MC, D.Field);
      Point.try_emplace(Bodies.front(), MC);
    });
    return Clear;
  }

  /// A body may leave before it reaches the destroy (or has a `try`).
  bool mayLeaveBefore(const llvm::DenseMap<const Stmt *, const Stmt *> &Point,
                      const SourceManager &SM) const {
    return llvm::any_of(Exits, [&](const auto &X) {
      const Stmt *At = Point.lookup(X.second);
      return isa<CXXTryStmt>(X.first) || !At ||
             !SM.isBeforeInTranslationUnit(At->getBeginLoc(),
                                           X.first->getBeginLoc());
    });
  }

  /// Every condition of every body tests `Field` alone.
  bool allConditionsTest(const FieldDecl *Field) const {
    for (const Stmt *Body : Bodies) {
      bool Clear = true;
      walk(Body, [&](const Stmt *S) {
        if (const Expr *Cond = conditionOf(S))
          Clear &= testsOnly(Cond, Field);
      });
      if (!Clear)
        return false;
    }
    return true;
  }
};

/// The handle member the destructor of `Class` destroys, when whether it
/// does depends on nothing but the handle itself.
std::optional<DestroyedMember>
destroyedByDestructor(const CXXRecordDecl *Class, const ResourceTable &Table) {
  const CXXDestructorDecl *Dtor = Class->getDestructor();
  if (!Dtor || !Dtor->isUserProvided())
    return std::nullopt;
  const auto *Def = dyn_cast_or_null<CXXMethodDecl>(Dtor->getDefinition());
  if (!Def)
    return std::nullopt;
  llvm::SmallVector<const Stmt *, 8> Bodies = bodiesOnThis(Def);
  std::optional<DestroyedMember> Found =
      firstMemberDestroy(Bodies, Class, Table);
  if (!Found)
    return std::nullopt;
  DestructorBodies Run(Bodies);
  if (!Run.index() ||
      !Run.onlyHandleDecides(*Found,
                             Class->getASTContext().getSourceManager()))
    return std::nullopt;
  return Found;
}

/// Whether a member function of `Class` creates a handle into `Field`.
bool createsInto(const CXXRecordDecl *Class, const FieldDecl *Field,
                 llvm::ArrayRef<const Decl *> Callables,
                 const ResourceTable &Table) {
  for (const Decl *D : Callables) {
    const auto *M = dyn_cast<CXXMethodDecl>(D);
    if (!M || M->getParent() != Class)
      continue;
    bool Creates = false;
    for (const Stmt *Part : partsOf(M))
      walk(Part, [&](const Stmt *S) {
        const auto *C = dyn_cast<CallExpr>(S);
        const ResourceTable::Entry *E = Table.lookup(C);
        if (!E || !E->IsCreate)
          return;
        for (const Expr *Arg : C->arguments())
          Creates |= addressedMember(Arg) == Field;
      });
    if (Creates)
      return true;
  }
  return false;
}

/// Whether copying (or, with `Assign`, assigning) a `Class` runs a copy
/// the compiler writes.
bool copiesMemberwise(const CXXRecordDecl *Class, bool Assign) {
  if (Assign) {
    for (const CXXMethodDecl *M : Class->methods())
      if ((M->isCopyAssignmentOperator() || M->isMoveAssignmentOperator()) &&
          (M->isUserProvided() || M->isDeleted()))
        return false;
    return true;
  }
  for (const CXXConstructorDecl *C : Class->ctors())
    if (C->isCopyOrMoveConstructor() && (C->isUserProvided() || C->isDeleted()))
      return false;
  return true;
}

class Sharers {
public:
  Sharers(llvm::ArrayRef<const Decl *> Callables, const ResourceTable &Table)
      : Callables(Callables), Table(Table) {}

  /// The destroying class a memberwise copy of `Class` copies: itself, or
  /// one it holds by value (in a field or a base), a few levels deep.
  std::optional<std::pair<const CXXRecordDecl *, DestroyedMember>>
  sharedBy(const CXXRecordDecl *Class, bool Assign, unsigned Depth = 0) {
    if (!Class || !Class->hasDefinition() || Class->isDependentContext() ||
        Depth > 3)
      return std::nullopt;
    Class = Class->getDefinition();
    if (std::optional<DestroyedMember> D = owned(Class))
      return std::make_pair(Class, *D);
    for (const CXXBaseSpecifier &B : Class->bases())
      if (const CXXRecordDecl *Base = B.getType()->getAsCXXRecordDecl())
        if (copiesMemberwise(Base, Assign))
          if (auto R = sharedBy(Base, Assign, Depth + 1))
            return R;
    for (const FieldDecl *F : Class->fields())
      if (const CXXRecordDecl *Held = F->getType()->getAsCXXRecordDecl())
        if (copiesMemberwise(Held, Assign))
          if (auto R = sharedBy(Held, Assign, Depth + 1))
            return R;
    return std::nullopt;
  }

private:
  std::optional<DestroyedMember> owned(const CXXRecordDecl *Class) {
    auto [It, New] = Owned.try_emplace(Class);
    if (New) {
      It->second = destroyedByDestructor(Class, Table);
      if (It->second && !createsInto(Class, It->second->Field, Callables, Table))
        It->second.reset();
    }
    return It->second;
  }

  llvm::ArrayRef<const Decl *> Callables;
  const ResourceTable &Table;
  llvm::DenseMap<const CXXRecordDecl *, std::optional<DestroyedMember>> Owned;
};

} // namespace

namespace {

/// The class a standard sequence container's `push_back`, `push_front`,
/// `emplace_back`, `emplace_front`, `insert` or `emplace` copies into it:
/// its one value argument, a `T` given as an lvalue, or as a temporary or
/// `std::move` result of a class without a user-written move constructor
/// (the compiler's copies or moves the handle member as it is). Null when
/// it constructs in place from other arguments, or moves with the class's
/// own move constructor (which is trusted to leave the source empty).
const CXXRecordDecl *copiedIntoContainer(const CXXMemberCallExpr *MC) {
  const CXXMethodDecl *M = MC->getMethodDecl();
  const CXXRecordDecl *Container = M ? M->getParent() : nullptr;
  if (!Container || !M->getIdentifier() || !Container->getIdentifier() ||
      !Container->isInStdNamespace())
    return nullptr;
  llvm::StringRef Kind = Container->getName();
  if (Kind != "vector" && Kind != "deque" && Kind != "list" &&
      Kind != "forward_list")
    return nullptr;
  const memory_api::ContainerMethod *Method = containerMethodOf(M);
  if (!Method || !Method->inserts())
    return nullptr;
  unsigned Args = Method->insertArgs(); // a position first, or none
  if (MC->getNumArgs() != Args)
    return nullptr;
  const Expr *Value = MC->getArg(Args - 1);
  const CXXRecordDecl *Class =
      Value->getType().getNonReferenceType()->getAsCXXRecordDecl();
  if (!Class || !(Class = Class->getDefinition()))
    return nullptr;
  if (Value->IgnoreImpCasts()->isLValue() &&
      !Value->IgnoreImpCasts()->isXValue())
    return Class; // copied
  for (const CXXConstructorDecl *Ctor : Class->ctors())
    if (Ctor->isMoveConstructor() && Ctor->isUserProvided() &&
        !Ctor->isDeleted())
      return nullptr; // its own move
  return Class;
}

} // namespace

std::vector<SharedHandleCopy>
sharedHandleCopies(llvm::ArrayRef<const Decl *> Callables,
                   const ResourceTable &Table) {
  std::vector<SharedHandleCopy> Out;
  // Nothing to look for unless a destructor of the file destroys a handle.
  if (llvm::none_of(Callables, [&](const Decl *D) {
        const auto *Dtor = dyn_cast<CXXDestructorDecl>(D);
        return Dtor && destroyedByDestructor(Dtor->getParent(), Table);
      }))
    return Out;
  Sharers Of(Callables, Table);
  for (const Decl *D : Callables) {
    // The copies the compiler writes are no sites of their own.
    if (D->isImplicit())
      continue;
    if (const auto *FD = dyn_cast<FunctionDecl>(D); FD && FD->isDefaulted())
      continue;
    auto Visit = [&](const Stmt *S) {
        const CXXRecordDecl *Class = nullptr;
        bool Assign = false;
        if (const auto *CE = dyn_cast<CXXConstructExpr>(S)) {
          const CXXConstructorDecl *Ctor = CE->getConstructor();
          if (!Ctor || !Ctor->isCopyOrMoveConstructor() ||
              Ctor->isUserProvided() || Ctor->isDeleted() || CE->isElidable())
            return;
          // `return local;` constructs the result in place (NRVO).
          if (CE->getNumArgs() == 1)
            if (const VarDecl *V = referencedVar(CE->getArg(0));
                V && V->isNRVOVariable())
              return;
          Class = Ctor->getParent();
        } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S)) {
          const auto *M = dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee());
          if (!M ||
              !(M->isCopyAssignmentOperator() || M->isMoveAssignmentOperator()) ||
              M->isUserProvided() || M->isDeleted())
            return;
          Class = M->getParent();
          Assign = true;
        } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
          Class = copiedIntoContainer(MC);
          if (!Class)
            return;
          if (auto R = Of.sharedBy(Class, false)) {
            SharedHandleCopy C;
            C.Copied = Class->getDefinition();
            C.Owner = R->first;
            C.Field = R->second.Field;
            C.Destroy = R->second.Destroy;
            C.Copy = MC;
            C.KindId = R->second.KindId;
            C.Through = MC->getMethodDecl()->getName();
            Out.push_back(C);
          }
          return;
        } else {
          return;
        }
        if (auto R = Of.sharedBy(Class, Assign)) {
          SharedHandleCopy C;
          C.Copied = Class->getDefinition();
          C.Owner = R->first;
          C.Field = R->second.Field;
          C.Destroy = R->second.Destroy;
          C.Copy = cast<Expr>(S);
          C.Assignment = Assign;
          C.KindId = R->second.KindId;
          Out.push_back(C);
        }
    };
    visitParts(D, Visit);
  }
  return Out;
}

// Its summary part "touchesMembers" (facts/SummaryParts.h): the handle
// members a member function touches.

const SummaryPart TouchedMembersSummaryPart = {
    [](const FunctionSummary &S) { return S.TouchedMembers.has_value(); },
    [](const FunctionSummary &S, json::Object &O) {
      O["touchesMembers"] = summary_json::stringsToJson(*S.TouchedMembers);
    },
    [](const json::Object &O, FunctionSummary &S) {
      if (!O.getArray("touchesMembers"))
        return true;
      S.TouchedMembers.emplace();
      return summary_json::readEach(
          O, "touchesMembers", [&](const json::Value &M) {
            return summary_json::readName(M, *S.TouchedMembers);
          });
    }};

} // namespace cublas_tidy
