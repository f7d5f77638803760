//===- IntegerOverflowCheck.cpp - cublas-integer-overflow -----------------===//

#include "IntegerOverflowCheck.h"

#include "ast/AstUtils.h"
#include "ast/Callables.h"
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

/// The products written as the arguments after `First` of `Call` whose text
/// is the text of `W`'s, and that are widened there too: one finding
/// widens them all.
static std::vector<const BinaryOperator *>
sameProductLater(const CallExpr *Call, unsigned First,
                 const WrapBeforeWidening &W, const ValueFacts &Facts,
                 const UpperBounds &Bounds, ASTContext &Ctx) {
  std::vector<const BinaryOperator *> Twins;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (W.Through || !W.Product || W.Value || !Callee)
    return Twins;
  std::string Text = writtenText(W.Operation, Ctx, 200);
  unsigned N = std::min(Call->getNumArgs(), Callee->getNumParams());
  for (unsigned J = First + 1; J < N; ++J) {
    auto Twin = wrapBeforeWidening(Call->getArg(J),
                                   Callee->getParamDecl(J)->getType(), Call,
                                   Facts, Bounds);
    if (Twin && !Twin->Through && Twin->Product && !Twin->Value &&
        Twin->Product == Twin->Operation &&
        writtenText(Twin->Operation, Ctx, 200) == Text)
      Twins.push_back(Twin->Product);
  }
  return Twins;
}

IntegerOverflowCheck::IntegerOverflowCheck(StringRef Name,
                                           ClangTidyContext *Context)
    : CublasCallCheck(Name, Context, AtUnitEnd),
      ReportUnproven(Options.get("ReportUnproven", false)),
      NarrowedValues(Options.get("NarrowedValues", "all").str()),
      MaxCallSites(Options.get("MaxCallSites", 8U)), Callers(MaxCallSites) {
  if (NarrowedValues != "all" && NarrowedValues != "products") {
    configurationDiag("invalid value '%0' for option '%1.NarrowedValues'; "
                      "expected 'all' or 'products'")
        << NarrowedValues << getID();
    NarrowedValues = "all";
  }
}

void IntegerOverflowCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "ReportUnproven", ReportUnproven);
  Options.store(Opts, "NarrowedValues", NarrowedValues);
  Options.store(Opts, "MaxCallSites", MaxCallSites);
}

void IntegerOverflowCheck::clearUnit() {
  Reported.clear();
  ReportedTexts.clear();
  Callers.clear();
  CallSitesCollected = false;
  CallableBounds.clear();
}

CallerFacts &IntegerOverflowCheck::collectedCallers() {
  // The call graph of the unit is built for the first value that needs it.
  if (!CallSitesCollected) {
    Callers.collectCallSites(callables());
    CallSitesCollected = true;
  }
  return Callers;
}

bool IntegerOverflowCheck::fitsForCallers(const Expr *E, QualType T,
                                          const Decl *Callable) {
  return fitsAtEveryCallSite(E, T, Callable, collectedCallers());
}

std::optional<GrowthEvidence>
IntegerOverflowCheck::evidenceFor(const Expr *E, QualType T,
                                  const Decl *Callable,
                                  const ValueFacts &Facts) {
  return growthEvidence(E, T, Callable, Facts, collectedCallers());
}

bool IntegerOverflowCheck::wrapReported(const WrapBeforeWidening &W,
                                        const Decl *Callable,
                                        const ValueFacts &Facts,
                                        std::optional<GrowthEvidence> &Evidence) {
  if (W.Value)
    return true;
  Evidence = evidenceFor(W.Operation, W.ComputedIn, Callable, Facts);
  if (Evidence)
    return true;
  // Small at every call site of this function: the program's values.
  return ReportUnproven &&
         !fitsForCallers(W.Operation, W.ComputedIn, Callable);
}

bool IntegerOverflowCheck::narrowingReported(
    const Narrowing &Nr, QualType ParamType, bool VectorRoutine,
    const Decl *Callable, const ValueFacts &Facts,
    std::optional<GrowthEvidence> &Evidence) {
  if (Nr.Value)
    return true;
  Evidence = evidenceFor(Nr.Source, ParamType, Callable, Facts);
  if (Evidence)
    return true;
  // A single size with no evidence: 2^31 elements of one dimension is not
  // a matrix anyone multiplies. A product (`rows * cols`, `numel()`) is the
  // element count of a whole buffer where a vector routine takes it (no
  // leading dimension: axpy, scal, nrm2); as a matrix's m, n, k or a batch
  // count it is one dimension again.
  bool Unproven = !(Nr.FromProduct && VectorRoutine);
  if (Unproven && (!ReportUnproven ||
                   (!Nr.FromProduct && NarrowedValues == "products")))
    return false;
  return !fitsForCallers(Nr.Source, ParamType, Callable);
}

bool IntegerOverflowCheck::firstOfItsText(const Expr *Operation,
                                          const Decl *Callable,
                                          ASTContext &Ctx) {
  if (!Reported.insert(static_cast<const void *>(Operation)).second)
    return false;
  std::string Text = writtenText(Operation, Ctx, 200);
  return Text.empty() || ReportedTexts.insert({Callable, Text}).second;
}

void IntegerOverflowCheck::checkCall(const CallExpr *Call,
                                     const FunctionInfo &F,
                                     const Decl *Callable, ASTContext &Ctx) {
  const ValueFacts &Facts = Callers.factsFor(Callable, Ctx);
  // The bounds of the callable, scanned when first asked.
  const UpperBounds &Bounds = CallableBounds.get(
      Callable, [&] { return std::make_unique<UpperBounds>(Callable); });
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
  const bool VectorRoutine =
      llvm::none_of(F.params(), [](const ParamInfo &P) {
        return P.Role == ParamRole::LeadingDim;
      });
  for (unsigned I = 0; I < N; ++I) {
    const Expr *Arg = Call->getArg(I);
    QualType ParamType = Callee->getParamDecl(I)->getType();
    StringRef Param = F.params()[I].Name;
    if (auto W = wrapBeforeWidening(Arg, ParamType, Call, Facts, Bounds)) {
      std::optional<GrowthEvidence> Evidence;
      if (wrapReported(*W, Callable, Facts, Evidence) &&
          firstOfItsText(W->Operation, Callable, Ctx))
        reportWrap(*W, Evidence, Arg, ParamType,
                   "the '" + typeName(ParamType, Ctx) + "' parameter '" +
                       Param.str() + "' of " + Routine(),
                   Ctx, sameProductLater(Call, I, *W, Facts, Bounds, Ctx));
      continue;
    }
    if (F.Is64 || !isSizeRole(F.params()[I].Role))
      continue;
    auto Nr = narrowing(Arg, ParamType, Call, Facts, Bounds);
    if (!Nr)
      continue;
    std::optional<GrowthEvidence> Evidence;
    if (!narrowingReported(*Nr, ParamType, VectorRoutine, Callable, Facts,
                           Evidence))
      continue;
    // A variable narrowed at several arguments is one finding, at the first.
    const void *Key = Nr->Conversion;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Nr->Source))
      Key = DRE->getDecl();
    if (!Reported.insert(Key).second)
      continue;
    Narrowed.push_back({*Nr, Arg, ParamType, Param, std::move(Evidence)});
  }
  if (!Narrowed.empty())
    reportNarrowings(Narrowed, F, Routine(), Ctx);
  const char *Attribute = nullptr;
  std::optional<GrowthEvidence> Evidence;
  if (auto W = wrapInLayoutAttribute(Call, Facts, Bounds, Attribute);
      W && wrapReported(*W, Callable, Facts, Evidence) &&
      firstOfItsText(W->Operation, Callable, Ctx)) {
    QualType Wide = W->Through->getType();
    reportWrap(*W, Evidence, Call->getArg(2), Wide,
               "the '" + typeName(Wide, Ctx) + "' " + Attribute + " of " +
                   Routine(),
               Ctx);
  }
}

/// "with the values 'main' passes": the outermost caller of the chain.
static std::string callersValues(const GrowthEvidence &E) {
  const auto *Caller =
      E.Chain.empty() ? nullptr : dyn_cast<NamedDecl>(E.Chain.back().second);
  if (!Caller || !Caller->getIdentifier())
    return " with the values its callers pass";
  return " with the values '" + Caller->getName().str() + "' passes";
}

/// "a value read from the command line that nothing bounds
/// ('atoi(argv[1])')".
static std::string inputValue(const ProgramInput &In, ASTContext &Ctx) {
  return std::string("a value read from ") + inputSourceName(In.Source) +
         " that nothing bounds ('" + text(In.Read, Ctx) + "')";
}

void IntegerOverflowCheck::reportWrap(
    const WrapBeforeWidening &W, const std::optional<GrowthEvidence> &Evidence,
    const Expr *Arg, QualType ParamType, const std::string &Where,
    ASTContext &Ctx, llvm::ArrayRef<const BinaryOperator *> Twins) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Op = text(W.Operation, Ctx);
  std::string Wide = typeName(ParamType, Ctx);
  std::string In = typeName(W.ComputedIn, Ctx);
  std::string Holds = W.Through ? "'" + W.Through->getName().str() +
                                      "' holds '" + Op + "', which"
                                : "'" + Op + "'";
  std::optional<int64_t> Value = W.Value;
  std::string ValueOrigin;
  if (!Value && Evidence && Evidence->Value) {
    Value = Evidence->Value;
    ValueOrigin = callersValues(*Evidence);
  }
  if (Value) {
    diag(userLocation(Arg->getBeginLoc(), SM),
         "%0 is %1%2, which does not fit '%3': it wraps to %4 before it is "
         "widened to %5")
        << Holds << std::to_string(*Value) << ValueOrigin << In
        << std::to_string(wrappedTo(*Value, W.ComputedIn, Ctx)) << Where;
  } else {
    const BinaryOperator *P = W.Product;
    std::string Fix = "static_cast<" + Wide + ">(" + text(P->getLHS(), Ctx) +
                      ") " + P->getOpcodeStr().str() + " " +
                      text(P->getRHS(), Ctx);
    // The product and its twins in the same call, widened alike.
    std::vector<FixItHint> Fixes;
    auto Widen = [&](const BinaryOperator *Product) {
      CharSourceRange R = editable(Product->getLHS(), Ctx);
      if (!R.isValid())
        return;
      Fixes.push_back(FixItHint::CreateInsertion(
          R.getBegin(), "static_cast<" + Wide + ">("));
      Fixes.push_back(FixItHint::CreateInsertion(R.getEnd(), ")"));
    };
    if (!W.Through) {
      Widen(P);
      for (const BinaryOperator *Twin : Twins)
        Widen(Twin);
    }
    std::string From;
    if (Evidence && Evidence->Input)
      From = " with " + inputValue(*Evidence->Input, Ctx) + ",";
    auto D = diag(userLocation(Arg->getBeginLoc(), SM),
                  "%0 is computed in '%1'%2 and wraps once it exceeds %3, "
                  "before it is widened to %4%5; widen an operand first: '%6'")
             << Holds << In << From << maxOf(W.ComputedIn, Ctx) << Where
             << (Twins.empty() ? std::string()
                               : " (and " + std::to_string(Twins.size()) +
                                     " more time" +
                                     (Twins.size() > 1 ? "s" : "") +
                                     " in this call)")
             << Fix;
    for (const FixItHint &F : Fixes)
      D << F;
  }
  if (W.Through)
    diag(userLocation(W.Operation->getBeginLoc(), SM),
         "'%0' is computed in '%1' here", DiagnosticIDs::Note)
        << Op << In;
  if (Evidence)
    noteEvidence(*Evidence, Ctx);
}

void IntegerOverflowCheck::noteEvidence(const GrowthEvidence &Evidence,
                                        ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const CallerFacts::Site &S : Evidence.Chain) {
    const FunctionDecl *Callee = S.first->getDirectCallee();
    if (!Callee)
      continue;
    diag(userLocation(S.first->getBeginLoc(), SM), "'%0' is called here%1",
         DiagnosticIDs::Note)
        << Callee->getName()
        << (Evidence.Value ? " with those values" : "");
  }
  if (const std::optional<ProgramInput> &In = Evidence.Input) {
    std::string What =
        In->Var ? "'" + In->Var->getName().str() + "' is" : "the value is";
    diag(userLocation(In->Read->getBeginLoc(), SM), "%0 read from %1 here",
         DiagnosticIDs::Note)
        << What << inputSourceName(In->Source);
  }
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
                     return (L.N.FromProduct || L.N.Value || L.Evidence) >
                            (R.N.FromProduct || R.N.Value || R.Evidence);
                   });
  std::vector<const NarrowedArg *> Rest;
  for (const NarrowedArg &A : Args) {
    std::string To = typeName(A.ParamType, Ctx);
    std::optional<int64_t> Value = A.N.Value;
    std::string ValueOrigin;
    if (!Value && A.Evidence && A.Evidence->Value) {
      Value = A.Evidence->Value;
      ValueOrigin = callersValues(*A.Evidence);
    }
    if (Value) {
      diag(userLocation(A.Arg->getBeginLoc(), SM),
           "%0 is %1%2, which does not fit the '%3' parameter '%4' of %5: it "
           "becomes %6%7")
          << narrowedSubject(A.N, Ctx) << std::to_string(*Value)
          << ValueOrigin << To << A.Param << Routine
          << std::to_string(wrappedTo(*Value, A.ParamType, Ctx))
          << (Alternative.empty() ? "" : "; " + Alternative +
                                             " takes it as it is");
    } else if (A.Evidence && A.Evidence->Input) {
      diag(userLocation(A.Arg->getBeginLoc(), SM),
           "%0 takes %1, and is narrowed to the '%2' parameter '%3' of %4: a "
           "value above %5 wraps%6")
          << narrowedSubject(A.N, Ctx) << inputValue(*A.Evidence->Input, Ctx)
          << To << A.Param << Routine << maxOf(A.ParamType, Ctx)
          << (Alternative.empty() ? "" : "; " + Alternative +
                                             " takes it as it is");
    } else {
      Rest.push_back(&A);
      continue;
    }
    noteNarrowing(A, Ctx);
    if (A.Evidence)
      noteEvidence(*A.Evidence, Ctx);
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
