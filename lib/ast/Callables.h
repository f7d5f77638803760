//===- Callables.h - The function bodies the checks analyse ---------------===//
//
// Every check analyses whole function bodies (a CFG, a parent map, a
// dataflow). Finding the body that holds a matched call through the AST
// matchers' forCallable() builds the parent map of the entire translation
// unit, CUDA and standard headers included: a fifth of a run's time. The
// checks instead match the definitions of user code and walk their bodies
// with the helpers here.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_AST_CALLABLES_H
#define CUBLAS_TIDY_LIB_AST_CALLABLES_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace cublas_tidy {

struct FunctionInfo;

/// The body of a function, method, lambda call operator or block worth
/// analysing: a definition that is not a template pattern (its
/// instantiations are analysed instead) and that compiled
/// (lib/ast/CompileErrors.h); null otherwise. `EvenWithErrors` gives the body
/// of a definition with compile errors too, for checks that judge single
/// error-free statements there.
const clang::Stmt *analysableBody(const clang::Decl *Callable,
                                  bool EvenWithErrors = false);

/// A statement of a function body, and the index of its parent in the same
/// list (-1 for the body itself).
struct BodyStmt {
  const clang::Stmt *S;
  int Parent;
};

/// The statements of the body of `Callable` in pre-order (source order),
/// except the bodies of lambdas, blocks and local classes nested in it
/// (callables of their own; a lambda's captures are in). Empty without a
/// body. One walk per function and translation unit, shared by every
/// analysis that asks (lib/ast/TranslationUnitCache.h): walking a body costs
/// as much as most analyses of it.
llvm::ArrayRef<BodyStmt> stmtsIn(const clang::Decl *Callable);

/// The index in `Stmts` (a list from stmtsIn()) of the nearest statement
/// above `Stmts[I]` that is not a parenthesis or an implicit conversion;
/// -1 at the top. With `KeepLoads`, a load (an lvalue-to-rvalue
/// conversion) is not passed: it tells that the value below is read.
int parentThroughWrappers(llvm::ArrayRef<BodyStmt> Stmts, int I,
                          bool KeepLoads = false);

/// Adds to `Parents` the parent of `Stmts[I]` and of each of its ancestors
/// in `Stmts` (a list from stmtsIn()), up to one whose parent is there
/// already.
void addAncestors(
    llvm::ArrayRef<BodyStmt> Stmts, size_t I,
    llvm::DenseMap<const clang::Stmt *, const clang::Stmt *> &Parents);

/// Whether `Stmts[I]` is in a branch that a condition written as a literal
/// switches off: the body of `if (0)`, `if (false)` or `if (!1)`, or the
/// else of `if (1)`. A condition from a macro or a named constant is a
/// build setting that other builds turn on: it switches nothing off here.
bool inSwitchedOffBranch(llvm::ArrayRef<BodyStmt> Stmts, size_t I);

/// Whether the call or reference `S` of `Callable`, a template
/// instantiation, is in a branch that the instantiation's arguments switch
/// off: the else of `if (OUT == 32)` in the instantiation for OUT = 32,
/// where the condition depends on nothing but template arguments. That
/// branch never runs in this instantiation (another instantiation, judged
/// on its own, runs it). False for functions that are not instantiations.
bool switchedOffByTemplateArguments(const clang::Decl *Callable,
                                    const clang::Stmt *S);

/// Where, in stmtsIn(`Callable`), each call and each variable reference is,
/// and the references to each variable in order: for analyses that start
/// from a call or a reference and climb to its parents. Built once per
/// function and translation unit, like the list.
struct BodyIndex {
  llvm::DenseMap<const clang::Stmt *, int> At; // calls and DeclRefExprs
  llvm::DenseMap<const clang::VarDecl *, llvm::SmallVector<int, 4>> RefsTo;

  /// The index of `S` (a call or a reference) in the list, or -1.
  int indexOf(const clang::Stmt *S) const {
    auto It = At.find(S);
    return It == At.end() ? -1 : It->second;
  }
};
const BodyIndex &indexIn(const clang::Decl *Callable);

/// The calls among stmtsIn(`Callable`), in the same order; kept as well.
llvm::ArrayRef<const clang::CallExpr *> callsIn(const clang::Decl *Callable);

/// One of callsIn(`Callable`) with what every check of calls asks of it
/// first: the modelled function it calls (null for any other function) and
/// whether it was expanded in a system header.
struct CallInBody {
  const clang::CallExpr *Call;
  const FunctionInfo *Callee;
  bool InSystemHeader;
};
/// callsIn(`Callable`) so described, once per function and translation
/// unit for all the checks.
llvm::ArrayRef<CallInBody> describedCallsIn(const clang::Decl *Callable);

/// True when one of callsIn(`Callable`) satisfies `Pred`.
bool callsAny(const clang::Decl *Callable,
              llvm::function_ref<bool(const clang::CallExpr *)> Pred);

} // namespace cublas_tidy

#endif
