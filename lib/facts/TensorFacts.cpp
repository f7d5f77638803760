//===- TensorFacts.cpp ----------------------------------------------------===//

#include "facts/TensorFacts.h"

#include "ast/AstUtils.h"
#include "ast/Callables.h"
#include "ast/LocalUses.h"
#include "model/TorchApi.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace cublas_tidy {

namespace {

constexpr unsigned MaxDepth = 24;

/// The record a type names (references and cv-qualifiers aside).
const CXXRecordDecl *recordOf(QualType T) {
  if (T.isNull())
    return nullptr;
  T = T.getNonReferenceType();
  if (const auto *RD = T->getAsCXXRecordDecl())
    return RD;
  return nullptr;
}

bool isNamed(const NamedDecl *D, llvm::StringRef Name,
             llvm::StringRef Namespace) {
  if (!D || !D->getIdentifier() || D->getName() != Name)
    return false;
  const auto *NS = dyn_cast<NamespaceDecl>(D->getDeclContext());
  return NS && NS->getIdentifier() && NS->getName() == Namespace &&
         isa<TranslationUnitDecl>(NS->getDeclContext());
}

bool isRecord(QualType T, llvm::StringRef Name, llvm::StringRef Namespace) {
  return isNamed(recordOf(T), Name, Namespace);
}

bool isOptionsType(QualType T) {
  return isRecord(T, "TensorOptions", "c10");
}

const EnumDecl *enumOf(QualType T) {
  if (T.isNull())
    return nullptr;
  if (const auto *ET = T.getNonReferenceType()->getAs<EnumType>())
    return ET->getDecl();
  return nullptr;
}

bool isEnum(QualType T, llvm::StringRef Name) {
  return isNamed(enumOf(T), Name, "c10");
}

bool isDeviceType(QualType T) {
  return isEnum(T, "DeviceType") || isRecord(T, "Device", "c10");
}

bool isScalarTypeType(QualType T) {
  return isEnum(T, "ScalarType") || isRecord(T, "TypeMeta", "caffe2");
}

/// The function is in namespace at, torch or c10 (directly).
bool isTorchFunction(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier())
    return false;
  const auto *NS = dyn_cast<NamespaceDecl>(FD->getDeclContext());
  if (!NS || !NS->getIdentifier() ||
      !isa<TranslationUnitDecl>(NS->getDeclContext()))
    return false;
  llvm::StringRef N = NS->getName();
  return N == "at" || N == "torch" || N == "c10";
}

/// Parentheses, implicit conversions, temporaries, copies, no-op
/// functional casts and default arguments aside.
const Expr *strip(const Expr *E) {
  for (unsigned Step = 0; E && Step < 32; ++Step) {
    E = ignoreCopies(E);
    if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E);
        FC && FC->getCastKind() == CK_NoOp)
      E = FC->getSubExpr();
    else if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(E))
      E = DA->getExpr();
    else
      return E;
  }
  return E;
}

/// The callable (function, method, lambda call operator) a local variable or
/// parameter belongs to.
const Decl *callableOf(const VarDecl *VD) {
  const DeclContext *DC = VD->getParentFunctionOrMethod();
  return DC ? dyn_cast<Decl>(DC) : nullptr;
}

/// What a member use does to a tensor (or its options, device, ...): only
/// an assignment or one of PyTorch's shape-changing in-place methods
/// (`resize_`, `set_`, ...) changes it; `t += u` keeps its device and dtype.
bool memberChangesTensor(const LocalUseInfo &U) {
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(U.Context))
    return Op->getOperator() == OO_Equal;
  const auto *ME = dyn_cast_or_null<MemberExpr>(U.Context);
  if (!ME)
    return true;
  const auto *Member = dyn_cast<NamedDecl>(ME->getMemberDecl());
  if (Member && Member->getIdentifier() &&
      torch_api::changesShapeInPlace(Member->getName()))
    return true;
  if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Member))
    return MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator();
  return false;
}

/// Whether the reference at `I` in `Stmts` may change which tensor (or
/// which options, device, ...) the variable holds (ast/LocalUses.h, with
/// the member rule above).
bool mayChange(llvm::ArrayRef<BodyStmt> Stmts, int I) {
  return useMayChange(classifyLocalUse(Stmts, I), memberChangesTensor);
}

/// The value a variable holds wherever it is read: the initialiser of a
/// local that nothing may change after it; null otherwise (and for
/// parameters, whose `Written` tells whether the body may change them).
const Expr *singleDefinition(const VarDecl *VD, bool &Written) {
  Written = true;
  if (!VD || VD->getType()->isReferenceType() || !VD->hasLocalStorage())
    return nullptr;
  const Decl *Callable = callableOf(VD);
  if (!Callable)
    return nullptr;
  llvm::ArrayRef<BodyStmt> Stmts = stmtsIn(Callable);
  const BodyIndex &Index = indexIn(Callable);
  auto It = Index.RefsTo.find(VD);
  if (It != Index.RefsTo.end())
    for (int I : It->second)
      if (mayChange(Stmts, I))
        return nullptr;
  Written = false;
  return isa<ParmVarDecl>(VD) ? nullptr : VD->getInit();
}

/// The enumerator an expression of enum type names, through constexpr
/// variables (c10::kCUDA, at::kHalf, torch::kFloat16) and locals defined
/// once.
const EnumConstantDecl *enumerator(const Expr *E, unsigned Depth) {
  if (!E || Depth > MaxDepth)
    return nullptr;
  E = strip(E);
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  if (!DRE)
    return nullptr;
  if (const auto *ECD = dyn_cast<EnumConstantDecl>(DRE->getDecl()))
    return ECD;
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (!VD)
    return nullptr;
  if (VD->isConstexpr() || (VD->getType().isConstQualified() &&
                            !VD->hasLocalStorage()))
    return enumerator(VD->getInit(), Depth + 1);
  bool Written;
  return enumerator(singleDefinition(VD, Written), Depth + 1);
}

/// A string literal inside a few layers of conversion (`at::Device("cuda")`).
const StringLiteral *stringIn(const Expr *E, unsigned Depth) {
  if (!E || Depth > 6)
    return nullptr;
  E = strip(E);
  if (const auto *SL = dyn_cast<StringLiteral>(E))
    return SL;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E); CE && CE->getNumArgs())
    return stringIn(CE->getArg(0), Depth + 1);
  return nullptr;
}

struct DeviceValue {
  TensorDevice Device = TensorDevice::Unknown;
  const Expr *From = nullptr;
};

struct DTypeValue {
  llvm::StringRef DType;
  const Expr *From = nullptr;
};

/// What TensorOptions say: each of device and dtype is unset (the factory's
/// default), set to a known value, or unknown.
struct OptionsValue {
  bool Known = true; // false: nothing can be said
  bool DeviceSet = false;
  DeviceValue Device; // when set; Device.Device may be Unknown
  bool DTypeSet = false;
  DTypeValue DType;
  bool PinnedUnknown = false;
  bool Pinned = false;
};

class Evaluator {
public:

  TensorFact tensor(const Expr *E, unsigned Depth);
  DeviceValue device(const Expr *E, unsigned Depth);
  DTypeValue dtype(const Expr *E, unsigned Depth);
  OptionsValue options(const Expr *E, unsigned Depth);
  OptionsValue constructedOptions(const CXXConstructExpr *CE, unsigned Depth);
  OptionsValue optionsMethod(const CXXMemberCallExpr *MC, unsigned Depth);
  OptionsValue optionsFunction(const CallExpr *Call, unsigned Depth);

private:
  TensorFact method(const CXXMemberCallExpr *Call, llvm::StringRef Name,
                    const Expr *Base, unsigned Depth);
  TensorFact to(const CXXMemberCallExpr *Call, const TensorFact &Self,
                unsigned Depth);
  TensorFact factory(const CallExpr *Call, bool Like, unsigned Depth);
  TensorFact parameter(const ParmVarDecl *P, const Expr *Use);
};

/// `T` copied to `Device` by `Call` (`.cuda()`, `.cpu()`, `.to(device)`):
/// the same dtype, a tensor of its own.
TensorFact movedTo(TensorFact T, TensorDevice Device, const Expr *Call) {
  T.Var = nullptr;
  T.Device = Device;
  T.DeviceFrom = Device == TensorDevice::Unknown ? nullptr : Call;
  T.DefaultDevice = false;
  T.Pinned = false;
  return T;
}

TensorFact applyOptions(TensorFact Base, const OptionsValue &O) {
  if (O.DeviceSet) {
    Base.Device = O.Device.Device;
    Base.DeviceFrom = O.Device.From;
    Base.DefaultDevice = false;
  }
  if (O.DTypeSet) {
    Base.DType = O.DType.DType;
    Base.DTypeFrom = O.DType.From;
  }
  return Base;
}

DeviceValue Evaluator::device(const Expr *E, unsigned Depth) {
  if (!E || Depth > MaxDepth)
    return {};
  E = strip(E);
  // `at::Device("cuda:1")`: a functional cast around the constructor.
  if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E);
      FC && FC->getCastKind() == CK_ConstructorConversion)
    E = strip(FC->getSubExpr());
  if (const EnumConstantDecl *ECD = enumerator(E, Depth + 1)) {
    if (!isEnum(ECD->getType(), "DeviceType") &&
        !isNamed(dyn_cast<EnumDecl>(ECD->getDeclContext()), "DeviceType",
                 "c10"))
      return {};
    if (ECD->getName() == "CUDA")
      return {TensorDevice::CUDA, E};
    if (ECD->getName() == "CPU")
      return {TensorDevice::CPU, E};
    return {};
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    if (!isDeviceType(CE->getType()) || CE->getNumArgs() == 0)
      return {};
    if (const StringLiteral *SL = stringIn(CE->getArg(0), 0)) {
      llvm::StringRef D = torch_api::deviceOfString(SL->getString());
      if (D == "CUDA")
        return {TensorDevice::CUDA, E};
      if (D == "CPU")
        return {TensorDevice::CPU, E};
      return {};
    }
    DeviceValue V = device(CE->getArg(0), Depth + 1);
    if (V.Device != TensorDevice::Unknown)
      V.From = E;
    return V;
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    const Expr *Base = MC->getImplicitObjectArgument();
    if (MD && MD->getIdentifier() && MD->getName() == "device" &&
        MC->getNumArgs() == 0 && Base) {
      if (isTensorType(Base->getType())) {
        TensorFact T = tensor(Base, Depth + 1);
        return {T.Device, T.DeviceFrom};
      }
      if (isOptionsType(Base->getType())) {
        OptionsValue O = options(Base, Depth + 1);
        if (O.Known && O.DeviceSet)
          return O.Device;
        if (O.Known && !O.DeviceSet)
          return {TensorDevice::CPU, E};
      }
    }
    return {};
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
      bool Written;
      return device(singleDefinition(VD, Written), Depth + 1);
    }
  return {};
}

DTypeValue Evaluator::dtype(const Expr *E, unsigned Depth) {
  if (!E || Depth > MaxDepth)
    return {};
  E = strip(E);
  if (const EnumConstantDecl *ECD = enumerator(E, Depth + 1)) {
    if (!isNamed(dyn_cast<EnumDecl>(ECD->getDeclContext()), "ScalarType",
                 "c10"))
      return {};
    return {ECD->getName(), E};
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    // c10::optional<ScalarType>, caffe2::TypeMeta from a ScalarType.
    if (CE->getNumArgs() == 0)
      return {};
    DTypeValue V = dtype(CE->getArg(0), Depth + 1);
    return V;
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    const Expr *Base = MC->getImplicitObjectArgument();
    if (MD && MD->getIdentifier() && MC->getNumArgs() == 0 && Base &&
        (MD->getName() == "scalar_type" || MD->getName() == "dtype")) {
      if (isTensorType(Base->getType())) {
        TensorFact T = tensor(Base, Depth + 1);
        return {T.DType, T.DTypeFrom};
      }
      if (isOptionsType(Base->getType())) {
        OptionsValue O = options(Base, Depth + 1);
        if (O.Known && O.DTypeSet)
          return O.DType;
      }
    }
    return {};
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
      bool Written;
      return dtype(singleDefinition(VD, Written), Depth + 1);
    }
  return {};
}

/// Options that say nothing for certain.
static OptionsValue unknownOptions() {
  OptionsValue Unknown;
  Unknown.Known = false;
  return Unknown;
}

OptionsValue Evaluator::options(const Expr *E, unsigned Depth) {
  if (!E || Depth > MaxDepth)
    return unknownOptions();
  E = strip(E);
  if (const auto *ILE = dyn_cast<InitListExpr>(E))
    return ILE->getNumInits() == 0 ? OptionsValue() : unknownOptions();
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
    return constructedOptions(CE, Depth);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    return optionsMethod(MC, Depth);
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return optionsFunction(Call, Depth);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
      bool Written;
      if (const Expr *Init = singleDefinition(VD, Written))
        return options(Init, Depth + 1);
    }
  return unknownOptions();
}

/// TensorOptions(device), TensorOptions(dtype), ...
OptionsValue Evaluator::constructedOptions(const CXXConstructExpr *CE,
                                           unsigned Depth) {
  if (!isOptionsType(CE->getType()))
    return unknownOptions();
  OptionsValue O;
  if (CE->getNumArgs() == 0)
    return O;
  const Expr *Arg = CE->getArg(0);
  if (isDeviceType(Arg->getType())) {
    O.DeviceSet = true;
    O.Device = device(Arg, Depth + 1);
    return O;
  }
  if (isScalarTypeType(Arg->getType())) {
    O.DTypeSet = true;
    O.DType = dtype(Arg, Depth + 1);
    return O;
  }
  if (isEnum(Arg->getType(), "Layout") ||
      isEnum(Arg->getType(), "MemoryFormat"))
    return O;
  return unknownOptions();
}

/// t.options(), and options.device(...), .dtype(...), .pinned_memory(...).
OptionsValue Evaluator::optionsMethod(const CXXMemberCallExpr *MC,
                                      unsigned Depth) {
  const CXXMethodDecl *MD = MC->getMethodDecl();
  const Expr *Base = MC->getImplicitObjectArgument();
  if (!MD || !MD->getIdentifier() || !Base)
    return unknownOptions();
  llvm::StringRef Name = MD->getName();
  if (isTensorType(Base->getType())) {
    if (Name != "options" || MC->getNumArgs() != 0)
      return unknownOptions();
    TensorFact T = tensor(Base, Depth + 1);
    OptionsValue O;
    O.DeviceSet = true;
    O.Device = {T.Device, T.DeviceFrom};
    O.DTypeSet = true;
    O.DType = {T.DType, T.DTypeFrom};
    if (T.Pinned)
      O.Pinned = true;
    return O;
  }
  if (!isOptionsType(Base->getType()))
    return unknownOptions();
  OptionsValue O = options(Base, Depth + 1);
  if (!O.Known)
    return O;
  if (Name == "device" && MC->getNumArgs() >= 1) {
    O.DeviceSet = true;
    O.Device = device(MC->getArg(0), Depth + 1);
  } else if (Name == "device_index") {
    O.DeviceSet = true;
    O.Device = {TensorDevice::CUDA, MC};
  } else if (Name == "dtype" && MC->getNumArgs() >= 1) {
    O.DTypeSet = true;
    O.DType = dtype(MC->getArg(0), Depth + 1);
  } else if (Name == "pinned_memory" && MC->getNumArgs() >= 1) {
    const Expr *B = strip(MC->getArg(0));
    if (const auto *CE = dyn_cast<CXXConstructExpr>(B); CE && CE->getNumArgs())
      B = strip(CE->getArg(0)); // c10::optional<bool>
    if (const auto *L = dyn_cast<CXXBoolLiteralExpr>(B))
      O.Pinned = L->getValue();
    else
      O.PinnedUnknown = true;
  } else if (Name != "layout" && Name != "requires_grad" &&
             Name != "memory_format") {
    return unknownOptions();
  }
  return O;
}

/// torch::device(...), torch::dtype(...), ...
OptionsValue Evaluator::optionsFunction(const CallExpr *Call, unsigned Depth) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!isTorchFunction(FD) || !isOptionsType(Call->getType()))
    return unknownOptions();
  llvm::StringRef Name = FD->getName();
  OptionsValue O;
  if (Name == "device" && Call->getNumArgs() == 1) {
    O.DeviceSet = true;
    O.Device = device(Call->getArg(0), Depth + 1);
    return O;
  }
  if (Name == "device_index") {
    O.DeviceSet = true;
    O.Device = {TensorDevice::CUDA, Call};
    return O;
  }
  if (Name == "dtype" && Call->getNumArgs() == 1) {
    O.DTypeSet = true;
    O.DType = dtype(Call->getArg(0), Depth + 1);
    return O;
  }
  if (Name == "layout" || Name == "requires_grad" || Name == "memory_format")
    return O;
  return unknownOptions();
}

TensorFact Evaluator::factory(const CallExpr *Call, bool Like,
                              unsigned Depth) {
  const FunctionDecl *FD = Call->getDirectCallee();
  TensorFact Base;
  if (Like) {
    if (Call->getNumArgs() == 0 || !isTensorType(Call->getArg(0)->getType()))
      return {};
    Base = tensor(Call->getArg(0), Depth + 1);
    Base.Var = nullptr;
  }
  const Expr *OptionsArg = nullptr;
  for (unsigned A = 0; A < Call->getNumArgs() && A < FD->getNumParams(); ++A)
    if (isOptionsType(FD->getParamDecl(A)->getType()))
      OptionsArg = Call->getArg(A);
  if (!OptionsArg) {
    // The overloads that take dtype, layout, device and pin_memory apart.
    if (Like && Call->getNumArgs() == 1)
      return Base;
    return {};
  }
  OptionsValue O = options(OptionsArg, Depth + 1);
  if (!O.Known)
    return {};
  if (!Like && !O.DeviceSet) {
    Base.Device = TensorDevice::CPU;
    Base.DeviceFrom = Call;
    Base.DefaultDevice = true;
  }
  TensorFact T = applyOptions(Base, O);
  // Where this tensor's device is set: the call that makes it (also when
  // the options come from another tensor's).
  if (T.Device != TensorDevice::Unknown)
    T.DeviceFrom = Call;
  if (T.Device == TensorDevice::CPU) {
    if (O.PinnedUnknown)
      return {};
    T.Pinned = T.Pinned || O.Pinned;
  }
  return T;
}

TensorFact Evaluator::to(const CXXMemberCallExpr *Call, const TensorFact &Self,
                         unsigned Depth) {
  TensorFact T = Self;
  T.Var = nullptr;
  unsigned N = 0;
  while (N < Call->getNumArgs() && !isa<CXXDefaultArgExpr>(Call->getArg(N)))
    ++N;
  if (N == 0)
    return {};
  const Expr *First = Call->getArg(0);
  QualType FirstType = First->getType();
  if (isTensorType(FirstType)) {
    TensorFact Other = tensor(First, Depth + 1);
    Other.Var = nullptr;
    return Other;
  }
  if (isOptionsType(FirstType)) {
    OptionsValue O = options(First, Depth + 1);
    if (!O.Known || O.PinnedUnknown)
      return {};
    return applyOptions(T, O);
  }
  unsigned Next = 0;
  if (isDeviceType(FirstType)) {
    T = movedTo(T, device(First, Depth + 1).Device, Call);
    Next = 1;
  }
  if (Next < N && isScalarTypeType(Call->getArg(Next)->getType())) {
    DTypeValue V = dtype(Call->getArg(Next), Depth + 1);
    T.DType = V.DType;
    T.DTypeFrom = V.DType.empty() ? nullptr : Call;
  } else if (Next == 0) {
    return {}; // not an overload this models
  }
  return T;
}

TensorFact Evaluator::method(const CXXMemberCallExpr *Call,
                             llvm::StringRef Name, const Expr *Base,
                             unsigned Depth) {
  using torch_api::TensorResult;
  switch (torch_api::method(Name)) {
  case TensorResult::SameAsSelf: {
    TensorFact T = tensor(Base, Depth + 1);
    T.Var = nullptr;
    return T;
  }
  case TensorResult::ToCuda:
  case TensorResult::ToCpu:
    return movedTo(tensor(Base, Depth + 1),
                   torch_api::method(Name) == TensorResult::ToCuda
                       ? TensorDevice::CUDA
                       : TensorDevice::CPU,
                   Call);
  case TensorResult::Cast: {
    TensorFact T = tensor(Base, Depth + 1);
    T.Var = nullptr;
    T.DType = torch_api::castType(Name);
    T.DTypeFrom = Call;
    return T;
  }
  case TensorResult::TypeAs: {
    if (Call->getNumArgs() != 1)
      return {};
    TensorFact T = tensor(Base, Depth + 1);
    TensorFact Other = tensor(Call->getArg(0), Depth + 1);
    T.Var = nullptr;
    T.DType = Other.DType;
    T.DTypeFrom = Other.DType.empty() ? nullptr : Call;
    return T;
  }
  case TensorResult::To:
    return to(Call, tensor(Base, Depth + 1), Depth);
  case TensorResult::Factory:
  case TensorResult::Like:
  case TensorResult::Unknown:
    break;
  }
  return {};
}

/// `cond` of a TORCH_CHECK-like statement: `if (!(cond)) fail();` where the
/// branch cannot return (a [[noreturn]] call or a throw), with
/// `__builtin_expect` and casts around the condition. Null otherwise.
const Expr *checkedCondition(const IfStmt *If) {
  if (!If || If->getElse() || If->getConditionVariable())
    return nullptr;
  bool Stops = false;
  walkStmts(If->getThen(), [&](const Stmt *S) {
    if (isa<CXXThrowExpr>(S))
      Stops = true;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *FD = Call->getDirectCallee();
          FD && FD->isNoReturn())
        Stops = true;
    return !Stops;
  });
  if (!Stops)
    return nullptr;
  const Expr *C = If->getCond();
  for (int Step = 0; C && Step < 16; ++Step) {
    C = C->IgnoreParenImpCasts();
    if (const auto *Call = dyn_cast<CallExpr>(C);
        Call && Call->getBuiltinCallee() == Builtin::BI__builtin_expect &&
        Call->getNumArgs() == 2) {
      C = Call->getArg(0);
      continue;
    }
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(C)) {
      C = Cast->getSubExpr();
      continue;
    }
    break;
  }
  const auto *Not = dyn_cast_or_null<UnaryOperator>(C);
  if (!Not || Not->getOpcode() != UO_LNot)
    return nullptr;
  return Not->getSubExpr();
}

/// Whether the conjunction `Cond` has a conjunct that `Test` accepts.
bool someConjunct(const Expr *Cond,
                  llvm::function_ref<bool(const Expr *)> Test,
                  unsigned Depth = 0) {
  if (!Cond || Depth > 16)
    return false;
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond);
      BO && BO->getOpcode() == BO_LAnd)
    return someConjunct(BO->getLHS(), Test, Depth + 1) ||
           someConjunct(BO->getRHS(), Test, Depth + 1);
  return Test(Cond);
}

/// `E` as a call of the tensor method `Name` without arguments (default
/// arguments aside): the object it is called on; null otherwise.
const Expr *methodObject(const Expr *E, llvm::StringRef Name) {
  const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(
      E ? E->IgnoreParenImpCasts() : nullptr);
  const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
  if (!MD || !MD->getIdentifier() || MD->getName() != Name)
    return nullptr;
  for (const Expr *Arg : MC->arguments())
    if (!isa<CXXDefaultArgExpr>(Arg))
      return nullptr;
  return MC->getImplicitObjectArgument();
}

/// `P.is_cuda()` or `P.device().is_cuda()`.
bool testsIsCuda(const Expr *Conjunct, const ParmVarDecl *P) {
  const Expr *Base = methodObject(Conjunct, "is_cuda");
  if (const Expr *Dev = methodObject(Base, "device"))
    Base = Dev;
  return Base && referencedVar(Base->IgnoreParenImpCasts()) == P;
}

/// `P.is_contiguous()`.
bool testsIsContiguous(const Expr *Conjunct, const ParmVarDecl *P) {
  const Expr *Base = methodObject(Conjunct, "is_contiguous");
  return Base && referencedVar(Base->IgnoreParenImpCasts()) == P;
}

/// A small constant written as an integer literal, possibly negated.
std::optional<int> smallConstant(const Expr *E) {
  if (!E)
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  bool Negative = false;
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_Minus) {
    Negative = true;
    E = U->getSubExpr()->IgnoreParenImpCasts();
  }
  const auto *Lit = dyn_cast<IntegerLiteral>(E);
  if (!Lit || Lit->getValue().getActiveBits() > 8)
    return std::nullopt;
  int V = int(Lit->getValue().getZExtValue());
  return Negative ? -V : V;
}

/// `P.dim() == N` (or `ndimension()`, either side): N.
std::optional<unsigned> testedDims(const Expr *Conjunct,
                                   const ParmVarDecl *P) {
  const auto *BO = dyn_cast<BinaryOperator>(Conjunct);
  if (!BO || BO->getOpcode() != BO_EQ)
    return std::nullopt;
  for (auto [Call, Value] : {std::pair(BO->getLHS(), BO->getRHS()),
                             std::pair(BO->getRHS(), BO->getLHS())}) {
    const Expr *Base = methodObject(Call, "dim");
    if (!Base)
      Base = methodObject(Call, "ndimension");
    std::optional<int> N = smallConstant(Value);
    if (Base && N && *N >= 0 &&
        referencedVar(Base->IgnoreParenImpCasts()) == P)
      return unsigned(*N);
  }
  return std::nullopt;
}

/// `P.scalar_type() == T` or `P.dtype() == T` (either side, also as an
/// overloaded operator): T.
const Expr *testedDType(const Expr *Conjunct, const ParmVarDecl *P) {
  const Expr *L = nullptr, *R = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(Conjunct);
      BO && BO->getOpcode() == BO_EQ) {
    L = BO->getLHS();
    R = BO->getRHS();
  } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Conjunct);
             Op && Op->getOperator() == OO_EqualEqual && Op->getNumArgs() == 2) {
    L = Op->getArg(0);
    R = Op->getArg(1);
  } else {
    return nullptr;
  }
  for (auto [Call, Value] : {std::pair(L, R), std::pair(R, L)}) {
    const Expr *C = strip(Call);
    const Expr *Base = methodObject(C, "scalar_type");
    if (!Base)
      Base = methodObject(C, "dtype");
    if (Base && referencedVar(Base->IgnoreParenImpCasts()) == P)
      return Value;
  }
  return nullptr;
}

/// `P = P.contiguous();`, alone or as the only statement of
/// `if (!P.is_contiguous())`: after it `P` is row-major. The assignment;
/// null otherwise.
const Expr *madeContiguous(const Stmt *S, const ParmVarDecl *P,
                           bool InIf = false) {
  if (const auto *If = dyn_cast_or_null<IfStmt>(S)) {
    if (InIf || If->getElse() || If->getConditionVariable() || If->getInit())
      return nullptr;
    const auto *Not =
        dyn_cast<UnaryOperator>(If->getCond()->IgnoreParenImpCasts());
    const Expr *Tested = Not && Not->getOpcode() == UO_LNot
                             ? methodObject(Not->getSubExpr(), "is_contiguous")
                             : nullptr;
    if (!Tested || referencedVar(Tested->IgnoreParenImpCasts()) != P)
      return nullptr;
    const Stmt *Then = If->getThen();
    if (const auto *CS = dyn_cast<CompoundStmt>(Then); CS && CS->size() == 1)
      Then = CS->body_front();
    return madeContiguous(Then, P, /*InIf=*/true);
  }
  const auto *E = dyn_cast_or_null<Expr>(S);
  const auto *Op =
      E ? dyn_cast<CXXOperatorCallExpr>(E->IgnoreImplicit()) : nullptr;
  if (!Op || Op->getOperator() != OO_Equal || Op->getNumArgs() != 2 ||
      referencedVar(Op->getArg(0)->IgnoreParenImpCasts()) != P)
    return nullptr;
  const Expr *Of = methodObject(strip(Op->getArg(1)), "contiguous");
  return Of && referencedVar(strip(Of)) == P ? Op : nullptr;
}

/// Whether every write of the parameter `P` is `P = P.contiguous()`, which
/// keeps its device, dtype and sizes.
bool onlyMadeContiguous(const ParmVarDecl *P) {
  const Decl *Callable = callableOf(P);
  if (!Callable)
    return false;
  llvm::ArrayRef<BodyStmt> Stmts = stmtsIn(Callable);
  auto It = indexIn(Callable).RefsTo.find(P);
  if (It == indexIn(Callable).RefsTo.end())
    return false;
  for (int I : It->second) {
    if (!mayChange(Stmts, I))
      continue;
    // The left side of the assignment: its parent (through parentheses).
    int Up = Stmts[I].Parent;
    while (Up >= 0 && isa<ParenExpr, ImplicitCastExpr>(Stmts[Up].S))
      Up = Stmts[Up].Parent;
    if (Up < 0 || !madeContiguous(Stmts[Up].S, P))
      return false;
  }
  return true;
}

/// The first statement of `P`'s function body before `Use` (a check macro's
/// `do { ... } while (0)` or one-statement block unwrapped) for which
/// `Test` gives an expression: that expression. Null when none, or when the
/// body may change `P` otherwise than by `P = P.contiguous()`.
const Expr *
statementBefore(const ParmVarDecl *P, const Expr *Use,
                llvm::function_ref<const Expr *(const Stmt *)> Test) {
  bool Written;
  singleDefinition(P, Written);
  const Decl *Callable = callableOf(P);
  if ((Written && !onlyMadeContiguous(P)) || !Callable || !Use)
    return nullptr;
  const Stmt *Body = analysableBody(Callable, /*EvenWithErrors=*/true);
  const auto *Block = dyn_cast_or_null<CompoundStmt>(Body);
  if (!Block)
    return nullptr;
  const SourceManager &SM = P->getASTContext().getSourceManager();
  SourceLocation UseLoc = SM.getExpansionLoc(Use->getBeginLoc());
  for (const Stmt *S : Block->body()) {
    SourceLocation End = SM.getExpansionLoc(S->getEndLoc());
    if (UseLoc.isInvalid() || End.isInvalid() ||
        !SM.isBeforeInTranslationUnit(End, UseLoc))
      break;
    const Stmt *Inner = S;
    if (const auto *Do = dyn_cast<DoStmt>(Inner))
      Inner = Do->getBody();
    if (const auto *CS = dyn_cast<CompoundStmt>(Inner); CS && CS->size() == 1)
      Inner = CS->body_front();
    if (const Expr *Found = Test(Inner))
      return Found;
  }
  return nullptr;
}

/// The condition of the first statement of `P`'s function body before
/// `Use` that checks a conjunct `Test` accepts and stops otherwise
/// (TORCH_CHECK(x.is_cuda(), ...), a CHECK_INPUT macro's statements).
const Expr *checkedBefore(const ParmVarDecl *P, const Expr *Use,
                          llvm::function_ref<bool(const Expr *)> Test) {
  return statementBefore(P, Use, [&](const Stmt *S) -> const Expr * {
    const Expr *Cond = checkedCondition(dyn_cast<IfStmt>(S));
    return Cond && someConjunct(Cond, Test) ? cast<IfStmt>(S)->getCond()
                                            : nullptr;
  });
}

/// A parameter is a CUDA tensor at `Use` when a statement of the body
/// before it checks so and stops otherwise (TORCH_CHECK(x.is_cuda(), ...)),
/// and nothing changes the parameter.
TensorFact Evaluator::parameter(const ParmVarDecl *P, const Expr *Use) {
  TensorFact T;
  T.Var = P;
  if (const Expr *Cond = checkedBefore(P, Use, [&](const Expr *C) {
        return testsIsCuda(C, P);
      })) {
    T.Device = TensorDevice::CUDA;
    T.DeviceFrom = Cond;
  }
  const Expr *Type = nullptr;
  if (const Expr *Cond = checkedBefore(P, Use, [&](const Expr *C) {
        Type = testedDType(C, P);
        return Type != nullptr;
      })) {
    DTypeValue V = dtype(Type, 0);
    if (!V.DType.empty()) {
      T.DType = V.DType;
      T.DTypeFrom = Cond;
    }
  }
  return T;
}

TensorFact Evaluator::tensor(const Expr *E, unsigned Depth) {
  if (!E || Depth > MaxDepth)
    return {};
  const Expr *Use = E;
  E = strip(E);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return {};
    if (const auto *P = dyn_cast<ParmVarDecl>(VD))
      return parameter(P, Use);
    bool Written;
    TensorFact T = tensor(singleDefinition(VD, Written), Depth + 1);
    T.Var = VD;
    return T;
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    const Expr *Base = MC->getImplicitObjectArgument();
    if (!MD || !MD->getIdentifier() || !Base ||
        !isTensorType(Base->getType()))
      return {};
    return method(MC, MD->getName(), Base, Depth);
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
    if (Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2 &&
        isTensorType(Op->getArg(0)->getType())) {
      TensorFact T = tensor(Op->getArg(0), Depth + 1);
      T.Var = nullptr;
      return T;
    }
    return {};
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!isTorchFunction(FD))
      return {};
    switch (torch_api::freeFunction(FD->getName())) {
    case torch_api::TensorResult::Factory:
      return factory(Call, /*Like=*/false, Depth);
    case torch_api::TensorResult::Like:
      return factory(Call, /*Like=*/true, Depth);
    default:
      return {};
    }
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    TensorFact L = tensor(CO->getTrueExpr(), Depth + 1);
    TensorFact R = tensor(CO->getFalseExpr(), Depth + 1);
    TensorFact T;
    if (L.Device == R.Device && L.Pinned == R.Pinned) {
      T.Device = L.Device;
      T.Pinned = L.Pinned;
      T.DeviceFrom = L.DeviceFrom;
    }
    if (L.DType == R.DType) {
      T.DType = L.DType;
      T.DTypeFrom = L.DTypeFrom;
    }
    return T;
  }
  return {};
}

const InitListExpr *bracedList(const Expr *Arg);

/// The sizes written as a braced list in a factory call that takes them
/// first (`torch::empty({m, n}, options)`); null otherwise.
const InitListExpr *sizeList(const CallExpr *Call) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!isTorchFunction(FD) || Call->getNumArgs() == 0)
    return nullptr;
  llvm::StringRef Name = FD->getName();
  if (Name != "empty" && Name != "zeros" && Name != "ones" &&
      Name != "full" && Name != "rand" && Name != "randn")
    return nullptr;
  return bracedList(Call->getArg(0));
}

/// `{a, b}` written as an argument of ArrayRef type (sizes, dims): the
/// list; null otherwise.
const InitListExpr *bracedList(const Expr *Arg) {
  // {m, n}: an ArrayRef made from an initializer list.
  const Expr *List = Arg;
  for (int Step = 0; List && Step < 8; ++Step) {
    List = strip(List);
    if (const auto *CE = dyn_cast<CXXConstructExpr>(List);
        CE && CE->getNumArgs() == 1)
      List = CE->getArg(0);
    else if (const auto *IL = dyn_cast<CXXStdInitializerListExpr>(List))
      List = IL->getSubExpr();
    else
      break;
  }
  const auto *Init = dyn_cast_or_null<InitListExpr>(List);
  return Init && Init->getNumInits() > 0 ? Init : nullptr;
}

/// The method call `E` is, with a tensor object: its name and object.
const CXXMemberCallExpr *tensorMethod(const Expr *E, llvm::StringRef &Name,
                                      const Expr *&Base) {
  const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(E);
  const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
  Base = MC ? MC->getImplicitObjectArgument() : nullptr;
  if (!MD || !MD->getIdentifier() || !Base || !isTensorType(Base->getType()))
    return nullptr;
  Name = MD->getName();
  return MC;
}

/// The free function of at/torch that `E` calls, with its kind.
const CallExpr *torchCall(const Expr *E, torch_api::TensorResult &Kind) {
  const auto *Call = dyn_cast_or_null<CallExpr>(E);
  if (!Call || isa<CXXMemberCallExpr>(Call) || isa<CXXOperatorCallExpr>(Call))
    return nullptr;
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!isTorchFunction(FD))
    return nullptr;
  Kind = torch_api::freeFunction(FD->getName());
  return Call;
}

/// The dimensions `transpose(i, j)` swaps, when both are written as
/// constants that are not negative; `t()` swaps 0 and 1.
/// The dimensions of `permute({...})` as written constants, negative ones
/// counted from the end; nullopt when one is not a constant.
std::optional<llvm::SmallVector<int, 4>>
permutation(const CXXMemberCallExpr *MC) {
  const InitListExpr *List =
      MC->getNumArgs() == 1 ? bracedList(MC->getArg(0)) : nullptr;
  if (!List)
    return std::nullopt;
  llvm::SmallVector<int, 4> Dims;
  int N = int(List->getNumInits());
  for (const Expr *E : List->inits()) {
    std::optional<int> D = smallConstant(E);
    if (!D || *D >= N || *D < -N)
      return std::nullopt;
    Dims.push_back(*D < 0 ? *D + N : *D);
  }
  return Dims;
}

std::optional<std::pair<int, int>> swappedDims(const CXXMemberCallExpr *MC,
                                               llvm::StringRef Name) {
  if (Name == "permute") {
    std::optional<llvm::SmallVector<int, 4>> P = permutation(MC);
    return P && P->size() == 2 && (*P)[0] == 1 && (*P)[1] == 0
               ? std::optional(std::pair(0, 1))
               : std::nullopt;
  }
  if (Name == "t")
    return MC->getNumArgs() == 0 ? std::optional(std::pair(0, 1))
                                 : std::nullopt;
  if (MC->getNumArgs() != 2)
    return std::nullopt;
  std::optional<int> I = smallConstant(MC->getArg(0));
  std::optional<int> J = smallConstant(MC->getArg(1));
  if (!I || !J || *I < 0 || *J < 0 || *I == *J)
    return std::nullopt;
  return std::pair(*I, *J);
}

/// One step of a tensor expression, as the walks below see it.
struct TensorStep {
  enum StepKind { Other, Parameter, Local, Method, Factory, Like } Kind = Other;
  /// Parameter, Local: the variable; for a Local its one definition (null
  /// when something may change it: Written).
  const VarDecl *Var = nullptr;
  const Expr *Init = nullptr;
  bool Written = false;
  /// Method: the call, its name, its object and how it maps the shape.
  const CXXMemberCallExpr *Call = nullptr;
  llvm::StringRef Name;
  const Expr *Base = nullptr;
  torch_api::ShapeResult Shape = torch_api::ShapeResult::Unknown;
  /// Factory: the call and the sizes written in it.
  const CallExpr *Made = nullptr;
  const InitListExpr *Sizes = nullptr;
  /// Like: the tensor whose sizes and layout it takes.
  const Expr *Of = nullptr;
};

/// What the (stripped) expression `E` of tensor type is.
TensorStep stepOf(const Expr *E) {
  TensorStep S;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !isTensorType(VD->getType()))
      return S;
    S.Var = VD;
    S.Init = singleDefinition(VD, S.Written);
    S.Kind = isa<ParmVarDecl>(VD) ? TensorStep::Parameter : TensorStep::Local;
    // `x = x.contiguous()` keeps the sizes.
    if (S.Written && S.Kind == TensorStep::Parameter &&
        onlyMadeContiguous(cast<ParmVarDecl>(VD)))
      S.Written = false;
    return S;
  }
  if ((S.Call = tensorMethod(E, S.Name, S.Base))) {
    S.Kind = TensorStep::Method;
    S.Shape = torch_api::shape(S.Name);
    return S;
  }
  torch_api::TensorResult Kind;
  if (const CallExpr *Call = torchCall(E, Kind)) {
    if ((S.Sizes = sizeList(Call))) {
      S.Kind = TensorStep::Factory;
      S.Made = Call;
    } else if (Kind == torch_api::TensorResult::Like &&
               Call->getNumArgs() > 0) {
      S.Kind = TensorStep::Like;
      S.Of = Call->getArg(0);
    }
  }
  return S;
}

/// The number of dimensions of the tensor `E`, when the source fixes it.
std::optional<unsigned> dimsOf(const Expr *E, unsigned Depth = 0) {
  if (!E || Depth > MaxDepth)
    return std::nullopt;
  TensorStep S = stepOf(strip(E));
  switch (S.Kind) {
  case TensorStep::Parameter: {
    const auto *P = cast<ParmVarDecl>(S.Var);
    std::optional<unsigned> N;
    checkedBefore(P, E, [&](const Expr *C) {
      N = testedDims(C, P);
      return N.has_value();
    });
    return N;
  }
  case TensorStep::Local:
    return dimsOf(S.Init, Depth + 1);
  case TensorStep::Method:
    switch (S.Shape) {
    case torch_api::ShapeResult::Same:
    case torch_api::ShapeResult::Contiguous:
      return dimsOf(S.Base, Depth + 1);
    case torch_api::ShapeResult::Transposed:
      if (S.Name == "permute") {
        std::optional<llvm::SmallVector<int, 4>> P = permutation(S.Call);
        return P ? std::optional(unsigned(P->size())) : std::nullopt;
      }
      return swappedDims(S.Call, S.Name) ? dimsOf(S.Base, Depth + 1)
                                         : std::nullopt;
    case torch_api::ShapeResult::Unknown:
      return std::nullopt;
    }
    return std::nullopt;
  case TensorStep::Factory:
    return S.Sizes->getNumInits();
  case TensorStep::Like:
    return dimsOf(S.Of, Depth + 1);
  case TensorStep::Other:
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<TensorSize> sizeOf(const Expr *E, int Dim, unsigned Depth);

/// The size of dimension `Dim` of the Transposed view `S` made of its base.
std::optional<TensorSize> transposedSize(const TensorStep &S, int Dim,
                                         unsigned Depth) {
  if (S.Name == "permute") {
    std::optional<llvm::SmallVector<int, 4>> P = permutation(S.Call);
    int N = P ? int(P->size()) : 0;
    if (!P || Dim >= N || Dim < -N)
      return std::nullopt;
    return sizeOf(S.Base, (*P)[Dim < 0 ? Dim + N : Dim], Depth + 1);
  }
  std::optional<std::pair<int, int>> Swap = swappedDims(S.Call, S.Name);
  if (!Swap)
    return std::nullopt;
  if (S.Name == "t") {
    // t() of a 1-D tensor is the tensor itself: size(-1) and size(1)
    // (which needs two dimensions) are the base's size(0) either way;
    // size(0) is the base's size(1) only for two dimensions.
    if (Dim == 1 || Dim == -1)
      return sizeOf(S.Base, 0, Depth + 1);
    if (Dim == -2)
      return sizeOf(S.Base, 1, Depth + 1);
    std::optional<unsigned> N = dimsOf(S.Base, Depth + 1);
    return N && *N == 2 && Dim == 0 ? sizeOf(S.Base, 1, Depth + 1)
                                     : std::nullopt;
  }
  if (Dim < 0)
    return std::nullopt;
  int From = Dim == Swap->first    ? Swap->second
             : Dim == Swap->second ? Swap->first
                                   : Dim;
  return sizeOf(S.Base, From, Depth + 1);
}

std::optional<TensorSize> sizeOf(const Expr *E, int Dim, unsigned Depth) {
  if (!E || Depth > MaxDepth)
    return std::nullopt;
  TensorStep S = stepOf(strip(E));
  switch (S.Kind) {
  case TensorStep::Parameter:
  case TensorStep::Local: {
    if (S.Written)
      return std::nullopt;
    if (std::optional<TensorSize> Size = sizeOf(S.Init, Dim, Depth + 1))
      return Size;
    // A parameter's size, or a local's that nothing changes: by name. A
    // negative dimension counts from the end when the number is known; one
    // past it has no size.
    if (std::optional<unsigned> N = dimsOf(E)) {
      if (Dim >= int(*N) || Dim < -int(*N))
        return std::nullopt;
      if (Dim < 0)
        Dim += int(*N);
    }
    TensorSize Size;
    Size.Tensor = S.Var;
    Size.Dim = Dim;
    return Size;
  }
  case TensorStep::Method:
    switch (S.Shape) {
    case torch_api::ShapeResult::Same:
    case torch_api::ShapeResult::Contiguous:
      return sizeOf(S.Base, Dim, Depth + 1);
    case torch_api::ShapeResult::Transposed:
      return transposedSize(S, Dim, Depth);
    case torch_api::ShapeResult::Unknown:
      return std::nullopt;
    }
    return std::nullopt;
  case TensorStep::Factory: {
    int N = int(S.Sizes->getNumInits());
    int At = Dim < 0 ? Dim + N : Dim;
    if (At < 0 || At >= N)
      return std::nullopt;
    TensorSize Size;
    Size.Written = S.Sizes->getInit(unsigned(At));
    return Size;
  }
  case TensorStep::Like:
    return sizeOf(S.Of, Dim, Depth + 1);
  case TensorStep::Other:
    return std::nullopt;
  }
  return std::nullopt;
}

TensorLayout layoutOf(const Expr *E, unsigned Depth) {
  TensorLayout L;
  if (!E || Depth > MaxDepth)
    return L;
  TensorStep S = stepOf(strip(E));
  switch (S.Kind) {
  case TensorStep::Parameter: {
    const auto *P = cast<ParmVarDecl>(S.Var);
    const Expr *Cond = checkedBefore(P, E, [&](const Expr *C) {
      return testsIsContiguous(C, P);
    });
    if (!Cond)
      Cond = statementBefore(P, E, [&](const Stmt *St) {
        return madeContiguous(St, P);
      });
    if (Cond) {
      L.Order = TensorOrder::RowMajor;
      L.Storage = E;
      L.StorageVar = P;
      L.Why = Cond;
      L.Dims = dimsOf(E);
    }
    return L;
  }
  case TensorStep::Local:
    L = layoutOf(S.Init, Depth + 1);
    if (L.Order == TensorOrder::RowMajor && !L.StorageVar) {
      L.Storage = E;
      L.StorageVar = S.Var;
    }
    return L;
  case TensorStep::Method:
    switch (S.Shape) {
    case torch_api::ShapeResult::Same:
      return layoutOf(S.Base, Depth + 1);
    case torch_api::ShapeResult::Contiguous:
      L.Order = TensorOrder::RowMajor;
      L.Storage = S.Call;
      L.Why = S.Call;
      L.Dims = dimsOf(S.Base, Depth + 1);
      return L;
    case torch_api::ShapeResult::Transposed: {
      std::optional<std::pair<int, int>> Swap = swappedDims(S.Call, S.Name);
      TensorLayout Of = layoutOf(S.Base, Depth + 1);
      if (S.Name == "permute" && Swap && !Of.Dims)
        Of.Dims = 2; // permute names every dimension
      if (!Swap || Of.Order != TensorOrder::RowMajor ||
          (Of.Dims && *Of.Dims != 2) ||
          (S.Name != "t" && !(Of.Dims && Swap->first + Swap->second == 1)))
        return L;
      Of.Order = TensorOrder::Transposed;
      Of.View = S.Call;
      return Of;
    }
    case torch_api::ShapeResult::Unknown:
      return L;
    }
    return L;
  case TensorStep::Factory:
    L.Order = TensorOrder::RowMajor;
    L.Storage = S.Made;
    L.Why = S.Made;
    L.Dims = S.Sizes->getNumInits();
    return L;
  case TensorStep::Like:
    return layoutOf(S.Of, Depth + 1);
  case TensorStep::Other:
    return L;
  }
  return L;
}

} // namespace

bool isTensorType(QualType T) {
  const CXXRecordDecl *RD = recordOf(T);
  return isNamed(RD, "Tensor", "at") || isNamed(RD, "TensorBase", "at");
}

bool unitMayHoldTensors(const ASTContext &Ctx) {
  return Ctx.Idents.find("Tensor") != Ctx.Idents.end() ||
         Ctx.Idents.find("TensorBase") != Ctx.Idents.end();
}

TensorFact tensorFact(const Expr *E, const ASTContext &) {
  return Evaluator().tensor(E, 0);
}

const CXXMemberCallExpr *dataPointerCall(const Expr *E) {
  if (!E)
    return nullptr;
  for (int Step = 0; Step < 8; ++Step) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E)) {
      E = Cast->getSubExpr();
      continue;
    }
    break;
  }
  const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
  if (!MC || MC->getNumArgs() != 0 || !MC->getType()->isPointerType())
    return nullptr;
  const CXXMethodDecl *MD = MC->getMethodDecl();
  if (!MD || !MD->getIdentifier() ||
      !torch_api::isDataPointerMethod(MD->getName()))
    return nullptr;
  const Expr *Base = MC->getImplicitObjectArgument();
  return Base && isTensorType(Base->getType()) ? MC : nullptr;
}

std::optional<TensorAllocation> tensorAllocation(const Expr *E) {
  const VarDecl *Var = nullptr;
  for (unsigned Depth = 0; E && Depth < MaxDepth; ++Depth) {
    TensorStep S = stepOf(strip(E));
    switch (S.Kind) {
    case TensorStep::Local:
      if (!Var)
        Var = S.Var;
      E = S.Init;
      continue;
    case TensorStep::Method:
      // .contiguous() of a factory's row-major tensor: the same storage.
      if (S.Name != "contiguous")
        return std::nullopt;
      E = S.Base;
      continue;
    case TensorStep::Factory: {
      TensorAllocation A;
      A.Factory = S.Made;
      A.SizeList = S.Sizes;
      A.Var = Var;
      for (const Expr *Size : S.Sizes->inits())
        A.Sizes.push_back(Size);
      return A;
    }
    case TensorStep::Parameter:
    case TensorStep::Like:
    case TensorStep::Other:
      return std::nullopt;
    }
  }
  return std::nullopt;
}

const CallExpr *torchOwnedHandle(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
    E = strip(E);
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *FD = Call->getDirectCallee();
      if (!FD || !FD->getIdentifier() ||
          !torch_api::isOwnedHandleGetter(FD->getName()))
        return nullptr;
      const auto *NS = dyn_cast<NamespaceDecl>(FD->getDeclContext());
      const auto *Outer =
          NS ? dyn_cast<NamespaceDecl>(NS->getDeclContext()) : nullptr;
      bool InAtCuda = NS && NS->getIdentifier() && NS->getName() == "cuda" &&
                      Outer && Outer->getIdentifier() &&
                      Outer->getName() == "at";
      return InAtCuda ? Call : nullptr;
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    bool Written;
    E = VD ? singleDefinition(VD, Written) : nullptr;
  }
  return nullptr;
}

std::optional<TensorSize> tensorSizeRead(const Expr *E) {
  if (!E)
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  llvm::StringRef Name;
  const Expr *Base;
  if (const CXXMemberCallExpr *MC = tensorMethod(E, Name, Base)) {
    std::optional<int> Dim =
        MC->getNumArgs() == 1 ? smallConstant(MC->getArg(0)) : std::nullopt;
    return Name == "size" && Dim ? sizeOf(Base, *Dim, 0) : std::nullopt;
  }
  // t.sizes()[d]
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
  if (!Op || Op->getOperator() != OO_Subscript || Op->getNumArgs() != 2)
    return std::nullopt;
  const CXXMemberCallExpr *Sizes =
      tensorMethod(strip(Op->getArg(0)), Name, Base);
  std::optional<int> Dim = smallConstant(Op->getArg(1));
  if (!Sizes || Name != "sizes" || Sizes->getNumArgs() != 0 || !Dim)
    return std::nullopt;
  return sizeOf(Base, *Dim, 0);
}

std::optional<TensorSize> tensorSize(const Expr *T, int Dim) {
  return sizeOf(T, Dim, 0);
}

TensorLayout tensorLayout(const Expr *E) { return layoutOf(E, 0); }

const Expr *dataPointerTensor(const CXXMemberCallExpr *Call) {
  return Call ? Call->getImplicitObjectArgument() : nullptr;
}

} // namespace cublas_tidy
