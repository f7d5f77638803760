//===- TestAST.h - Building ASTs over the cuBLAS headers in unit tests ----===//

#ifndef CUBLAS_TIDY_TEST_UNIT_TESTAST_H
#define CUBLAS_TIDY_TEST_UNIT_TESTAST_H

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <memory>
#include <string>
#include <vector>

namespace cublas_tidy::test {

/// The directory with cublas_v2.h: the real CUDA headers when the build
/// found them, else the minimal set under test/fallback-include.
inline std::string cudaInclude() {
  std::string Real = CUBLAS_TIDY_TEST_CUDA_INCLUDE;
  return Real.empty() ? CUBLAS_TIDY_TEST_FALLBACK_INCLUDE : Real;
}

inline bool haveRealCudaHeaders() {
  return !std::string(CUBLAS_TIDY_TEST_CUDA_INCLUDE).empty();
}

/// Parses `Code` as C++17 (or C with Lang "c") with the CUDA headers as
/// system headers.
inline std::unique_ptr<clang::ASTUnit>
buildAST(const std::string &Code, const std::string &FileName = "input.cpp",
         std::vector<std::string> Extra = {}) {
  std::vector<std::string> Args = {
      "-isystem", cudaInclude(),
      "-resource-dir=" CUBLAS_TIDY_CLANG_RESOURCE_DIR,
      "-Wno-everything"};
  if (FileName.size() < 2 || FileName.substr(FileName.size() - 2) != ".c")
    Args.push_back("-std=c++17");
  Args.insert(Args.end(), Extra.begin(), Extra.end());
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

} // namespace cublas_tidy::test

#endif
