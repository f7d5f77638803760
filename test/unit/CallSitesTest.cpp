//===- CallSitesTest.cpp - The unit's call graph, made once ---------------===//

#include "ast/CallSites.h"
#include "TestAST.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace cublas_tidy;

namespace {

const char *const Code = R"(
  void leaf(int) {}
  void mid(int n) { leaf(n); leaf(n + 1); }
  void top() { mid(1); leaf(2); mid(3); }
  void other() { top(); }
)";

TEST(CallSites, CallersAndSitesInOrder) {
  auto AST = test::buildAST(Code);
  ASSERT_TRUE(AST);
  std::vector<const Decl *> Fns = test::definedFunctions(*AST);
  const CallSiteIndex &G = unitCallSites(Fns);
  const FunctionDecl *Leaf = test::functionNamed(*AST, "leaf");
  const FunctionDecl *Mid = test::functionNamed(*AST, "mid");
  const FunctionDecl *Top = test::functionNamed(*AST, "top");
  ASSERT_TRUE(Leaf && Mid && Top);
  // Each caller once, in the order of the callables.
  ASSERT_EQ(G.callersOf(Leaf).size(), 2u);
  EXPECT_EQ(G.callersOf(Leaf)[0], Mid);
  EXPECT_EQ(G.callersOf(Leaf)[1], Top);
  // Every call, in source order within a caller.
  ASSERT_EQ(G.sitesOf(Mid).size(), 2u);
  EXPECT_EQ(G.sitesOf(Mid)[0].second, Top);
  EXPECT_LT(G.sitesOf(Mid)[0].first->getBeginLoc(),
            G.sitesOf(Mid)[1].first->getBeginLoc());
  EXPECT_EQ(G.sitesOf(Leaf).size(), 3u);
  EXPECT_TRUE(G.callersOf(test::functionNamed(*AST, "other")).empty());
}

TEST(CallSites, OneGraphPerUnitAndList) {
  auto AST = test::buildAST(Code);
  ASSERT_TRUE(AST);
  std::vector<const Decl *> Fns = test::definedFunctions(*AST);
  const CallSiteIndex &G = unitCallSites(Fns);
  // The same callables in another vector: the same graph, not a new one.
  std::vector<const Decl *> Copy = Fns;
  EXPECT_EQ(&unitCallSites(Copy), &G);
  // Other callables: a graph of their own, and the first one stays.
  std::vector<const Decl *> NoTop;
  for (const Decl *D : Fns)
    if (D != test::functionNamed(*AST, "top"))
      NoTop.push_back(D);
  const CallSiteIndex &H = unitCallSites(NoTop);
  EXPECT_NE(&H, &G);
  EXPECT_EQ(H.callersOf(test::functionNamed(*AST, "leaf")).size(), 1u);
  EXPECT_EQ(&unitCallSites(Fns), &G);
  EXPECT_EQ(G.callersOf(test::functionNamed(*AST, "leaf")).size(), 2u);
  EXPECT_TRUE(unitCallSites({}).callersOf(test::functionNamed(*AST, "leaf"))
                  .empty());
}

TEST(CallSites, ANewUnitGetsItsOwnGraph) {
  auto First = test::buildAST(Code);
  ASSERT_TRUE(First);
  std::vector<const Decl *> Fns = test::definedFunctions(*First);
  EXPECT_EQ(unitCallSites(Fns).sitesOf(test::functionNamed(*First, "leaf")).size(),
            3u);
  auto Second = test::buildAST("void leaf(int) {} void once() { leaf(0); }");
  ASSERT_TRUE(Second);
  std::vector<const Decl *> Other = test::definedFunctions(*Second);
  EXPECT_EQ(
      unitCallSites(Other).sitesOf(test::functionNamed(*Second, "leaf")).size(),
      1u);
}

} // namespace
