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
  EXPECT_FALSE(mk.mul(mk)); // degree 4
  EXPECT_EQ(mk4.sub(mk)->str(), "3*m*k");
  EXPECT_EQ(m.sub(SymExpr::constant(5))->str(), "m - 5");
  EXPECT_EQ(SymExpr::constant(0).sub(m)->str(), "-m");
}

TEST(SymExpr, ProductsOfThree) {
  auto AST = test::buildAST("void f(int m, int n, int b) {}");
  ASSERT_TRUE(AST);
  const auto *F = test::selectFirst<FunctionDecl>(
      *AST, functionDecl(hasName("f")).bind("x"));
  ASSERT_TRUE(F);
  Symbol M{F->getParamDecl(0)}, N{F->getParamDecl(1)}, B{F->getParamDecl(2)};
  SymExpr m = SymExpr::symbol(M), n = SymExpr::symbol(N),
          b = SymExpr::symbol(B);
  // A strided batch's last element: stride * (batch - 1) + ld * (n - 1) + m
  // with stride = m * n and ld = m is m * n * batch.
  SymExpr Stride = *m.mul(n);
  SymExpr Last = *Stride.mul(*b.sub(SymExpr::constant(1)))
                      ->add(*m.mul(*n.sub(SymExpr::constant(1))))
                      ->add(m);
  EXPECT_EQ(Last, *m.mul(n)->mul(b));
  EXPECT_EQ(Last.terms().size(), 1u);
  EXPECT_EQ(Last.terms().front().first.degree(), 3u);
  // The order of the factors does not matter.
  EXPECT_EQ(*b.mul(n)->mul(m), *m.mul(*n.mul(b)));
  EXPECT_EQ(b.mul(n)->mul(m)->str(), Last.str());
  // Bounds: m*n*b >= 1 when each is positive, unknown otherwise; a square
  // times a positive symbol is never negative.
  SymbolBounds Positive;
  Positive.Positive = {M, N, B};
  EXPECT_EQ(compare(Last, SymExpr::constant(0), Positive), Order::Greater);
  EXPECT_EQ(compare(Last, SymExpr::constant(0)), Order::Unknown);
  SymbolBounds OnlyB;
  OnlyB.Positive = {B};
  EXPECT_EQ(compare(*m.mul(m)->mul(b), SymExpr::constant(0), OnlyB),
            Order::GreaterOrEqual);
  EXPECT_EQ(compare(*m.mul(m)->mul(m), SymExpr::constant(0), OnlyB),
            Order::Unknown);
  EXPECT_FALSE(Last.mul(m)); // degree 4
}

} // namespace
