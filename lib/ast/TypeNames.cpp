//===- TypeNames.cpp ------------------------------------------------------===//

#include "ast/TypeNames.h"

using namespace clang;

namespace cublas_tidy {

std::string qualifiedName(const NamedDecl *D) {
  if (!D || !D->getIdentifier())
    return {};
  std::string Name = D->getName().str();
  // Bounded: namespaces nest a handful of levels.
  int Depth = 0;
  for (const DeclContext *DC = D->getDeclContext(); DC && Depth < 32;
       DC = DC->getParent(), ++Depth) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC)) {
      if (NS->isInline())
        continue;
      if (NS->isAnonymousNamespace())
        return {};
      Name = NS->getName().str() + "::" + Name;
      continue;
    }
    if (isa<LinkageSpecDecl>(DC))
      continue;
    if (isa<TranslationUnitDecl>(DC))
      break;
    if (const auto *RD = dyn_cast<NamedDecl>(DC)) {
      if (!RD->getIdentifier())
        return {};
      Name = RD->getName().str() + "::" + Name;
      continue;
    }
    return {};
  }
  return Name;
}

bool isGlobalFunction(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier())
    return false;
  const DeclContext *DC = FD->getDeclContext()->getRedeclContext();
  if (DC->isTranslationUnit())
    return true;
  // std::malloc and friends.
  if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
    return NS->getName() == "std" &&
           NS->getDeclContext()->getRedeclContext()->isTranslationUnit();
  return false;
}

const ClassTemplateSpecializationDecl *
specialization(QualType T, bool ThroughPointer, std::string &Name) {
  if (T.isNull())
    return nullptr;
  T = T.getNonReferenceType();
  if (ThroughPointer && T->isPointerType())
    T = T->getPointeeType();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T->getAsCXXRecordDecl());
  if (!Spec)
    return nullptr;
  Name = qualifiedName(Spec);
  return Spec;
}

bool templateArgIs(const ClassTemplateSpecializationDecl *Spec, unsigned Index,
                   llvm::StringRef Expected) {
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (Index >= Args.size() || Args[Index].getKind() != TemplateArgument::Type)
    return false;
  std::string Name;
  return specialization(Args[Index].getAsType(), false, Name) &&
         Name == Expected;
}

std::optional<int64_t> sizeInBytes(QualType T, const ASTContext &Ctx) {
  if (T.isNull() || T->isDependentType() || T->isIncompleteType())
    return std::nullopt;
  if (T->isVoidType())
    return 1; // GNU arithmetic on void *
  std::optional<CharUnits> Size = Ctx.getTypeSizeInCharsIfKnown(T);
  if (!Size || Size->isZero())
    return std::nullopt;
  return Size->getQuantity();
}

} // namespace cublas_tidy
