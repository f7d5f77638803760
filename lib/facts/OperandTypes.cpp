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
