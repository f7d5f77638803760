//===- ExceptionsTest.cpp - Calls that can end in an exception ------------===//

#include "facts/Exceptions.h"
#include "TestAST.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace cublas_tidy;

namespace {

const char *Code = R"(
  struct Error {};
  void declared();
  void throws() { throw Error(); }
  void through() { throws(); }
  void catches() { try { throws(); } catch (...) {} }
  void rethrows() { try { throws(); } catch (...) { throw; } }
  void quiet() noexcept { throws(); }
  void recursive(int n) { if (n) recursive(n - 1); }
  void loopA(int n);
  void loopB(int n) { if (n) loopA(n - 1); }
  void loopA(int n) { if (n) loopB(n - 1); else throw Error(); }
  void caller() {
    through();
    try { through(); } catch (...) {}
    declared();
  }
)";

TEST(Exceptions, WhichCallsCanThrowOut) {
  auto AST = test::buildAST(Code);
  ASSERT_TRUE(AST);
  ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
  auto Fn = [&](const char *Name) { return test::functionNamed(*AST, Name); };
  EXPECT_TRUE(mayThrowOut(Fn("throws")));
  EXPECT_TRUE(mayThrowOut(Fn("through")));
  EXPECT_FALSE(mayThrowOut(Fn("catches")));
  EXPECT_TRUE(mayThrowOut(Fn("rethrows")));
  EXPECT_FALSE(mayThrowOut(Fn("quiet")));
  EXPECT_FALSE(mayThrowOut(Fn("recursive")));
  EXPECT_TRUE(mayThrowOut(Fn("loopA")));
  EXPECT_TRUE(mayThrowOut(Fn("loopB")));
  // The first call of through() is outside the try block.
  EXPECT_TRUE(mayThrowOut(Fn("caller")));
  // Declared only: not known.
  std::vector<const CallExpr *> Declared =
      test::callsTo(*AST, Fn("caller"), "declared");
  ASSERT_EQ(Declared.size(), 1u);
  EXPECT_FALSE(mayThrowOut(Declared[0]->getDirectCallee()));
}

TEST(Exceptions, InsideTryBlocks) {
  auto AST = test::buildAST(Code);
  ASSERT_TRUE(AST);
  const FunctionDecl *Caller = test::functionNamed(*AST, "caller");
  std::vector<const CallExpr *> Calls = test::callsTo(*AST, Caller, "through");
  ASSERT_EQ(Calls.size(), 2u);
  EXPECT_FALSE(insideTryBlock(Calls[0], Caller));
  EXPECT_TRUE(insideTryBlock(Calls[1], Caller));
  // A handler is not the try block.
  const FunctionDecl *Rethrows = test::functionNamed(*AST, "rethrows");
  std::vector<const CallExpr *> InTry =
      test::callsTo(*AST, Rethrows, "throws");
  ASSERT_EQ(InTry.size(), 1u);
  EXPECT_TRUE(insideTryBlock(InTry[0], Rethrows));
}

} // namespace
