//===- TorchExprs.cpp -----------------------------------------------------===//

#include "facts/libraries/torch/TorchExprs.h"

#include "ast/AstUtils.h"
#include "ast/LocalUses.h"

#include "clang/AST/DeclCXX.h"

using namespace clang;

namespace cublas_tidy {

namespace torch_facts {

namespace {

/// The record a type names (references and cv-qualifiers aside).
const CXXRecordDecl *recordOf(QualType T) {
  if (T.isNull())
    return nullptr;
  T = T.getNonReferenceType();
  if (const auto *RD = T->getAsCXXRecordDecl())
    return RD;
  return nullptr;
}

bool isRecord(QualType T, llvm::StringRef Name, llvm::StringRef Namespace) {
  return isNamed(recordOf(T), Name, Namespace);
}

const EnumDecl *enumOf(QualType T) {
  if (T.isNull())
    return nullptr;
  if (const auto *ET = T.getNonReferenceType()->getAs<EnumType>())
    return ET->getDecl();
  return nullptr;
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

} // namespace

bool isNamed(const NamedDecl *D, llvm::StringRef Name,
             llvm::StringRef Namespace) {
  if (!D || !D->getIdentifier() || D->getName() != Name)
    return false;
  const auto *NS = dyn_cast<NamespaceDecl>(D->getDeclContext());
  return NS && NS->getIdentifier() && NS->getName() == Namespace &&
         isa<TranslationUnitDecl>(NS->getDeclContext());
}

bool isOptionsType(QualType T) {
  return isRecord(T, "TensorOptions", "c10");
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

} // namespace torch_facts

bool isTensorType(QualType T) {
  const CXXRecordDecl *RD = torch_facts::recordOf(T);
  return torch_facts::isNamed(RD, "Tensor", "at") ||
         torch_facts::isNamed(RD, "TensorBase", "at");
}

bool unitMayHoldTensors(const ASTContext &Ctx) {
  return Ctx.Idents.find("Tensor") != Ctx.Idents.end() ||
         Ctx.Idents.find("TensorBase") != Ctx.Idents.end();
}

} // namespace cublas_tidy
