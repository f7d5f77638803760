//===- CallFailures.cpp ---------------------------------------------------===//

#include "facts/CallFailures.h"

#include "ast/AstUtils.h"
#include "model/CublasApi.h"

#include <optional>

using namespace clang;

namespace cublas_tidy {

namespace {

/// The value of the integer constant `E`, or nullopt.
std::optional<int64_t> constantOf(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx) || !R.Val.isInt() ||
      R.Val.getInt().getSignificantBits() > 64)
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

/// Whether `E` is the address of an object: `&value` (through casts) or an
/// array that decays to a pointer. Never null.
bool isObjectAddress(const Expr *E) {
  E = E->IgnoreParenCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return U->getOpcode() == UO_AddrOf;
  return E->getType()->isArrayType();
}

/// Whether `Call` asks a library's version, `cublasGetProperty(MAJOR_VERSION,
/// &v)` (cuBLAS, cuBLASLt, cuSOLVER, cuSPARSE): the query fails only for a
/// type that is not a libraryPropertyType or a null output.
bool asksVersion(const CallExpr *Call, const ASTContext &Ctx) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier() || !FD->getName().ends_with("GetProperty") ||
      FD->getNumParams() != 2 || Call->getNumArgs() != 2)
    return false;
  const auto *Enum =
      FD->getParamDecl(0)->getType().getCanonicalType()->getAs<EnumType>();
  if (!Enum || !Enum->getDecl()->getIdentifier() ||
      Enum->getDecl()->getName() != "libraryPropertyType_t")
    return false;
  std::optional<int64_t> Type = constantOf(Call->getArg(0), Ctx);
  bool Listed = Type && llvm::any_of(Enum->getDecl()->enumerators(),
                                     [&](const EnumConstantDecl *E) {
                                       return E->getInitVal() == *Type;
                                     });
  return Listed && isObjectAddress(Call->getArg(1));
}

} // namespace

bool cannotFailAsWritten(const CallExpr *Call, const ASTContext &Ctx) {
  if (asksVersion(Call, Ctx))
    return true;
  const FunctionInfo *F = calledCublasFunction(Call);
  if (!F || !F->ReturnsStatus)
    return false;
  if (F->OnlySuccess && F->Destroys != ResourceKind::None)
    return true;
  int Attr = F->findParamNamed("attr");
  int Buf = F->findParamNamed("buf");
  int Size = F->findParamNamed("sizeInBytes");
  if (Attr < 0 || Buf < 0 || Size < 0 ||
      static_cast<int>(Call->getNumArgs()) <= std::max({Attr, Buf, Size}))
    return false;
  std::optional<int64_t> Id = constantOf(Call->getArg(Attr), Ctx);
  std::optional<int64_t> Bytes = constantOf(Call->getArg(Size), Ctx);
  if (!Id || !Bytes)
    return false;
  std::optional<unsigned> Storage = ltAttributeBytes(F->Name, *Id);
  return Storage && static_cast<int64_t>(*Storage) == *Bytes &&
         isObjectAddress(Call->getArg(Buf));
}

} // namespace cublas_tidy
