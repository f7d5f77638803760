//===- MemoryObjects.cpp --------------------------------------------------===//

#include "facts/MemoryObjects.h"

#include "ast/AstUtils.h"
#include "ast/TypeNames.h"

using namespace clang;

namespace cublas_tidy {

const memory_api::Allocator *allocatorOf(const FunctionDecl *FD) {
  if (!isGlobalFunction(FD))
    return nullptr;
  return memory_api::lookupAllocator(FD->getName());
}

const memory_api::Allocator *calledAllocator(const CallExpr *Call) {
  return Call ? allocatorOf(Call->getDirectCallee()) : nullptr;
}

bool isAllocatorOutArgument(const CallExpr *Call, unsigned Arg) {
  const memory_api::Allocator *A = calledAllocator(Call);
  return A && A->writes(Arg);
}

bool sizesOwnBuffer(const FunctionInfo &F) {
  auto Count = [&](ParamRole R) {
    return llvm::count_if(F.params(),
                          [&](const ParamInfo &P) { return P.Role == R; });
  };
  return Count(ParamRole::WorkspaceSizeInOut) == 1 &&
         Count(ParamRole::DeviceWorkspace) == 1;
}

bool asksOwnSize(const CallExpr *C, const FunctionInfo &F) {
  const Expr *Buffer =
      sizesOwnBuffer(F) ? argumentAt(C, F.findParam(ParamRole::DeviceWorkspace))
                        : nullptr;
  const Decl *Callee = C->getCalleeDecl();
  return Buffer && Callee &&
         Buffer->IgnoreParenImpCasts()->isNullPointerConstant(
             Callee->getASTContext(), Expr::NPC_ValueDependentIsNotNull);
}

bool isOutArgument(const CallExpr *Call, unsigned Arg) {
  if (isAllocatorOutArgument(Call, Arg))
    return true;
  const FunctionInfo *F = calledCublasFunction(Call);
  if (!F || Arg >= F->NumParams)
    return false;
  ParamRole R = F->params()[Arg].Role;
  return R == ParamRole::WorkspaceSizeOut ||
         R == ParamRole::WorkspaceElementsOut ||
         R == ParamRole::HostWorkspaceSizeOut ||
         (R == ParamRole::WorkspaceSizeInOut && asksOwnSize(Call, *F));
}

bool isReadThroughArgument(const CallExpr *Call, unsigned Arg) {
  const FunctionInfo *F = calledCublasFunction(Call);
  return F && Arg < F->NumParams &&
         F->params()[Arg].Role == ParamRole::WorkspaceSizeInOut &&
         sizesOwnBuffer(*F) && !asksOwnSize(Call, *F);
}

std::optional<ContainerType> containerType(QualType T, bool ThroughPointer) {
  std::string Name;
  const ClassTemplateSpecializationDecl *Spec =
      specialization(T, ThroughPointer, Name);
  const memory_api::Container *Row =
      Spec ? memory_api::lookupContainer(Name) : nullptr;
  if (!Row)
    return std::nullopt;
  ContainerType C;
  C.Row = Row;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (Args.size() >= 1 && Args[0].getKind() == TemplateArgument::Type)
    C.Element = Args[0].getAsType();
  if (Row->Where == memory_api::Storage::Heap &&
      (Row->AllocatorArg < 0 ||
       templateArgIs(Spec, unsigned(Row->AllocatorArg), Row->SpaceAllocator)))
    C.Space = Row->Space;
  return C;
}

bool isSizedContainer(QualType T, QualType *Elem) {
  if (T.isNull())
    return false;
  std::optional<ContainerType> C =
      containerType(T.getNonReferenceType().getCanonicalType());
  if (!C || !C->Row->Sized || C->Element.isNull())
    return false;
  if (Elem)
    *Elem = C->Element;
  return true;
}

const memory_api::ContainerMethod *containerMethodOf(const CXXMethodDecl *MD) {
  if (!MD || !MD->getIdentifier())
    return nullptr;
  return memory_api::containerMethod(MD->getName());
}

const memory_api::ContainerMethod *
calledContainerMethod(const CXXMemberCallExpr *Call) {
  return Call ? containerMethodOf(Call->getMethodDecl()) : nullptr;
}

bool callsContainerMethod(const CXXMemberCallExpr *Call,
                          memory_api::MethodKind Kind) {
  const memory_api::ContainerMethod *M = calledContainerMethod(Call);
  return M && M->Kind == Kind;
}

} // namespace cublas_tidy
