//===- HandleStateCheck.cpp - cublas-handle-state -------------------------===//

#include "HandleStateCheck.h"

#include "ast/AstUtils.h"
#include "ast/Callables.h"
#include "ast/FunctionTimer.h"
#include "facts/HandleConfig.h"
#include "facts/HandleDevices.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;
using namespace cublas_tidy;

namespace clang::tidy::cublas {

namespace {

/// "'handle_'", or "the handle" when the argument is not short text.
std::string handleText(const Expr *Arg, const ASTContext &Ctx) {
  std::string Text = writtenText(Arg, Ctx, 40);
  return Text.empty() ? "the handle" : "'" + Text + "'";
}

std::string calleeText(const CallExpr *Call, const ASTContext &Ctx) {
  std::string Name = spelledCalleeName(Call, Ctx.getSourceManager(),
                                       Ctx.getLangOpts());
  return Name.empty() ? "the call" : "'" + Name + "'";
}

std::string functionText(const Decl *D) {
  const auto *ND = dyn_cast<NamedDecl>(D);
  if (const auto *M = dyn_cast<CXXMethodDecl>(D); M && M->getParent()->isLambda())
    return "the lambda";
  return ND && ND->getDeclName() ? "'" + ND->getQualifiedNameAsString() + "'"
                                 : "the function";
}

std::string ownerText(HandleOwner Owner, const HandleName &H) {
  // An element: the array or container it belongs to.
  const clang::ValueDecl *Array = H.Member ? H.Member : H.Base;
  if (H.Element && Array && Owner == HandleOwner::Global)
    return "one of the global handles of '" + Array->getNameAsString() + "'";
  if (H.Element && Array && Owner == HandleOwner::Member)
    return "one of the handles of the member '" + Array->getNameAsString() +
           "', which other code uses";
  switch (Owner) {
  case HandleOwner::Parameter:
    return "a parameter: the caller's handle";
  case HandleOwner::Global:
    return "a global handle";
  case HandleOwner::Member:
    return "a member handle that other code uses";
  case HandleOwner::Library:
    return (H.Library ? H.Library->name().str() : "the library") +
           "'s current handle";
  case HandleOwner::Accessor:
    return "a shared handle from an accessor";
  default:
    return "a shared handle";
  }
}

} // namespace

void HandleStateCheck::checkUnit(ASTContext &) {
  for (const Decl *Callable : callables())
    if (analysableBody(Callable))
      Analysable.push_back(Callable);
  reportRaces();
  const UnitHandleArrays Arrays = perDeviceHandleArrays(Analysable);
  for (const Decl *Callable : Analysable)
    reportDevices(Callable, Arrays);
  for (const Decl *Callable : Analysable) {
    if (llvm::none_of(describedCallsIn(Callable), [](const CallInBody &C) {
          const handle_config::ConfigFunction *F = calledConfigFunction(C);
          return F && F->Sets;
        }))
      continue;
    FunctionTimer Timer(getID(), Callable);
    reportWorkspaces(Callable);
    reportPointerModes(Callable);
  }
}

void HandleStateCheck::reportWorkspaces(const Decl *Callable) {
  const ASTContext &Ctx = Callable->getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  for (const LostWorkspace &L : lostWorkspaces(Callable, Analysable)) {
    if (expandedInSystemHeader(L.Stream->getBeginLoc(), SM))
      continue;
    std::string Handle = handleText(L.Stream->getArg(0), Ctx);
    std::string Stream = calleeText(L.Stream, Ctx);
    if (L.Cache) {
      std::string Cache = "'" + L.Cache->getNameAsString() + "'";
      std::string Use = calleeText(L.Use, Ctx);
      if (L.WorkspaceIn) // the cache of another function
        diag(userLocation(L.Stream->getBeginLoc(), SM),
             "%0 resets the workspace of %1 to cuBLAS's default pool, but %2 "
             "sets it again only when %3 differs from the cached %4: the "
             "next call of %2 with the same workspace runs %5 without it; "
             "clear %4 here, or set the workspace again")
            << Stream << Handle << functionText(L.WorkspaceIn)
            << handleText(L.Cached, Ctx) << Cache << Use;
      else
        diag(userLocation(L.Stream->getBeginLoc(), SM),
             "%0 resets the workspace of %1 to cuBLAS's default pool, but "
             "'cublasSetWorkspace' runs again only when %2 differs from the "
             "cached %3: on a new stream with the same workspace %4 runs "
             "without it; set the workspace again after each stream change, "
             "or clear %3 there")
            << Stream << Handle << handleText(L.Cached, Ctx) << Cache << Use;
      diag(userLocation(L.Workspace->getBeginLoc(), SM),
           "the workspace is set only when the cache misses",
           DiagnosticIDs::Note);
      diag(userLocation(L.Use->getBeginLoc(), SM),
           "runs with the default workspace", DiagnosticIDs::Note);
      continue;
    }
    if (!L.WorkspaceIn) {
      std::string Use =
          L.Use      ? calleeText(L.Use, Ctx) + " runs"
          : L.AtReturn ? "every call on " + Handle + " after " +
                           functionText(Callable) + " returns runs"
                       : "the next call runs";
      diag(userLocation(L.Stream->getBeginLoc(), SM),
           "%0 resets the workspace of %1 to cuBLAS's default pool: the "
           "workspace that 'cublasSetWorkspace' gave it before is lost, and "
           "%2 without it; set the stream first and the workspace after it")
          << Stream << Handle << Use;
      diag(userLocation(L.Workspace->getBeginLoc(), SM),
           "the workspace that is lost", DiagnosticIDs::Note);
      if (L.Use)
        diag(userLocation(L.Use->getBeginLoc(), SM),
             "runs with the default workspace", DiagnosticIDs::Note);
      continue;
    }
    diag(userLocation(L.Stream->getBeginLoc(), SM),
         "%0 resets the workspace of %1 to cuBLAS's default pool: the "
         "workspace that %2 gives it with 'cublasSetWorkspace' is lost for "
         "every call on %1 after this one; call 'cublasSetWorkspace' again "
         "after each stream change")
        << Stream << Handle << functionText(L.WorkspaceIn);
    diag(userLocation(L.Workspace->getBeginLoc(), SM),
         "the workspace set where the handle is created", DiagnosticIDs::Note);
    if (L.Use)
      diag(userLocation(L.Use->getBeginLoc(), SM),
           "runs with the default workspace", DiagnosticIDs::Note);
  }
}

void HandleStateCheck::reportPointerModes(const Decl *Callable) {
  const ASTContext &Ctx = Callable->getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  for (const PointerModeLeak &L :
       leakedPointerModes(Callable, Analysable)) {
    if (expandedInSystemHeader(L.Set->getBeginLoc(), SM))
      continue;
    std::string Handle = handleText(L.Set->getArg(0), Ctx);
    std::string Fn = functionText(Callable);
    std::string Who =
        L.Owner == HandleOwner::Library && L.Handle.Library
            ? L.Handle.Library->name().str() +
                  "'s own GEMMs on it then read their host alpha and beta "
                  "as device addresses"
            : "the next call on it with a host alpha or beta has them read "
              "as device addresses";
    std::string Owner = ownerText(L.Owner, L.Handle);
    if (L.Owner == HandleOwner::Accessor && L.Handle.Getter)
      Owner = "the shared handle that " + functionText(L.Handle.Getter) +
              " returns";
    // cuSPARSE's handle has a pointer mode of its own, with its own names.
    const FunctionInfo *SetF = calledCublasFunction(L.Set);
    ApiFamily Library = SetF ? SetF->Family : ApiFamily::Classic;
    diag(userLocation(L.Set->getBeginLoc(), SM),
         "%0 (%1) is left in %4 when %2 returns: %3; set the mode back on "
         "every way out (save it with '%5GetPointerMode' first, or set %6)")
        << Handle << Owner << Fn << Who << pointerModeName(Library, true)
        << (Library == ApiFamily::Sparse ? "cusparse" : "cublas")
        << pointerModeName(Library, false);
    if (L.Exit)
      diag(userLocation(L.Exit->getBeginLoc(), SM),
           isa<ReturnStmt>(L.Exit)     ? "returns with the device pointer "
                                         "mode still set"
           : isa<CXXThrowExpr>(L.Exit) ? "throws with the device pointer mode "
                                         "still set"
                                       : "may throw here with the device "
                                         "pointer mode still set",
           DiagnosticIDs::Note);
    else if (const Stmt *Body = Callable->getBody())
      diag(userLocation(Body->getEndLoc(), SM),
           "ends with the device pointer mode still set",
           DiagnosticIDs::Note);
    if (L.Victim)
      diag(userLocation(L.Victim->getBeginLoc(), SM),
           "%0 passes a host scalar on the same handle and sets no mode of "
           "its own",
           DiagnosticIDs::Note)
          << functionText(L.VictimIn);
  }
}

void HandleStateCheck::reportDevices(const Decl *Callable,
                                     const UnitHandleArrays &Arrays) {
  const ASTContext &Ctx = Callable->getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  for (const WrongDeviceCall &W : wrongDeviceCalls(Callable, &Arrays)) {
    if (expandedInSystemHeader(W.Call->getBeginLoc(), SM))
      continue;
    std::string Handle = W.Element ? handleText(W.Element, Ctx)
                                   : "'" + W.Handle->getName().str() + "'";
    std::string Callee = calleeText(W.Call, Ctx);
    auto CreatedHere = [&](const CallExpr *Create, const std::string &What) {
      diag(userLocation(Create->getBeginLoc(), SM), "%0 is created here",
           DiagnosticIDs::Note)
          << What;
    };
    if (W.Stream) {
      std::string Stream = "'" + W.Stream->getName().str() + "'";
      std::string Home = std::to_string(*W.CreatedOn);
      diag(userLocation(W.StreamArg->getBeginLoc(), SM),
           "stream %0 was created while device %1 was current, but %2 "
           "belongs to device %3: its calls would be queued on a stream of "
           "another device; create the stream while device %3 is current")
          << Stream << std::to_string(*W.StreamOn) << Handle << Home;
      CreatedHere(W.Create, Handle);
      CreatedHere(W.StreamCreate, Stream);
      continue;
    }
    std::string Device = W.LoopDevice
                             ? "'" + W.LoopDevice->getName().str() + "'"
                             : std::to_string(W.CalledOn.value_or(0));
    if (W.LoopDevice && W.Element) {
      diag(userLocation(W.Call->getBeginLoc(), SM),
           "%0 belongs to device %1 (the handles of '%2' are created one per "
           "device, each while the device of its index is current), but the "
           "loop makes device %3 current on each iteration before %4: every "
           "iteration but one calls on a device the handle does not belong "
           "to; index the handles with %3")
          << Handle << std::to_string(*W.CreatedOn) << W.Handle->getName()
          << Device << Callee;
    } else if (W.LoopDevice) {
      diag(userLocation(W.Call->getBeginLoc(), SM),
           "%0 is created once, before the loop over the devices, but the "
           "loop makes device %1 current on each iteration before %2: a "
           "handle belongs to the device of its cublasCreate, and the calls "
           "on the other devices fail or run on the wrong GPU; create one "
           "handle per device")
          << Handle << Device << Callee;
    } else {
      diag(userLocation(W.Call->getBeginLoc(), SM),
           "%0 was created while device %1 was current, but device %2 is "
           "current at %3: a handle belongs to the device of its "
           "cublasCreate, and this call fails or runs on the wrong GPU; make "
           "device %1 current again, or use a handle created on device %2")
          << Handle << std::to_string(*W.CreatedOn) << Device << Callee;
    }
    if (W.Element && W.Elsewhere) {
      SourceLocation At = locationInFile(const_cast<SourceManager &>(SM),
                                         W.Elsewhere->File, W.Elsewhere->Line);
      if (At.isValid())
        diag(At,
             "'%0' creates the handles of '%1' here, one per device, in "
             "another file",
             DiagnosticIDs::Note)
            << W.Elsewhere->Function << W.Handle->getName();
    } else if (W.Element && W.Create)
      diag(userLocation(W.Create->getBeginLoc(), SM),
           "the handles of '%0' are created here, one per device",
           DiagnosticIDs::Note)
          << W.Handle->getName();
    else if (W.Create && W.CreatedAtStart)
      diag(userLocation(W.Create->getBeginLoc(), SM),
           "%0 is created here, before 'main' selects any device: device 0, "
           "the device a program starts on, is current",
           DiagnosticIDs::Note)
          << Handle;
    else if (W.Create)
      CreatedHere(W.Create, Handle);
    if (W.Select)
      diag(userLocation(W.Select->getBeginLoc(), SM),
           "device %0 is made current here", DiagnosticIDs::Note)
          << Device;
    if (W.Inner)
      diag(userLocation(W.Inner->getBeginLoc(), SM),
           "%0 calls %1 with the handle here", DiagnosticIDs::Note)
          << Callee << calleeText(W.Inner, Ctx);
  }
}

void HandleStateCheck::reportRaces() {
  for (const RacedConfiguration &R : racedConfigurations(Analysable)) {
    const ASTContext &Ctx = R.In->getASTContext();
    const SourceManager &SM = Ctx.getSourceManager();
    if (expandedInSystemHeader(R.Config->getBeginLoc(), SM))
      continue;
    const handle_config::ConfigFunction *F = calledConfigFunction(R.Config);
    const FunctionInfo *Called = calledCublasFunction(R.Config);
    ApiFamily Library = Called ? Called->Family : ApiFamily::Classic;
    std::string Handle = handleText(R.Config->getArg(0), Ctx);
    std::string Whose =
        R.Owner == HandleOwner::Global   ? "a global handle"
        : R.Owner == HandleOwner::Member ? "a member handle"
        : R.Where.Region ? "declared outside the parallel region"
                         : "captured from the function that starts the threads";
    diag(userLocation(R.Config->getBeginLoc(), SM),
         "%0 changes the %1 of %2 (%3) in code that several threads run at "
         "once: the change applies to every thread's calls on that handle, "
         "and %4 handles are not to be reconfigured while threads share "
         "them; give each thread its own handle, or hold a lock across the "
         "change and the calls that depend on it")
        << calleeText(R.Config, Ctx) << handle_config::settingName(F->What)
        << Handle << Whose << libraryOf(Library);
    const char *Note =
        R.Where.How == ConcurrentCode::ParallelRegion
            ? "the parallel region that runs it on several threads"
        : R.Where.How == ConcurrentCode::Async
            ? "the asynchronous tasks that run it at once start here"
            : "the threads that run it at once start here";
    diag(userLocation(R.Where.Start->getBeginLoc(), SM), Note,
         DiagnosticIDs::Note);
  }
}

} // namespace clang::tidy::cublas
