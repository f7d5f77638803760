//===- DestroyedGlobals.cpp -----------------------------------------------===//

#include "facts/DestroyedGlobals.h"

#include "ast/AstUtils.h"
#include "ast/Callables.h"
#include "facts/Summaries.h"
#include "facts/SummaryParts.h"

#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace json = llvm::json;

namespace cublas_tidy {

/// The globals of external linkage that a destroy in `FD`'s body names,
/// and those that the functions of other files it calls destroy (as their
/// summaries say).
std::vector<std::string> destroyedGlobalsOf(const FunctionDecl *FD,
                                            const ResourceTable &Table) {
  std::vector<std::string> Out;
  for (const BodyStmt &B : stmtsIn(FD)) {
    const auto *Call = dyn_cast<CallExpr>(B.S);
    const ResourceTable::Entry *E = Call ? Table.lookup(Call) : nullptr;
    if (Call && !E)
      if (const FunctionSummary *S = projectSummaryOfCall(Call))
        Out.insert(Out.end(), S->DestroyedGlobals.begin(),
                   S->DestroyedGlobals.end());
    if (!E || E->IsCreate)
      continue;
    for (const Expr *Arg : Call->arguments()) {
      const auto *VD = dyn_cast_or_null<VarDecl>(referencedVar(Arg));
      if (!VD || !Table.destroys(Call, VD))
        continue;
      std::string Key = globalKey(VD);
      if (!Key.empty())
        Out.push_back(std::move(Key));
    }
  }
  llvm::sort(Out);
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  return Out;
}


bool destroyedInProject(const VarDecl *VD,
                        llvm::ArrayRef<const Decl *> Callables,
                        const ResourceTable &Table) {
  bool Destroyed = llvm::any_of(Callables, [&](const Decl *C) {
    return llvm::any_of(callsIn(C), [&](const CallExpr *Call) {
      return Table.destroys(Call, VD);
    });
  });
  // Asked only when the unit does not answer: the question is recorded.
  return Destroyed || projectDestroyerOf(VD);
}

bool destroyedInProject(llvm::StringRef GlobalKey,
                        llvm::ArrayRef<const Decl *> Callables,
                        const ResourceTable &Table, const ASTContext &Ctx) {
  auto NamesGlobal = [&](const CallExpr *Call) {
    const ResourceTable::Entry *E = Table.lookup(Call);
    return E && !E->IsCreate &&
           llvm::any_of(Call->arguments(), [&](const Expr *Arg) {
             const VarDecl *VD = referencedVar(Arg);
             return VD && globalKey(VD) == GlobalKey;
           });
  };
  bool Destroyed = llvm::any_of(Callables, [&](const Decl *C) {
    return llvm::any_of(callsIn(C), NamesGlobal);
  });
  return Destroyed || projectDestroyerOf(GlobalKey, Ctx);
}

// Its summary part "destroysGlobals" (facts/SummaryParts.h): the globals
// a destroy in its body names.

const SummaryPart DestroyedGlobalsSummaryPart = {
    [](const FunctionSummary &S) { return !S.DestroyedGlobals.empty(); },
    [](const FunctionSummary &S, json::Object &O) {
      O["destroysGlobals"] = summary_json::stringsToJson(S.DestroyedGlobals);
    },
    [](const json::Object &O, FunctionSummary &S) {
      return summary_json::readEach(
          O, "destroysGlobals", [&](const json::Value &G) {
            return summary_json::readName(G, S.DestroyedGlobals);
          });
    }};

} // namespace cublas_tidy
