//===- SymExprTest.cpp - Integers as symbolic expressions -----------------===//

#include "facts/SymExpr.h"
#include "TestAST.h"

#include "clang/ASTMatchers/ASTMatchers.h"
#include "gtest/gtest.h"

#include <cstdint>

using namespace clang;
using namespace clang::ast_matchers;
using namespace cublas_tidy;

namespace {

TEST(SymExpr, Arithmetic) {
  SymExpr Two = SymExpr::constant(2);
  EXPECT_EQ(Two.add(SymExpr::constant(3))->str(), "5");
  EXPECT_FALSE(SymExpr::constant(INT64_MAX).add(SymExpr::constant(1)));
  EXPECT_FALSE(SymExpr::constant(INT64_MIN).neg());
  EXPECT_EQ(SymExpr::constant(9).divExact(3)->str(), "3");
  EXPECT_FALSE(SymExpr::constant(9).divExact(2));
}

TEST(SymExpr, SymbolicOrder) {
  auto AST = test::buildAST("void f(int m, int k, unsigned long u) {}");
  ASSERT_TRUE(AST);
  const auto *F = test::selectFirst<FunctionDecl>(
      *AST, functionDecl(hasName("f")).bind("x"));
  ASSERT_TRUE(F);
  Symbol M{F->getParamDecl(0)}, K{F->getParamDecl(1)},
      U{F->getParamDecl(2), nullptr, true};
  SymExpr m = SymExpr::symbol(M), k = SymExpr::symbol(K),
          u = SymExpr::symbol(U);
  // m - 1 < m for every m; k against m is open.
  EXPECT_EQ(compare(*m.sub(SymExpr::constant(1)), m), Order::Less);
  EXPECT_EQ(compare(k, m), Order::Unknown);
  EXPECT_EQ(compare(m, m), Order::Equal);
  // Products: 4*m*k > m*k only when m and k are known to be positive.
  SymExpr mk = *m.mul(k);
  SymExpr mk4 = *mk.mul(SymExpr::constant(4));
  EXPECT_EQ(compare(mk4, mk), Order::Unknown);
  SymbolBounds Positive;
  Positive.Positive = {M, K};
  EXPECT_EQ(compare(mk4, mk, Positive), Order::Greater);
  // Unsigned symbols are never negative; squares neither.
  EXPECT_EQ(compare(*u.add(SymExpr::constant(1)), SymExpr::constant(0)),
            Order::Greater);
  EXPECT_EQ(compare(*m.mul(m), SymExpr::constant(0)), Order::GreaterOrEqual);
  EXPECT_FALSE(mk.mul(k)); // degree 3
  EXPECT_EQ(mk4.sub(mk)->str(), "3*m*k");
  EXPECT_EQ(m.sub(SymExpr::constant(5))->str(), "m - 5");
  EXPECT_EQ(SymExpr::constant(0).sub(m)->str(), "-m");
}

} // namespace
