//===- HandleNames.cpp ----------------------------------------------------===//

#include "facts/HandleNames.h"

#include "ast/AstUtils.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace cublas_tidy {

namespace {

/// How many local copies a name is followed through.
constexpr unsigned MaxAliasDepth = 4;

std::optional<HandleName> nameOf(const Expr *E, const Decl *Callable,
                                 UnchangedVariables &Unchanged,
                                 unsigned Depth);

/// The one object a call returns every time: a function of the user's,
/// without parameters, whose body ends by returning a static or global
/// variable, or its address (`static Ctx &instance() { static Ctx c;
/// return c; }`); null for anything else.
const VarDecl *singletonOf(const Expr *E) {
  const auto *Call = dyn_cast_or_null<CallExpr>(E);
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  const FunctionDecl *Def = nullptr;
  if (!FD || FD->getNumParams() != 0 || !FD->hasBody(Def) || !Def)
    return nullptr;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  const auto *Ret = Body && !Body->body_empty()
                        ? dyn_cast<ReturnStmt>(Body->body_back())
                        : nullptr;
  const Expr *Value = Ret && Ret->getRetValue()
                          ? Ret->getRetValue()->IgnoreParenImpCasts()
                          : nullptr;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(Value);
      U && U->getOpcode() == UO_AddrOf)
    Value = U->getSubExpr()->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(Value);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return VD && VD->hasGlobalStorage() && !VD->getType()->isReferenceType() &&
                 !VD->getType()->isPointerType()
             ? VD
             : nullptr;
}

/// `getHandle()`, `ctx.handle()`: a function of the user's returning a
/// handle. Asked of the object a singleton's accessor returns
/// (`Ctx::instance().handle()`), it names that object.
std::optional<HandleName> accessorName(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || calledCublasFunction(Call) ||
      !isCublasHandleType(FD->getReturnType().getNonReferenceType()))
    return std::nullopt;
  HandleName H;
  H.Getter = FD->getCanonicalDecl();
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    const Expr *Object = MC->getImplicitObjectArgument();
    Object = Object ? Object->IgnoreParenImpCasts() : nullptr;
    if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(Object))
      H.Base = DRE->getDecl();
    else if (const VarDecl *Single = singletonOf(Object))
      H.Base = Single;
    else if (!isa_and_nonnull<CXXThisExpr>(Object))
      return std::nullopt;
  }
  return H;
}

/// A variable, or the handle a local copy that nothing changes holds.
std::optional<HandleName> variableName(const DeclRefExpr *DRE,
                                       const Decl *Callable,
                                       UnchangedVariables &Unchanged,
                                       unsigned Depth) {
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (!VD || VD->isInvalidDecl())
    return std::nullopt;
  HandleName H;
  H.Base = VD;
  if (VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) &&
      !DRE->refersToEnclosingVariableOrCapture() && VD->getInit() &&
      Unchanged.stable(VD))
    if (std::optional<HandleName> Alias =
            nameOf(VD->getInit(), Callable, Unchanged, Depth + 1))
      return Alias;
  return H;
}

/// A member of `this` or of a variable.
std::optional<HandleName> memberName(const MemberExpr *ME) {
  const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!Field)
    return std::nullopt;
  const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
  HandleName H;
  H.Member = Field;
  if (isa<CXXThisExpr>(Base))
    return H;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Base))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
      H.Base = VD;
      return H;
    }
  return std::nullopt;
}

/// The array or container `handles[i]` subscripts (a raw array, a pointer,
/// a class's `operator[]` or `at(i)`), when it is a variable or a member.
const Expr *subscripted(const Expr *E) {
  const Expr *Object = subscriptedObject(E);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
      !Object && MC && MC->getNumArgs() == 1 && MC->getMethodDecl() &&
      MC->getMethodDecl()->getIdentifier() &&
      MC->getMethodDecl()->getName() == "at")
    Object = MC->getImplicitObjectArgument()->IgnoreParenImpCasts();
  return isa_and_nonnull<DeclRefExpr, MemberExpr>(Object) ? Object : nullptr;
}

std::optional<HandleName> nameOf(const Expr *E, const Decl *Callable,
                                 UnchangedVariables &Unchanged,
                                 unsigned Depth) {
  if (!E || Depth > MaxAliasDepth)
    return std::nullopt;
  if (std::optional<LibraryHandle> L = libraryOwnedHandle(E)) {
    HandleName H;
    H.Getter = L->Getter->getDirectCallee();
    H.Library = L->Library;
    return H;
  }
  E = E->IgnoreParenImpCasts();
  if (const Expr *Array = subscripted(E)) {
    std::optional<HandleName> H;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Array)) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
          VD && !VD->isInvalidDecl()) {
        H.emplace();
        H->Base = VD;
      }
    } else {
      H = memberName(cast<MemberExpr>(Array));
    }
    if (H)
      H->Element = true;
    return H;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return accessorName(Call);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return variableName(DRE, Callable, Unchanged, Depth);
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return memberName(ME);
  return std::nullopt;
}

} // namespace

const Expr *subscriptedObject(const Expr *E) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  const Expr *Object = nullptr;
  if (const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(E))
    Object = AS->getBase();
  else if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(E);
           OC && OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2)
    Object = OC->getArg(0);
  return Object ? Object->IgnoreParenImpCasts() : nullptr;
}

std::optional<LibraryHandle> libraryOwnedHandle(const Expr *E) {
  if (!E)
    return std::nullopt;
  for (const LibraryModel *Model : libraryModels())
    if (const CallExpr *Getter = Model->ownedHandle(E))
      return LibraryHandle{Getter, Model};
  return std::nullopt;
}

std::optional<HandleName> handleNamed(const Expr *E, const Decl *Callable,
                                      UnchangedVariables &Unchanged) {
  return nameOf(E, Callable, Unchanged, 0);
}

std::optional<HandleName> handleNamed(const Expr *E, const Decl *Callable) {
  UnchangedVariables Unchanged(Callable);
  return nameOf(E, Callable, Unchanged, 0);
}

} // namespace cublas_tidy
