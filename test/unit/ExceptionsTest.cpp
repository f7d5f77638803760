//===- ExceptionsTest.cpp - Calls that can end in an exception ------------===//

#include "facts/Exceptions.h"
#include "TestAST.h"
#include "ast/AstUtils.h"

#include "clang/AST/ExprCXX.h"
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


namespace {

const char *Callers = R"(
  namespace pybind11 { struct module_ {
    template <class F> module_ &def(const char *, F) { return *this; }
  }; }
  struct Error {};
  void a() { throw Error(); }
  static void b() { a(); }
  void c() { try { b(); } catch (...) {} }

  void d() { throw Error(); }
  void e() { throw Error(); }
  void f() { try { e(); } catch (...) { throw; } }

  void g() { throw Error(); }

  void h() { throw Error(); }
  static void init(pybind11::module_ &m) { m.def("h", &h); }

  void k() { throw Error(); }
  void l() { k(); }

  static void taken() { throw Error(); }
  void (*pointer)() = taken;

  void elsewhere();
  void quiet() noexcept;
  void nothing() {}
  void m() { try { elsewhere(); } catch (...) {} quiet(); nothing(); }
  void n() { elsewhere(); }

  int main() { d(); f(); }

  namespace c10 { struct RegisterOperators {
    template <class F> RegisterOperators &op(const char *, F) { return *this; }
  }; }
  void r() { throw Error(); }
  static auto &reg = c10::RegisterOperators().op("ns::r", &r);

  void boundHere();
  static void init2(pybind11::module_ &m) { m.def("bound", &boundHere); }
)";

std::string keyOf(ASTUnit &AST, const char *Name) {
  return summaryKey(test::functionNamed(AST, Name));
}

// A `try` up the chain of callers in the unit, or a binding, can catch;
// main without a `try`, a handler that throws again, no caller and a
// function whose address is taken catch nothing that is known.
TEST(Exceptions, CallersThatCatch) {
  auto AST = test::buildAST(Callers);
  ASSERT_TRUE(AST);
  ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
  std::vector<const Decl *> Callables = test::definedFunctions(*AST);
  ExceptionCallers Who(Callables, AST->getASTContext());
  auto Fn = [&](const char *Name) { return test::functionNamed(*AST, Name); };

  std::optional<ExceptionCatch> A = Who.catchOf(Fn("a"));
  ASSERT_TRUE(A);
  EXPECT_FALSE(A->Binding);
  EXPECT_EQ(A->Callee, Fn("b")->getCanonicalDecl());
  EXPECT_EQ(A->Call, test::callsTo(*AST, Fn("c"), "b")[0]);

  std::optional<ExceptionCatch> H = Who.catchOf(Fn("h"));
  ASSERT_TRUE(H);
  EXPECT_TRUE(H->Binding);
  EXPECT_EQ(H->Callee, Fn("h")->getCanonicalDecl());
  // Registered in a variable's initializer (torch::RegisterOperators).
  std::optional<ExceptionCatch> R = Who.catchOf(Fn("r"));
  ASSERT_TRUE(R);
  EXPECT_TRUE(R->Binding);

  EXPECT_FALSE(Who.catchOf(Fn("d")));
  EXPECT_FALSE(Who.catchOf(Fn("e")));
  EXPECT_FALSE(Who.catchOf(Fn("g")));
  EXPECT_FALSE(Who.catchOf(Fn("k")));
  EXPECT_FALSE(Who.catchOf(Fn("taken")));
}

// The routes a file summary keeps: for each function of external linkage
// that may throw, where the unit catches it or which of its functions it
// leaves through. Not a noexcept function, nor one whose body here cannot
// throw.
TEST(Exceptions, RoutesOfTheUnit) {
  auto AST = test::buildAST(Callers);
  ASSERT_TRUE(AST);
  std::vector<const Decl *> Callables = test::definedFunctions(*AST);
  ExceptionCallers Who(Callables, AST->getASTContext());
  std::vector<FileSummary::ExceptionRoute> Routes = Who.routes();
  auto Route = [&](const char *Name) -> const FileSummary::ExceptionRoute * {
    std::string Key = keyOf(*AST, Name);
    for (const FileSummary::ExceptionRoute &R : Routes)
      if (R.Callee == Key)
        return &R;
    return nullptr;
  };
  const FileSummary::ExceptionRoute *A = Route("a");
  ASSERT_TRUE(A);
  EXPECT_EQ(A->CaughtLine, 8u);
  EXPECT_EQ(A->CaughtCallee, "b");
  EXPECT_FALSE(A->Binding);
  const FileSummary::ExceptionRoute *H = Route("h");
  ASSERT_TRUE(H);
  EXPECT_TRUE(H->Binding);
  EXPECT_EQ(H->CaughtLine, 17u);
  const FileSummary::ExceptionRoute *K = Route("k");
  ASSERT_TRUE(K);
  EXPECT_EQ(K->CaughtLine, 0u);
  EXPECT_EQ(K->Through, std::vector<std::string>{keyOf(*AST, "l")});
  // Declared only: caught in m, and let through n.
  std::string Elsewhere = summaryKey(
      test::callsTo(*AST, test::functionNamed(*AST, "n"), "elsewhere")[0]
          ->getDirectCallee());
  auto E = llvm::find_if(Routes, [&](const FileSummary::ExceptionRoute &R) {
    return R.Callee == Elsewhere;
  });
  ASSERT_NE(E, Routes.end());
  EXPECT_EQ(E->CaughtLine, 28u);
  // Defined in another file, registered here.
  std::string Bound = "_Z9boundHerev";
  auto B = llvm::find_if(Routes, [&](const FileSummary::ExceptionRoute &R) {
    return R.Callee == Bound;
  });
  ASSERT_NE(B, Routes.end());
  EXPECT_TRUE(B->Binding);
  EXPECT_EQ(B->CaughtLine, 40u);
  EXPECT_EQ(B->CaughtCallee, "boundHere");
  // Only main calls d: no route. e's handler throws again: it goes on
  // through f.
  EXPECT_FALSE(Route("d"));
  ASSERT_TRUE(Route("e"));
  EXPECT_EQ(Route("e")->Through, std::vector<std::string>{keyOf(*AST, "f")});
  EXPECT_FALSE(Route("nothing"));
  EXPECT_TRUE(llvm::none_of(Routes, [](const FileSummary::ExceptionRoute &R) {
    return R.Callee == "_Z5quietv";
  }));
  EXPECT_TRUE(llvm::is_sorted(Routes, [](const auto &X, const auto &Y) {
    return X.Callee < Y.Callee;
  }));
}

// Callers in other files: the project's file summaries say where the
// exceptions of a function go; a chain through a function of another file
// back into this unit is followed, and each function asked about is
// recorded.
TEST(Exceptions, CallersInOtherFiles) {
  auto AST = test::buildAST(R"(
    struct Error {};
    void lib() { throw Error(); }
    void relayed();
    void back() { try { relayed(); } catch (...) {} }
    void alone() { throw Error(); }
  )");
  ASSERT_TRUE(AST);
  std::vector<const Decl *> Callables = test::definedFunctions(*AST);
  std::string Lib = keyOf(*AST, "lib"), Relayed = "_Z7relayedv";
  SummaryStore Store;
  // mid.cpp: lib is let through relayed, whose callers decide.
  Store.add(FileSummary{"/p/mid.cpp", "", {{Lib, {Relayed}, 0, "", false}}});
  {
    std::vector<std::string> Asked;
    ProjectFactsScope Scope(&Store, &Asked);
    ExceptionCallers Who(Callables, AST->getASTContext());
    std::optional<ExceptionCatch> C =
        Who.catchOf(test::functionNamed(*AST, "lib"));
    ASSERT_TRUE(C);
    // Back in this unit: the try around relayed() in back().
    EXPECT_TRUE(C->Call);
    EXPECT_TRUE(llvm::is_contained(Asked, "catch:" + Lib));
    EXPECT_FALSE(Who.catchOf(test::functionNamed(*AST, "alone")));
  }
  // app.cpp catches what leaves alone().
  Store.add(FileSummary{
      "/p/app.cpp", "", {{keyOf(*AST, "alone"), {}, 12, "alone", false}}});
  {
    ProjectFactsScope Scope(&Store, nullptr);
    ExceptionCallers Who(Callables, AST->getASTContext());
    std::optional<ExceptionCatch> C =
        Who.catchOf(test::functionNamed(*AST, "alone"));
    ASSERT_TRUE(C);
    EXPECT_FALSE(C->Call);
    EXPECT_EQ(C->File, "/p/app.cpp");
    EXPECT_EQ(C->Line, 12u);
    EXPECT_EQ(C->CalleeName, "alone");
  }
  // Without the project's facts, nothing is known of either.
  ExceptionCallers Alone(Callables, AST->getASTContext());
  EXPECT_FALSE(Alone.catchOf(test::functionNamed(*AST, "alone")));
}

} // namespace
