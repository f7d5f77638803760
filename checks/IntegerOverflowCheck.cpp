//===- IntegerOverflowCheck.cpp - cublas-integer-overflow -----------------===//

#include "IntegerOverflowCheck.h"

#include "ast/AstUtils.h"
#include "ast/Callables.h"
#include "ast/CompileErrors.h"
#include "ast/FunctionTimer.h"
#include "facts/CallerFacts.h"
#include "facts/IntegerWidths.h"
#include "facts/ValueBounds.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang::ast_matchers;
using namespace cublas_tidy;

namespace clang::tidy::cublas {

namespace {

/// The parameters of the 32-bit API whose `int` a size passes through.
bool isSizeRole(ParamRole R) {
  switch (R) {
  case ParamRole::DimM:
  case ParamRole::DimN:
  case ParamRole::DimK:
  case ParamRole::DimKL:
  case ParamRole::DimKU:
  case ParamRole::LeadingDim:
  case ParamRole::Increment:
  case ParamRole::BatchCount:
    return true;
  default:
    return false;
  }
}

std::string typeName(QualType T, const ASTContext &Ctx) {
  PrintingPolicy Policy(Ctx.getLangOpts());
  Policy.SuppressTagKeyword = true;
  return T.getUnqualifiedType().getAsString(Policy);
}

std::string text(const Expr *E, const ASTContext &Ctx) {
  std::string T = writtenText(E, Ctx, 60);
  return T.empty() ? "the value" : T;
}

std::string maxOf(QualType T, const ASTContext &Ctx) {
  unsigned W = integerWidth(T, Ctx);
  if (T->isUnsignedIntegerType())
    return std::to_string((uint64_t(1) << W) - 1);
  return std::to_string((uint64_t(1) << (W - 1)) - 1);
}

/// The 64-bit routine that takes the value as it is: "cublasSgemm_64".
std::string routine64(const FunctionInfo &F, StringRef Spelled) {
  if (F.Is64 || !lookupFunction(std::string(F.Name) + "_64"))
    return "";
  return Spelled.str() + "_64";
}

/// A source range the fix can edit, or an invalid one (macros).
CharSourceRange editable(const Expr *E, const ASTContext &Ctx) {
  return Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(E->getSourceRange()),
      Ctx.getSourceManager(), Ctx.getLangOpts());
}

} // namespace

IntegerOverflowCheck::IntegerOverflowCheck(StringRef Name,
                                           ClangTidyContext *Context)
    : CublasCheck(Name, Context),
      NarrowedValues(Options.get("NarrowedValues", "products").str()) {}

void IntegerOverflowCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "NarrowedValues", NarrowedValues);
}

void IntegerOverflowCheck::registerMatchers(MatchFinder *Finder) {
  addCallableMatchers(Finder, this);
}

void IntegerOverflowCheck::onStartOfTranslationUnit() {
  Seen.clear();
  Reported.clear();
}

void IntegerOverflowCheck::check(const MatchFinder::MatchResult &Result) {
  const Decl *Callable = callableOf(Result);
  if (!Seen.add(Callable) || !analysableBody(Callable) ||
      hasCompileErrors(Callable))
    return;
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = Ctx.getSourceManager();
  FunctionTimer Timer(getID(), Callable);
  std::optional<UpperBounds> Bounds; // made when first needed
  for (const CallExpr *Call : callsIn(Callable)) {
    const FunctionInfo *F = calledCublasFunction(Call);
    if (!F || expandedInSystemHeader(Call->getBeginLoc(), SM))
      continue;
    if (!Bounds)
      Bounds.emplace(Callable);
    checkCall(Call, *F, sharedValueFacts(Callable, Ctx), *Bounds, Ctx);
  }
}

void IntegerOverflowCheck::checkCall(const CallExpr *Call,
                                     const FunctionInfo &F,
                                     const ValueFacts &Facts,
                                     const UpperBounds &Bounds,
                                     ASTContext &Ctx) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Routine = spelledCalleeName(Call, SM, Ctx.getLangOpts());
  // cublasSaxpy_64 is a macro for cublasSaxpy_v2_64.
  if (StringRef(Routine).ends_with("_v2_64"))
    Routine = Routine.substr(0, Routine.size() - 6) + "_64";
  unsigned N = std::min({Call->getNumArgs(), Callee->getNumParams(),
                         F.NumParams});
  for (unsigned I = 0; I < N; ++I) {
    const Expr *Arg = Call->getArg(I);
    QualType ParamType = Callee->getParamDecl(I)->getType();
    StringRef Param = F.params()[I].Name;
    if (auto W = wrapBeforeWidening(Arg, ParamType, Call, Facts, Bounds)) {
      if (!Reported.insert(static_cast<const void *>(W->Operation)).second)
        continue;
      std::string Op = text(W->Operation, Ctx);
      std::string Wide = typeName(ParamType, Ctx);
      std::string In = typeName(W->ComputedIn, Ctx);
      std::string Where = "the '" + Wide + "' parameter '" + Param.str() +
                          "' of " + Routine;
      std::string Fix;
      FixItHint Before, After;
      if (!W->Value) {
        const BinaryOperator *P = W->Product;
        Fix = "static_cast<" + Wide + ">(" + text(P->getLHS(), Ctx) + ") " +
              P->getOpcodeStr().str() + " " + text(P->getRHS(), Ctx);
        CharSourceRange R = editable(P->getLHS(), Ctx);
        if (!W->Through && R.isValid()) {
          Before = FixItHint::CreateInsertion(R.getBegin(),
                                              "static_cast<" + Wide + ">(");
          After = FixItHint::CreateInsertion(R.getEnd(), ")");
        }
      }
      std::string Holds =
          W->Through ? "'" + W->Through->getName().str() + "' holds '" + Op +
                           "', which"
                     : "'" + Op + "'";
      if (W->Value)
        diag(userLocation(Arg->getBeginLoc(), SM),
             "%0 is %1, which does not fit '%2': it wraps to %3 before it is "
             "widened to %4")
            << Holds << std::to_string(*W->Value) << In
            << std::to_string(wrappedTo(*W->Value, W->ComputedIn, Ctx))
            << Where;
      else
        diag(userLocation(Arg->getBeginLoc(), SM),
             "%0 is computed in '%1' and wraps once it exceeds %2, before it "
             "is widened to %3; widen an operand first: '%4'")
            << Holds << In << maxOf(W->ComputedIn, Ctx) << Where << Fix
            << Before << After;
      if (W->Through)
        diag(userLocation(W->Operation->getBeginLoc(), SM),
             "'%0' is computed in '%1' here", DiagnosticIDs::Note)
            << Op << In;
      continue;
    }
    if (F.Is64 || !isSizeRole(F.params()[I].Role))
      continue;
    auto Nr = narrowing(Arg, ParamType, Call, Facts, Bounds);
    if (!Nr || (!Nr->Value && !Nr->FromProduct && NarrowedValues != "all"))
      continue;
    // A variable narrowed at several arguments is one finding, at the first.
    const void *Key = Nr->Conversion;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Nr->Source))
      Key = DRE->getDecl();
    if (!Reported.insert(Key).second)
      continue;
    std::string Source = text(Nr->Source, Ctx);
    std::string From = typeName(Nr->Source->getType(), Ctx);
    std::string To = typeName(ParamType, Ctx);
    std::string Alternative = routine64(F, Routine);
    if (!Alternative.empty())
      Alternative = "; " + Alternative + " takes it as it is";
    std::string Subject =
        Nr->Through ? "'" + Nr->Through->getName().str() + "' holds '" +
                          Source + "' ('" + From + "') narrowed to '" +
                          typeName(Nr->Through->getType(), Ctx) + "', and"
                    : "'" + Source + "' ('" + From + "')";
    if (Nr->Value)
      diag(userLocation(Arg->getBeginLoc(), SM),
           "%0 is %1, which does not fit the '%2' parameter '%3' of %4: it "
           "becomes %5%6")
          << Subject << std::to_string(*Nr->Value) << To << Param << Routine
          << std::to_string(wrappedTo(*Nr->Value, ParamType, Ctx))
          << Alternative;
    else
      diag(userLocation(Arg->getBeginLoc(), SM),
           "%0 is narrowed to the '%1' parameter '%2' of %3 with nothing that "
           "bounds it: a value above %4 wraps%5")
          << Subject << To << Param << Routine << maxOf(ParamType, Ctx)
          << Alternative;
    if (Nr->Through)
      diag(userLocation(Nr->Conversion->getBeginLoc(), SM),
           "'%0' is narrowed to '%1' here", DiagnosticIDs::Note)
          << Source << typeName(Nr->Through->getType(), Ctx);
  }
}

} // namespace clang::tidy::cublas
