//===- TestAST.h - Building ASTs over the cuBLAS headers in unit tests ----===//

#ifndef CUBLAS_TIDY_TEST_UNIT_TESTAST_H
#define CUBLAS_TIDY_TEST_UNIT_TESTAST_H

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cublas_tidy::test {

/// test/fallback-include and test/checks/Inputs of the checkout
/// (TestPaths.cpp, generated).
const char *fallbackInclude();
const char *testInputs();
/// The clang++ of the LLVM the tests link (TestPaths.cpp, generated).
const char *clangCompiler();

/// The directory with cublas_v2.h: the real CUDA headers when the build
/// found them, else the minimal set under test/fallback-include.
inline std::string cudaInclude() {
  std::string Real = CUBLAS_TIDY_TEST_CUDA_INCLUDE;
  return Real.empty() ? std::string(fallbackInclude()) : Real;
}

inline bool haveRealCudaHeaders() {
  return !std::string(CUBLAS_TIDY_TEST_CUDA_INCLUDE).empty();
}

/// The leading lines of `Code` that only include system headers (blank
/// and `//` lines between them allowed), as clangd's preamble: "" when it
/// includes nothing.
std::string includePreamble(const std::string &Code);

/// A precompiled header of `Preamble` made with `Args` by the clang of the
/// LLVM the tests link (TestPaths.cpp), once per process for each
/// preamble and arguments; nullopt when it cannot be made.
std::optional<std::string> preamblePCH(const std::string &Preamble,
                                       const std::vector<std::string> &Args);

/// Parses `Code` as C++17 (or C with Lang "c") with the CUDA headers as
/// system headers. The C++ code's leading #include lines are read from a
/// precompiled header (preamblePCH), as clangd reads its preamble: the
/// code still includes them, and their include guards make that free, so
/// the AST is the one a plain parse gives for a fifth of its time.
inline std::unique_ptr<clang::ASTUnit>
buildAST(const std::string &Code, const std::string &FileName = "input.cpp",
         std::vector<std::string> Extra = {}) {
  std::vector<std::string> Args = {
      "-isystem", cudaInclude(),
      "-resource-dir=" CUBLAS_TIDY_CLANG_RESOURCE_DIR,
      "-Wno-everything"};
  bool IsC = FileName.size() >= 2 && FileName.substr(FileName.size() - 2) == ".c";
  if (!IsC)
    Args.push_back("-std=c++17");
  Args.insert(Args.end(), Extra.begin(), Extra.end());
  if (!IsC)
    if (std::optional<std::string> PCH = preamblePCH(includePreamble(Code), Args)) {
      Args.push_back("-include-pch");
      Args.push_back(*PCH);
    }
  return clang::tooling::buildASTFromCodeWithArgs(Code, Args, FileName);
}

/// The first node `Matcher` binds to "x" in `AST`.
template <typename NodeT, typename MatcherT>
const NodeT *selectFirst(clang::ASTUnit &AST, const MatcherT &Matcher) {
  auto Nodes = clang::ast_matchers::match(Matcher, AST.getASTContext());
  for (const auto &N : Nodes)
    if (const auto *Node = N.template getNodeAs<NodeT>("x"))
      return Node;
  return nullptr;
}

/// The function definitions of the main file of `AST`, in source order:
/// the callables a check of the file would analyse.
inline std::vector<const clang::Decl *> definedFunctions(clang::ASTUnit &AST) {
  using namespace clang::ast_matchers;
  std::vector<const clang::Decl *> Out;
  for (const auto &N :
       match(functionDecl(isDefinition(), isExpansionInMainFile()).bind("x"),
             AST.getASTContext()))
    Out.push_back(N.getNodeAs<clang::FunctionDecl>("x"));
  return Out;
}

/// The definition of the function `Name` in `AST`, or null.
inline const clang::FunctionDecl *functionNamed(clang::ASTUnit &AST,
                                                const std::string &Name) {
  using namespace clang::ast_matchers;
  return selectFirst<clang::FunctionDecl>(
      AST, functionDecl(hasName(Name), isDefinition()).bind("x"));
}

/// The calls to the function `Callee` in the body of `F`, in source order.
inline std::vector<const clang::CallExpr *>
callsTo(clang::ASTUnit &AST, const clang::FunctionDecl *F,
        const std::string &Callee) {
  using namespace clang::ast_matchers;
  std::vector<const clang::CallExpr *> Out;
  if (!F || !F->getBody())
    return Out;
  for (const auto &N :
       match(findAll(callExpr(callee(functionDecl(hasName(Callee)))).bind("c")),
             *F->getBody(), AST.getASTContext()))
    Out.push_back(N.template getNodeAs<clang::CallExpr>("c"));
  return Out;
}

/// The local variable or parameter `Name` of the function `F`, or null.
inline const clang::VarDecl *localNamed(const clang::FunctionDecl *F,
                                        llvm::StringRef Name) {
  using namespace clang::ast_matchers;
  if (!F)
    return nullptr;
  for (const clang::ParmVarDecl *P : F->parameters())
    if (P->getName() == Name)
      return P;
  if (!F->getBody())
    return nullptr;
  for (const auto &N :
       match(stmt(forEachDescendant(varDecl(hasName(Name)).bind("v"))),
             *F->getBody(), F->getASTContext()))
    return N.getNodeAs<clang::VarDecl>("v");
  return nullptr;
}

/// Parses `Code` and prints the first argument of every call to `Callee` in
/// the function `Fn`: `Make(F, Ctx)` gives the printer for that function.
/// {"does not compile"} when the code has errors.
template <typename MakePrinter>
std::vector<std::string> printArguments(const std::string &Code,
                                        const std::string &Fn,
                                        const std::string &Callee,
                                        MakePrinter Make) {
  auto AST = buildAST(Code);
  if (!AST || AST->getDiagnostics().hasErrorOccurred())
    return {"does not compile"};
  const clang::FunctionDecl *F = functionNamed(*AST, Fn);
  auto Print = Make(F, AST->getASTContext());
  std::vector<std::string> Out;
  for (const clang::CallExpr *Call : callsTo(*AST, F, Callee))
    Out.push_back(Call->getNumArgs() ? Print(Call->getArg(0)) : "");
  return Out;
}

} // namespace cublas_tidy::test

#endif
