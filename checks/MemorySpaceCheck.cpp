//===- MemorySpaceCheck.cpp - Shared part of the memory-space checks ------===//

#include "MemorySpaceCheck.h"

#include "model/LtAttributes.h"

#include "ast/Callables.h"
#include "ast/TranslationUnitCache.h"

#include "ast/AstUtils.h"
#include "facts/BufferParams.h"
#include "facts/CallerFacts.h"
#include "facts/DescriptorData.h"
#include "facts/LibraryModel.h"
#include "facts/PointerModes.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang::ast_matchers;
using namespace cublas_tidy;

namespace clang::tidy::cublas {

namespace {

/// `E` as written, in quotes, when short and on one line; else `Otherwise`.
std::string quoted(const Expr *E, const ASTContext &Ctx, StringRef Otherwise) {
  std::string Text = writtenText(E, Ctx, /*MaxLength=*/60);
  return Text.empty() ? Otherwise.str() : "'" + Text + "'";
}

bool isLocal(const ValueDecl *D) {
  const auto *VD = dyn_cast_or_null<VarDecl>(D);
  return VD && VD->hasLocalStorage();
}

/// "a std::vector's host storage", "device memory from 'cudaMalloc'", ...
std::string describe(const PointerFact &Fact) {
  const PointerOrigin &O = Fact.Origin;
  if (O.Kind == OriginKind::Library && O.Library) {
    std::string Of = O.Object ? " '" + O.Object->getName().str() + "'" : "";
    LibraryTerms Terms = O.Library->terms();
    if (Fact.Kind == MemoryKind::Device)
      return ("the device storage of " + Terms.DeviceObject + Of).str();
    if (Fact.Kind == MemoryKind::PageableHost)
      return ("the host storage of " + Terms.HostObject + Of).str();
    return "memory";
  }
  if (Fact.Kind == MemoryKind::Device) {
    if (O.Kind == OriginKind::Container && !O.Name.empty())
      return ("a " + O.Name + "'s device storage").str();
    if (O.Kind == OriginKind::Allocation && !O.Name.empty())
      return ("device memory from '" + O.Name + "'").str();
    return "device memory";
  }
  if (Fact.Kind != MemoryKind::PageableHost)
    return "memory";
  switch (O.Kind) {
  case OriginKind::Allocation:
  case OriginKind::New:
    return ("host memory from '" + O.Name + "'").str();
  case OriginKind::Container:
    return ("a " + O.Name + "'s host storage").str();
  case OriginKind::Array:
    return isLocal(O.Object) ? "a host array on the stack" : "a host array";
  case OriginKind::Variable:
    return isLocal(O.Object) ? "a variable on the host stack"
                             : "a host variable";
  case OriginKind::Library:
  case OriginKind::None:
    break;
  }
  return "host memory";
}

} // namespace

/// The provenance of a function's pointers, computed once for both memory
/// space checks.
static thread_local TranslationUnitCache<const Decl *, PointerProvenance>
    Provenances;

/// The summary of the function `Call` calls, when it is defined in another
/// unit of the project and passes pointer parameters to cuBLAS
/// (facts/Summaries.h).
static const FunctionSummary *projectBufferParams(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || llvm::none_of(FD->parameters(), [](const ParmVarDecl *P) {
        return P->getType()->isPointerType();
      }))
    return nullptr;
  const FunctionSummary *S = projectSummaryOfCall(Call);
  return S && !S->Buffers.empty() ? S : nullptr;
}

const PointerProvenance &MemorySpaceCheck::provenanceOf(const Decl *Callable,
                                                        ASTContext &Ctx) {
  return *Provenances.get(Ctx, Callable, [&] {
    PointerProvenance::Options Opts;
    // The checks ask about cuBLAS calls, and the calls of the project's
    // functions that pass pointers to cuBLAS.
    Opts.CublasCallsOnly = true;
    Opts.AlsoKeep = [](const CallExpr *Call) {
      return projectBufferParams(Call) != nullptr;
    };
    return std::make_unique<PointerProvenance>(
        PointerProvenance::analyze(Callable, Ctx, Opts));
  });
}

bool MemorySpaceCheck::worthVisiting(const Decl *Callable, ASTContext &Ctx) {
  // Only functions that call cuBLAS, or a function of another unit that
  // passes pointers to cuBLAS, are worth the dataflow.
  bool ProjectCalls = false;
  if (llvm::none_of(describedCallsIn(Callable),
                    [&](const CallInBody &C) {
                      if (C.Callee)
                        return true;
                      ProjectCalls =
                          ProjectCalls || projectBufferParams(C.Call);
                      return false;
                    }) &&
      !ProjectCalls)
    return false;
  // Nothing the dataflow could learn would be wrong memory (asked once for
  // both memory space checks).
  static thread_local TranslationUnitCache<const Decl *, bool> NothingWrong;
  return ProjectCalls || !*NothingWrong.get(Ctx, Callable, [&] {
    return std::make_unique<bool>(
        PointerProvenance::learnsNothingWrong(Callable));
  });
}

std::optional<llvm::ArrayRef<const CallExpr *>>
MemorySpaceCheck::callsToVisit(const Decl *Callable, ASTContext &Ctx) {
  // The calls the dataflow reached, when it completed.
  const PointerProvenance &P = provenanceOf(Callable, Ctx);
  if (!P.complete())
    return llvm::ArrayRef<const CallExpr *>();
  return P.calls();
}

void MemorySpaceCheck::checkOtherCall(const CallExpr *Call,
                                      const Decl *Callable, ASTContext &Ctx) {
  if (const FunctionSummary *S = projectBufferParams(Call))
    checkProjectCall(Call, *S, provenanceOf(Callable, Ctx), Ctx);
}

/// The pointers given to a function of another unit against what the
/// cuBLAS calls it passes them to need.
void MemorySpaceCheck::checkProjectCall(const CallExpr *Call,
                                        const FunctionSummary &S,
                                        const PointerProvenance &P,
                                        ASTContext &Ctx) {
  for (const FunctionSummary::BufferParam &B : S.Buffers) {
    const FunctionInfo *F = lookupFunction(B.Callee);
    if (!F || B.Arg >= F->params().size() || B.Index >= Call->getNumArgs())
      continue;
    std::optional<Expected> Want = expectationFor(F->params()[B.Arg].Role);
    if (!Want)
      continue;
    PointerFact Fact = P.argument(Call, B.Index);
    if (Fact.Kind != Wrong)
      continue;
    const SourceManager &SM = Ctx.getSourceManager();
    const Expr *Arg = Call->getArg(B.Index);
    SourceLocation Loc = userLocation(Arg->getBeginLoc(), SM);
    if (Loc.isInvalid() ||
        !Reported.insert({Loc.getRawEncoding(), B.Index}).second)
      continue;
    std::string Callee = spelledCalleeName(Call, SM, Ctx.getLangOpts());
    CharSourceRange Range = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(Arg->getSourceRange()), SM,
        Ctx.getLangOpts());
    StringRef Param = F->params()[B.Arg].Name;
    if (*Want == Expected::DevicePointerArray)
      diag(Loc, "%0 points to %1, but '%2' gives it to '%3' as the array of "
                "pointers '%4', which must itself be in device memory")
          << quoted(Arg, Ctx, "the argument") << describe(Fact) << Callee
          << B.Spelled << Param << Range;
    else
      diag(Loc, "%0 points to %1, but '%2' gives it to '%3' as argument "
                "'%4', which must point to %select{device|host}5 memory")
          << quoted(Arg, Ctx, "the argument") << describe(Fact) << Callee
          << B.Spelled << Param << (*Want == Expected::HostMemory) << Range;
    noteOrigin(Arg, Fact, SM);
    SourceLocation At =
        locationInFile(Ctx.getSourceManager(), B.callFile(S.File), B.Line);
    if (At.isValid())
      diag(At, "'%0' gives its parameter%1 to '%2' here, in another file",
           DiagnosticIDs::Note)
          << Callee << throughText(B) << B.Spelled;
  }
}

/// The memory of each pointer argument against what the parameter needs;
/// a scalar's against its pointer mode (facts/PointerModes.h: the classic
/// handle's, or cublasLtMatmul's descriptor's).
void MemorySpaceCheck::checkCall(const CallExpr *Call, const FunctionInfo &F,
                                 const Decl *Callable, ASTContext &Ctx) {
  const PointerProvenance &P = provenanceOf(Callable, Ctx);
  llvm::ArrayRef<ParamInfo> Params = F.params();
  for (unsigned I = 0,
                E = std::min<unsigned>(Params.size(), Call->getNumArgs());
       I < E; ++I) {
    ParamRole Role = Params[I].Role;
    bool IsScalar =
        Role == ParamRole::Scalar || Role == ParamRole::ScalarResult;
    std::optional<Expected> Want = expectationFor(Role);
    if (!IsScalar && !Want)
      continue;
    PointerFact Fact = P.argument(Call, I);
    if (Fact.Kind != Wrong)
      continue;
    if (!IsScalar) {
      // A placeholder the descriptor keeps until the unit gives it its
      // real arrays: no routine reads it.
      if (!storesDescriptorData(F) || !descriptorDataReplaced(Call, Ctx))
        report(Call, F, I, Fact, *Want, Ctx);
      continue;
    }
    ScalarPointerMode M =
        pointerModeAt(Call, F, I, P, [&]() -> const ValueFacts & {
          return sharedValueFacts(Callable, Ctx);
        });
    if (M.Mode.Mode == ScalarMode)
      report(Call, F, I, Fact,
             ScalarMode == PointerMode::Device ? Expected::DeviceMemory
                                               : Expected::HostMemory,
             Ctx, &M.Mode, M.Handle, M.Name);
  }
  if (StringRef(F.Name) == "cublasLtMatmulDescSetAttribute" &&
      expectationFor(ParamRole::DeviceVector) == Expected::DeviceMemory)
    checkPointerAttribute(Call, P, Callable, Ctx);
}

void MemorySpaceCheck::checkPointerAttribute(const CallExpr *Call,
                                             const PointerProvenance &P,
                                             const Decl *Callable,
                                             ASTContext &Ctx) {
  if (Call->getNumArgs() < 3)
    return;
  std::optional<SymExpr> Attr =
      sharedValueFacts(Callable, Ctx).evaluate(Call->getArg(1));
  std::optional<int64_t> Value = Attr ? Attr->getConstant() : std::nullopt;
  const char *Name =
      Value ? lt_api::devicePointerAttributeName(*Value) : nullptr;
  const auto *Address =
      dyn_cast<UnaryOperator>(Call->getArg(2)->IgnoreParenImpCasts());
  if (!Name || !Address || Address->getOpcode() != UO_AddrOf ||
      !Address->getSubExpr()->getType()->isPointerType())
    return;
  const Expr *Ptr = Address->getSubExpr();
  PointerFact Fact = P.heldBy(Call, Ptr);
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = userLocation(Ptr->getBeginLoc(), SM);
  if (Fact.Kind != Wrong || Loc.isInvalid() ||
      !Reported.insert({Loc.getRawEncoding(), 2}).second)
    return;
  diag(Loc, "%0 points to %1, but %2 of the matmul descriptor must point to "
            "device memory: cublasLtMatmul dereferences it on the GPU")
      << quoted(Ptr, Ctx, "the pointer") << describe(Fact) << Name;
  noteOrigin(Ptr, Fact, SM);
}

void MemorySpaceCheck::report(const CallExpr *Call, const FunctionInfo &F,
                              unsigned Index, const PointerFact &Fact,
                              Expected Want, ASTContext &Ctx,
                              const PointerModeFact *Mode, const Expr *Handle,
                              StringRef ModeName) {
  const SourceManager &SM = Ctx.getSourceManager();
  const Expr *Arg = Call->getArg(Index);
  SourceLocation Loc = userLocation(Arg->getBeginLoc(), SM);
  if (Loc.isInvalid() || !Reported.insert({Loc.getRawEncoding(), Index}).second)
    return;

  std::string What = quoted(Arg, Ctx, "the argument");
  std::string Memory = describe(Fact);
  StringRef Param = F.params()[Index].Name;
  std::string Callee = spelledCalleeName(Call, SM, Ctx.getLangOpts());
  CharSourceRange Range = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Arg->getSourceRange()), SM,
      Ctx.getLangOpts());
  std::string HandleText = quoted(Handle, Ctx, "the handle");
  bool Written = F.params()[Index].Role == ParamRole::ScalarResult;

  bool ToHost = Want == Expected::HostMemory;
  if (Mode) {
    diag(Loc, "%0 points to %1, but '%2' of '%3' is %select{read from|"
              "written to}4 %select{device|host}5 memory: the pointer mode of "
              "%6 is %7")
        << What << Memory << Param << Callee << Written << ToHost << HandleText
        << ModeName << Range;
  } else if (Want == Expected::DevicePointerArray) {
    diag(Loc, "%0 points to %1, but the array of pointers '%2' of '%3' "
              "must itself be in device memory")
        << What << Memory << Param << Callee << Range;
  } else {
    diag(Loc, "%0 points to %1, but argument '%2' of '%3' must point to "
              "%select{device|host}4 memory")
        << What << Memory << Param << Callee << ToHost << Range;
  }

  noteOrigin(Arg, Fact, SM);

  // Where the pointer mode was set.
  if (Mode && Mode->Where) {
    SourceLocation ModeLoc = userLocation(Mode->Where->getBeginLoc(), SM);
    if (Mode->FromCreate)
      diag(ModeLoc, "%0 is created here in the default %1", DiagnosticIDs::Note)
          << HandleText << ModeName;
    else
      diag(ModeLoc, "pointer mode of %0 set to %1 here", DiagnosticIDs::Note)
          << HandleText << ModeName;
  }
}

/// Where the memory came from.
void MemorySpaceCheck::noteOrigin(const Expr *Arg, const PointerFact &Fact,
                                  const SourceManager &SM) {
  const PointerOrigin &O = Fact.Origin;
  switch (O.Kind) {
  case OriginKind::Allocation:
  case OriginKind::New:
    if (O.Where && !containsStmt(Arg, O.Where))
      diag(userLocation(O.Where->getBeginLoc(), SM), "allocated by '%0' here",
           DiagnosticIDs::Note)
          << O.Name;
    break;
  case OriginKind::Container:
    if (O.Where && !containsStmt(Arg, O.Where))
      diag(userLocation(O.Where->getBeginLoc(), SM),
           "storage of %select{a %1|%1 '%2'}0 taken here", DiagnosticIDs::Note)
          << (O.Object != nullptr) << O.Name
          << (O.Object ? O.Object->getName() : StringRef());
    else if (O.Object)
      diag(userLocation(O.Object->getLocation(), SM), "'%1' declared here (%0)",
           DiagnosticIDs::Note)
          << O.Name << O.Object->getName();
    break;
  case OriginKind::Array:
  case OriginKind::Variable:
    if (O.Object)
      diag(userLocation(O.Object->getLocation(), SM), "'%0' declared here",
           DiagnosticIDs::Note)
          << O.Object->getName();
    break;
  case OriginKind::Library:
    // What made its memory the host's or the device's.
    if (O.Established && O.Library && !containsStmt(Arg, O.Established)) {
      LibraryTerms Terms = O.Library->terms();
      bool Device = Fact.Kind == MemoryKind::Device;
      std::string Name = O.Object ? "'" + O.Object->getName().str() + "'"
                                  : ("the " + Terms.Object).str();
      if (O.DefaultDevice)
        diag(userLocation(O.Established->getBeginLoc(), SM),
             "%0 is made here on the CPU: its options name no device",
             DiagnosticIDs::Note)
            << Name;
      else
        diag(userLocation(O.Established->getBeginLoc(), SM),
             "%0 is a %1: its device is set here", DiagnosticIDs::Note)
            << Name << (Device ? Terms.DeviceObject : Terms.HostObject);
    }
    break;
  case OriginKind::None:
    break;
  }

}

} // namespace clang::tidy::cublas
