//===- CallablesTest.cpp - Walks over function bodies and shared caches ---===//

#include "ast/Callables.h"
#include "TestAST.h"
#include "ast/AstUtils.h"
#include "ast/TranslationUnitCache.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "gtest/gtest.h"

#include <set>
#include <thread>

using namespace clang;
using namespace cublas_tidy;

namespace {

const char *const Body = R"(
  int g(int);
  struct S { int m; int get() const; };
  int f(int a, int *p, S s) {
    int x = g(a) + (a ? g(1) : g(2)), y = 0;
    if (int z = g(x); z > 0) { y = g(z), ++y; } else y = -1;
    for (int i = 0; i < a; ++i) x += p[i];
    switch (x) { case 1: y = s.get(); break; default: break; }
    auto l = [x, &y](int q) { return g(q) + x + y; };
    int w = ({ int t = g(3); t + 1; });
    while (y < 10) y += l(w);
    do { --y; } while (y > 0);
    return sizeof(g(x)) + y;
  }
)";

TEST(Callables, ParentsAgreeWithTheParentMap) {
  auto AST = test::buildAST(Body);
  ASSERT_TRUE(AST);
  ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
  const FunctionDecl *F = test::functionNamed(*AST, "f");
  ASSERT_NE(F, nullptr);
  ParentMap Parents(F->getBody());
  llvm::ArrayRef<BodyStmt> Stmts = stmtsIn(F);
  ASSERT_GT(Stmts.size(), 100u);
  EXPECT_EQ(Stmts[0].S, F->getBody());
  EXPECT_EQ(Stmts[0].Parent, -1);
  std::set<const Stmt *> Seen;
  for (size_t I = 1; I < Stmts.size(); ++I) {
    EXPECT_TRUE(Seen.insert(Stmts[I].S).second) << "twice";
    ASSERT_GE(Stmts[I].Parent, 0);
    // Pre-order: a parent comes first.
    EXPECT_LT(static_cast<size_t>(Stmts[I].Parent), I);
    EXPECT_EQ(Stmts[Stmts[I].Parent].S, Parents.getParent(Stmts[I].S))
        << Stmts[I].S->getStmtClassName();
  }
}

TEST(Callables, LambdaBodiesAreTheirOwn) {
  auto AST = test::buildAST(Body);
  ASSERT_TRUE(AST);
  const FunctionDecl *F = test::functionNamed(*AST, "f");
  ASSERT_NE(F, nullptr);
  // The calls of f in pre-order: g(a), g(1), g(2), g(x) in the if, g(z),
  // s.get(), g(3), l(w) (operator()), and g(x) under sizeof; not the g(q)
  // of the lambda's body.
  std::vector<std::string> Seen;
  for (const CallExpr *Call : callsIn(F)) {
    std::string Arg;
    const Expr *First =
        Call->getNumArgs() > 0 ? Call->getArg(0)->IgnoreParenImpCasts() : nullptr;
    if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(First))
      Arg = DRE->getDecl()->getName().str();
    else if (const auto *Lit = dyn_cast_or_null<IntegerLiteral>(First))
      Arg = std::to_string(Lit->getValue().getZExtValue());
    if (isa<CXXOperatorCallExpr>(Call))
      Arg = "operator()";
    else if (isa<CXXMemberCallExpr>(Call))
      Arg = "get";
    Seen.push_back(Arg);
  }
  std::vector<std::string> Expected = {"a", "1", "2", "x", "z",
                                       "get", "3", "operator()", "x"};
  EXPECT_EQ(Seen, Expected);
  // The capture `x` is read in f; the lambda's `q`, `x` and `y` are not.
  unsigned CaptureReads = 0;
  for (const BodyStmt &N : stmtsIn(F))
    if (const auto *DRE = dyn_cast<DeclRefExpr>(N.S)) {
      EXPECT_NE(DRE->getDecl()->getName(), "q");
      CaptureReads += DRE->refersToEnclosingVariableOrCapture();
    }
  EXPECT_EQ(CaptureReads, 0u);
}

TEST(Callables, CallsAreFoundOncePerTranslationUnit) {
  auto AST = test::buildAST(Body);
  ASSERT_TRUE(AST);
  const FunctionDecl *F = test::functionNamed(*AST, "f");
  ASSERT_NE(F, nullptr);
  llvm::ArrayRef<const CallExpr *> First = callsIn(F);
  llvm::ArrayRef<const CallExpr *> Again = callsIn(F);
  EXPECT_EQ(First.data(), Again.data());
  EXPECT_EQ(stmtsIn(F).data(), stmtsIn(F).data());
  EXPECT_TRUE(callsAny(F, [](const CallExpr *C) {
    return isa<CXXMemberCallExpr>(C);
  }));
  EXPECT_FALSE(callsAny(F, [](const CallExpr *C) {
    return C->getNumArgs() > 2; // l(w) has two: the lambda and w
  }));
}

TEST(Callables, DescribedCallsNameTheirModelledFunction) {
  auto AST = test::buildAST(R"(
    #include <cublas_v2.h>
    #define SCALE(h, n, a, x) cublasSscal(h, n, a, x, 1)
    int helper(int);
    void f(cublasHandle_t h, float *x, int n) {
      const float a = 2.0f;
      cublasSscal(h, helper(n), &a, x, 1);
      SCALE(h, n, &a, x);
    }
  )");
  ASSERT_TRUE(AST);
  const FunctionDecl *F = test::functionNamed(*AST, "f");
  ASSERT_NE(F, nullptr);
  llvm::ArrayRef<CallInBody> Calls = describedCallsIn(F);
  ASSERT_EQ(Calls.size(), callsIn(F).size());
  ASSERT_EQ(Calls.size(), 3u);
  EXPECT_EQ(Calls.data(), describedCallsIn(F).data()); // made once
  for (size_t I = 0; I < Calls.size(); ++I) {
    EXPECT_EQ(Calls[I].Call, callsIn(F)[I]);
    EXPECT_EQ(Calls[I].Callee, calledCublasFunction(Calls[I].Call));
    // The user's file and the user's macro: neither is a system header.
    EXPECT_FALSE(Calls[I].InSystemHeader);
  }
  ASSERT_NE(Calls[0].Callee, nullptr);
  EXPECT_STREQ(Calls[0].Callee->Name, "cublasSscal_v2");
  EXPECT_EQ(Calls[1].Callee, nullptr); // helper(n)
  ASSERT_NE(Calls[2].Callee, nullptr);
}

TEST(TranslationUnitCache, MakesEachValueOncePerContext) {
  auto AST = test::buildAST("int x;");
  ASSERT_TRUE(AST);
  const ASTContext &Ctx = AST->getASTContext();
  thread_local TranslationUnitCache<int, int> Squares, Cubes;
  unsigned Made = 0;
  auto Square = [&](int K) {
    return *Squares.get(Ctx, K, [&] {
      ++Made;
      return std::make_unique<int>(K * K);
    });
  };
  auto Cube = [&](int K) {
    return *Cubes.get(Ctx, K, [&] {
      ++Made;
      return std::make_unique<int>(K * K * K);
    });
  };
  EXPECT_EQ(Square(3), 9);
  EXPECT_EQ(Cube(2), 8);
  EXPECT_EQ(Square(3), 9);
  EXPECT_EQ(Cube(2), 8);
  EXPECT_EQ(Made, 2u);
  EXPECT_EQ(Square(4), 16);
  EXPECT_EQ(Made, 3u);
}

/// Builds `Rounds` ASTs one after another; each must get a value of its own
/// from `Values`, not one made for an earlier context at the same address.
/// `Destroy` destroys each AST once it has been asked.
void expectFreshValuePerContext(
    TranslationUnitCache<int, int> &Values, int Rounds,
    llvm::function_ref<void(std::unique_ptr<ASTUnit>)> Destroy) {
  unsigned Made = 0;
  auto Get = [&](const ASTContext &Ctx) {
    return *Values.get(Ctx, 7, [&] {
      ++Made;
      return std::make_unique<int>(Made);
    });
  };
  for (int Round = 0; Round < Rounds; ++Round) {
    auto AST = test::buildAST("int x;");
    ASSERT_TRUE(AST);
    EXPECT_EQ(Get(AST->getASTContext()), Round + 1) << "stale in round "
                                                    << Round;
    EXPECT_EQ(Get(AST->getASTContext()), Round + 1);
    Destroy(std::move(AST));
  }
  EXPECT_EQ(Made, static_cast<unsigned>(Rounds));
}

TEST(TranslationUnitCache, ForgetsAContextWhenItIsDestroyed) {
  // A later ASTContext may be allocated where a destroyed one was, and its
  // declarations where the old ones were: values made for the old context
  // must be gone by then, whether or not anyone reset the caches.
  thread_local TranslationUnitCache<int, int> Values;
  expectFreshValuePerContext(Values, 20, [](std::unique_ptr<ASTUnit>) {});
}

TEST(TranslationUnitCache, AContextMayBeDestroyedOnAnotherThread) {
  // clangd evicts ASTs from whichever worker thread: the destruction must
  // not touch the cache (another thread's), only tell it.
  thread_local TranslationUnitCache<int, int> Values;
  expectFreshValuePerContext(Values, 10, [](std::unique_ptr<ASTUnit> AST) {
    std::thread([Doomed = std::move(AST)]() mutable { Doomed.reset(); })
        .join();
  });
}

TEST(TranslationUnitCache, ACacheMayGoBeforeItsContext) {
  auto AST = test::buildAST("int x;");
  ASSERT_TRUE(AST);
  {
    TranslationUnitCache<int, int> Scoped;
    Scoped.get(AST->getASTContext(), 1,
               [] { return std::make_unique<int>(1); });
  }
  // Destroying the context must not touch the destroyed cache (ASan
  // reports it if so).
  AST.reset();
  SUCCEED();
}

} // namespace
