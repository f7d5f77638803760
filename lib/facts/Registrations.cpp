//===- Registrations.cpp --------------------------------------------------===//

#include "facts/Registrations.h"

#include "ast/AstUtils.h"
#include "ast/Callables.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cublas_tidy {

namespace {

/// The class of an object whose `def`, `impl` or `op` registers a function
/// with Python or PyTorch's dispatcher.
bool isRegistry(const clang::CXXRecordDecl *RD) {
  if (!RD || !RD->getIdentifier())
    return false;
  const auto *NS = llvm::dyn_cast<clang::NamespaceDecl>(RD->getDeclContext());
  if (!NS || !NS->getIdentifier())
    return false;
  llvm::StringRef Name = RD->getName(), Space = NS->getName();
  if (Space == "pybind11")
    return Name == "module_" || Name == "module" || Name == "class_";
  if (Space == "torch")
    return Name == "Library" || Name == "RegisterOperators";
  // torch::RegisterOperators is c10's class.
  if (Space == "c10")
    return Name == "RegisterOperators";
  return false;
}

/// The function an argument names: `fn`, `&fn`, `&Class::method`, and
/// PyTorch's `TORCH_FN(fn)` (a c10::CompileTimeFunctionPointer whose
/// template argument is the function).
const clang::FunctionDecl *namedFunction(const clang::Expr *E) {
  if (!E)
    return nullptr;
  E = ignoreCopies(E);
  if (const auto *Spec =
          llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(
              E->getType()->getAsCXXRecordDecl());
      Spec && Spec->getIdentifier() &&
      Spec->getName() == "CompileTimeFunctionPointer") {
    const clang::TemplateArgumentList &Args = Spec->getTemplateArgs();
    if (Args.size() == 2 &&
        Args[1].getKind() == clang::TemplateArgument::Declaration)
      return llvm::dyn_cast<clang::FunctionDecl>(Args[1].getAsDecl());
    return nullptr;
  }
  if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(E);
      U && U->getOpcode() == clang::UO_AddrOf)
    E = U->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(E))
    return llvm::dyn_cast<clang::FunctionDecl>(DRE->getDecl());
  // A lambda registered where it is written: its call operator.
  if (const auto *L = llvm::dyn_cast<clang::LambdaExpr>(E))
    return L->getCallOperator();
  return nullptr;
}

/// The name a registration gives: its first argument, a string literal.
llvm::StringRef registeredName(const clang::CallExpr *Call) {
  if (Call->getNumArgs() == 0)
    return "";
  const clang::Expr *First = ignoreCopies(Call->getArg(0));
  for (int Step = 0; First && Step < 4; ++Step) {
    if (const auto *SL = llvm::dyn_cast<clang::StringLiteral>(First))
      return SL->getString();
    const auto *CE = llvm::dyn_cast<clang::CXXConstructExpr>(First);
    First = CE && CE->getNumArgs() >= 1 ? ignoreCopies(CE->getArg(0))
                                        : nullptr;
  }
  return "";
}

/// Visits the functions `Call` registers, if it is a registering call;
/// true when `Visit` asked to stop.
bool visitCall(
    const CallExpr *Call, const Decl *Caller,
    llvm::function_ref<bool(const FunctionDecl *, const OpRegistration &)>
        Visit) {
  const auto *MC = llvm::dyn_cast<clang::CXXMemberCallExpr>(Call);
  const clang::CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
  if (!MD || !MD->getIdentifier())
    return false;
  llvm::StringRef Name = MD->getName();
  if ((Name != "def" && Name != "impl" && Name != "op") ||
      !isRegistry(MD->getParent()))
    return false;
  for (const clang::Expr *Arg : MC->arguments())
    if (const clang::FunctionDecl *FD = namedFunction(Arg))
      if (Visit(FD->getCanonicalDecl(),
                OpRegistration{Call, Caller, registeredName(Call)}))
        return true;
  return false;
}

/// The variables with an initializer among `DC`'s declarations in the main
/// file, and those of the namespaces and `extern "C"` blocks there (each
/// block holds what is written in it: the headers' are passed over).
void variablesIn(const DeclContext *DC, const SourceManager &SM,
                 llvm::SmallVectorImpl<const VarDecl *> &Out) {
  for (const Decl *D : DC->decls()) {
    if (!SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
      continue;
    if (isa<NamespaceDecl, LinkageSpecDecl>(D)) {
      variablesIn(cast<DeclContext>(D), SM, Out);
      continue;
    }
    if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->getInit())
      Out.push_back(VD);
  }
}

} // namespace

void forEachRegistration(
    llvm::ArrayRef<const Decl *> Callables,
    llvm::function_ref<bool(const FunctionDecl *, const OpRegistration &)>
        Visit) {
  for (const Decl *Caller : Callables)
    for (const CallExpr *Call : callsIn(Caller))
      if (visitCall(Call, Caller, Visit))
        return;
}

void forEachGlobalRegistration(
    ASTContext &Ctx,
    llvm::function_ref<bool(const FunctionDecl *, const OpRegistration &)>
        Visit) {
  llvm::SmallVector<const VarDecl *, 16> Vars;
  variablesIn(Ctx.getTranslationUnitDecl(), Ctx.getSourceManager(), Vars);
  for (const VarDecl *VD : Vars) {
    bool Stopped = false;
    walkStmts(VD->getInit(), [&](const Stmt *S) {
      const auto *Call = dyn_cast<CallExpr>(S);
      Stopped = Call && visitCall(Call, nullptr, Visit);
      return Stopped ? WalkStep::Stop : WalkStep::Enter;
    });
    if (Stopped)
      return;
  }
}

} // namespace cublas_tidy
