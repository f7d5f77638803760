//===- ValueUseTest.cpp - Discarded values and dead stores ----------------===//

#include "ast/ValueUse.h"
#include "ast/Callables.h"
#include "TestAST.h"

#include "clang/AST/ParentMap.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace cublas_tidy;

namespace {

/// Calls to functions whose name starts with D must be discarded (W: as a
/// whole statement), U used, V cast to void.
void expectUses(const std::string &Code) {
  auto AST = test::buildAST(
      "int D(); int W(); int U(); int V(); void take(int);\n" + Code);
  ASSERT_TRUE(AST);
  ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred()) << Code;
  auto Calls = match(callExpr(callee(functionDecl(hasAnyName("D", "W", "U", "V"))))
                         .bind("x"),
                     AST->getASTContext());
  ASSERT_FALSE(Calls.empty());
  for (const auto &N : Calls) {
    const auto *Call = N.getNodeAs<CallExpr>("x");
    std::string Name = Call->getDirectCallee()->getName().str();
    unsigned Line = AST->getSourceManager().getPresumedLineNumber(
        Call->getBeginLoc());
    // The body the call belongs to (a lambda's, not its enclosing
    // function's), and the parents of the call and its ancestors in it.
    const Stmt *Body = nullptr;
    llvm::DenseMap<const Stmt *, const Stmt *> Chain;
    for (const auto &F : match(functionDecl(isDefinition(),
                                            hasDescendant(equalsNode(Call)))
                                   .bind("f"),
                               AST->getASTContext())) {
      const auto *Fn = F.getNodeAs<FunctionDecl>("f");
      llvm::ArrayRef<BodyStmt> Stmts = stmtsIn(Fn);
      for (size_t I = 0; I < Stmts.size(); ++I) {
        if (Stmts[I].S != Call)
          continue;
        Body = Fn->getBody();
        addAncestors(Stmts, I, Chain);
      }
    }
    ASSERT_NE(Body, nullptr);
    ParentMap Parents(const_cast<Stmt *>(Body));
    ValueUseInfo Info = classifyValueUse(
        Call, [&](const Stmt *S) -> const Stmt * { return Parents.getParent(S); });
    std::string Where = Name + " at line " + std::to_string(Line);
    // The ancestors alone decide as the whole parent map does.
    ValueUseInfo FromChain = classifyValueUse(
        Call, [&](const Stmt *S) { return Chain.lookup(S); });
    EXPECT_EQ(FromChain.Use, Info.Use) << Where;
    EXPECT_EQ(FromChain.WholeStatement, Info.WholeStatement) << Where;
    if (Name == "D") {
      EXPECT_EQ(Info.Use, ValueUse::Discarded) << Where;
      EXPECT_FALSE(Info.WholeStatement) << Where;
    } else if (Name == "W") {
      EXPECT_EQ(Info.Use, ValueUse::Discarded) << Where;
      EXPECT_TRUE(Info.WholeStatement) << Where;
    } else if (Name == "U") {
      EXPECT_EQ(Info.Use, ValueUse::Used) << Where;
    } else {
      EXPECT_EQ(Info.Use, ValueUse::CastToVoid) << Where;
    }
  }
}

TEST(ValueUse, Statements) {
  expectUses(R"(
    void f(bool c) {
      W();
      (W());
      if (c) W(); else W();
      while (c) W();
      do W(); while (c);
      for (D(); c; D()) W();
      if (D(); c) W();
      switch (D(); int x = U()) { case 1: W(); default: W(); }
      label: W();
      { W(); }
      [] { W(); }();
      int a[] = {1};
      for (int v : a) W();
    }
  )");
}

TEST(ValueUse, ExpressionsThatPassTheValueOn) {
  expectUses(R"(
    void f(bool c) {
      D(), D();
      c ? D() : D();
      int x = (D(), U());
      take(c ? U() : U());
      int y = ({ W(); U(); });
    }
  )");
}

TEST(ValueUse, Reads) {
  expectUses(R"(
    int g(bool c) {
      int x = U();
      x = U();
      if (U()) {}
      while (U() != 0) {}
      for (; U();) {}
      switch (U()) { default: break; }
      take(U());
      x += U();
      bool b = U() == 0;
      int arr[2] = {U(), U()};
      return U();
    }
  )");
}

TEST(ValueUse, ExplicitDiscards) {
  expectUses(R"(
    void f() {
      (void)V();
      static_cast<void>(V());
      (void)(V());
    }
  )");
}

/// Dead stores of calls to S() in `Code`, as "var@line" strings, with the
/// lines of their overwrites after a colon.
std::vector<std::string> deadStores(const std::string &Code) {
  auto AST = test::buildAST("int S(); void use(int); void ref(int &);\n" + Code);
  EXPECT_TRUE(AST);
  EXPECT_FALSE(AST->getDiagnostics().hasErrorOccurred()) << Code;
  std::vector<std::string> Result;
  auto Fns = match(functionDecl(isDefinition(), hasName("f")).bind("x"),
                   AST->getASTContext());
  const SourceManager &SM = AST->getSourceManager();
  for (const auto &N : Fns) {
    const auto *FD = N.getNodeAs<FunctionDecl>("x");
    auto Interesting = [](const Expr *E) -> const Expr * {
      const auto *Call = dyn_cast<CallExpr>(E);
      const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
      return Callee && Callee->getName() == "S" ? E : nullptr;
    };
    for (const DeadStore &DS : findDeadStores(FD, AST->getASTContext(),
                                              Interesting)) {
      std::string S = DS.Var->getName().str() + "@" +
                      std::to_string(SM.getPresumedLineNumber(
                          DS.Value->getBeginLoc()));
      for (const Stmt *O : DS.Overwrites)
        S += ":" + std::to_string(SM.getPresumedLineNumber(O->getBeginLoc()));
      Result.push_back(S);
    }
  }
  return Result;
}

using Strings = std::vector<std::string>;

TEST(DeadStores, NeverReadAndOverwritten) {
  EXPECT_EQ(deadStores(R"(
    void f() {
      int a = S();
      int b = S();
      b = S();
      use(b);
      int c;
      c = S();
    }
  )"),
            (Strings{"a@4", "b@5:6", "c@9"}));
}

TEST(DeadStores, ReadOnSomePathIsLive) {
  EXPECT_EQ(deadStores(R"(
    void f(bool x) {
      int s = S();
      if (x)
        use(s);
      int t;
      for (int i = 0; i < 3; ++i)
        t = S();
      use(t);
      int u = S();
      while (u != 0)
        u = S();
    }
  )"),
            Strings{});
}

TEST(DeadStores, OverwrittenOnEveryBranch) {
  EXPECT_EQ(deadStores(R"(
    void f(bool x) {
      int s = S();
      if (x)
        s = S();
      else
        s = S();
      use(s);
    }
  )"),
            (Strings{"s@4:6:8"}));
}

TEST(DeadStores, EscapingVariablesAreSkipped) {
  EXPECT_EQ(deadStores(R"(
    void f() {
      int a = S();
      int *p = &a;
      int b = S();
      ref(b);
      int c = S();
      auto l = [&] { use(c); };
      int d = S();
      int &r = d;
      static int e = S();
      [[maybe_unused]] int g = S();
      try { int h = 0; h = S(); throw h; } catch (...) {}
      int k;
      try { k = S(); throw 1; } catch (...) { use(k); }
    }
  )"),
            Strings{});
}

TEST(DeadStores, ExplicitVoidCastIsARead) {
  EXPECT_EQ(deadStores(R"(
    void f() {
      int a = S();
      (void)a;
    }
  )"),
            Strings{});
}

TEST(DeadStores, UnreachableCodeIsSilent) {
  EXPECT_EQ(deadStores(R"(
    void f() {
      return;
      int a = S();
    }
  )"),
            Strings{});
}

// Many stores in one body: every dead one is found, however many (the
// analysis is linear in the body; a budget on the search used to drop all
// of a function's findings past about 475 stores).
TEST(DeadStores, ManyStoresInOneBody) {
  for (int N : {10, 600, 1500}) {
    SCOPED_TRACE(N);
    std::string Body = "void f() {\n  int s;\n";
    for (int I = 0; I < N; ++I)
      Body += "  s = S();\n";
    Body += "  use(s);\n";
    for (int I = 0; I < N; ++I)
      Body += "  int v" + std::to_string(I) + " = S();\n";
    Body += "}\n";
    Strings Found = deadStores(Body);
    // Every store of s but the last, each overwritten on the next line;
    // every v, never read.
    ASSERT_EQ(Found.size(), size_t(2 * N - 1));
    EXPECT_EQ(Found.front(), "s@4:5");
    EXPECT_EQ(Found[N - 2], "s@" + std::to_string(N + 2) + ":" +
                                std::to_string(N + 3));
    EXPECT_EQ(Found.back(), "v" + std::to_string(N - 1) + "@" +
                                std::to_string(2 * N + 4));
  }
}

// A read in a later iteration of a loop keeps a store live; a declaration
// in the loop body starts a new variable each time.
TEST(DeadStores, LoopCarriedReads) {
  EXPECT_EQ(deadStores(R"(
    void f(int n) {
      int s = 0;
      for (int i = 0; i < n; ++i) {
        if (i > 0)
          use(s);
        s = S();
      }
      for (int i = 0; i < n; ++i) {
        int t = S();
        if (i > 1)
          t = S();
        use(t);
      }
    }
  )"),
            Strings{});
}

// The shortcut for stores read by the next statement must not hide a dead
// store: a next statement that writes before it reads, one that only takes
// the size or a reference, a store last in its block.
TEST(DeadStores, NextStatementShortcutKeepsDeadStores) {
  EXPECT_EQ(deadStores(R"(
    void f() {
      int a = S();
      if (a != 0) use(a);
      int b = S();
      b = S() + b;
      int c = S();
      ref(c);
      int d = S();
      use(sizeof(d));
      { int e = S(); }
      int g = S();
      g = S();
      use(g);
    }
  )"),
            (Strings{"e@12", "g@13:14"}));
}

} // namespace

