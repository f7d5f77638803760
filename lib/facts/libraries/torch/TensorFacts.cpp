//===- TensorFacts.cpp ----------------------------------------------------===//

#include "facts/libraries/torch/TensorFacts.h"

#include "facts/libraries/torch/TensorChecks.h"
#include "facts/libraries/torch/TorchExprs.h"

#include "model/TorchApi.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace cublas_tidy {

namespace torch_facts {

namespace {

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

} // namespace

} // namespace torch_facts

TensorFact tensorFact(const Expr *E, const ASTContext &) {
  return torch_facts::Evaluator().tensor(E, 0);
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

const CallExpr *torchOwnedHandle(const Expr *E) {
  using namespace torch_facts;
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

const Expr *dataPointerTensor(const CXXMemberCallExpr *Call) {
  return Call ? Call->getImplicitObjectArgument() : nullptr;
}

} // namespace cublas_tidy
