//===- Summaries.h - Facts about functions, across translation units ------===//
//
// A project keeps its cuBLAS code behind functions defined in other files:
// a status checker in utils.cpp, a GEMM wrapper in math.cu, a shutdown() in
// engine.cpp that destroys the handle init() created. Within one unit such a
// function has no body, and the analyses know nothing of it; its summary
// (facts/SummaryStore.h), made in the unit that defines it, says what the
// analyses found there. Here: the keys of functions and globals, and the
// questions the analyses ask of the project's summaries.
//
// The analyses of a thread consult the store set by ProjectFactsScope (the
// front ends set it), and record each function they asked about: a run that
// asked about none of the functions a store knows needs no second look.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_SUMMARIES_H
#define CUBLAS_TIDY_LIB_FACTS_SUMMARIES_H

#include "facts/SummaryStore.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace cublas_tidy {

/// The key under which `FD` is summarised: its mangled name (a
/// destructor's complete-object one). Empty for what no other unit can call
/// (internal linkage, a template pattern, a constructor).
std::string summaryKey(const clang::FunctionDecl *FD);

/// The key of a variable with external linkage (its mangled name); empty
/// for one that no other unit can name.
std::string globalKey(const clang::VarDecl *VD);

/// While alive, the analyses on this thread consult `Store` (may be null),
/// record the keys they ask about in `Asked` (may be null), and give the
/// summaries of the unit they analyse to `Made` and the summary of its main
/// file to `MadeFiles` (may be null). Scopes nest.
class ProjectFactsScope {
public:
  ProjectFactsScope(const SummaryStore *Store,
                    std::vector<std::string> *Asked,
                    std::vector<FunctionSummary> *Made = nullptr,
                    std::vector<FileSummary> *MadeFiles = nullptr);
  ~ProjectFactsScope();
  ProjectFactsScope(const ProjectFactsScope &) = delete;
  ProjectFactsScope &operator=(const ProjectFactsScope &) = delete;

private:
  const SummaryStore *PrevStore;
  std::vector<std::string> *PrevAsked;
  std::vector<FunctionSummary> *PrevMade;
  std::vector<FileSummary> *PrevMadeFiles;
  const clang::ASTContext *PrevMadeFor;
};

/// True when a scope with a store is active on this thread.
bool projectFactsActive();

/// True when projectSummary() may answer or record anything: a store is in
/// use, or questions are recorded. Callers skip their own work otherwise.
bool projectFactsWanted();

/// The store consulted on this thread when no scope sets one (a check
/// option names it, for the front ends that run units one by one: the
/// plugin and clangd). Null: none.
void setThreadDefaultStore(std::shared_ptr<const SummaryStore> Store);

/// Makes the store that `Option` names (a path; empty: the one beside the
/// compile database of the unit's main file, findStoreFor; "none": none)
/// this thread's default for the unit of `Ctx`. Resolved once per unit and
/// option: every check of the unit asks. Returns the path when `Problem`
/// says why its store cannot be used.
std::string useStoreForUnit(const clang::ASTContext &Ctx,
                            llvm::StringRef Option, std::string &Problem);

/// Where the summaries made in this thread's current unit go, the first
/// time it is asked for that unit (several checks end each unit); null when
/// no scope collects them or they were given already.
std::vector<FunctionSummary> *summarySinkFor(const clang::ASTContext &Ctx);
/// Where the summary of the main file goes, once summarySinkFor() gave
/// the unit's sink; null when no scope collects it.
std::vector<FileSummary> *fileSummarySink();

/// The project's summary of `FD`, a function with no definition in this
/// translation unit; null when none is known. Records the question.
const FunctionSummary *projectSummary(const clang::FunctionDecl *FD);

/// The project's summary of the function `Call` calls, when that function
/// is defined in another unit: it has no definition here, and is neither a
/// cuBLAS function nor a system header's. Null otherwise, or when none is
/// known. Records the question.
const FunctionSummary *projectSummaryOfCall(const clang::CallExpr *Call);

/// The functions of other units that `Callables` call, each once (in the
/// order first called), with their summaries that `Wanted` accepts.
std::vector<std::pair<const clang::FunctionDecl *, const FunctionSummary *>>
projectCallees(llvm::ArrayRef<const clang::Decl *> Callables,
               llvm::function_ref<bool(const FunctionSummary &)> Wanted);

/// A function of another file of the project that creates the global
/// array `VD` (of external linkage) one handle per device, with where, as
/// the project's summaries say; nothing when none is known. Records the
/// question.
std::optional<std::pair<const FunctionSummary *,
                        const FunctionSummary::PerDeviceGlobal *>>
projectPerDeviceCreatorOf(const clang::VarDecl *VD);

/// A function of another file of the project that destroys the global
/// `VD` (of external linkage), as the project's summaries say; null when
/// none is known. Records the question.
const FunctionSummary *projectDestroyerOf(const clang::VarDecl *VD);
/// The same for the global of key `GlobalKey`, asked in `Ctx`'s unit.
const FunctionSummary *projectDestroyerOf(llvm::StringRef GlobalKey,
                                          const clang::ASTContext &Ctx);

/// The routes of the exceptions of the function of key `Callee` in the
/// other files of the project (not the unit's main file, which decides
/// from its own code), as the store says; each with its file. Records the
/// question.
std::vector<std::pair<const FileSummary *, const FileSummary::ExceptionRoute *>>
projectExceptionRoutes(llvm::StringRef Callee, const clang::ASTContext &Ctx);

} // namespace cublas_tidy

#endif
