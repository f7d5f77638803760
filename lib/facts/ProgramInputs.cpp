//===- ProgramInputs.cpp - Integers the program reads from outside --------===//

#include "facts/ProgramInputs.h"

#include "ast/AstUtils.h"
#include "ast/TranslationUnitCache.h"
#include "facts/ValueBounds.h"
#include "model/ProgramInputs.h"

#include "clang/AST/ExprCXX.h"

#include <memory>

using namespace clang;

namespace cublas_tidy {

const char *inputSourceName(InputSource S) {
  switch (S) {
  case InputSource::CommandLine:
    return "the command line";
  case InputSource::Environment:
    return "the environment";
  case InputSource::Input:
    return "input";
  }
  return "input";
}

namespace {

using input_api::InputKind;

/// The library function `Call` calls (of the global namespace or `std`),
/// or null.
const input_api::InputFunction *inputFunction(const CallExpr *Call) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier() || isa<CXXMethodDecl>(FD))
    return nullptr;
  const DeclContext *DC = FD->getDeclContext()->getRedeclContext();
  if (!DC->isTranslationUnit() && !FD->isInStdNamespace() &&
      !DC->isExternCContext())
    return nullptr;
  return input_api::lookupInputFunction(FD->getName());
}

/// True when `E` is main's `argv` (its second parameter) or getopt's
/// `optarg`.
bool namesCommandLine(const DeclRefExpr *DRE) {
  const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
  if (!V)
    return false;
  if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
    const auto *FD = dyn_cast<FunctionDecl>(P->getDeclContext());
    return FD && FD->isMain() && P->getFunctionScopeIndex() == 1;
  }
  return V->hasGlobalStorage() && V->getIdentifier() &&
         input_api::isCommandLineVariable(V->getName());
}

/// Where the text `E` (a parser's argument) comes from: the command line
/// or the environment when it says so, nullopt for a literal, input
/// otherwise (a buffer, a string the program read).
std::optional<InputSource> textSource(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (isa<StringLiteral>(E))
    return std::nullopt;
  std::optional<InputSource> Found;
  walkStmts(E, [&](const Stmt *S) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && namesCommandLine(DRE))
      Found = InputSource::CommandLine;
    else if (const auto *Call = dyn_cast<CallExpr>(S)) {
      const input_api::InputFunction *F = inputFunction(Call);
      if (F && F->Kind == InputKind::TextSource)
        Found = InputSource::Environment;
    }
    return Found ? WalkStep::Stop : WalkStep::Enter;
  });
  return Found ? Found : InputSource::Input;
}

/// True when `T` is a standard input stream (`std::istream`,
/// `std::ifstream`, `std::istringstream`, ...).
bool isInputStream(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return false;
  auto IsIstream = [](const CXXRecordDecl *R) {
    return R->isInStdNamespace() && R->getIdentifier() &&
           (R->getName() == "basic_istream" ||
            R->getName() == "basic_iostream");
  };
  if (IsIstream(RD))
    return true;
  bool Found = false;
  RD->forallBases([&](const CXXRecordDecl *Base) {
    Found = Found || IsIstream(Base);
    return true;
  });
  return Found;
}

/// The statement of `Callable` that reads input into the local `V`
/// through its address or a reference (`scanf("%d", &v)`, `cin >> v`), or
/// null.
const Expr *scannedInto(const VarDecl *V, const Decl *Callable) {
  const Stmt *Body = Callable ? Callable->getBody() : nullptr;
  if (!Body)
    return nullptr;
  const Expr *Found = nullptr;
  walkStmts(Body, [&](const Stmt *S) {
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S)) {
      if (Op->getOperator() == OO_GreaterGreater && Op->getNumArgs() == 2 &&
          referencedVar(Op->getArg(1)) == V &&
          isInputStream(Op->getArg(0)->getType()))
        Found = Op;
    } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
      const input_api::InputFunction *F = inputFunction(Call);
      if (F && F->Kind == InputKind::Scan)
        for (unsigned I = F->FirstOut; I < Call->getNumArgs(); ++I)
          if (addressedVar(Call->getArg(I)) == V)
            Found = Call;
    }
    return Found ? WalkStep::Stop : WalkStep::Enter;
  });
  return Found;
}

class InputSearch {
public:
  std::optional<ProgramInput> find(const Expr *E, const ValueFacts &Facts,
                                   unsigned Depth) {
    if (!E || Depth > 8 || ++Steps > 64)
      return std::nullopt;
    E = ignoreWrappers(E)->IgnoreParenCasts();
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const input_api::InputFunction *F = inputFunction(Call);
      if (!F || F->Kind != InputKind::Parse || Call->getNumArgs() == 0)
        return std::nullopt;
      std::optional<InputSource> From = textSource(Call->getArg(0));
      if (!From)
        return std::nullopt;
      return ProgramInput{nullptr, Call, *From};
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      if (auto In = find(CO->getTrueExpr(), Facts, Depth + 1))
        return In;
      return find(CO->getFalseExpr(), Facts, Depth + 1);
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      BinaryOperatorKind Op = BO->getOpcode();
      if (Op != BO_Add && Op != BO_Sub && Op != BO_Mul && Op != BO_Shl)
        return std::nullopt;
      if (auto In = find(BO->getLHS(), Facts, Depth + 1))
        return In;
      return find(BO->getRHS(), Facts, Depth + 1);
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!V || DRE->refersToEnclosingVariableOrCapture() ||
        !V->getType()->isIntegerType() || !V->hasLocalStorage())
      return std::nullopt;
    if (boundsOf(Facts.callable()).bounded(V, DRE))
      return std::nullopt;
    if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
      if (std::optional<ValueFacts::Binding> B = Facts.binding(P))
        return find(B->Arg, *B->Facts, Depth + 1);
      return std::nullopt;
    }
    if (const Expr *Scan = scannedInto(V, Facts.callable()))
      return ProgramInput{V, Scan, InputSource::Input};
    auto Defs = Facts.reachingDefinitions(V, DRE);
    if (!Defs)
      return std::nullopt;
    for (const Definition *D : *Defs) {
      if ((D->Kind != DefKind::Init && D->Kind != DefKind::Assign) ||
          !D->Value)
        continue;
      if (auto In = find(D->Value, Facts, Depth + 1)) {
        if (!In->Var)
          In->Var = V;
        return In;
      }
    }
    return std::nullopt;
  }

private:
  /// The bounds of a callable, scanned once per translation unit however
  /// many values and contexts ask.
  static const UpperBounds &boundsOf(const Decl *Callable) {
    thread_local TranslationUnitCache<const Decl *, UpperBounds> Shared;
    return *Shared.get(Callable->getASTContext(), Callable, [&] {
      return std::make_unique<UpperBounds>(Callable);
    });
  }

  unsigned Steps = 0;
};

} // namespace

std::optional<ProgramInput> programInput(const Expr *E,
                                         const ValueFacts &Facts) {
  return InputSearch().find(E, Facts, 0);
}

} // namespace cublas_tidy
