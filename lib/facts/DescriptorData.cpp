//===- DescriptorData.cpp -------------------------------------------------===//

#include "facts/DescriptorData.h"

#include "ast/AstUtils.h"
#include "ast/TranslationUnitCache.h"
#include "model/CublasApi.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace cublas_tidy {

const ValueDecl *descriptorNamed(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_AddrOf)
    E = U->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return dyn_cast<VarDecl>(DRE->getDecl());
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return dyn_cast<FieldDecl>(ME->getMemberDecl());
  return nullptr;
}

namespace {

/// The variables and members whose data a setter of the unit's own code
/// replaces.
class SetDescriptors : public RecursiveASTVisitor<SetDescriptors> {
public:
  explicit SetDescriptors(const SourceManager &SM) : SM(SM) {}

  bool TraverseDecl(Decl *D) {
    // The unit's own code: the system headers (cuSPARSE's, the standard
    // library's) set no descriptor of the user's.
    if (D && !isa<TranslationUnitDecl>(D) &&
        SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }

  bool VisitCallExpr(CallExpr *Call) {
    const FunctionInfo *F = calledCublasFunction(Call);
    if (F && setsDescriptorData(*F) && Call->getNumArgs() > 0)
      if (const ValueDecl *D = descriptorNamed(Call->getArg(0)))
        Set.insert(D);
    return true;
  }

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitLambdaBodies() const { return true; }

  llvm::DenseSet<const ValueDecl *> Set;

private:
  const SourceManager &SM;
};

} // namespace

/// The descriptors each unit's code sets the data of, found once.
static thread_local TranslationUnitCache<const TranslationUnitDecl *,
                                         llvm::DenseSet<const ValueDecl *>>
    SetInUnit;

bool descriptorDataReplaced(const CallExpr *Create, ASTContext &Ctx) {
  const FunctionInfo *F = calledCublasFunction(Create);
  if (!F || !storesDescriptorData(*F))
    return false;
  int Out = F->findParam(ParamRole::ResourceOut);
  if (Out < 0 || static_cast<unsigned>(Out) >= Create->getNumArgs())
    return false;
  const ValueDecl *Descriptor = descriptorNamed(Create->getArg(Out));
  if (!Descriptor)
    return false;
  const TranslationUnitDecl *TU = Ctx.getTranslationUnitDecl();
  const llvm::DenseSet<const ValueDecl *> &Set = *SetInUnit.get(Ctx, TU, [&] {
    SetDescriptors Visitor(Ctx.getSourceManager());
    Visitor.TraverseDecl(const_cast<TranslationUnitDecl *>(TU));
    return std::make_unique<llvm::DenseSet<const ValueDecl *>>(
        std::move(Visitor.Set));
  });
  return Set.contains(Descriptor);
}

} // namespace cublas_tidy
