//===- UncheckedStatusCheck.cpp - cublas-unchecked-status -----------------===//

#include "UncheckedStatusCheck.h"

#include "ast/AstUtils.h"
#include "ast/Callables.h"
#include "ast/DroppedArguments.h"
#include "ast/FunctionTimer.h"
#include "ast/ValueUse.h"
#include "facts/CallFailures.h"
#include "facts/FailedOutputs.h"
#include "facts/LtHeuristics.h"
#include "facts/StatusFunctions.h"
#include "facts/Teardown.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang::ast_matchers;
using namespace cublas_tidy;

namespace clang::tidy::cublas {

namespace {

/// Parses a `;`-separated list of regular expressions, each anchored to match
/// a whole name. Invalid entries are reported and skipped.
std::vector<llvm::Regex> parseRegexList(StringRef Text, StringRef Option,
                                        ClangTidyCheck &Check) {
  std::vector<llvm::Regex> Result;
  SmallVector<StringRef, 8> Parts;
  Text.split(Parts, ';', -1, /*KeepEmpty=*/false);
  for (StringRef Part : Parts) {
    Part = Part.trim();
    if (Part.empty())
      continue;
    llvm::Regex R(("^(" + Part + ")$").str());
    std::string Error;
    if (!R.isValid(Error)) {
      Check.configurationDiag("invalid regular expression '%0' in option "
                              "'%1': %2")
          << Part << Option << Error;
      continue;
    }
    Result.push_back(std::move(R));
  }
  return Result;
}

bool matchesAny(const std::vector<llvm::Regex> &Regexes, StringRef Name) {
  return llvm::any_of(Regexes,
                      [&](const llvm::Regex &R) { return R.match(Name); });
}

/// The enumeration an operand denotes: for an enumerator (whose type is int
/// in C), its enumeration; otherwise the operand's type.
StringRef operandEnum(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *ECD = dyn_cast<EnumConstantDecl>(DRE->getDecl()))
      if (const auto *ED = dyn_cast<EnumDecl>(ECD->getDeclContext()))
        return enumDeclName(ED);
  return enumTypeName(E->getType());
}

/// A source range in the user's file covering `R`, when one exists.
CharSourceRange fileRange(SourceRange R, const ASTContext &Ctx) {
  return Lexer::makeFileCharRange(CharSourceRange::getTokenRange(R),
                                  Ctx.getSourceManager(), Ctx.getLangOpts());
}

/// True when the call is written out in the user's file, so that text can be
/// inserted around it: no part of it comes from a macro, except the callee's
/// name being cuBLAS's own `#define cublasX cublasX_v2`.
bool isWrittenOut(const CallExpr *Call, const SourceManager &SM) {
  SourceLocation Begin = Call->getBeginLoc(), End = Call->getEndLoc();
  if (!End.isFileID())
    return false;
  if (Begin.isFileID())
    return true;
  if (SM.isMacroArgExpansion(Begin))
    return false;
  CharSourceRange Expansion = SM.getImmediateExpansionRange(Begin);
  return Expansion.getBegin().isFileID() &&
         Expansion.getBegin() == Expansion.getEnd();
}

} // namespace

UncheckedStatusCheck::UncheckedStatusCheck(StringRef Name,
                                           ClangTidyContext *Context)
    : CublasCheck(Name, Context),
      AllowCastToVoid(Options.get("AllowCastToVoid", true)),
      CheckTeardown(Options.get("CheckTeardown", false)),
      CheckedFunctionsText(Options.get("CheckedFunctions", "")),
      IgnoredFunctionsText(Options.get("IgnoredFunctions", "")),
      CheckMacro(Options.get("CheckMacro", "")) {
  CheckedFunctions =
      parseRegexList(CheckedFunctionsText,
                     (getID() + ".CheckedFunctions").str(), *this);
  IgnoredFunctions =
      parseRegexList(IgnoredFunctionsText,
                     (getID() + ".IgnoredFunctions").str(), *this);
  if (!CheckMacro.empty() && !isValidAsciiIdentifier(CheckMacro))
    configurationDiag("option '%0.CheckMacro' must be a macro name, not '%1'")
        << getID() << CheckMacro;
}

void UncheckedStatusCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "AllowCastToVoid", AllowCastToVoid);
  Options.store(Opts, "CheckTeardown", CheckTeardown);
  Options.store(Opts, "CheckedFunctions", CheckedFunctionsText);
  Options.store(Opts, "IgnoredFunctions", IgnoredFunctionsText);
  Options.store(Opts, "CheckMacro", CheckMacro);
}

bool UncheckedStatusCheck::isTrackedCall(const CallExpr *Call,
                                         const SourceManager &SM,
                                         const LangOptions &LangOpts) const {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (IgnoredFunctions.empty() || !FD || !FD->getIdentifier())
    return true;
  return !matchesAny(IgnoredFunctions, FD->getName()) &&
         !matchesAny(IgnoredFunctions, FD->getQualifiedNameAsString()) &&
         !matchesAny(IgnoredFunctions, spelledCalleeName(Call, SM, LangOpts));
}

void UncheckedStatusCheck::registerPPCallbacks(const SourceManager &SM,
                                               Preprocessor *PP,
                                               Preprocessor *ModuleExpanderPP) {
  CublasCheck::registerPPCallbacks(SM, PP, ModuleExpanderPP);
  this->PP = PP;
}

bool UncheckedStatusCheck::checkMacroDefinedAt(SourceLocation Loc) const {
  const MacroInfo *MI =
      PP ? functionLikeMacroAt(*PP, CheckMacro, Loc) : nullptr;
  if (!MI)
    return false;
  // CK(x), CK(...), CK(x, ...): one argument fits.
  return MI->getNumParams() == 1 ||
         (MI->isVariadic() && MI->getNumParams() <= 2);
}

namespace {

/// What the expansion of a macro may do to the function it is in: the
/// tokens of its body, and of the function-like macros it names (a few
/// levels deep).
struct MacroExits {
  bool ReturnsValue = false, ReturnsVoid = false, CoReturns = false,
       Throws = false;
  /// The value of each `return` with a value, when it is one literal
  /// (`-1`, `false`, `nullptr`): its kind; tok::unknown otherwise.
  llvm::SmallVector<tok::TokenKind, 2> Literals;
  /// A `return` of a number other than 0 (`-1`): true, as a bool.
  bool ReturnsNonZero = false;
};

void scanMacro(const MacroInfo *MI, Preprocessor &PP,
               SourceLocation Loc, MacroExits &E, unsigned Depth) {
  ArrayRef<Token> T = MI->tokens();
  auto Named = [&](size_t I, StringRef Word) {
    const IdentifierInfo *II = T[I].getIdentifierInfo();
    return II && II->getName() == Word;
  };
  for (size_t I = 0; I < T.size(); ++I) {
    if (Named(I, "return")) {
      if (I + 1 == T.size() || T[I + 1].is(tok::semi)) {
        E.ReturnsVoid = true;
        continue;
      }
      E.ReturnsValue = true;
      size_t V = I + 1 + (T[I + 1].is(tok::minus) ? 1 : 0);
      bool One = V < T.size() && (V + 1 == T.size() || T[V + 1].is(tok::semi));
      tok::TokenKind K = tok::unknown;
      if (One && T[V].is(tok::numeric_constant)) {
        K = tok::numeric_constant;
        const char *Text = T[V].getLiteralData();
        E.ReturnsNonZero |=
            !Text || StringRef(Text, T[V].getLength()).trim("0xXuUlL.") != "";
      }
      else if (One && (Named(V, "true") || Named(V, "false")))
        K = tok::kw_true;
      else if (One && Named(V, "nullptr"))
        K = tok::kw_nullptr;
      E.Literals.push_back(K);
    } else if (Named(I, "co_return")) {
      E.CoReturns = true;
    } else if (Named(I, "throw")) {
      E.Throws = true;
    } else if (const IdentifierInfo *II = T[I].getIdentifierInfo();
               II && Depth < 4 && II->hadMacroDefinition()) {
      if (const MacroInfo *N = PP.getMacroDefinitionAtLoc(II, Loc).getMacroInfo();
          N && N != MI)
        scanMacro(N, PP, Loc, E, Depth + 1);
    }
  }
}

} // namespace

std::string UncheckedStatusCheck::checkMacroMisfit(SourceLocation Loc,
                                                   const Decl *Callable,
                                                   const ASTContext &Ctx) const {
  const IdentifierInfo *II = PP ? PP->getIdentifierInfo(CheckMacro) : nullptr;
  const MacroInfo *MI =
      II ? PP->getMacroDefinitionAtLoc(II, Loc).getMacroInfo() : nullptr;
  if (!MI)
    return "";
  MacroExits E;
  scanMacro(MI, *PP, Loc, E, 0);
  std::string Macro = "'" + CheckMacro.str() + "'";
  if (E.Throws && !Ctx.getLangOpts().CXXExceptions)
    return Macro + " throws, and exceptions are off";
  const auto *FD = dyn_cast_or_null<FunctionDecl>(Callable);
  if (E.CoReturns && !(FD && isa_and_nonnull<CoroutineBodyStmt>(FD->getBody())))
    return Macro + " uses co_return here, outside a coroutine";
  if (!E.ReturnsValue && !E.ReturnsVoid)
    return "";
  if (!FD)
    return Macro + " returns, here in a block or a lambda";
  std::string Fn = FD->getDeclName().isIdentifier()
                       ? "'" + FD->getName().str() + "'"
                       : std::string("the function");
  if (isa<CXXConstructorDecl, CXXDestructorDecl>(FD) && E.ReturnsValue)
    return Macro + " returns a value, in a " +
           (isa<CXXConstructorDecl>(FD) ? "constructor" : "destructor");
  // One edit serves every instantiation: the pattern's return type decides.
  if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern();
      Pattern && Pattern->getReturnType()->isDependentType())
    return Macro + " returns" + (E.ReturnsValue ? " a value" : "") +
           ", and the return type of " + Fn +
           " depends on a template parameter";
  QualType R = FD->getReturnType();
  if (R->isVoidType())
    return E.ReturnsValue ? Macro + " returns a value, and " + Fn +
                                " returns void"
                          : "";
  if (R->isUndeducedType() || R->isDependentType())
    return Macro + " returns, and the return type of " + Fn +
           " is not known yet";
  if (E.ReturnsVoid)
    return Macro + " returns no value, and " + Fn + " returns '" +
           R.getAsString(Ctx.getPrintingPolicy()) + "'";
  // A literal converts to what it is returned as only if that is a number
  // (or a pointer, for nullptr).
  for (tok::TokenKind K : E.Literals) {
    if (K == tok::numeric_constant && E.ReturnsNonZero && R->isBooleanType())
      return Macro + " returns a number, and " + Fn +
             " returns bool: the number converts to true";
    bool Fits =
        K == tok::unknown ||
        ((K == tok::numeric_constant || K == tok::kw_true) &&
         R->isArithmeticType() && !R->isEnumeralType()) ||
        (K == tok::kw_nullptr && (R->isPointerType() || R->isNullPtrType()));
    if (!Fits)
      return Macro + " returns a literal that is not a '" +
             R.getAsString(Ctx.getPrintingPolicy()) + "', which " + Fn +
             " returns";
  }
  return "";
}

/// An enumeration's name as a type: `cublasStatus` (the tag some
/// declarations show) is written cublasStatus_t, `cudaError` cudaError_t.
static StringRef typeSpelling(StringRef EnumName) {
  if (statusLibrary(EnumName) == "cuBLAS")
    return "cublasStatus_t";
  return isCudaErrorName(EnumName) ? StringRef("cudaError_t") : EnumName;
}

/// What a discarded result is called: its library status type
/// ("cusolverStatus_t"), or "status" for a function the options name.
static StringRef statusWord(QualType T) {
  return isLibraryStatusType(T) ? enumTypeName(T) : StringRef("status");
}

bool UncheckedStatusCheck::returnsStatus(const CallExpr *Call) const {
  if (isLibraryStatusType(Call->getType()))
    return true;
  const FunctionDecl *FD = Call->getDirectCallee();
  if (CheckedFunctions.empty() || !FD || !FD->getIdentifier())
    return false;
  return matchesAny(CheckedFunctions, FD->getName()) ||
         matchesAny(CheckedFunctions, FD->getQualifiedNameAsString());
}

/// A conversion to cudaError_t of a status, directly or laundered through
/// an integer variable (`Laundered`: the variables holding a status, found
/// the first time one is needed) or a parameter.
void UncheckedStatusCheck::checkCudaErrorCast(
    const CastExpr *Cast, const Decl *Callable,
    std::optional<llvm::DenseMap<const VarDecl *, const CallExpr *>>
        &Laundered,
    ASTContext &Ctx) {
  if (isLibraryStatusType(Cast->getSubExpr()->getType())) {
    checkConversion(Cast, Ctx);
    return;
  }
  const auto *DRE =
      dyn_cast<DeclRefExpr>(Cast->getSubExpr()->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || isCudaErrorType(VD->getType()))
    return;
  if (const auto *P = dyn_cast<ParmVarDecl>(VD)) {
    if (P->getType()->isIntegralOrEnumerationType())
      ParamCasts.push_back({Cast, P});
    return;
  }
  if (!Laundered)
    Laundered = statusHoldingVars(Callable);
  if (const CallExpr *From = Laundered->lookup(VD))
    checkLaunderedConversion(Cast, VD, From, Ctx);
}

void UncheckedStatusCheck::checkCallable(const Decl *Callable,
                                         ASTContext &Ctx) {
  FunctionTimer Timer(getID(), Callable);
  // In a function with compile errors, only what one error-free statement
  // proves alone is reported: a discarded status, a comparison or
  // conversion. Whether a stored status is read needs every path, which
  // such a body does not show (lib/ast/CompileErrors.h).
  if (!analysableBody(Callable, /*EvenWithErrors=*/true))
    return;
  bool WithErrors = hasCompileErrors(Callable);
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<const CallExpr *> Calls;
  // Statements expanded from macros of the CUDA or standard headers are not
  // the user's to fix. Looking up where a statement was expanded costs more
  // than the rest of the walk: it is asked only of the statements that
  // matter.
  auto InUserCode = [&](const Stmt *S) {
    return !expandedInSystemHeader(S->getBeginLoc(), SM);
  };
  // The parents of the status calls and of their ancestors: all that
  // deciding how a value is used needs, for a fraction of the cost of the
  // parent map of the whole body.
  llvm::DenseMap<const Stmt *, const Stmt *> Parents;
  llvm::ArrayRef<BodyStmt> Stmts = stmtsIn(Callable);
  // The statement of the body's block structure that holds `Stmts[I]`.
  auto StatementOf = [&](size_t I) {
    int Cur = static_cast<int>(I);
    while (Stmts[Cur].Parent >= 0 &&
           !isa<CompoundStmt>(Stmts[Stmts[Cur].Parent].S))
      Cur = Stmts[Cur].Parent;
    return Stmts[Cur].S;
  };
  std::optional<llvm::DenseMap<const VarDecl *, const CallExpr *>> Laundered;
  for (size_t I = 0; I < Stmts.size(); ++I) {
    const Stmt *S = Stmts[I].S;
    if (WithErrors && (isa<CallExpr, BinaryOperator, CastExpr, SwitchStmt>(S)) &&
        !isErrorFree(StatementOf(I), Ctx))
      continue;
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      if (returnsStatus(Call) && InUserCode(Call) &&
          !inSwitchedOffBranch(Stmts, I)) {
        Calls.push_back(Call);
        addAncestors(Stmts, I, Parents);
      }
      StatusArgs.noteCall(Call);
    } else if (const auto *Op = dyn_cast<BinaryOperator>(S)) {
      if (Op->isComparisonOp())
        checkComparison(Op, Ctx); // decides by type, then by location
    } else if (const auto *Cast = dyn_cast<CastExpr>(S)) {
      if (isCudaErrorType(Cast->getType()) && InUserCode(Cast))
        checkCudaErrorCast(Cast, Callable, Laundered, Ctx);
    } else if (const auto *Switch = dyn_cast<SwitchStmt>(S)) {
      QualType On = Switch->getCond()
                        ? Switch->getCond()->IgnoreParenImpCasts()->getType()
                        : QualType();
      if ((isLibraryStatusType(On) || isCudaErrorType(On)) &&
          InUserCode(Switch))
        for (const SwitchCase *SC = Switch->getSwitchCaseList(); SC;
             SC = SC->getNextSwitchCase())
          if (const auto *Case = dyn_cast<CaseStmt>(SC))
            checkCaseLabel(Case, Switch, Ctx);
    }
  }
  if (Calls.empty())
    return;
  for (const CallExpr *Call : Calls)
    checkDiscarded(Call, Callable, Parents, Ctx);
  if (!WithErrors) {
    checkDeadStores(Callable, Ctx);
    checkHeuristics(Callable, Ctx);
  }
}

/// Whether `Cond` holds exactly while an exception unwinds the stack, or
/// exactly while none does: `std::uncaught_exceptions() > saved`,
/// `std::uncaught_exception()`, `std::uncaught_exceptions() == 0`, `!...`.
static std::optional<bool> unwindingWhen(const Expr *Cond) {
  bool Negated = false;
  Cond = Cond->IgnoreParenImpCasts();
  while (const auto *Not = dyn_cast<UnaryOperator>(Cond)) {
    if (Not->getOpcode() != UO_LNot)
      return std::nullopt;
    Negated = !Negated;
    Cond = Not->getSubExpr()->IgnoreParenImpCasts();
  }
  auto IsQuery = [](const Expr *E) {
    const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
    const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
    return FD && FD->isInStdNamespace() && FD->getIdentifier() &&
           (FD->getName() == "uncaught_exceptions" ||
            FD->getName() == "uncaught_exception");
  };
  bool Holds = true;
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond)) {
    bool Left = IsQuery(BO->getLHS());
    if (!Left && !IsQuery(BO->getRHS()))
      return std::nullopt;
    BinaryOperatorKind Op = BO->getOpcode();
    if (Op == BO_NE || (Left ? Op == BO_GT : Op == BO_LT))
      Holds = true;
    else if (Op == BO_EQ)
      Holds = false; // `== 0`, or `== saved`: none is unwinding
    else
      return std::nullopt;
  } else if (!IsQuery(Cond)) {
    return std::nullopt;
  }
  return Negated ? !Holds : Holds;
}

/// Whether `Call` runs only while an exception unwinds the stack (a guard's
/// destructor that lets a status go because it cannot throw then).
static bool
onlyWhileUnwinding(const Stmt *Call,
                   const llvm::DenseMap<const Stmt *, const Stmt *> &Parents) {
  const Stmt *Child = Call;
  for (const Stmt *P = Parents.lookup(Call); P;
       Child = P, P = Parents.lookup(P)) {
    const auto *If = dyn_cast<IfStmt>(P);
    if (!If || Child == If->getCond())
      continue;
    std::optional<bool> When = unwindingWhen(If->getCond());
    if (When && *When == (Child == If->getThen()))
      return true;
  }
  return false;
}

void UncheckedStatusCheck::checkDiscarded(
    const CallExpr *Call, const Decl *Callable,
    const llvm::DenseMap<const Stmt *, const Stmt *> &Parents,
    ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (!isTrackedCall(Call, SM, Ctx.getLangOpts()))
    return;
  ValueUseInfo Use = classifyValueUse(
      Call, [&](const Stmt *S) { return Parents.lookup(S); });
  if (Use.Use == ValueUse::Used ||
      (Use.Use == ValueUse::CastToVoid && AllowCastToVoid))
    return;
  // A heuristic's count, set to 0 first and tested after, tests the status
  // too; a setting read into a value set first reads that value after a
  // failure (lib/facts/FailedOutputs.h).
  if (failureShowsInCount(Call, Callable) ||
      failureKeepsFallback(Call, Callable))
    return;
  // Documented never to fail as written: a cuBLASLt descriptor's destroy,
  // an attribute accessor given `&v, sizeof(v)` of the attribute's size
  // (lib/facts/CallFailures.h).
  if (cannotFailAsWritten(Call, Ctx))
    return;
  // A destroy in a destructor or at the end of main: nobody to tell
  // (lib/facts/Teardown.h).
  if (!CheckTeardown && destroysAtTeardown(Call, Callable))
    return;
  // Let go while the stack unwinds: throwing then ends the program.
  if (onlyWhileUnwinding(Call, Parents))
    return;

  // The project's own functions: a checker has looked at the status, so
  // its result may go; a wrapper's result is the status of the cuBLAS call
  // inside it (lib/facts/StatusFunctions.h).
  std::string Wrapped;
  const StatusFunctionFacts *Facts = nullptr;
  if (!calledCublasFunction(Call))
    if (const FunctionDecl *FD = Call->getDirectCallee()) {
      Facts = &statusFunctionFacts(FD);
      if (Facts->Role == StatusFunctionFacts::Checker)
        return;
      Wrapped = Facts->Wrapped;
    }
  std::string Name = spelledCalleeName(Call, SM, Ctx.getLangOpts());
  std::string Callee = Name;
  if (!Name.empty())
    Name = "'" + Name + "'" +
           (Wrapped.empty() ? "" : " (the status of '" + Wrapped + "')");
  StringRef What = statusWord(Call->getType());
  SourceLocation Loc = userLocation(Call->getBeginLoc(), SM);
  // Another instantiation of the same template's call (its location, not
  // the user's: two calls of one macro's expansion are two).
  if (!DiscardedAt.insert(Call->getBeginLoc()).second)
    return;
  if (Use.Use == ValueUse::CastToVoid) {
    // Each message starts with a word that clangd's capitalisation of the
    // first letter leaves as it is ("the cublasStatus_t ...").
    diag(Loc, "the %0 returned by %select{this call|%2}1 is explicitly "
              "discarded")
        << What << !Name.empty() << Name
        << fileRange(Call->getSourceRange(), Ctx);
    noteWrappedCall(Facts, Callee, Ctx);
    return;
  }
  std::string Misfit;
  { // the warning is emitted before its note
    auto D = diag(Loc, "the %0 returned by %select{this call|%2}1 is discarded; "
                       "a failure here goes unnoticed")
             << What << !Name.empty() << Name
             << fileRange(Call->getSourceRange(), Ctx);
    // The fix wraps the call in CheckMacro, where that compiles: the call is
    // a whole statement written out in the file, and the macro is defined
    // there (a file that does not define it would no longer build).
    if (!CheckMacro.empty() && Use.WholeStatement && isWrittenOut(Call, SM)) {
      CharSourceRange Range = fileRange(Call->getSourceRange(), Ctx);
      if (Range.isValid() && checkMacroDefinedAt(Range.getBegin())) {
        Misfit = checkMacroMisfit(Range.getBegin(), Callable, Ctx);
        if (Misfit.empty())
          D << FixItHint::CreateInsertion(Range.getBegin(),
                                          (CheckMacro + "(").str())
            << FixItHint::CreateInsertion(Range.getEnd(), ")");
      }
    }
  }
  if (!Misfit.empty())
    diag(Loc, "no fix: %0", DiagnosticIDs::Note) << Misfit;
  noteWrappedCall(Facts, Callee, Ctx);
}

void UncheckedStatusCheck::noteWrappedCall(const StatusFunctionFacts *Facts,
                                           StringRef Callee, ASTContext &Ctx) {
  // A wrapper defined in another unit: the note shows the call there.
  if (!Facts || !Facts->FromProject || Facts->Wrapped.empty())
    return;
  SourceLocation At = locationInFile(Ctx.getSourceManager(),
                                     Facts->WrappedFile, Facts->WrappedLine);
  if (At.isValid())
    diag(At, "'%0' returns the status of this '%1', in another file",
         DiagnosticIDs::Note)
        << Callee << Facts->Wrapped;
}

/// True when `S` holds an `if constexpr`.
static bool hasConstexprIf(const Stmt *S) {
  return anyStmt(
      S,
      [](const Stmt *Cur) {
        const auto *If = dyn_cast<IfStmt>(Cur);
        return If && If->isConstexpr();
      },
      100000);
}

void UncheckedStatusCheck::checkDeadStores(const Decl *Callable,
                                           ASTContext &Ctx) {
  // An instantiation drops the branches `if constexpr` discards: a status
  // read in one of them is read in other instantiations of the same code.
  if (const auto *FD = dyn_cast<FunctionDecl>(Callable))
    if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
      if (Pattern->getBody() && hasConstexprIf(Pattern->getBody()))
        return;
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LangOpts = Ctx.getLangOpts();
  auto Interesting = [&](const Expr *Value) -> const Expr * {
    const auto *Call = dyn_cast<CallExpr>(Value);
    if (!Call)
      return nullptr;
    bool Tracked = isLibraryStatusType(Call->getType());
    if (!Tracked && !CheckedFunctions.empty())
      if (const FunctionDecl *FD = Call->getDirectCallee())
        Tracked = FD->getIdentifier() &&
                  (matchesAny(CheckedFunctions, FD->getName()) ||
                   matchesAny(CheckedFunctions,
                              FD->getQualifiedNameAsString()));
    // Where the call was expanded is asked last: it costs the most.
    return Tracked && !expandedInSystemHeader(Call->getBeginLoc(), SM) &&
                   isTrackedCall(Call, SM, LangOpts) &&
                   !failureShowsInCount(Call, Callable) &&
                   !failureKeepsFallback(Call, Callable) &&
                   !cannotFailAsWritten(Call, Ctx) &&
                   (CheckTeardown || !destroysAtTeardown(Call, Callable))
               ? Call
               : nullptr;
  };
  for (const DeadStore &DS : findDeadStores(Callable, Ctx, Interesting)) {
    const auto *Call = cast<CallExpr>(DS.Value);
    StringRef What = statusWord(Call->getType());
    std::string Name = spelledCalleeName(Call, SM, LangOpts);
    diag(userLocation(Call->getBeginLoc(), SM),
         "the %0 returned by %select{this call|'%2'}1 is stored in '%3' but never "
         "read")
        << What << !Name.empty() << Name << DS.Var->getName()
        << fileRange(Call->getSourceRange(), Ctx);
    for (const Stmt *Overwrite : DS.Overwrites)
      diag(userLocation(Overwrite->getBeginLoc(), SM),
           "'%0' is overwritten here before it is read", DiagnosticIDs::Note)
          << DS.Var->getName();
    noteDroppedRead(DS.Var, Call, Callable, SM);
  }
}

void UncheckedStatusCheck::noteDroppedRead(const VarDecl *Var,
                                           const CallExpr *Call,
                                           const Decl *Callable,
                                           const SourceManager &SM) {
  const Stmt *Body = Callable->getBody();
  if (!Body || !PP)
    return;
  std::optional<DroppedArgument> E = firstDroppedArgument(
      Var->getName(), SM.getExpansionLoc(Call->getEndLoc()),
      SM.getExpansionLoc(Body->getEndLoc()), *PP);
  if (!E)
    return;
  if (!E->Block.empty()) {
    diag(E->Loc,
         "'%0' is read here only in %select{a block that '%1' leaves out of "
         "this build|the '#else' of '%1', which this build leaves out}2",
         DiagnosticIDs::Note)
        << Var->getName() << E->Block << E->InElse;
    return;
  }
  diag(E->Loc,
       "'%0' is read here only inside '%1', which %select{this build "
       "defines without that argument|NDEBUG compiles out}2",
       DiagnosticIDs::Note)
      << Var->getName() << E->Written
      << (E->UnderNDEBUG && E->Macro == "assert");
}

void UncheckedStatusCheck::checkHeuristics(const Decl *Callable,
                                           ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const UntestedHeuristic &H : untestedHeuristics(Callable)) {
    diag(userLocation(H.Heuristic->getBeginLoc(), SM),
         "the number of results of 'cublasLtMatmulAlgoGetHeuristic' in '%0' "
         "is never tested; when no algorithm fits (often a workspace limit "
         "too small) the call still succeeds, '%1' holds no valid algorithm, "
         "and cublasLtMatmul fails with CUBLAS_STATUS_NOT_SUPPORTED or runs "
         "an uninitialised one")
        << H.Count->getName() << H.Results->getName();
    diag(userLocation(H.Use->getBeginLoc(), SM),
         "a result of the heuristic is used here", DiagnosticIDs::Note);
  }
}

void UncheckedStatusCheck::checkComparison(const BinaryOperator *Op,
                                           ASTContext &Ctx) {
  StringRef L = operandEnum(Op->getLHS()), R = operandEnum(Op->getRHS());
  const Expr *StatusSide, *ErrorSide;
  StringRef Status;
  if (isLibraryStatusName(L) && isCudaErrorName(R)) {
    StatusSide = Op->getLHS();
    ErrorSide = Op->getRHS();
    Status = L;
  } else if (isCudaErrorName(L) && isLibraryStatusName(R)) {
    StatusSide = Op->getRHS();
    ErrorSide = Op->getLHS();
    Status = R;
  } else {
    return;
  }
  const SourceManager &SM = Ctx.getSourceManager();
  if (expandedInSystemHeader(Op->getBeginLoc(), SM))
    return;
  // Name the constant side: `st != cudaSuccess` is about cudaSuccess.
  auto AsEnumerator = [](const Expr *E) -> const DeclRefExpr * {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && isa<EnumConstantDecl>(DRE->getDecl()) ? DRE : nullptr;
  };
  const DeclRefExpr *StatusConst = AsEnumerator(StatusSide);
  const DeclRefExpr *ErrorConst = AsEnumerator(ErrorSide);
  SourceLocation Loc = userLocation(Op->getOperatorLoc(),
                                    Ctx.getSourceManager());
  if (!StatusConst == !ErrorConst) {
    diag(Loc, "a %0 compared with a cudaError_t; %1 and CUDA runtime codes "
              "differ, so failures are misreported")
        << Status << statusLibrary(Status)
        << fileRange(Op->getSourceRange(), Ctx);
    return;
  }
  // One side is a constant of the other enumeration than the value it is
  // compared with; success has a certain counterpart.
  bool ErrorIsConst = ErrorConst != nullptr;
  const DeclRefExpr *Const = ErrorIsConst ? ErrorConst : StatusConst;
  StringRef Name = Const->getDecl()->getName();
  StringRef Success = ErrorIsConst ? "cudaSuccess" : statusSuccess(Status);
  StringRef Counterpart = ErrorIsConst ? statusSuccess(Status) : "cudaSuccess";
  auto D = diag(Loc, "a %select{cudaError_t|%2}0 compared with the "
                     "%select{%2|cudaError_t}0 value '%1'; %3 and CUDA runtime "
                     "codes differ, so failures are misreported")
           << ErrorIsConst << Name << Status << statusLibrary(Status)
           << fileRange(Op->getSourceRange(), Ctx);
  if (Name == Success && Const->getLocation().isFileID())
    D << FixItHint::CreateReplacement(
        CharSourceRange::getTokenRange(Const->getLocation()), Counterpart);
}

void UncheckedStatusCheck::checkConversion(const CastExpr *Cast,
                                           ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const Expr *Source = Cast->getSubExpr()->IgnoreParenImpCasts();
  std::string From;
  if (const auto *Call = dyn_cast<CallExpr>(Source))
    From = "'" + spelledCalleeName(Call, SM, Ctx.getLangOpts()) + "'";
  else if (const auto *DRE = dyn_cast<DeclRefExpr>(Source))
    From = "'" + DRE->getDecl()->getNameAsString() + "'";
  StringRef Status = enumTypeName(Source->getType());
  diag(userLocation(Cast->getBeginLoc(), SM),
       "%2%select{| from %1}0 converted to cudaError_t; %3 and CUDA runtime "
       "codes differ, so failures are misreported")
      << (From.empty() ? 0 : 1) << From << Status << statusLibrary(Status)
      << fileRange(Cast->getSourceRange(), Ctx);
}

void UncheckedStatusCheck::checkLaunderedConversion(const CastExpr *Cast,
                                                    const VarDecl *Var,
                                                    const CallExpr *From,
                                                    ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  StringRef Status = enumTypeName(From->getType());
  diag(userLocation(Cast->getBeginLoc(), SM),
       "'%0' holds a %1 and is converted to cudaError_t; %2 and CUDA runtime "
       "codes differ, so failures are misreported")
      << Var->getName() << Status << statusLibrary(Status)
      << fileRange(Cast->getSourceRange(), Ctx);
  diag(userLocation(From->getBeginLoc(), SM),
       isa<ParmVarDecl>(Var) ? "'%0' receives the status of '%1' here"
                             : "'%0' holds the status of '%1' here",
       DiagnosticIDs::Note)
      << Var->getName() << spelledCalleeName(From, SM, Ctx.getLangOpts());
}

void UncheckedStatusCheck::checkUnit(ASTContext &Ctx) {
  for (const ParamCast &PC : ParamCasts)
    if (const CallExpr *From = StatusArgs.statusPassedTo(PC.Param))
      checkLaunderedConversion(PC.Cast, PC.Param, From, Ctx);
}

void UncheckedStatusCheck::checkCaseLabel(const CaseStmt *Case,
                                          const SwitchStmt *Switch,
                                          ASTContext &Ctx) {
  const auto *Label = dyn_cast<DeclRefExpr>(Case->getLHS()->IgnoreParenImpCasts());
  if (!Label || !isa<EnumConstantDecl>(Label->getDecl()) || !Switch ||
      !Switch->getCond())
    return;
  StringRef On = operandEnum(Switch->getCond());
  StringRef Of = operandEnum(Label);
  bool Mixed = (isLibraryStatusName(On) && isCudaErrorName(Of)) ||
               (isCudaErrorName(On) && isLibraryStatusName(Of));
  if (!Mixed)
    return;
  diag(userLocation(Label->getBeginLoc(), Ctx.getSourceManager()),
       "case label '%0' is a %1 value but the switch is on a %2")
      << Label->getDecl()->getName() << typeSpelling(Of) << typeSpelling(On);
}

} // namespace clang::tidy::cublas
