//===- ThrustModel.cpp ----------------------------------------------------===//

#include "facts/libraries/ThrustModel.h"

#include "facts/Allocations.h"
#include "facts/MemoryObjects.h"
#include "facts/PointerProvenance.h"

#include "ast/AstUtils.h"
#include "ast/TypeNames.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace cublas_tidy {

namespace {

constexpr unsigned MaxSteps = 16;

bool isDevicePtr(QualType T) {
  std::string Name;
  return specialization(T, false, Name) && Name == "thrust::device_ptr";
}

/// The device_ptr (or raw pointer) a conversion to a raw pointer takes:
/// the argument of `thrust::raw_pointer_cast(p)`, the object of `p.get()`.
const Expr *convertedPointer(const Expr *E) {
  const auto *Call = dyn_cast_or_null<CallExpr>(E);
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier())
    return nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens());
    if (FD->getName() == "get" && MC->getNumArgs() == 0 && ME &&
        !ME->isArrow() &&
        isDevicePtr(ME->getBase()->IgnoreParenImpCasts()->getType()))
      return ME->getBase();
    return nullptr;
  }
  if (FD->getName() == "raw_pointer_cast" && Call->getNumArgs() == 1 &&
      qualifiedName(FD) == "thrust::raw_pointer_cast")
    return Call->getArg(0);
  return nullptr;
}

/// `&dv[i]`: device_reference's operator& on a vector's operator[]; the
/// subscript call, or null.
const CXXOperatorCallExpr *referenceAddress(const Expr *E) {
  const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(E);
  if (!Op || Op->getOperator() != OO_Amp || Op->getNumArgs() != 1)
    return nullptr;
  const Expr *Ref = Op->getArg(0)->IgnoreParenImpCasts();
  if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(Ref))
    Ref = MTE->getSubExpr()->IgnoreParenImpCasts();
  const auto *Sub = dyn_cast<CXXOperatorCallExpr>(Ref);
  return Sub && Sub->getOperator() == OO_Subscript && Sub->getNumArgs() == 2
             ? Sub
             : nullptr;
}

/// What the device_ptr (or raw pointer) `E` points to.
PointerFact devicePointer(const Expr *E, const PointerQuery &Q,
                          unsigned Steps) {
  if (!E || Steps > MaxSteps || E->isTypeDependent() || E->isValueDependent())
    return PointerFact();
  E = ignoreCopies(E); // copies of the device_ptr
  if (E->getType()->isPointerType())
    return Q.pointee(E);
  if (!isDevicePtr(E->getType()))
    return PointerFact();
  // dv.data()
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    if (callsContainerMethod(MC, memory_api::MethodKind::StoragePointer))
      if (const auto *ME =
              dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens()))
        return Q.storage(E, ME->getBase(), ME->isArrow());
    return PointerFact();
  }
  // &dv[i]
  if (const CXXOperatorCallExpr *Sub = referenceAddress(E))
    return Q.storage(E, Sub->getArg(0), false);
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
    // dv.data() + k
    if ((Op->getOperator() == OO_Plus || Op->getOperator() == OO_Minus) &&
        Op->getNumArgs() == 2)
      return devicePointer(Op->getArg(0), Q, Steps + 1);
    return PointerFact();
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (FD && qualifiedName(FD) == "thrust::device_malloc") {
      PointerFact F;
      F.Kind = MemoryKind::Device;
      F.Origin.Kind = OriginKind::Allocation;
      F.Origin.Where = Call;
      F.Origin.Name = "thrust::device_malloc";
      return F;
    }
  }
  return PointerFact();
}

class ThrustModel : public LibraryModel {
public:
  llvm::StringRef name() const override { return "thrust"; }

  std::optional<PointerFact> pointee(const Expr *E,
                                     const PointerQuery &Q) const override {
    if (const Expr *P = convertedPointer(E))
      return devicePointer(P, Q, 0);
    return std::nullopt;
  }

  std::optional<Extent> extent(const Expr *E,
                               const ExtentQuery &Q) const override {
    // raw_pointer_cast(p), p.get(): the buffer p points into.
    if (const Expr *P = convertedPointer(E))
      return Q.extent(P);
    // &dv[i]
    if (const CXXOperatorCallExpr *Sub = referenceAddress(E))
      return Q.element(Sub->getArg(0), Sub->getArg(1));
    return std::nullopt;
  }
};

} // namespace

const LibraryModel &thrustModel() {
  static const ThrustModel Model;
  return Model;
}

} // namespace cublas_tidy
