//===- HandlePerCallCheck.cpp - cublas-handle-per-call --------------------===//

#include "HandlePerCallCheck.h"

#include "RepeatReasons.h"
#include "ast/AstUtils.h"
#include "ast/FunctionTimer.h"
#include "facts/RepeatedHandles.h"
#include "facts/Summaries.h"
#include "ast/Callables.h"
#include "llvm/ADT/SmallPtrSet.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;
using namespace cublas_tidy;

namespace clang::tidy::cublas {

namespace {

/// "cublasCreate" for cublasCreate_v2: the name the source writes.
std::string createName(const CallExpr *Create) {
  const FunctionInfo *F = calledCublasFunction(Create);
  StringRef Name = F ? F->Name : "cublasCreate";
  Name.consume_back("_v2");
  return Name.str();
}

/// The library of a create function, by its name as users write it
/// (cublasCreate, cusolverDnCreate), from the API model.
ApiFamily familyOfCreate(StringRef Create) {
  const FunctionInfo *F = lookupFunction(Create);
  if (!F)
    F = lookupFunction((Create + "_v2").str());
  return F ? F->Family : ApiFamily::Classic;
}

/// The handle a create function makes: "cuSOLVER handle".
std::string handleName(StringRef Create) {
  ApiFamily Family = familyOfCreate(Create);
  return (Family == ApiFamily::Lt ? StringRef("cuBLASLt")
                                  : StringRef(libraryOf(Family)))
             .str() +
         " handle";
}

/// What each create costs.
std::string createCost(StringRef Create) {
  if (isNeighbour(familyOfCreate(Create)))
    return Create.str() +
           " allocates resources on the host and the device each time";
  return Create.str() +
         " allocates a workspace and synchronizes the device each time";
}

/// What to do instead, for a handle made on every call of a function that
/// repeats: an extension op (`Op`) has PyTorch's handle.
StringRef reuseAdvice(bool Op) {
  return Op ? "use PyTorch's handle (at::cuda::getCurrentCUDABlasHandle()) "
              "or create one once and reuse it"
            : "create it once and pass it in, or keep one per thread and "
              "device";
}

} // namespace

void HandlePerCallCheck::checkUnit(ASTContext &) {
  // Built when first needed.
  std::optional<OpRegistrations> Ops;
  for (const Decl *Callable : callables()) {
    const SourceManager &SM = Callable->getASTContext().getSourceManager();
    FunctionTimer Timer(getID(), Callable);
    for (const ScopedHandle &H : repeatedHandles(Callable)) {
      if (expandedInSystemHeader(H.Create->getBeginLoc(), SM))
        continue;
      // "the": clangd capitalises the first letter of every message.
      std::string What = "the " + handleName(createName(H.Create)) + " '" +
                         H.Var->getName().str() + "'";
      std::string Cost = createCost(createName(H.Create));
      if (H.Loop) {
        diag(userLocation(H.Create->getBeginLoc(), SM),
             "%0 is created and destroyed on every iteration of a loop; %1: "
             "create it once before the loop and reuse it")
            << What << Cost;
        diag(userLocation(H.Loop->getBeginLoc(), SM),
             "the loop that repeats it", DiagnosticIDs::Note);
        continue;
      }
      const auto *Fn = dyn_cast<FunctionDecl>(Callable);
      if (!H.OncePerCall || !Fn)
        continue;
      if (!Ops)
        Ops.emplace(callables());
      std::optional<RepeatReason> Why =
          repeatReason(Fn, callables(), &*Ops, /*Twice=*/false);
      if (!Why)
        continue;
      bool Op = Why->Kind == RepeatReason::Op;
      std::string Message =
          What + " is created and destroyed on every call of " + Why->Clause +
          (Op ? " (each forward pass calls it); " : "; ") + Cost + ": " +
          reuseAdvice(Op).str();
      diag(userLocation(H.Create->getBeginLoc(), SM), "%0") << Message;
      for (const auto &[Loc, Text] : Why->Notes)
        diag(Loc, "%0", DiagnosticIDs::Note) << Text;
    }
  }
  checkProjectCalls(Ops);
}

void HandlePerCallCheck::checkProjectCalls(
    std::optional<OpRegistrations> &Ops) {
  // The functions of other units that this one calls, with what they make
  // per call (facts/Summaries.h).
  for (const auto &[FD, S] :
       projectCallees(callables(), [](const FunctionSummary &S) {
         return !S.PerCall.empty();
       })) {
    if (!Ops)
      Ops.emplace(callables());
    std::optional<RepeatReason> Why =
        repeatReason(FD, callables(), &*Ops, /*Twice=*/false);
    if (!Why || Why->Notes.empty())
      continue;
    const FunctionSummary::PerCallHandle &H = S->PerCall.front();
    std::string What = handleName(H.Create);
    bool Op = Why->Kind == RepeatReason::Op;
    std::string Message =
        "'" + FD->getName().str() + "', defined in another file, creates and "
        "destroys a " + What + " on every call, and is " +
        (Op ? "registered here for Python to call (each forward pass calls "
              "it)"
            : "called here in a loop") +
        "; " + createCost(H.Create) + ": " + reuseAdvice(Op).str();
    diag(Why->Notes.front().first, "%0") << Message;
    for (size_t I = 1; I < Why->Notes.size(); ++I)
      diag(Why->Notes[I].first, "%0", DiagnosticIDs::Note)
          << Why->Notes[I].second;
    const SourceManager &SM = FD->getASTContext().getSourceManager();
    SourceLocation At =
        locationInFile(const_cast<SourceManager &>(SM),
                       H.CreateFile.empty() ? S->File : H.CreateFile, H.Line);
    if (At.isValid())
      diag(At, "'%0' creates the handle here%1, in another file",
           DiagnosticIDs::Note)
          << FD->getName()
          << (H.Through.empty() ? "" : ", through '" + H.Through + "'");
  }
}

} // namespace clang::tidy::cublas
