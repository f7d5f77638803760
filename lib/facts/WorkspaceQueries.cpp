//===- WorkspaceQueries.cpp - The _bufferSize query of a routine ----------===//

#include "facts/WorkspaceQueries.h"

#include "ast/AstUtils.h"
#include "ast/Callables.h"
#include "facts/Definitions.h"
#include "facts/MemoryObjects.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cublas_tidy {
namespace {

/// Whether `S` writes `Var` other than through `Allowed` (the query's
/// `&var`, and the routine's own where it reads the size there): an
/// assignment, an increment, or its address taken.
bool writes(const Stmt *S, const VarDecl *Var,
            llvm::ArrayRef<const Expr *> Allowed) {
  if (const auto *Op = dyn_cast<BinaryOperator>(S))
    return Op->isAssignmentOp() && referencedVar(Op->getLHS()) == Var;
  if (const auto *Op = dyn_cast<UnaryOperator>(S)) {
    if (Op->isIncrementDecrementOp())
      return referencedVar(Op->getSubExpr()) == Var;
    if (Op->getOpcode() == UO_AddrOf)
      return llvm::none_of(Allowed,
                           [&](const Expr *A) {
                             return A && Op == A->IgnoreParenImpCasts();
                           }) &&
             referencedVar(Op->getSubExpr()) == Var;
  }
  return false;
}

/// The routine whose query sizes `Name`'s workspace: the routine itself,
/// or the one it is a step of.
StringRef sizedRoutine(StringRef Name) {
  for (StringRef Step : {"_analysis", "_solve", "_preprocess", "_convert"})
    if (Name.consume_back(Step))
      return Name;
  return Name;
}

} // namespace

StringRef routineSizedBy(const FunctionInfo &Query) {
  StringRef Routine = queriedRoutine(Query.Name);
  return Routine.empty() && sizesOwnBuffer(Query) ? StringRef(Query.Name)
                                                  : Routine;
}

StringRef queriedRoutine(StringRef Name) {
  if (Name.consume_back("_bufferSize") || Name.consume_back("_bufferSizeExt"))
    return Name;
  return "";
}

bool sizesWorkspaceOf(const FunctionInfo &Query, const FunctionInfo &F) {
  if (&Query == &F && sizesOwnBuffer(F))
    return true;
  StringRef Routine = queriedRoutine(Query.Name);
  return !Routine.empty() && Routine == sizedRoutine(F.Name);
}

const FunctionInfo *workspaceQueryOf(const FunctionInfo &F) {
  std::string Routine = sizedRoutine(F.Name).str();
  if (const FunctionInfo *Q = lookupFunction(Routine + "_bufferSize"))
    return Q;
  return lookupFunction(Routine + "_bufferSizeExt");
}

std::optional<QueryOutput> queryOutputOf(const Symbol &S,
                                         const Decl *Callable) {
  const auto *Var = dyn_cast_or_null<VarDecl>(S.Decl);
  if (!Var || !Callable)
    return std::nullopt;
  for (const auto &[C, Q, InSystemHeader] : describedCallsIn(Callable)) {
    if (C != S.Instance)
      continue;
    if (!Q || !isNeighbour(Q->Family) ||
        (queriedRoutine(Q->Name).empty() && !asksOwnSize(C, *Q)))
      return std::nullopt;
    for (unsigned I = 0; I < C->getNumArgs() && I < Q->NumParams; ++I)
      if (addressedVar(C->getArg(I)) == Var && receivedValue(Var, C) == S)
        return QueryOutput{C, Q, I, Var};
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<WorkspaceQuery> workspaceQueryFor(const CallExpr *Compute,
                                                const FunctionInfo &F,
                                                const Decl *Callable) {
  // A call that asks its own size (a null buffer) uses no workspace.
  if (!isNeighbour(F.Family) || !Callable || asksOwnSize(Compute, F))
    return std::nullopt;
  std::optional<WorkspaceQuery> Found;
  for (const auto &[C, Q, InSystemHeader] : describedCallsIn(Callable)) {
    if (C == Compute)
      break;
    if (!Q || !sizesWorkspaceOf(*Q, F) || (Q == &F && !asksOwnSize(C, F)))
      continue;
    int Elements = Q->findParam(ParamRole::WorkspaceElementsOut);
    int Bytes = Q->findParam(Q == &F ? ParamRole::WorkspaceSizeInOut
                                     : ParamRole::WorkspaceSizeOut);
    const Expr *Out = argumentAt(C, Elements >= 0 ? Elements : Bytes);
    const VarDecl *Size = Out ? addressedVar(Out) : nullptr;
    unsigned Unit = Elements >= 0 ? elementSize(Q->Elem) : 1;
    if (!Size || !Size->hasLocalStorage() || !Unit) {
      Found.reset();
      continue;
    }
    Found = WorkspaceQuery{C, Q, Out, Size, Unit};
  }
  if (!Found)
    return std::nullopt;
  // The size is the query's only where nothing else writes the variable;
  // a routine that sizes its own buffer reads the size where it wrote it.
  const Expr *Allowed[] = {
      Found->Out,
      Found->Query == &F
          ? argumentAt(Compute, F.findParam(ParamRole::WorkspaceSizeInOut))
          : nullptr};
  for (const BodyStmt &B : stmtsIn(Callable))
    if (writes(B.S, Found->Size, Allowed))
      return std::nullopt;
  return Found;
}

std::optional<SymExpr> WorkspaceQuery::neededBytes(SymbolBounds &Bounds) const {
  Symbol S = receivedValue(Size, Call);
  Bounds.Positive.insert(S);
  return SymExpr::symbol(S).mul(SymExpr::constant(UnitBytes));
}

std::optional<SymExpr> workspaceBytes(const SymExpr &Size, unsigned UnitBytes,
                                      SymbolBounds &Bounds) {
  if (UnitBytes > 1)
    if (std::optional<Symbol> S = Size.asSymbol())
      Bounds.Positive.insert(*S);
  return Size.mul(SymExpr::constant(UnitBytes));
}

} // namespace cublas_tidy
