//===- HandleStates.h - Where cuBLAS handles are created and destroyed ----===//
//
// A path-sensitive analysis of the handles and descriptors a function
// creates: on which paths a created resource reaches the end of its life
// (a return, a throw, the end of its scope, a second create, an overwrite)
// without being destroyed, and where a resource is used or destroyed again
// after a destroy on every path reaching that point.
//
// It follows the create's status: on the branch where
// `cublasCreate(&h) != CUBLAS_STATUS_SUCCESS`, h was never created. Handles
// that escape (returned, stored outside the function, passed to code it
// cannot see) are no longer tracked. Functions of the same translation unit
// that receive a handle are summarised (does this function destroy, keep or
// let escape its parameter?) to a bounded depth. Paths ending in noreturn
// calls are dropped. The work is bounded; past the bound the analysis
// reports nothing for the function.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_HANDLESTATES_H
#define CUBLAS_TIDY_LIB_FACTS_HANDLESTATES_H

#include "facts/ResourceTable.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <bitset>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cublas_tidy {


/// Whether a call of `FD` may give back a new resource of `Table`: a
/// function of the translation unit that returns a pointer (a handle) and
/// whose body calls one of the table's creates (`cublasHandle_t make() {
/// ...; cublasCreate(&h); return h; }`). `Known` keeps the answers for one
/// translation unit.
bool mayReturnNewResource(const clang::FunctionDecl *FD,
                          const ResourceTable &Table,
                          llvm::DenseMap<const clang::FunctionDecl *, bool> &Known);

/// Whether a call of `FD` may destroy a resource of `Table` it is given: a
/// function of the translation unit whose body calls one of the table's
/// destroys, itself or through such functions (`void shutdown(cublasHandle_t
/// h) { cublasDestroy(h); }`), or a function of another file whose project
/// summary destroys a handle parameter. A pre-filter: the analysis decides
/// what the call does to which handle. `Known` keeps the answers for one
/// translation unit.
bool mayDestroyResource(const clang::FunctionDecl *FD,
                        const ResourceTable &Table,
                        llvm::DenseMap<const clang::FunctionDecl *, bool> &Known);
/// The same for the function `Call` calls, asking the project's summary of
/// a function of another file only when the call gives it a handle or
/// descriptor (what it could destroy).
bool mayDestroyGiven(const clang::CallExpr *Call, const ResourceTable &Table,
                     llvm::DenseMap<const clang::FunctionDecl *, bool> &Known);

/// Whether `Call` may destroy the global resource `Global`: a destroy of
/// it, a call of a function of the unit whose body makes such a call, a
/// function of another file whose project summary destroys it, or a
/// function the unit cannot read and no summary speaks for (outside the
/// system headers and cuBLAS, and not given a cuBLAS status, as a checker
/// is). `Known` keeps the answers for one
/// translation unit.
bool mayDestroyGlobal(
    const clang::CallExpr *Call, const clang::VarDecl *Global,
    const ResourceTable &Table,
    llvm::DenseMap<std::pair<const clang::FunctionDecl *, const clang::VarDecl *>,
                   bool> &Known);

/// How a resource's life ended on some path without a destroy.
struct LeakExit {
  enum KindT {
    Return,       // a return statement
    Throw,        // a throw expression
    ThrowingCall, // a call of a function of the project that can throw
                  // (facts/Exceptions.h); S is the call
    FunctionEnd,  // falling off the end of the function
    ScopeEnd,     // the end of the variable's block
    Jump,         // a break, continue or goto leaving the variable's scope
    Recreated,    // a create into the same variable
    Overwritten,  // an assignment to the variable
  };
  KindT Kind;
  clang::SourceLocation Loc;
  const clang::Stmt *S = nullptr; // the statement at Loc, when there is one
};

struct LeakReport {
  /// The variable holding the resource; null when the result of a function
  /// that returns a new resource is never stored (`cublasSgemm(make(), ...)`).
  const clang::VarDecl *Var;
  /// The create call, or the call of the same-file function that returned a
  /// new resource.
  const clang::CallExpr *Create;
  unsigned KindId;
  llvm::SmallVector<LeakExit, 2> Exits; // in source order, unique
  /// No path of the function destroys it or hands it on: it is never
  /// destroyed, rather than missed on some paths.
  bool NeverReleased = false;
};

/// A use (or second destroy) of a resource that every path reaching it has
/// destroyed.
struct UseAfterDestroyReport {
  const clang::VarDecl *Var;
  const clang::Expr *Use;          // the call that uses or destroys it
  bool IsDestroy;                  // the use is a second destroy
  const clang::CallExpr *Destroy;  // a destroy that reaches the use
  unsigned KindId;
  /// For a use inside a function of the unit that Use calls, and that gives
  /// the handle to cuBLAS on every path from its entry: that function.
  const clang::FunctionDecl *Inside;
  /// Some paths reach the use without the destroy, but every way on from
  /// the destroy reaches the use: whenever the destroy runs, so does the
  /// use.
  bool EveryWayOnFromDestroy;
};

/// Global resources (variables of static storage) with the kind of each.
using GlobalResources =
    llvm::SmallVector<std::pair<const clang::VarDecl *, unsigned>, 2>;

struct HandleAnalysisOptions {
  unsigned MaxSteps = 1000000;     // block visits (each block also has a state cap)
  unsigned MaxStatesPerBlock = 64; // distinct path states at one block
  unsigned MaxSummaryDepth = 3;    // nesting of callee summaries
};

struct HandleAnalysisResult {
  bool Completed = false; // false: a bound was hit; nothing is reported
  std::vector<LeakReport> Leaks;
  std::vector<UseAfterDestroyReport> UsesAfterDestroy;
};

/// Analyses one function, method, lambda call operator or block. Reuse one
/// analyzer across the functions of a translation unit: it caches callee
/// summaries.
class HandleAnalyzer {
public:
  HandleAnalyzer(clang::ASTContext &Ctx, const ResourceTable &Table,
                 HandleAnalysisOptions Options = {});
  ~HandleAnalyzer();

  HandleAnalysisResult analyze(const clang::Decl *Callable);

  /// What a function does with the resource passed as its parameter.
  enum class ParamEffect { Keeps, Destroys, Escapes };
  ParamEffect summarize(const clang::FunctionDecl *FD, unsigned Param,
                        unsigned Depth);

  /// When every return of `FD` returns a resource it created (or a null
  /// pointer, on failure), the resource's kind.
  std::optional<unsigned> returnsNewResource(const clang::FunctionDecl *FD,
                                             unsigned Depth);

  /// The global resources (variables of static storage, not local
  /// statics) that every way out of `FD` leaves destroyed, with their kinds:
  /// `void teardown() { cublasDestroy(g); }`. Not those it assigns after
  /// the destroy (`g = nullptr`).
  llvm::ArrayRef<GlobalResources::value_type>
  globalsDestroyed(const clang::FunctionDecl *FD, unsigned Depth);
  /// The variables of cuBLAS resource types with global storage that the
  /// unit declares and other units can name, by globalKey: where a summary
  /// of another file says it destroys one.
  const llvm::StringMap<const clang::VarDecl *> &globalResources();

  /// Whether `Call` may change the global `VD`: a call of a function
  /// outside the system headers that the unit does not define (unless it is
  /// given a cuBLAS status: a checker), or of one whose body names `VD` or
  /// makes such a call (a create into it, an assignment).
  bool mayWriteGlobal(const clang::CallExpr *Call, const clang::VarDecl *VD,
                      unsigned Depth);

  /// The globals `Def`, a function of the unit, gives to cuBLAS on every
  /// path from its entry and may not set before (no create into them, no
  /// assignment, no call that may write them): what a call of it does
  /// first with them.
  llvm::ArrayRef<const clang::VarDecl *>
  globalsUsedOnEntry(const clang::FunctionDecl *Def, unsigned Depth);

private:
  clang::ASTContext &Ctx;
  const ResourceTable &Table;
  HandleAnalysisOptions Options;
  std::optional<llvm::StringMap<const clang::VarDecl *>> GlobalsByKey;
  llvm::DenseMap<const clang::FunctionDecl *, GlobalResources> GlobalSummaries;
  llvm::DenseMap<std::pair<const clang::FunctionDecl *, const clang::VarDecl *>,
                 bool>
      GlobalWriters;
  llvm::DenseMap<const clang::FunctionDecl *, bool> DestroysInBody;
  llvm::DenseMap<const clang::FunctionDecl *,
                 llvm::SmallVector<const clang::VarDecl *, 2>>
      GlobalsUsedOnEntry;
  llvm::DenseMap<std::pair<const clang::FunctionDecl *, unsigned>, ParamEffect>
      Summaries;
  llvm::DenseMap<const clang::FunctionDecl *, std::optional<unsigned>>
      ReturnSummaries;
};

} // namespace cublas_tidy

#endif
