//===- CompileErrors.cpp --------------------------------------------------===//

#include "ast/CompileErrors.h"
#include "ast/AstUtils.h"
#include "ast/ClangCompat.h"

#include "ast/TranslationUnitCache.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <mutex>

using namespace clang;

namespace cublas_tidy {

namespace {

/// Stands between the compiler and its diagnostic consumer; see the header.
class ErrorRecorder final : public DiagnosticConsumer {
public:
  explicit ErrorRecorder(DiagnosticsEngine &Diags);
  ~ErrorRecorder() override;

  void clear() override {
    DiagnosticConsumer::clear();
    Target->clear();
  }
  void BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) override {
    Target->BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override { Target->EndSourceFile(); }
  void finish() override { Target->finish(); }
  bool IncludeInDiagnosticCounts() const override {
    return Target->IncludeInDiagnosticCounts();
  }
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override;

  /// Where the errors were: (file, offset) of their expansion locations.
  llvm::SmallVector<std::pair<FileID, unsigned>, 8> Errors;
  const SourceManager *SM = nullptr;

private:
  void forward(DiagnosticsEngine::Level Level, const Diagnostic &Info) {
    DiagnosticConsumer::HandleDiagnostic(Level, Info); // the counts
    Target->HandleDiagnostic(Level, Info);
  }

  DiagnosticsEngine &Diags;
  DiagnosticConsumer *Target;
  std::unique_ptr<DiagnosticConsumer> OwnedTarget;
  // What the engine did before: the recorder withholds from the consumer
  // what the engine would have withheld.
  bool Mimic;            // the engine stopped at fatal errors
  unsigned ErrorLimit;   // 0: no limit
  bool ErrorsAsFatal;    // -Wfatal-errors
  unsigned Forwarded = 0;
  bool Stopped = false;  // a fatal error (or the limit) was reached
};

/// The recorders by engine. A recorder is owned by its engine and leaves
/// this registry when the engine destroys it (on whichever thread).
std::mutex RegistryLock;
llvm::DenseMap<const DiagnosticsEngine *, ErrorRecorder *> &registry() {
  static llvm::DenseMap<const DiagnosticsEngine *, ErrorRecorder *> R;
  return R;
}

ErrorRecorder *recorderFor(const DiagnosticsEngine &Diags) {
  std::lock_guard<std::mutex> Lock(RegistryLock);
  auto It = registry().find(&Diags);
  if (It == registry().end() || It->second != Diags.getClient())
    return nullptr; // never installed, or replaced since
  return It->second;
}

ErrorRecorder::ErrorRecorder(DiagnosticsEngine &Diags)
    : Diags(Diags), Target(Diags.getClient()),
      OwnedTarget(Diags.takeClient()), Mimic(!Diags.getFatalsAsError()),
      ErrorLimit(Diags.getDiagnosticOptions().ErrorLimit),
      ErrorsAsFatal(Diags.getErrorsAsFatal()) {
  if (Mimic) {
    Diags.setFatalsAsError(true);
    Diags.setErrorLimit(0);
  }
  std::lock_guard<std::mutex> Lock(RegistryLock);
  registry()[&Diags] = this;
}

ErrorRecorder::~ErrorRecorder() {
  std::lock_guard<std::mutex> Lock(RegistryLock);
  auto It = registry().find(&Diags);
  if (It != registry().end() && It->second == this)
    registry().erase(It);
}

void ErrorRecorder::HandleDiagnostic(DiagnosticsEngine::Level Level,
                                     const Diagnostic &Info) {
  unsigned ID = Info.getID();
  const DiagnosticIDs &IDs = *Diags.getDiagnosticIDs();
  // Diagnostics of clang-tidy checks (custom IDs) are not the compiler's:
  // they are neither recorded nor withheld.
  // (What DiagnosticIDs::IsCustomDiag tests; spelt out for clang-tidy
  // versions before it.)
  bool Builtin = ID < diag::DIAG_UPPER_LIMIT;
  if (Builtin && Level >= DiagnosticsEngine::Error) {
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      SM = &Info.getSourceManager();
      Errors.push_back(SM->getDecomposedExpansionLoc(Info.getLocation()));
    } else {
      Errors.push_back({FileID(), 0}); // somewhere: counts for every function
    }
  }
  if (!Mimic || !Builtin) {
    forward(Level, Info);
    return;
  }
  if (Stopped)
    return;
  if (Level == DiagnosticsEngine::Error) {
    bool Fatal = ErrorsAsFatal || IDs.getDefaultMapping(ID).getSeverity() ==
                                      diag::Severity::Fatal;
    if (Fatal) {
      forward(DiagnosticsEngine::Fatal, Info);
      Stopped = true;
      return;
    }
    if (ErrorLimit && Forwarded >= ErrorLimit) {
      // What clang says at its limit, and then nothing more.
      compat::withSyntheticDiagnostic(
          Diags, diag::fatal_too_many_errors,
          "too many errors emitted, stopping now",
          [&](const Diagnostic &TooMany) {
            forward(DiagnosticsEngine::Fatal, TooMany);
          });
      Stopped = true;
      return;
    }
    ++Forwarded;
  }
  forward(Level, Info);
}

/// The source range of a statement or declaration as (file, first offset,
/// last offset) of its expansion locations; false when it spans files or a
/// location is unknown.
bool decompose(const SourceManager &SM, SourceRange R, FileID &File,
               unsigned &Begin, unsigned &End) {
  if (R.isInvalid())
    return false;
  auto B = SM.getDecomposedExpansionLoc(R.getBegin());
  auto E = SM.getDecomposedExpansionLoc(R.getEnd());
  if (B.first != E.first || B.second > E.second)
    return false;
  File = B.first;
  Begin = B.second;
  End = E.second;
  return true;
}

/// True when a recorded error lies in `R`, or an error's place is unknown.
/// With `LangOpts`, an error at the token that follows `R` counts too (a
/// statement missing its ';', a call the user is still typing).
bool errorIn(const ErrorRecorder &Rec, const SourceManager &SM, SourceRange R,
             const LangOptions *LangOpts = nullptr) {
  if (Rec.Errors.empty())
    return false;
  FileID File;
  unsigned Begin, End;
  if (!decompose(SM, R, File, Begin, End))
    return true;
  if (LangOpts) {
    SourceLocation After = Lexer::getLocForEndOfToken(
        SM.getExpansionLoc(R.getEnd()), 0, SM, *LangOpts);
    if (After.isValid()) {
      auto [AfterFile, AfterOffset] = SM.getDecomposedLoc(After);
      if (AfterFile == File) {
        llvm::StringRef Text = SM.getBufferData(File);
        while (AfterOffset < Text.size() && isWhitespace(Text[AfterOffset]))
          ++AfterOffset;
        End = std::max(End, AfterOffset);
      }
    }
  }
  for (const auto &[F, Offset] : Rec.Errors)
    if (F.isInvalid() || (F == File && Offset >= Begin && Offset <= End))
      return true;
  return false;
}

/// True when `S` or anything nested in it (lambda bodies included) is marked
/// erroneous.
bool hasErrorMarkers(const Stmt *S) {
  return anyStmt(
      S,
      [](const Stmt *Cur) {
        if (const auto *E = dyn_cast<Expr>(Cur)) {
          if (E->containsErrors())
            return true;
          if (const auto *L = dyn_cast<LambdaExpr>(E))
            if (const CXXMethodDecl *Op = L->getCallOperator())
              if (Op->isInvalidDecl())
                return true;
        }
        if (const auto *DS = dyn_cast<DeclStmt>(Cur))
          for (const Decl *D : DS->decls())
            if (D->isInvalidDecl())
              return true;
        if (const auto *CS = dyn_cast<CompoundStmt>(Cur))
          return CS->getRBracLoc().isInvalid();
        return false;
      },
      ~0u);
}

/// Errors are possible in `Ctx`'s translation unit, and how to find them:
/// false when none occurred; otherwise the recorder (null when none saw
/// them).
bool errorsPossible(const ASTContext &Ctx, const ErrorRecorder *&Rec) {
  const DiagnosticsEngine &Diags = Ctx.getDiagnostics();
  Rec = recorderFor(Diags);
  if (Rec)
    return !Rec->Errors.empty() || Diags.hasErrorOccurred();
  return Diags.hasErrorOccurred();
}

thread_local TranslationUnitCache<const Decl *, bool> FunctionErrors;

} // namespace

void watchCompileErrors(Preprocessor &PP) {
  DiagnosticsEngine &Diags = PP.getDiagnostics();
  if (!Diags.getClient() || recorderFor(Diags))
    return;
  auto *Rec = new ErrorRecorder(Diags);
  Diags.setClient(Rec, /*ShouldOwnClient=*/true);
}

int recordedCompileErrors(const ASTContext &Ctx) {
  const ErrorRecorder *Rec = recorderFor(Ctx.getDiagnostics());
  return Rec ? static_cast<int>(Rec->Errors.size()) : -1;
}

bool hasCompileErrors(const Decl *Callable) {
  if (!Callable)
    return false;
  const ASTContext &Ctx = Callable->getASTContext();
  const ErrorRecorder *Rec = nullptr;
  if (!errorsPossible(Ctx, Rec))
    return false;
  if (!Rec)
    return true; // errors, and nobody knows where: assume everywhere
  return *FunctionErrors.get(Ctx, Callable, [&] {
    bool Errors = Callable->isInvalidDecl();
    if (const auto *FD = dyn_cast<FunctionDecl>(Callable))
      for (const ParmVarDecl *P : FD->parameters())
        Errors |= P->isInvalidDecl();
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Callable))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (const Expr *E = Init->getInit())
          Errors |= E->containsErrors();
    const Stmt *Body = Callable->getBody();
    if (!Errors && Body)
      Errors = hasErrorMarkers(Body) ||
               errorIn(*Rec, Ctx.getSourceManager(), Callable->getSourceRange());
    return std::make_unique<bool>(Errors);
  });
}

bool isErrorFree(const Stmt *S, ASTContext &Ctx) {
  if (!S)
    return false;
  const ErrorRecorder *Rec = nullptr;
  if (!errorsPossible(Ctx, Rec))
    return true;
  if (!Rec)
    return false;
  return !hasErrorMarkers(S) &&
         !errorIn(*Rec, Ctx.getSourceManager(), S->getSourceRange(),
                  &Ctx.getLangOpts());
}

} // namespace cublas_tidy
