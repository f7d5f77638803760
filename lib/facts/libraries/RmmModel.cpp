//===- RmmModel.cpp -------------------------------------------------------===//

#include "facts/libraries/RmmModel.h"

#include "facts/Allocations.h"
#include "facts/PointerProvenance.h"
#include "facts/ValueFacts.h"

#include "ast/Callables.h"
#include "ast/LocalUses.h"
#include "ast/TypeNames.h"
#include "model/RmmApi.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace cublas_tidy {

namespace {

/// An RMM buffer object: its class, the element type (null for
/// device_buffer's bytes), and the variable when the object is one.
struct Buffer {
  const rmm_api::BufferClass *Class = nullptr;
  QualType Element;
  const VarDecl *Var = nullptr;
};

/// The buffer `Object` is (an object expression; through a pointer when
/// `Arrow`).
std::optional<Buffer> bufferOf(const Expr *Object, bool Arrow) {
  if (!Object)
    return std::nullopt;
  QualType T = Object->getType().getNonReferenceType();
  if (Arrow) {
    if (!T->isPointerType())
      return std::nullopt;
    T = T->getPointeeType();
  }
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  const rmm_api::BufferClass *Class =
      RD ? rmm_api::lookupBuffer(qualifiedName(RD)) : nullptr;
  if (!Class)
    return std::nullopt;
  Buffer B;
  B.Class = Class;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD)) {
    const TemplateArgumentList &Args = Spec->getTemplateArgs();
    if (Args.size() >= 1 && Args[0].getKind() == TemplateArgument::Type)
      B.Element = Args[0].getAsType();
  }
  if (Class->Size != rmm_api::Counts::Bytes && B.Element.isNull())
    return std::nullopt;
  if (!Arrow)
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Object->IgnoreParenImpCasts()))
      if (!DRE->refersToEnclosingVariableOrCapture())
        B.Var = dyn_cast<VarDecl>(DRE->getDecl());
  return B;
}

/// A call of a method that gives a pointer into a buffer's storage.
struct PointerCall {
  Buffer Of;
  rmm_api::PointerMethod Method = rmm_api::PointerMethod::None;
  const CXXMemberCallExpr *Call = nullptr;
};

std::optional<PointerCall> pointerCall(const Expr *E) {
  const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(E);
  const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
  if (!MD || !MD->getIdentifier() || !MC->getType()->isPointerType())
    return std::nullopt;
  rmm_api::PointerMethod Method = rmm_api::pointerMethod(MD->getName());
  if (Method == rmm_api::PointerMethod::None ||
      (Method == rmm_api::PointerMethod::Element && MC->getNumArgs() != 1))
    return std::nullopt;
  const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens());
  if (!ME)
    return std::nullopt;
  std::optional<Buffer> B = bufferOf(ME->getBase(), ME->isArrow());
  if (!B)
    return std::nullopt;
  return PointerCall{*B, Method, MC};
}

/// The constructor call of a local buffer.
const CXXConstructExpr *construction(const VarDecl *Var) {
  if (!Var || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var) ||
      Var->getType()->isReferenceType() || !Var->getInit())
    return nullptr;
  return dyn_cast<CXXConstructExpr>(Var->getInit()->IgnoreImplicit());
}

/// True when every use of the local `Var` in its function is a call of a
/// method that keeps its storage (no resize, move, release, swap, copy into
/// a reference that could change it, capture).
bool keepsStorage(const VarDecl *Var) {
  const auto *Callable = dyn_cast<Decl>(Var->getDeclContext());
  return everyLocalUse(Callable, Var, [](const LocalUseInfo &U) {
    const auto *ME = U.Use == LocalUse::Member
                         ? dyn_cast_or_null<MemberExpr>(U.Context)
                         : nullptr;
    const auto *MD =
        ME ? dyn_cast<CXXMethodDecl>(ME->getMemberDecl()) : nullptr;
    return MD && MD->getIdentifier() && rmm_api::keepsStorage(MD->getName());
  });
}

/// A buffer's memory resource is the current device resource: the
/// constructor's resource argument is left to its default.
bool defaultResource(const Buffer &B) {
  const CXXConstructExpr *CE = construction(B.Var);
  if (!CE)
    return true; // not a local made here: RMM's buffers are device memory
  for (unsigned I = 0, N = CE->getNumArgs(); I < N; ++I) {
    const Expr *Arg = CE->getArg(I);
    // A resource_ref, or a pointer to a memory resource.
    QualType T = Arg->getType().getNonReferenceType();
    if (T->isPointerType())
      T = T->getPointeeType();
    const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
    bool Resource =
        RD && llvm::StringRef(qualifiedName(RD)).contains("resource");
    if (Resource && !isa<CXXDefaultArgExpr>(Arg))
      return false;
  }
  return true;
}

/// The size of a local buffer made with it, as the class counts it
/// (elements or bytes), when its storage never changes after.
std::optional<SymExpr> constructedSize(const Buffer &B,
                                       IntegerEvaluator Evaluate) {
  if (B.Class->Size == rmm_api::Counts::One)
    return B.Var && construction(B.Var) ? std::optional(SymExpr::constant(1))
                                        : std::nullopt;
  const CXXConstructExpr *CE = construction(B.Var);
  if (!CE || B.Class->SizeArg < 0 ||
      unsigned(B.Class->SizeArg) >= CE->getNumArgs() ||
      (CE->getConstructor() &&
       CE->getConstructor()->isCopyOrMoveConstructor()))
    return std::nullopt;
  const Expr *Size = CE->getArg(B.Class->SizeArg);
  if (!Size->getType()->isIntegralOrEnumerationType() ||
      isa<CXXDefaultArgExpr>(Size) || !keepsStorage(B.Var))
    return std::nullopt;
  return Evaluate(Size);
}

class RmmModel : public LibraryModel {
public:
  llvm::StringRef name() const override { return "RMM"; }

  std::optional<PointerFact> pointee(const Expr *E,
                                     const PointerQuery &) const override {
    std::optional<PointerCall> P = pointerCall(E);
    if (!P)
      return std::nullopt;
    PointerFact F;
    if (!defaultResource(P->Of))
      return F; // a resource of its own: managed or host memory, maybe
    F.Kind = MemoryKind::Device;
    F.Origin.Kind = OriginKind::Container;
    F.Origin.Where = P->Call;
    F.Origin.Object = P->Of.Var;
    F.Origin.Name = P->Of.Class->Name;
    return F;
  }

  std::optional<Extent> extent(const Expr *E,
                               const ExtentQuery &Q) const override {
    const ValueFacts &Facts = Q.facts();
    std::optional<PointerCall> P = pointerCall(E);
    if (!P)
      return std::nullopt;
    auto Evaluate = [&](const Expr *Sub) { return Facts.evaluate(Sub); };
    std::optional<int64_t> Size =
        P->Of.Element.isNull()
            ? std::optional<int64_t>(1)
            : sizeInBytes(P->Of.Element, Facts.context());
    std::optional<Extent> Made =
        Extent::ofElements(constructedSize(P->Of, Evaluate), Size);
    if (!Made)
      return std::nullopt;
    Extent X = *Made;
    X.Origin = construction(P->Of.Var);
    X.OriginVar = P->Of.Var;
    X.Allocator = P->Of.Class->Name;
    X.ElementType = P->Of.Element;
    if (P->Of.Class->SizeArg >= 0)
      X.SizeExpr = construction(P->Of.Var)->getArg(P->Of.Class->SizeArg);
    if (P->Method == rmm_api::PointerMethod::Element) {
      std::optional<SymExpr> Index = Facts.evaluate(P->Call->getArg(0));
      std::optional<SymExpr> Offset =
          Index ? Index->mul(SymExpr::constant(*Size)) : std::nullopt;
      if (!Offset)
        return std::nullopt;
      X.OffsetBytes = *Offset;
    }
    return X;
  }

  /// v.size() of a local buffer: the size it was made with.
  std::optional<SymExpr> integer(const Expr *E,
                                 IntegerEvaluator Evaluate) const override {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
    const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
    if (!MD || !MD->getIdentifier() || !rmm_api::givesSize(MD->getName()) ||
        MC->getNumArgs() != 0)
      return std::nullopt;
    const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens());
    std::optional<Buffer> B =
        ME ? bufferOf(ME->getBase(), ME->isArrow()) : std::nullopt;
    if (!B || B->Class->Size == rmm_api::Counts::One)
      return std::nullopt;
    return constructedSize(*B, Evaluate);
  }
};

} // namespace

const LibraryModel &rmmModel() {
  static const RmmModel Model;
  return Model;
}

} // namespace cublas_tidy
