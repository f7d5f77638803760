//===- OperandTypes.cpp - The element types a call's pointers hold --------===//

#include "facts/OperandTypes.h"

#include "facts/LibraryModel.h"
#include "model/ComputeTypes.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

namespace cublas_tidy {

namespace {

using namespace clang;

/// `void *`, `const void *const *`, ...: a pointer whose innermost pointee
/// is void.
bool isVoidPointerChain(QualType T) {
  bool Pointer = false;
  while (const auto *PT = T->getAs<PointerType>()) {
    T = PT->getPointeeType();
    Pointer = true;
  }
  return Pointer && T->isVoidType();
}

/// A pointer to untyped memory: `void *`, or bytes (`char *`, `unsigned
/// char *`, `std::byte *`), as code holds memory of any type.
bool isUntypedPointer(QualType T) {
  if (isVoidPointerChain(T))
    return true;
  const auto *PT = T->getAs<PointerType>();
  if (!PT)
    return false;
  QualType P = PT->getPointeeType().getCanonicalType();
  if (P->isCharType())
    return true;
  const auto *ET = P->getAs<EnumType>();
  const auto *ED = ET ? ET->getDecl() : nullptr;
  return ED && ED->getIdentifier() && ED->getName() == "byte" &&
         ED->isInStdNamespace();
}

/// Whether the pointer `E` is a typed view of untyped memory that no
/// library model describes: a cast of a `void *` or a byte pointer, an
/// offset from one, or a local initialised with one (`T *d_C = d_B + k * n`
/// with `T *d_B = (T *)buffer + ...`). The type the cast names is how the
/// code reads the bytes at that point, not what they were made to hold: a
/// scratch buffer sized for floats is read through a `__half *` as often
/// as not. Its type is unknown.
bool viewOfUntypedMemory(const Expr *E, const ASTContext &Ctx,
                         unsigned Depth = 0) {
  if (!E || Depth > 8)
    return false;
  E = E->IgnoreParenImpCasts();
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E)) {
    const Expr *From = Cast->getSubExpr()->IgnoreParenImpCasts();
    if (isUntypedPointer(From->getType())) {
      for (const LibraryModel *M : libraryModels())
        if (M->heldType(From, Ctx))
          return false; // `(__half *)t.data_ptr()`: the library says
      return true;
    }
    return viewOfUntypedMemory(From, Ctx, Depth + 1);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isAdditiveOp())
    return viewOfUntypedMemory(BO->getLHS()->getType()->isPointerType()
                                   ? BO->getLHS()
                                   : BO->getRHS(),
                               Ctx, Depth + 1);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) && VD->getInit())
      return viewOfUntypedMemory(VD->getInit(), Ctx, Depth + 1);
  return false;
}

/// The name the model's type table knows a canonical type by.
std::string modelName(QualType T, const ASTContext &Ctx) {
  T = T.getCanonicalType().getUnqualifiedType();
  if (const auto *B = T->getAs<BuiltinType>())
    return B->getName(Ctx.getPrintingPolicy()).str();
  const auto *RD = T->getAsCXXRecordDecl();
  const RecordDecl *R = RD ? RD : T->getAsRecordDecl();
  if (!R || !R->getIdentifier())
    return {};
  std::string Name = R->getQualifiedNameAsString();
  // Inline namespaces of standard libraries (std::__1::complex).
  for (llvm::StringRef Inline : {"::__1", "::__cxx11"})
    for (size_t At; (At = Name.find(Inline.str())) != std::string::npos;)
      Name.erase(At, Inline.size());
  if (const auto *Spec =
          dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD)) {
    const TemplateArgumentList &Args = Spec->getTemplateArgs();
    if (Args.size() != 1 || Args[0].getKind() != TemplateArgument::Type)
      return {};
    std::string Arg = modelName(Args[0].getAsType(), Ctx);
    if (Arg.empty())
      return {};
    Name += "<" + Arg + ">";
  }
  return Name;
}

} // namespace

std::optional<HeldType> heldType(const Expr *Arg, unsigned Levels,
                                 const ASTContext &Ctx) {
  if (!Arg)
    return std::nullopt;
  const Expr *E = Arg->IgnoreParenImpCasts();
  // `(void *)d_A`, `reinterpret_cast<const void *>(d_A)`: still d_A's data.
  while (const auto *Cast = dyn_cast<ExplicitCastExpr>(E)) {
    if (!isVoidPointerChain(Cast->getType()))
      break;
    E = Cast->getSubExpr()->IgnoreParenImpCasts();
  }
  QualType T = E->getType();
  if (T.isNull() || T->isDependentType() || E->isTypeDependent())
    return std::nullopt;
  if (Levels == 1 && !isVoidPointerChain(T) && viewOfUntypedMemory(E, Ctx))
    return std::nullopt;
  // `t.data_ptr()` (void *): what a library model knows it holds.
  if (Levels == 1 && isVoidPointerChain(T))
    for (const LibraryModel *M : libraryModels())
      if (std::optional<HeldType> H = M->heldType(E, Ctx))
        return H;
  for (unsigned L = 0; L < Levels; ++L) {
    if (const auto *PT = T->getAs<PointerType>())
      T = PT->getPointeeType();
    else if (const ArrayType *AT = Ctx.getAsArrayType(T))
      T = AT->getElementType();
    else
      return std::nullopt;
  }
  if (T->isDependentType() || T->isIncompleteType() || T->isVoidType())
    return std::nullopt;
  const DataTypeInfo *Type = dataTypeOfTypeName(modelName(T, Ctx));
  if (!Type)
    return std::nullopt;
  HeldType H;
  H.Type = Type;
  H.Spelled = T.getUnqualifiedType().getAsString(Ctx.getPrintingPolicy());
  H.Bytes = static_cast<unsigned>(Ctx.getTypeSizeInChars(T).getQuantity());
  return H;
}

std::vector<TypedPointer> typedPointers(const FunctionInfo &F) {
  std::vector<TypedPointer> Out;
  llvm::ArrayRef<ParamInfo> Params = F.params();
  for (size_t T = 0; T < Params.size(); ++T) {
    if (Params[T].Role != ParamRole::DataType || Params[T].Op == Operand::None)
      continue;
    for (size_t P = 0; P < Params.size(); ++P) {
      if (Params[P].Op != Params[T].Op)
        continue;
      switch (Params[P].Role) {
      case ParamRole::DeviceMatrix:
      case ParamRole::DeviceVector:
      case ParamRole::Scalar:
      case ParamRole::ScalarResult:
        Out.push_back({int(P), int(T), Params[P].Op, 1});
        break;
      case ParamRole::DevicePointerArray:
        Out.push_back({int(P), int(T), Params[P].Op, 2});
        break;
      default:
        break;
      }
    }
  }
  return Out;
}

std::vector<int> untypedScalars(const FunctionInfo &F) {
  std::vector<int> Out;
  llvm::ArrayRef<ParamInfo> Params = F.params();
  for (size_t P = 0; P < Params.size(); ++P) {
    if (Params[P].Role != ParamRole::Scalar ||
        (Params[P].Op != Operand::Alpha && Params[P].Op != Operand::Beta))
      continue;
    if (F.findParam(ParamRole::DataType, Params[P].Op) < 0)
      Out.push_back(int(P));
  }
  return Out;
}

} // namespace cublas_tidy
