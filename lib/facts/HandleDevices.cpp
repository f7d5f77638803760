//===- HandleDevices.cpp - The device a handle belongs to -----------------===//

#include "facts/HandleDevices.h"

#include "ast/AstUtils.h"
#include "ast/Callables.h"
#include "ast/SharedCfg.h"
#include "facts/HandleConfig.h"
#include "facts/Summaries.h"
#include "facts/SummaryParts.h"
#include "model/CublasApi.h"
#include "model/RuntimeCalls.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace cublas_tidy {
namespace {

/// Bounds the fixpoint: the values only rise, so it settles well before.
constexpr unsigned MaxDeviceFlowVisits = 64;

/// The device cudaSetDevice made current: unreached (Bottom), a constant, a
/// variable's value, or unknown (Top).
struct SelectedDevice {
  enum KindT : std::uint8_t { Bottom, Const, Var, Top } Kind = Bottom;
  std::int64_t C = 0;
  const VarDecl *V = nullptr;
  /// The cudaSetDevice, when one call made it current on every path.
  const CallExpr *Where = nullptr;
  /// Device 0 because no device was selected since `main` began: every
  /// host thread starts with device 0 current.
  bool AtStart = false;

  static SelectedDevice top() {
    SelectedDevice D;
    D.Kind = Top;
    return D;
  }
  bool sameValue(const SelectedDevice &O) const {
    return Kind == O.Kind && C == O.C && V == O.V;
  }
  bool operator==(const SelectedDevice &O) const {
    return sameValue(O) && Where == O.Where && AtStart == O.AtStart;
  }
  SelectedDevice join(const SelectedDevice &O) const {
    if (Kind == Bottom)
      return O;
    if (O.Kind == Bottom)
      return *this;
    if (!sameValue(O) || Kind == Top)
      return top();
    SelectedDevice D = *this;
    if (Where != O.Where)
      D.Where = nullptr;
    D.AtStart = AtStart && O.AtStart;
    return D;
  }
};

struct CreatedHandle {
  SelectedDevice Device;
  const CallExpr *Create = nullptr;
  bool operator==(const CreatedHandle &O) const {
    return Create == O.Create && Device == O.Device;
  }
};

/// A local array (or container) of handles whose elements are created
/// each while the device of its index is current (`cudaSetDevice(d);
/// cublasCreate(&h[d])`): element k belongs to device k. Mixed once an
/// element is created otherwise, or the array may change elsewhere.
struct PerDeviceArray {
  const CallExpr *Create = nullptr;
  bool Mixed = false;
  bool operator==(const PerDeviceArray &O) const {
    return Create == O.Create && Mixed == O.Mixed;
  }
};

struct DeviceFlowState {
  bool Reached = false;
  SelectedDevice Device;
  /// The handles and the streams the function creates, with the device
  /// current at their create.
  llvm::SmallDenseMap<const VarDecl *, CreatedHandle, 4> Handles;
  /// The arrays of handles created one per device on some path.
  llvm::SmallDenseMap<const ValueDecl *, PerDeviceArray, 2> Arrays;

  bool operator==(const DeviceFlowState &O) const {
    if (Reached != O.Reached || !(Device == O.Device) ||
        Handles.size() != O.Handles.size() || Arrays.size() != O.Arrays.size())
      return false;
    for (const auto &[V, H] : Handles) {
      auto It = O.Handles.find(V);
      if (It == O.Handles.end() || !(It->second == H))
        return false;
    }
    for (const auto &[V, A] : Arrays) {
      auto It = O.Arrays.find(V);
      if (It == O.Arrays.end() || !(It->second == A))
        return false;
    }
    return true;
  }
  void join(const DeviceFlowState &O) {
    if (!O.Reached)
      return;
    if (!Reached) {
      *this = O;
      return;
    }
    Device = Device.join(O.Device);
    // An array created per device on one path is so on the others too,
    // unless one of them creates an element otherwise.
    for (const auto &[V, A] : O.Arrays) {
      auto [It, New] = Arrays.try_emplace(V, A);
      if (!New)
        It->second.Mixed = It->second.Mixed || A.Mixed;
    }
    for (const auto &[V, H] : O.Handles) {
      auto [It, New] = Handles.try_emplace(V, H);
      if (New)
        continue;
      if (It->second.Create != H.Create)
        Handles.erase(It);
      else
        It->second.Device = It->second.Device.join(H.Device);
    }
  }
};

/// The device `E` selects.
SelectedDevice deviceOf(const Expr *E, const CallExpr *Where,
                        const ASTContext &Ctx) {
  SelectedDevice D = SelectedDevice::top();
  D.Where = Where;
  E = E->IgnoreParenImpCasts();
  Expr::EvalResult R;
  if (!E->isValueDependent() && E->EvaluateAsInt(R, Ctx)) {
    D.Kind = SelectedDevice::Const;
    D.C = R.Val.getInt().getExtValue();
    return D;
  }
  if (const VarDecl *V = referencedVar(E); V && V->hasLocalStorage()) {
    D.Kind = SelectedDevice::Var;
    D.V = V;
    return D;
  }
  D.Where = nullptr;
  return D;
}

/// An element `A[I]` of an array, or of a container through its
/// operator[]: the array (a local, or with `Stored`, a member of `this` or
/// a global) and the index.
struct Element {
  const ValueDecl *Array = nullptr;
  const Expr *Index = nullptr;
  /// The array is a member's or a global's.
  bool Stored = false;
};

/// The member of `this` or the global that `E` names, if either.
const ValueDecl *storedArray(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *M = dyn_cast<MemberExpr>(E))
    return isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts())
               ? dyn_cast<FieldDecl>(M->getMemberDecl())
               : nullptr;
  const auto *V = referencedVar(E);
  return V && V->hasGlobalStorage() && !V->isStaticLocal() &&
                 !V->getType()->isReferenceType()
             ? V
             : nullptr;
}

Element elementOf(const Expr *E, bool Stored = false) {
  if (!E)
    return {};
  E = E->IgnoreParenImpCasts();
  const Expr *Base = nullptr, *Index = nullptr;
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    Base = AS->getBase();
    Index = AS->getIdx();
  } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
             Op && Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2) {
    Base = Op->getArg(0);
    Index = Op->getArg(1);
  }
  if (!Base)
    return {};
  if (Stored)
    if (const ValueDecl *A = storedArray(Base))
      return {A, Index, true};
  const VarDecl *V = referencedVar(Base->IgnoreParenImpCasts());
  if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) ||
      V->getType()->isReferenceType())
    return {};
  return {V, Index};
}

bool isCudaName(StringRef Name) {
  return Name.starts_with("cu") || Name.starts_with("nccl");
}

/// Whether a call of `FD` may make another device current: a function of
/// the user's that selects a device, or calls code that is not seen.
bool maySelectDevice(const FunctionDecl *FD, const SourceManager &SM,
                     unsigned Depth = 0) {
  if (!FD)
    return true; // a call through a pointer
  if (FD->getIdentifier() && isCudaName(FD->getName()))
    return runtime_api::isRuntimeCall(FD->getName(),
                                      runtime_api::RuntimeKind::SelectDevice);
  if (SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())))
    return false;
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || !Def->getBody() || Depth > 1)
    return true;
  for (const CallExpr *C : callsIn(Def))
    if (C->getDirectCallee() != Def &&
        maySelectDevice(C->getDirectCallee(), SM, Depth + 1))
      return true;
  return false;
}

/// The variable a write changes: `v = ...`, `v += ...`, `++v`, `&v` given
/// to a call.
const VarDecl *writtenVar(const Stmt *S) {
  if (const auto *B = dyn_cast<BinaryOperator>(S))
    return B->isAssignmentOp() ? referencedVar(B->getLHS()) : nullptr;
  if (const auto *U = dyn_cast<UnaryOperator>(S)) {
    if (U->isIncrementDecrementOp())
      return referencedVar(U->getSubExpr());
    if (U->getOpcode() == UO_AddrOf)
      return referencedVar(U->getSubExpr());
  }
  return nullptr;
}

/// Whether `Loop` steps `V` from one iteration to the next: the variable
/// of a range-for, or one a for's increment writes.
bool loopSteps(const Stmt *Loop, const VarDecl *V) {
  if (const auto *R = dyn_cast<CXXForRangeStmt>(Loop))
    return R->getLoopVariable() == V;
  if (const auto *F = dyn_cast<ForStmt>(Loop)) {
    const Expr *Inc = F->getInc();
    if (!Inc)
      return false;
    Inc = Inc->IgnoreParenImpCasts();
    if (const auto *Comma = dyn_cast<BinaryOperator>(Inc);
        Comma && Comma->getOpcode() == BO_Comma)
      return writtenVar(Comma->getLHS()->IgnoreParenImpCasts()) == V ||
             writtenVar(Comma->getRHS()->IgnoreParenImpCasts()) == V;
    return writtenVar(Inc) == V;
  }
  return false;
}

class DeviceFlow {
public:
  /// `Unit`: the per-device arrays of members and globals, known at the
  /// entry. `StoredCreates`: where the creates of elements of members and
  /// globals are recorded (for perDeviceHandleArrays), by the pass that
  /// reports: a flow that does not settle records none.
  DeviceFlow(const Decl *Callable, const CFG &Cfg,
             const UnitHandleArrays *Unit = nullptr,
             llvm::DenseMap<const ValueDecl *, PerDeviceArray> *StoredCreates =
                 nullptr)
      : Callable(Callable), Cfg(Cfg), Ctx(Callable->getASTContext()),
        SM(Ctx.getSourceManager()), Unit(Unit), StoredCreates(StoredCreates) {}

  std::vector<WrongDeviceCall> run() {
    BlockOrder Order = reversePostOrder(Cfg);
    std::vector<DeviceFlowState> In(Cfg.getNumBlockIDs());
    const CFGBlock &Entry = Cfg.getEntry();
    In[Entry.getBlockID()].Reached = true;
    In[Entry.getBlockID()].Device = entryDevice();
    if (Unit)
      for (const auto &[Array, Create] : Unit->PerDevice)
        In[Entry.getBlockID()].Arrays[Array] = PerDeviceArray{Create};
    std::vector<const CFGBlock *> Work(Order.ByOrder.rbegin(),
                                       Order.ByOrder.rend());
    std::vector<unsigned> Visits(Cfg.getNumBlockIDs(), 0);
    llvm::BitVector Queued(Cfg.getNumBlockIDs());
    for (const CFGBlock *B : Work)
      Queued.set(B->getBlockID());
    while (!Work.empty()) {
      const CFGBlock *B = Work.back();
      Work.pop_back();
      Queued.reset(B->getBlockID());
      if (++Visits[B->getBlockID()] > MaxDeviceFlowVisits)
        return {}; // not settled: say nothing
      DeviceFlowState Out = In[B->getBlockID()];
      transferBlock(*B, Out, false);
      for (const CFGBlock *S : B->succs()) {
        if (!S)
          continue;
        DeviceFlowState Joined = In[S->getBlockID()];
        Joined.join(Out);
        if (Joined == In[S->getBlockID()])
          continue;
        In[S->getBlockID()] = std::move(Joined);
        if (!Queued.test(S->getBlockID())) {
          Queued.set(S->getBlockID());
          Work.push_back(S);
        }
      }
    }
    for (const CFGBlock *B : Order.ByOrder) {
      DeviceFlowState S = In[B->getBlockID()];
      transferBlock(*B, S, true);
    }
    return std::move(Found);
  }

private:
  /// The device current when `Callable` begins: device 0 in `main` (the
  /// device every host thread starts with), unknown elsewhere (the
  /// caller's).
  SelectedDevice entryDevice() const {
    SelectedDevice D = SelectedDevice::top();
    if (const auto *FD = dyn_cast<FunctionDecl>(Callable); FD && FD->isMain()) {
      D.Kind = SelectedDevice::Const;
      D.C = 0;
      D.AtStart = true;
    }
    return D;
  }

  void transferBlock(const CFGBlock &B, DeviceFlowState &S, bool Report) {
    if (!S.Reached)
      return;
    for (const CFGElement &E : B)
      if (std::optional<CFGStmt> CS = E.getAs<CFGStmt>())
        transfer(CS->getStmt(), S, Report);
  }

  void transfer(const Stmt *St, DeviceFlowState &S, bool Report) {
    if (const auto *DS = dyn_cast<DeclStmt>(St)) {
      // A local declared again (a loop's body): a new variable.
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          forget(V, S);
      return;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(St); B && B->isAssignmentOp())
      mix(elementOf(B->getLHS(), /*Stored=*/true).Array, S);
    if (const VarDecl *V = writtenVar(St)) {
      // `&h` given to cublasCreate is the create, seen at the call.
      const auto *U = dyn_cast<UnaryOperator>(St);
      if (!U || U->getOpcode() != UO_AddrOf)
        forget(V, S);
      return;
    }
    const auto *Call = dyn_cast<CallExpr>(St);
    if (!Call)
      return;
    const FunctionDecl *FD = Call->getDirectCallee();
    const runtime_api::RuntimeCall *R =
        FD && FD->getIdentifier()
            ? runtime_api::lookupRuntimeCall(FD->getName())
            : nullptr;
    if (R && R->Kind == runtime_api::RuntimeKind::SelectDevice &&
        Call->getNumArgs() > unsigned(R->TargetArg)) {
      S.Device = deviceOf(Call->getArg(R->TargetArg), Call, Ctx);
      return;
    }
    if (R && R->Kind == runtime_api::RuntimeKind::CreateStream &&
        Call->getNumArgs() > unsigned(R->TargetArg)) {
      const VarDecl *V = addressedVar(Call->getArg(R->TargetArg));
      if (V && V->hasLocalStorage() && !isa<ParmVarDecl>(V))
        S.Handles[V] = CreatedHandle{S.Device, Call};
      return;
    }
    if (const FunctionInfo *F = calledCublasFunction(Call)) {
      cublasCall(Call, *F, S, Report);
      return;
    }
    bool Selects = !R && selects(FD);
    if (Report && !R && !Selects)
      judgeHelper(Call, FD, S);
    // Anything else: the handles whose address it is given are its own;
    // an array of handles it is given (not its operator[]), or a method
    // that may change it, may hold other handles after it.
    for (const Expr *A : Call->arguments())
      if (const VarDecl *V = addressedVar(A))
        forget(V, S);
    if (!S.Arrays.empty() && !isa<CXXOperatorCallExpr>(Call)) {
      const Expr *Object = nullptr;
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
          MC && !MC->getMethodDecl()->isConst())
        Object = MC->getImplicitObjectArgument();
      for (const Expr *A : Call->arguments())
        mix(referencedVar(A->IgnoreParenImpCasts()), S);
      if (Object)
        mix(referencedVar(Object->IgnoreParenImpCasts()), S);
    }
    if (Selects)
      S.Device = SelectedDevice::top();
  }

  /// maySelectDevice(FD), asked once per callee (the flow visits a call
  /// once per pass over its block).
  bool selects(const FunctionDecl *FD) {
    auto [It, New] = Selecting.try_emplace(FD, false);
    if (New)
      It->second = maySelectDevice(FD, SM);
    return It->second;
  }

  /// A helper of the file given a handle, which it gives to cuBLAS; it
  /// selects no device.
  void judgeHelper(const CallExpr *Call, const FunctionDecl *FD,
                   const DeviceFlowState &S) {
    const FunctionDecl *Def = FD ? FD->getDefinition() : nullptr;
    if (!Def || !Def->getBody())
      return;
    for (unsigned I = 0; I < Call->getNumArgs() && I < Def->getNumParams();
         ++I) {
      const VarDecl *V = referencedVar(Call->getArg(I));
      auto It = V ? S.Handles.find(V) : S.Handles.end();
      if (It == S.Handles.end())
        continue;
      if (const CallExpr *Inner = cublasCallOn(Def, Def->getParamDecl(I))) {
        size_t Before = Found.size();
        judge(Call, V, It->second, S.Device);
        if (Found.size() > Before)
          Found.back().Inner = Inner;
        return;
      }
    }
  }

  /// The first cuBLAS call of `Def` whose handle is its parameter `P`.
  static const CallExpr *cublasCallOn(const FunctionDecl *Def,
                                      const ParmVarDecl *P) {
    for (const CallExpr *C : callsIn(Def)) {
      const FunctionInfo *F = calledCublasFunction(C);
      int H = F && F->Family == ApiFamily::Classic
                  ? F->findParam(ParamRole::Resource)
                  : -1;
      if (H >= 0 && unsigned(H) < C->getNumArgs() &&
          referencedVar(C->getArg(H)) == P)
        return C;
    }
    return nullptr;
  }

  /// The array `V`, if a per-device one, may hold other handles now.
  static void mix(const ValueDecl *V, DeviceFlowState &S) {
    if (auto It = V ? S.Arrays.find(V) : S.Arrays.end(); It != S.Arrays.end())
      It->second.Mixed = true;
  }

  void forget(const VarDecl *V, DeviceFlowState &S) {
    S.Handles.erase(V);
    S.Arrays.erase(V);
    if (S.Device.Kind == SelectedDevice::Var && S.Device.V == V)
      S.Device = SelectedDevice::top();
  }

  void cublasCall(const CallExpr *Call, const FunctionInfo &F,
                  DeviceFlowState &S, bool Report) {
    if (F.Creates == ResourceKind::Handle) {
      int Out = F.findParam(ParamRole::ResourceOut);
      const Expr *Arg = Out >= 0 && unsigned(Out) < Call->getNumArgs()
                            ? Call->getArg(Out)
                            : nullptr;
      const VarDecl *V = Arg ? addressedVar(Arg) : nullptr;
      if (V && V->hasLocalStorage() && !isa<ParmVarDecl>(V))
        S.Handles[V] = CreatedHandle{S.Device, Call};
      else if (const auto *U = dyn_cast_or_null<UnaryOperator>(
                   Arg ? Arg->IgnoreParenImpCasts() : nullptr);
               U && U->getOpcode() == UO_AddrOf)
        createdElement(Call, elementOf(U->getSubExpr(), /*Stored=*/true), S,
                       Report);
      return;
    }
    int HandleArg = F.findParam(ParamRole::Resource);
    if (F.Destroys == ResourceKind::Handle)
      HandleArg = F.findParam(ParamRole::ResourceDestroyed);
    if (F.Family != ApiFamily::Classic || HandleArg < 0 ||
        unsigned(HandleArg) >= Call->getNumArgs())
      return;
    const VarDecl *V = referencedVar(Call->getArg(HandleArg));
    auto It = V ? S.Handles.find(V) : S.Handles.end();
    if (It == S.Handles.end()) {
      if (Report && F.Destroys != ResourceKind::Handle)
        judgeElement(Call, Call->getArg(HandleArg), S);
      return;
    }
    if (F.Destroys == ResourceKind::Handle) {
      S.Handles.erase(It);
      return;
    }
    if (!Report)
      return;
    const handle_config::ConfigFunction *CF = calledConfigFunction(Call);
    if (CF && CF->What == handle_config::Setting::Stream && CF->Sets &&
        CF->ValueArg < Call->getNumArgs())
      if (const VarDecl *Stream = referencedVar(Call->getArg(CF->ValueArg)))
        if (auto SIt = S.Handles.find(Stream); SIt != S.Handles.end())
          judgeStream(Call, V, It->second, Call->getArg(CF->ValueArg),
                      SIt->second);
    judge(Call, V, It->second, S.Device);
  }

  void judgeStream(const CallExpr *Call, const VarDecl *Handle,
                   const CreatedHandle &H, const Expr *StreamArg,
                   const CreatedHandle &St) {
    if (H.Device.Kind != SelectedDevice::Const ||
        St.Device.Kind != SelectedDevice::Const || H.Device.C == St.Device.C ||
        !Reported.insert(Call).second)
      return;
    WrongDeviceCall W;
    W.Call = Call;
    W.Handle = Handle;
    W.Create = H.Create;
    W.CreatedOn = H.Device.C;
    W.Stream = referencedVar(StreamArg);
    W.StreamArg = StreamArg;
    W.StreamCreate = St.Create;
    W.StreamOn = St.Device.C;
    Found.push_back(W);
  }

  void judge(const CallExpr *Call, const ValueDecl *Handle,
             const CreatedHandle &H, const SelectedDevice &Now) {
    if (!Reported.insert(Call).second)
      return;
    WrongDeviceCall W;
    W.Call = Call;
    W.Handle = Handle;
    W.Create = H.Create;
    if (Unit)
      if (auto E = Unit->Elsewhere.find(Handle); E != Unit->Elsewhere.end())
        W.Elsewhere = &E->second;
    W.Select = Now.Where;
    if (H.Device.Kind == SelectedDevice::Const &&
        Now.Kind == SelectedDevice::Const && H.Device.C != Now.C) {
      W.CreatedOn = H.Device.C;
      W.CalledOn = Now.C;
      W.CreatedAtStart = H.Device.AtStart;
      Found.push_back(W);
      return;
    }
    if (Now.Kind == SelectedDevice::Var && Now.Where &&
        steppedByLoopAround(Call, Now.V, H.Create)) {
      W.LoopDevice = Now.V;
      Found.push_back(W);
    }
  }

  /// `cublasCreate(&A[I])`: per device while I is the current device.
  void createdElement(const CallExpr *Create, Element E, DeviceFlowState &S,
                      bool Report) {
    if (!E.Array)
      return;
    SelectedDevice Index = deviceOf(E.Index, nullptr, Ctx);
    bool Matches = Index.Kind != SelectedDevice::Top &&
                   S.Device.Kind != SelectedDevice::Top &&
                   Index.sameValue(S.Device);
    auto [It, New] = S.Arrays.try_emplace(E.Array, PerDeviceArray{Create});
    if (!Matches)
      It->second.Mixed = true;
    // A member's or a global's: the unit's verdict is every create's.
    if (Report && StoredCreates && E.Stored) {
      auto [U, First] =
          StoredCreates->try_emplace(E.Array, PerDeviceArray{Create});
      U->second.Mixed = U->second.Mixed || !Matches;
    }
  }

  /// A call on `A[c]` of a per-device array, with `c` a constant: element
  /// c belongs to device c, judged as a handle created there.
  void judgeElement(const CallExpr *Call, const Expr *HandleArg,
                    const DeviceFlowState &S) {
    Element E = elementOf(HandleArg, /*Stored=*/true);
    auto It = E.Array ? S.Arrays.find(E.Array) : S.Arrays.end();
    if (It == S.Arrays.end() || It->second.Mixed)
      return;
    SelectedDevice Home = deviceOf(E.Index, nullptr, Ctx);
    if (Home.Kind != SelectedDevice::Const)
      return;
    size_t Before = Found.size();
    judge(Call, E.Array, CreatedHandle{Home, It->second.Create}, S.Device);
    if (Found.size() > Before) {
      Found.back().Element = HandleArg;
      Found.back().CreatedOn = Home.C;
    }
  }

  /// Whether a loop around `Call` (and not around `Create`) steps `V`.
  bool steppedByLoopAround(const CallExpr *Call, const VarDecl *V,
                           const CallExpr *Create) {
    llvm::ArrayRef<BodyStmt> Stmts = stmtsIn(Callable);
    const BodyIndex &Index = indexIn(Callable);
    auto Of = [&](const Stmt *S) { return Index.indexOf(S); };
    int At = Of(Call);
    for (int Up = At >= 0 ? Stmts[At].Parent : -1; Up >= 0;
         Up = Stmts[Up].Parent) {
      const Stmt *Loop = Stmts[Up].S;
      if (!isa<ForStmt, CXXForRangeStmt, WhileStmt, DoStmt>(Loop))
        continue;
      if (!loopSteps(Loop, V))
        return false; // the innermost loop is not the device loop
      for (int C = Of(Create); C >= 0; C = Stmts[C].Parent)
        if (C == Up)
          return false; // created in each iteration
      return true;
    }
    return false;
  }

  const Decl *Callable;
  const CFG &Cfg;
  const ASTContext &Ctx;
  const SourceManager &SM;
  const UnitHandleArrays *Unit;
  llvm::DenseMap<const ValueDecl *, PerDeviceArray> *StoredCreates;
  llvm::DenseSet<const CallExpr *> Reported;
  llvm::DenseMap<const FunctionDecl *, bool> Selecting;
  std::vector<WrongDeviceCall> Found;
};

} // namespace

namespace {

/// The members and globals whose elements `Callable` creates
/// (`cublasCreate(&handles_[d])`).
llvm::SmallVector<const ValueDecl *, 2> storedCreates(const Decl *Callable) {
  llvm::SmallVector<const ValueDecl *, 2> Out;
  for (const auto &[Call, F, InSystemHeader] : describedCallsIn(Callable)) {
    if (!F || F->Creates != ResourceKind::Handle)
      continue;
    const auto *U = dyn_cast_or_null<UnaryOperator>(
        argumentAt(Call, F->findParam(ParamRole::ResourceOut)));
    if (!U || U->getOpcode() != UO_AddrOf)
      continue;
    if (Element E = elementOf(U->getSubExpr(), /*Stored=*/true); E.Stored)
      Out.push_back(E.Array);
  }
  return Out;
}

/// True for an array or a container of handles (`cublasHandle_t h[8]`,
/// `std::vector<cublasHandle_t>`).
bool handleArrayType(QualType T) {
  if (const ArrayType *A = T->getAsArrayTypeUnsafe())
    return isCublasHandleType(A->getElementType());
  const auto *RD = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T->getAsCXXRecordDecl());
  if (!RD || RD->getTemplateArgs().size() == 0)
    return false;
  const TemplateArgument &First = RD->getTemplateArgs()[0];
  return First.getKind() == TemplateArgument::Type &&
         isCublasHandleType(First.getAsType());
}

/// The global arrays of handles of external linkage that `Unit` names and
/// does not define (`extern cublasHandle_t g[8];`): the unit that defines
/// one is where it is created, and judges it itself.
llvm::SmallVector<const VarDecl *, 2>
globalHandleArraysNamed(llvm::ArrayRef<const Decl *> Unit) {
  llvm::SmallVector<const VarDecl *, 2> Out;
  for (const Decl *C : Unit)
    for (const BodyStmt &B : stmtsIn(C)) {
      const auto *R = dyn_cast<DeclRefExpr>(B.S);
      const auto *V = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
      if (V && V->hasGlobalStorage() && !V->isStaticLocal() &&
          V->hasExternalFormalLinkage() && !V->getType()->isReferenceType() &&
          V->hasDefinition() == VarDecl::DeclarationOnly &&
          handleArrayType(V->getType()) &&
          llvm::none_of(Out, [&](const VarDecl *O) {
            return O->getCanonicalDecl() == V->getCanonicalDecl();
          }))
        Out.push_back(V);
    }
  return Out;
}

/// Whether every use of `Array` (a member or a global) in `Unit` reads an
/// element, gives an element's address to a create, or asks the
/// container's size.
bool elementwiseUses(const ValueDecl *Array,
                     llvm::ArrayRef<const Decl *> Unit) {
  for (const Decl *C : Unit) {
    llvm::ArrayRef<BodyStmt> Stmts = stmtsIn(C);
    for (int I = 0, N = static_cast<int>(Stmts.size()); I < N; ++I) {
      const Stmt *S = Stmts[I].S;
      const ValueDecl *D = nullptr;
      if (const auto *M = dyn_cast<MemberExpr>(S))
        D = M->getMemberDecl();
      else if (const auto *R = dyn_cast<DeclRefExpr>(S))
        D = R->getDecl();
      if (D != Array)
        continue;
      int P = parentThroughWrappers(Stmts, I, /*KeepLoads=*/true);
      const Stmt *Up = P >= 0 ? Stmts[P].S : nullptr;
      if (const auto *M = dyn_cast_or_null<MemberExpr>(Up)) {
        const auto *Method = dyn_cast<CXXMethodDecl>(M->getMemberDecl());
        if (Method && Method->getIdentifier() &&
            llvm::is_contained({"size", "empty", "resize", "reserve"},
                               Method->getName()))
          continue;
        return false;
      }
      const auto *Sub = dyn_cast_or_null<ArraySubscriptExpr>(Up);
      const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(Up);
      if (!Sub && !(Op && Op->getOperator() == OO_Subscript))
        return false;
      int Q = parentThroughWrappers(Stmts, P, /*KeepLoads=*/true);
      const Stmt *Use = Q >= 0 ? Stmts[Q].S : nullptr;
      if (const auto *Load = dyn_cast_or_null<ImplicitCastExpr>(Use);
          Load && Load->getCastKind() == CK_LValueToRValue)
        continue;
      const auto *Addr = dyn_cast_or_null<UnaryOperator>(Use);
      int R = Addr && Addr->getOpcode() == UO_AddrOf
                  ? parentThroughWrappers(Stmts, Q, /*KeepLoads=*/true)
                  : -1;
      const auto *Create = R >= 0 ? dyn_cast<CallExpr>(Stmts[R].S) : nullptr;
      const FunctionInfo *F = Create ? calledCublasFunction(Create) : nullptr;
      if (F && F->Creates == ResourceKind::Handle)
        continue;
      return false;
    }
  }
  return true;
}

bool selectsADevice(const Decl *Callable) {
  return callsAny(Callable, [](const CallExpr *C) {
    const FunctionDecl *FD = C->getDirectCallee();
    return FD && FD->getIdentifier() &&
           runtime_api::isRuntimeCall(FD->getName(),
                                      runtime_api::RuntimeKind::SelectDevice);
  });
}

} // namespace

UnitHandleArrays perDeviceHandleArrays(llvm::ArrayRef<const Decl *> Unit) {
  UnitHandleArrays Out;
  llvm::DenseMap<const ValueDecl *, PerDeviceArray> Creates;
  for (const Decl *Callable : Unit) {
    llvm::SmallVector<const ValueDecl *, 2> Arrays = storedCreates(Callable);
    if (Arrays.empty())
      continue;
    llvm::DenseMap<const ValueDecl *, PerDeviceArray> Here;
    if (const CFG *Cfg = sharedCfg(Callable, Callable->getASTContext()))
      DeviceFlow(Callable, *Cfg, nullptr, &Here).run();
    // A create the flow did not record (no CFG, a flow that did not
    // settle, code it does not reach) is not known to be per device.
    for (const ValueDecl *A : Arrays) {
      auto It = Here.find(A);
      PerDeviceArray Seen =
          It != Here.end() ? It->second : PerDeviceArray{nullptr, true};
      auto [U, New] = Creates.try_emplace(A, Seen);
      U->second.Mixed = U->second.Mixed || Seen.Mixed;
      if (!U->second.Create)
        U->second.Create = Seen.Create;
    }
  }
  for (const auto &[Array, A] : Creates)
    if (!A.Mixed && A.Create && elementwiseUses(Array, Unit))
      Out.PerDevice[Array] = A.Create;
  // The global arrays the unit only reads, created in another file.
  if (!projectFactsWanted())
    return Out;
  for (const VarDecl *V : globalHandleArraysNamed(Unit)) {
    if (Creates.count(V) || !elementwiseUses(V, Unit))
      continue;
    if (auto Found = projectPerDeviceCreatorOf(V)) {
      Out.PerDevice[V] = nullptr;
      Out.Elsewhere[V] = CreatedElsewhere{
          Found->first->File, Found->second->Line, Found->first->Name};
    }
  }
  return Out;
}

bool createsStoredElements(const Decl *Callable) {
  return !storedCreates(Callable).empty();
}

std::vector<FunctionSummary::PerDeviceGlobal>
perDeviceGlobalsOf(const FunctionDecl *FD, const UnitHandleArrays &Arrays) {
  std::vector<FunctionSummary::PerDeviceGlobal> Out;
  const Stmt *Body = FD->getBody();
  if (!Body)
    return Out;
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  for (const auto &[Array, Create] : Arrays.PerDevice) {
    const auto *V = dyn_cast<VarDecl>(Array);
    std::string Key = V ? globalKey(V) : std::string();
    if (!Create || Key.empty() || !containsStmt(Body, Create))
      continue;
    Out.push_back({Key, V->getName().str(),
                   SM.getExpansionLineNumber(Create->getBeginLoc())});
  }
  llvm::sort(Out, [](const auto &A, const auto &B) { return A.Key < B.Key; });
  return Out;
}

// Its summary part "perDeviceGlobals" (facts/SummaryParts.h).
const SummaryPart PerDeviceGlobalsSummaryPart = {
    [](const FunctionSummary &S) { return !S.PerDeviceGlobals.empty(); },
    [](const FunctionSummary &S, llvm::json::Object &O) {
      llvm::json::Array A;
      for (const FunctionSummary::PerDeviceGlobal &G : S.PerDeviceGlobals)
        A.push_back(llvm::json::Array{G.Key, G.Name, G.Line});
      O["perDeviceGlobals"] = std::move(A);
    },
    [](const llvm::json::Object &O, FunctionSummary &S) {
      return summary_json::readEach(
          O, "perDeviceGlobals", [&](const llvm::json::Value &G) {
            const llvm::json::Array *T = G.getAsArray();
            if (!T || T->size() != 3)
              return false;
            auto Key = (*T)[0].getAsString(), Name = (*T)[1].getAsString();
            std::optional<unsigned> Line = summary_json::natural((*T)[2]);
            if (!Key || Key->empty() || !Name || !Line)
              return false;
            S.PerDeviceGlobals.push_back({Key->str(), Name->str(), *Line});
            return true;
          });
    }};

std::vector<WrongDeviceCall> wrongDeviceCalls(const Decl *Callable,
                                              const UnitHandleArrays *Unit) {
  if (!Callable || !selectsADevice(Callable))
    return {};
  const CFG *Cfg = sharedCfg(Callable, Callable->getASTContext());
  if (!Cfg)
    return {};
  return DeviceFlow(Callable, *Cfg, Unit).run();
}

} // namespace cublas_tidy
