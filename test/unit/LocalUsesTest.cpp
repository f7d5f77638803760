//===- LocalUsesTest.cpp - How each reference to a local is used ----------===//

#include "ast/LocalUses.h"
#include "ast/Callables.h"
#include "TestAST.h"

#include "clang/ASTMatchers/ASTMatchers.h"
#include "gtest/gtest.h"

#include <map>

using namespace clang;
using namespace clang::ast_matchers;
using namespace cublas_tidy;

namespace {

/// The function `f` of `AST`, and a way to find its locals and parameters.
struct Body {
  const FunctionDecl *FD;
  const VarDecl *var(const std::string &Name) const {
    return test::localNamed(FD, Name);
  }
  /// The use of each reference to `Name`, in source order.
  std::vector<LocalUse> uses(const std::string &Name) const {
    std::vector<LocalUse> Out;
    const VarDecl *V = var(Name);
    auto Refs = indexIn(FD).RefsTo.find(V);
    if (!V || Refs == indexIn(FD).RefsTo.end())
      return Out;
    for (int I : Refs->second)
      Out.push_back(classifyLocalUse(stmtsIn(FD), I).Use);
    return Out;
  }
};

Body bodyOf(ASTUnit &AST) {
  return {test::functionNamed(AST, "f")};
}

using U = LocalUse;

TEST(LocalUses, BuiltinOperatorsAndCalls) {
  auto AST = test::buildAST(R"(
    void take(int *); void byRef(int &); void byConstRef(const int &);
    void cptr(const int *); void vararg(int, ...);
    void f(int a, int b, int c, int d, int e, int g, int h) {
      b = 3; b += a;
      c++;
      take(&d);
      byRef(e);
      byConstRef(g);
      vararg(0, h);
      (void)a;
      (void)sizeof(a);
      int s = a + 1, t = (a, 2);
    }
  )");
  ASSERT_TRUE(AST);
  Body B = bodyOf(*AST);
  ASSERT_TRUE(B.FD);
  EXPECT_EQ(B.uses("b"), (std::vector<U>{U::Assigned, U::Assigned}));
  EXPECT_EQ(B.uses("c"), (std::vector<U>{U::Incremented}));
  EXPECT_EQ(B.uses("d"), (std::vector<U>{U::AddressTaken}));
  EXPECT_EQ(B.uses("e"), (std::vector<U>{U::BoundMutable}));
  EXPECT_EQ(B.uses("g"), (std::vector<U>{U::BoundConst}));
  // A variadic argument is read (promoted by value).
  EXPECT_EQ(B.uses("h"), (std::vector<U>{U::Read}));
  EXPECT_EQ(B.uses("a"),
            (std::vector<U>{U::Read, U::Read, U::Unevaluated, U::Read,
                            U::Operand}));
}

TEST(LocalUses, ObjectsReferencesLambdasAndArrays) {
  auto AST = test::buildAST(R"(
    struct S { int n; void m(); S &operator+=(const S &); };
    void byRef(S &); void byConst(const S &); void keep(S);
    void ints(int *); void cints(const int *);
    S f(S a, S b, S c, S d, S e, S k, S l, S r) {
      a.m();
      b += a;
      S copy = c;
      S &alias = d;
      const S &view = e;
      auto byCopy = [k] { return k.n; };
      auto byReference = [&l] { return l.n; };
      int arr[4] = {};
      arr[1] = 2;
      ints(arr);
      int brr[4] = {};
      cints(brr);
      return r;
    }
  )");
  ASSERT_TRUE(AST);
  Body B = bodyOf(*AST);
  ASSERT_TRUE(B.FD);
  EXPECT_EQ(B.uses("a"), (std::vector<U>{U::Member, U::BoundConst}));
  EXPECT_EQ(B.uses("b"), (std::vector<U>{U::Member}));
  EXPECT_EQ(B.uses("c"), (std::vector<U>{U::Read}));
  EXPECT_EQ(B.uses("d"), (std::vector<U>{U::BoundMutable}));
  EXPECT_EQ(B.uses("e"), (std::vector<U>{U::BoundConst}));
  // A capture by copy is a copy constructor's argument: a read.
  EXPECT_EQ(B.uses("k"), (std::vector<U>{U::Read}));
  EXPECT_EQ(B.uses("l"), (std::vector<U>{U::Captured}));
  EXPECT_EQ(B.uses("arr"), (std::vector<U>{U::Decayed, U::Decayed}));
  EXPECT_EQ(B.uses("r"), (std::vector<U>{U::Returned}));
}

TEST(LocalUses, MemberRuleIsTheCallers) {
  auto AST = test::buildAST(R"(
    struct T { void keep() const; void resize_(int); };
    void f(T t, T u) {
      t.keep();
      u.keep();
      u.resize_(2);
    }
  )");
  ASSERT_TRUE(AST);
  Body B = bodyOf(*AST);
  ASSERT_TRUE(B.FD);
  // Without a member rule every member use may change its object.
  EXPECT_TRUE(anyUseMayChange(B.FD, B.var("t")));
  auto OnlyResize = [](const LocalUseInfo &Use) {
    const auto *ME = dyn_cast_or_null<MemberExpr>(Use.Context);
    return !ME || ME->getMemberDecl()->getName() == "resize_";
  };
  EXPECT_FALSE(anyUseMayChange(B.FD, B.var("t"), OnlyResize));
  EXPECT_TRUE(anyUseMayChange(B.FD, B.var("u"), OnlyResize));
}

// UnchangedVariables: which locals and parameters keep their first value.
TEST(UnchangedVariables, WritesAddressesAndReferences) {
  auto AST = test::buildAST(R"(
    void take(int *); void byRef(int &); void byConstRef(const int &);
    struct Box { int &ref; };
    void f(int p, int q, int r, int s, int w) {
      int a = 1, b = 2, c = 3, d = 4, e = 5;
      b = 3;
      take(&c);
      byRef(d);
      byConstRef(e);
      ++q;
      auto l = [&r] { return r; };
      Box box{s};
      (p ? w : a) = 2;
      (void)(a + p + e + l());
    }
  )");
  ASSERT_TRUE(AST);
  Body B = bodyOf(*AST);
  ASSERT_TRUE(B.FD);
  UnchangedVariables Unchanged(B.FD);
  std::map<std::string, bool> Expected = {
      {"a", false}, // assigned through the conditional's lvalue
      {"b", false}, {"c", false}, {"d", false}, {"e", true},
      {"p", true},  {"q", false}, {"r", false},
      {"s", false}, // bound to a reference member
      {"w", false},
  };
  for (const auto &[Name, Stable] : Expected)
    EXPECT_EQ(Unchanged.stable(B.var(Name)), Stable) << Name;
}

} // namespace
