//===- CallerFactsTest.cpp - The values in a function, by its callers -----===//

#include "facts/CallerFacts.h"
#include "TestAST.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace cublas_tidy;

namespace {

const char Prelude[] = R"(
void use(long long);
int opaque();
)";

/// A translation unit and the call sites of its functions.
struct Unit {
  std::unique_ptr<ASTUnit> AST;
  CallerFacts Callers;

  Unit(const std::string &Code, unsigned MaxCallSites)
      : AST(test::buildAST(std::string(Prelude) + Code)),
        Callers(MaxCallSites) {
    EXPECT_TRUE(AST && !AST->getDiagnostics().hasErrorOccurred()) << Code;
    if (AST)
      Callers.collectCallSites(test::definedFunctions(*AST));
  }

  const FunctionDecl *fn(const std::string &Name) {
    return test::functionNamed(*AST, Name);
  }

  /// The value of the argument of the first `use(...)` of `Fn` in `Facts`.
  std::string valueIn(const FunctionDecl *Fn, const ValueFacts &Facts) {
    auto Uses = test::callsTo(*AST, Fn, "use");
    if (Uses.empty())
      return "no use";
    std::optional<SymExpr> V = Facts.evaluate(Uses[0]->getArg(0));
    return V ? V->str() : "?";
  }

  /// "<value> via <caller>[,<caller>]" for each context of `Name`.
  std::vector<std::string> contexts(const std::string &Name) {
    const FunctionDecl *Fn = fn(Name);
    std::vector<std::string> Out;
    for (const CallerFacts::Context &C :
         Callers.contextsOf(Fn, AST->getASTContext())) {
      std::string S = valueIn(Fn, *C.Facts) + " via";
      for (size_t I = 0; I < C.Chain.size(); ++I)
        S += (I ? "," : " ") +
             cast<FunctionDecl>(C.Chain[I].second)->getNameAsString();
      Out.push_back(S);
    }
    return Out;
  }
};

using Strings = std::vector<std::string>;

// Each direct caller gives a context with its arguments; a caller with
// parameters of its own gives one more context for each of its callers.
TEST(CallerFacts, ContextsOfEachCaller) {
  Unit U(R"(
    void helper(int n) { use(n + 1); }
    void one() { helper(8); }
    void two() { helper(opaque()); }
    void mid(int k) { helper(k * 2); }
    void top() { mid(3); }
  )",
         4);
  EXPECT_EQ(
      U.contexts("helper"),
      (Strings{"9 via one", "? via two", "2*k + 1 via mid", "7 via mid,top"}));
  // On its own, the function knows its parameter only as a symbol.
  const FunctionDecl *Helper = U.fn("helper");
  EXPECT_EQ(
      U.valueIn(Helper, U.Callers.factsFor(Helper, U.AST->getASTContext())),
      "n + 1");
}

// No contexts without parameters, for methods, for a function nothing
// calls, or when the contexts are turned off; at most MaxCallSites direct
// sites are followed, and a function calling itself is not its own
// context.
TEST(CallerFacts, WhereThereAreNoContexts) {
  const char *Code = R"(
    void noParams() { use(1); }
    struct S { void method(int n) { use(n); } };
    void uncalled(int n) { use(n); }
    void helper(int n) { use(n); }
    void rec(int n) { use(n); rec(n - 1); }
    void a() { noParams(); S s; s.method(2); helper(1); rec(5); }
    void b() { helper(2); }
    void c() { helper(3); }
  )";
  Unit U(Code, 2);
  EXPECT_EQ(U.contexts("noParams"), Strings{});
  EXPECT_EQ(U.contexts("uncalled"), Strings{});
  EXPECT_EQ(U.contexts("helper"), (Strings{"1 via a", "2 via b"}));
  EXPECT_EQ(U.contexts("rec"), Strings{"5 via a"});
  const auto *Method = test::selectFirst<CXXMethodDecl>(
      *U.AST,
      clang::ast_matchers::cxxMethodDecl(clang::ast_matchers::hasName("method"))
          .bind("x"));
  ASSERT_NE(Method, nullptr);
  EXPECT_FALSE(CallerFacts::hasCallerFacts(Method));
  EXPECT_TRUE(U.Callers.contextsOf(Method, U.AST->getASTContext()).empty());
  EXPECT_FALSE(CallerFacts::hasCallerFacts(U.fn("noParams")));
  EXPECT_TRUE(CallerFacts::hasCallerFacts(U.fn("helper")));

  Unit Off(Code, 0);
  EXPECT_EQ(Off.contexts("helper"), Strings{});
}

/// Whether `use(n)` of `helper` is a constant greater than 0.
bool positiveAtEveryCall(Unit &U) {
  const FunctionDecl *Helper = U.fn("helper");
  return U.Callers.holdsAtEveryCallSite(
      Helper, U.AST->getASTContext(), [&](const ValueFacts &Facts) {
        auto Uses = test::callsTo(*U.AST, Helper, "use");
        std::optional<SymExpr> V =
            Uses.empty() ? std::nullopt : Facts.evaluate(Uses[0]->getArg(0));
        std::optional<int64_t> C = V ? V->getConstant() : std::nullopt;
        return C && *C > 0;
      });
}

// A fact holds at every call site when it holds in the context of each
// site, or in every context of the callers above a site.
TEST(CallerFacts, HoldsAtEveryCallSite) {
  Unit Direct(R"(
    void helper(int n) { use(n); }
    void a() { helper(2); }
    void b() { helper(3); }
  )",
              4);
  EXPECT_TRUE(positiveAtEveryCall(Direct));

  Unit OneUnknown(R"(
    void helper(int n) { use(n); }
    void a() { helper(2); }
    void b() { helper(opaque()); }
  )",
                  4);
  EXPECT_FALSE(positiveAtEveryCall(OneUnknown));

  Unit ThroughMid(R"(
    void helper(int n) { use(n); }
    void mid(int k) { helper(k); }
    void a() { mid(2); }
    void b() { mid(7); }
  )",
                  4);
  EXPECT_TRUE(positiveAtEveryCall(ThroughMid));

  Unit MidOneBad(R"(
    void helper(int n) { use(n); }
    void mid(int k) { helper(k); }
    void a() { mid(2); }
    void b() { mid(-1); }
  )",
                 4);
  EXPECT_FALSE(positiveAtEveryCall(MidOneBad));
}

// Nothing is proved of a function nothing calls, one called at more sites
// than the contexts follow, or one that calls itself.
TEST(CallerFacts, HoldsNowhereItCannotBeShown) {
  Unit Uncalled("void helper(int n) { use(n); }", 4);
  EXPECT_FALSE(positiveAtEveryCall(Uncalled));

  Unit TooMany(R"(
    void helper(int n) { use(n); }
    void a() { helper(1); helper(2); helper(3); }
  )",
               2);
  EXPECT_FALSE(positiveAtEveryCall(TooMany));

  Unit Recursive(R"(
    void helper(int n) { use(n); helper(n + 1); }
    void a() { helper(4); }
  )",
                 4);
  EXPECT_FALSE(positiveAtEveryCall(Recursive));
}

// The facts of a callable are made once and shared.
TEST(CallerFacts, SharedFacts) {
  Unit U("void f(int n) { use(n); }\nvoid g(int n) { use(n); }", 2);
  ASTContext &Ctx = U.AST->getASTContext();
  const ValueFacts &F1 = sharedValueFacts(U.fn("f"), Ctx);
  EXPECT_EQ(&F1, &sharedValueFacts(U.fn("f"), Ctx));
  EXPECT_EQ(&F1, &U.Callers.factsFor(U.fn("f"), Ctx));
  EXPECT_NE(&F1, &sharedValueFacts(U.fn("g"), Ctx));
  EXPECT_EQ(F1.callable(), U.fn("f"));
}

} // namespace
