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

// Which functions' exceptions end the process: main's, and those of a
// static function only main calls when main has no try block.
TEST(Exceptions, ExceptionsThatEndTheProcess) {
  auto Ends = [](const std::string &Code, const char *Name) {
    auto AST = test::buildAST(Code);
    EXPECT_TRUE(AST && !AST->getDiagnostics().hasErrorOccurred()) << Code;
    return exceptionEndsProcess(test::functionNamed(*AST, Name));
  };
  const char *Helpers = "static int onlyMain() { return 0; }\n"
                        "static int twice() { return 1; }\n"
                        "int visible() { return 2; }\n"
                        "static int taken() { return 3; }\n"
                        "int other() { return twice(); }\n";
  std::string Main = std::string(Helpers) +
                     "int main() { int (*p)() = taken; return onlyMain() + "
                     "twice() + visible() + p(); }\n";
  EXPECT_TRUE(Ends(Main, "main"));
  EXPECT_TRUE(Ends(Main, "onlyMain"));
  EXPECT_FALSE(Ends(Main, "twice"));   // other() calls it too
  EXPECT_FALSE(Ends(Main, "visible")); // another file may call it
  EXPECT_FALSE(Ends(Main, "taken"));   // its address escapes
  std::string WithTry = std::string(Helpers) +
                        "int main() { try { return onlyMain(); } catch (...) "
                        "{ return 1; } }\n";
  EXPECT_FALSE(Ends(WithTry, "onlyMain"));
  EXPECT_FALSE(Ends(Helpers, "onlyMain")); // no main in the unit
}

} // namespace

