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
      NarrowedValues(Options.get("NarrowedValues", "all").str()),
      MaxCallSites(Options.get("MaxCallSites", 8U)), Callers(MaxCallSites) {}

void IntegerOverflowCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "NarrowedValues", NarrowedValues);
  Options.store(Opts, "MaxCallSites", MaxCallSites);
}

void IntegerOverflowCheck::clearUnit() {
  Reported.clear();
  Callers.clear();
  CallSitesCollected = false;
}

void IntegerOverflowCheck::checkUnit(ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const Decl *Callable : callables()) {
    if (!analysableBody(Callable) || hasCompileErrors(Callable))
      continue;
    FunctionTimer Timer(getID(), Callable);
    UpperBounds Bounds(Callable); // scanned when first asked
    for (const CallExpr *Call : callsIn(Callable)) {
      const FunctionInfo *F = calledCublasFunction(Call);
      if (!F || expandedInSystemHeader(Call->getBeginLoc(), SM))
        continue;
      checkCall(Call, *F, Callable, Callers.factsFor(Callable, Ctx), Bounds,
                Ctx);
    }
  }
}

bool IntegerOverflowCheck::fitsForCallers(const Expr *E, QualType T,
                                          const Decl *Callable) {
  // The call graph of the unit is built for the first value that needs it.
  if (!CallSitesCollected) {
    Callers.collectCallSites(callables());
    CallSitesCollected = true;
  }
  return fitsAtEveryCallSite(E, T, Callable, Callers);
}

void IntegerOverflowCheck::checkCall(const CallExpr *Call,
                                     const FunctionInfo &F,
                                     const Decl *Callable,
                                     const ValueFacts &Facts,
                                     const UpperBounds &Bounds,
                                     ASTContext &Ctx) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return;
  // The name as written, for messages only (it reads the source).
  std::string Spelled;
  auto Routine = [&]() -> const std::string & {
    if (Spelled.empty()) {
      Spelled =
          spelledCalleeName(Call, Ctx.getSourceManager(), Ctx.getLangOpts());
      // cublasSaxpy_64 is a macro for cublasSaxpy_v2_64.
      if (StringRef(Spelled).ends_with("_v2_64"))
        Spelled = Spelled.substr(0, Spelled.size() - 6) + "_64";
    }
    return Spelled;
  };
  std::vector<NarrowedArg> Narrowed;
  unsigned N = std::min({Call->getNumArgs(), Callee->getNumParams(),
                         F.NumParams});
  for (unsigned I = 0; I < N; ++I) {
    const Expr *Arg = Call->getArg(I);
    QualType ParamType = Callee->getParamDecl(I)->getType();
    StringRef Param = F.params()[I].Name;
    if (auto W = wrapBeforeWidening(Arg, ParamType, Call, Facts, Bounds)) {
      // Small at every call site of this function: the program's values.
      if (!W->Value && fitsForCallers(W->Operation, W->ComputedIn, Callable))
        continue;
      if (Reported.insert(static_cast<const void *>(W->Operation)).second)
        reportWrap(*W, Arg, ParamType,
                   "the '" + typeName(ParamType, Ctx) + "' parameter '" +
                       Param.str() + "' of " + Routine(),
                   Ctx);
      continue;
    }
    if (F.Is64 || !isSizeRole(F.params()[I].Role))
      continue;
    auto Nr = narrowing(Arg, ParamType, Call, Facts, Bounds);
    if (!Nr || (!Nr->Value && !Nr->FromProduct && NarrowedValues == "products"))
      continue;
    if (!Nr->Value && fitsForCallers(Nr->Source, ParamType, Callable))
      continue;
    // A variable narrowed at several arguments is one finding, at the first.
    const void *Key = Nr->Conversion;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Nr->Source))
      Key = DRE->getDecl();
    if (!Reported.insert(Key).second)
      continue;
    Narrowed.push_back({*Nr, Arg, ParamType, Param});
  }
  if (!Narrowed.empty())
    reportNarrowings(Narrowed, F, Routine(), Ctx);
  const char *Attribute = nullptr;
  if (auto W = wrapInLayoutAttribute(Call, Facts, Bounds, Attribute);
      W && (W->Value || !fitsForCallers(W->Operation, W->ComputedIn,
                                        Callable)) &&
      Reported.insert(static_cast<const void *>(W->Operation)).second) {
    QualType Wide = W->Through->getType();
    reportWrap(*W, Call->getArg(2), Wide,
               "the '" + typeName(Wide, Ctx) + "' " + Attribute + " of " +
                   Routine(),
               Ctx);
  }
}

void IntegerOverflowCheck::reportWrap(const WrapBeforeWidening &W,
                                      const Expr *Arg, QualType ParamType,
                                      const std::string &Where,
                                      ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Op = text(W.Operation, Ctx);
  std::string Wide = typeName(ParamType, Ctx);
  std::string In = typeName(W.ComputedIn, Ctx);
  std::string Holds = W.Through ? "'" + W.Through->getName().str() +
                                      "' holds '" + Op + "', which"
                                : "'" + Op + "'";
  if (W.Value) {
    diag(userLocation(Arg->getBeginLoc(), SM),
         "%0 is %1, which does not fit '%2': it wraps to %3 before it is "
         "widened to %4")
        << Holds << std::to_string(*W.Value) << In
        << std::to_string(wrappedTo(*W.Value, W.ComputedIn, Ctx)) << Where;
  } else {
    const BinaryOperator *P = W.Product;
    std::string Fix = "static_cast<" + Wide + ">(" + text(P->getLHS(), Ctx) +
                      ") " + P->getOpcodeStr().str() + " " +
                      text(P->getRHS(), Ctx);
    FixItHint Before, After;
    CharSourceRange R = editable(P->getLHS(), Ctx);
    if (!W.Through && R.isValid()) {
      Before = FixItHint::CreateInsertion(R.getBegin(),
                                          "static_cast<" + Wide + ">(");
      After = FixItHint::CreateInsertion(R.getEnd(), ")");
    }
    diag(userLocation(Arg->getBeginLoc(), SM),
         "%0 is computed in '%1' and wraps once it exceeds %2, before it is "
         "widened to %3; widen an operand first: '%4'")
        << Holds << In << maxOf(W.ComputedIn, Ctx) << Where << Fix << Before
        << After;
  }
  if (W.Through)
    diag(userLocation(W.Operation->getBeginLoc(), SM),
         "'%0' is computed in '%1' here", DiagnosticIDs::Note)
        << Op << In;
}

/// "'n' holds 'x.size(0)' ('int64_t') narrowed to 'int', and" or
/// "'x.numel()' ('int64_t')".
static std::string narrowedSubject(const Narrowing &N, ASTContext &Ctx) {
  std::string Source = "'" + text(N.Source, Ctx) + "' ('" +
                       typeName(N.Source->getType(), Ctx) + "')";
  if (!N.Through)
    return Source;
  return "'" + N.Through->getName().str() + "' holds " + Source +
         " narrowed to '" + typeName(N.Through->getType(), Ctx) + "', and";
}

void IntegerOverflowCheck::reportNarrowings(std::vector<NarrowedArg> &Args,
                                            const FunctionInfo &F,
                                            const std::string &Routine,
                                            ASTContext &Ctx) {
  if (Args.empty())
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Alternative = routine64(F, Routine);
  // A product or a constant that does not fit is the likelier to wrap: it
  // leads the finding.
  std::stable_sort(Args.begin(), Args.end(),
                   [](const NarrowedArg &L, const NarrowedArg &R) {
                     return (L.N.FromProduct || L.N.Value) >
                            (R.N.FromProduct || R.N.Value);
                   });
  std::vector<const NarrowedArg *> Rest;
  for (const NarrowedArg &A : Args) {
    std::string To = typeName(A.ParamType, Ctx);
    if (A.N.Value) {
      diag(userLocation(A.Arg->getBeginLoc(), SM),
           "%0 is %1, which does not fit the '%2' parameter '%3' of %4: it "
           "becomes %5%6")
          << narrowedSubject(A.N, Ctx) << std::to_string(*A.N.Value) << To
          << A.Param << Routine
          << std::to_string(wrappedTo(*A.N.Value, A.ParamType, Ctx))
          << (Alternative.empty() ? "" : "; " + Alternative +
                                             " takes it as it is");
      noteNarrowing(A, Ctx);
    } else {
      Rest.push_back(&A);
    }
  }
  if (Rest.empty())
    return;
  const NarrowedArg &First = *Rest.front();
  std::string To = typeName(First.ParamType, Ctx);
  if (Rest.size() == 1) {
    diag(userLocation(First.Arg->getBeginLoc(), SM),
         "%0 is narrowed to the '%1' parameter '%2' of %3 with nothing that "
         "bounds it: a value above %4 wraps%5")
        << narrowedSubject(First.N, Ctx) << To << First.Param << Routine
        << maxOf(First.ParamType, Ctx)
        << (Alternative.empty() ? "" : "; " + Alternative +
                                           " takes it as it is");
  } else {
    // One finding for the call, each value in it once.
    std::string List;
    for (const NarrowedArg *A : Rest) {
      if (!List.empty())
        List += ", ";
      List += A->N.Through ? "'" + A->N.Through->getName().str() + "' ('" +
                                 text(A->N.Source, Ctx) + "')"
                           : "'" + text(A->N.Source, Ctx) + "'";
      List += " as '" + A->Param.str() + "'";
    }
    diag(userLocation(First.Arg->getBeginLoc(), SM),
         "%0 64-bit values are narrowed to the '%1' parameters of %2 with "
         "nothing that bounds them: %3; a value above %4 wraps%5")
        << static_cast<unsigned>(Rest.size()) << To << Routine << List
        << maxOf(First.ParamType, Ctx)
        << (Alternative.empty() ? "" : "; " + Alternative +
                                           " takes them as they are");
  }
  for (const NarrowedArg *A : Rest)
    noteNarrowing(*A, Ctx);
}

void IntegerOverflowCheck::noteNarrowing(const NarrowedArg &A,
                                         ASTContext &Ctx) {
  if (!A.N.Through)
    return;
  diag(userLocation(A.N.Conversion->getBeginLoc(), Ctx.getSourceManager()),
       "'%0' is narrowed to '%1' here", DiagnosticIDs::Note)
      << text(A.N.Source, Ctx) << typeName(A.N.Through->getType(), Ctx);
}

} // namespace clang::tidy::cublas
