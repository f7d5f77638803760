//===- StatusFunctionsTest.cpp - What user functions do with statuses -----===//

#include "facts/StatusFunctions.h"
#include "TestAST.h"

#include "clang/ASTMatchers/ASTMatchers.h"
#include "gtest/gtest.h"

#include <algorithm>

using namespace clang;
using namespace clang::ast_matchers;
using namespace cublas_tidy;

namespace {

const char Prelude[] = R"(
#include <cublas_v2.h>
#include <cstdio>
#include <cstdlib>
cublasHandle_t h;
float *x;
void report(const char *);
cublasStatus_t forward(cublasStatus_t);
)";

struct Functions {
  std::unique_ptr<ASTUnit> AST;

  explicit Functions(const std::string &Code) {
    AST = test::buildAST(std::string(Prelude) + Code);
    EXPECT_TRUE(AST);
    EXPECT_FALSE(AST->getDiagnostics().hasErrorOccurred()) << Code;
  }
  /// The first declaration of `Name`, with or without a body.
  const FunctionDecl *fn(const std::string &Name) {
    const auto *FD = test::selectFirst<FunctionDecl>(
        *AST, functionDecl(hasName(Name)).bind("x"));
    EXPECT_NE(FD, nullptr) << Name;
    return FD;
  }
  /// "checker", "wrapper <wrapped>" or "unknown".
  std::string role(const std::string &Name) {
    const StatusFunctionFacts &F = statusFunctionFacts(fn(Name));
    switch (F.Role) {
    case StatusFunctionFacts::Checker:
      return "checker";
    case StatusFunctionFacts::Wrapper:
      return "wrapper " + F.Wrapped;
    case StatusFunctionFacts::Unknown:
      break;
    }
    return "unknown";
  }
  /// The status-holding variables of `Name`, sorted, each with the line of
  /// its first call.
  std::vector<std::string> holders(const std::string &Name) {
    std::vector<std::string> Out;
    const SourceManager &SM = AST->getSourceManager();
    for (const auto &[Var, Call] : statusHoldingVars(fn(Name)))
      Out.push_back(Var->getName().str() + "@" +
                    std::to_string(SM.getPresumedLineNumber(
                        SM.getExpansionLoc(Call->getBeginLoc()))));
    std::sort(Out.begin(), Out.end());
    return Out;
  }
};

using Strings = std::vector<std::string>;

TEST(StatusFunctions, CheckersInspectTheStatus) {
  Functions F(R"(
    void cmp(cublasStatus_t s) { if (s != CUBLAS_STATUS_SUCCESS) abort(); }
    void sw(cublasStatus_t s) { switch (s) { default: break; } }
    void neg(cublasStatus_t s) { if (!s) return; exit(1); }
    void cond(cublasStatus_t s) { if (s) exit(1); }
    void str(cublasStatus_t s) { report(cublasGetStatusString(s)); }
    void print(cublasStatus_t s, int line) { fprintf(stderr, "%d", s); }
  )");
  for (const char *Name : {"cmp", "sw", "neg", "cond", "str", "print"})
    EXPECT_EQ(F.role(Name), "checker") << Name;
}

// Storing a status, or handing it to a function that returns a status,
// does not inspect it.
TEST(StatusFunctions, PassingOnIsNotInspecting) {
  Functions F(R"(
    cublasStatus_t last;
    void store(cublasStatus_t s) { last = s; }
    cublasStatus_t pass(cublasStatus_t s) { return forward(s); }
    int toInt(cublasStatus_t s) { return (int)s; }
  )");
  EXPECT_EQ(F.role("store"), "unknown");
  EXPECT_EQ(F.role("pass"), "wrapper ");
  EXPECT_EQ(F.role("toInt"), "unknown");
}

TEST(StatusFunctions, WrappersReturnTheStatusOfTheirCall) {
  Functions F(R"(
    cublasStatus_t direct(int n) { return cublasSscal(h, n, x, x, 1); }
    cublasStatus_t viaVar(int n) {
      cublasStatus_t st = cublasSscal(h, n, x, x, 1);
      return st;
    }
    cublasStatus_t two(bool c) {
      if (c) return cublasSetStream(h, 0);
      return cublasSscal(h, 4, x, x, 1);
    }
    cublasStatus_t orConstant(int n) {
      if (n <= 0) return CUBLAS_STATUS_SUCCESS;
      return cublasSscal(h, n, x, x, 1);
    }
  )");
  // The name as written, not the _v2 function the macro expands to.
  EXPECT_EQ(F.role("direct"), "wrapper cublasSscal");
  EXPECT_EQ(F.role("viaVar"), "wrapper cublasSscal");
  EXPECT_EQ(F.role("two"), "wrapper ");
  EXPECT_EQ(F.role("orConstant"), "wrapper ");
}

// A function that inspects the status it then returns is a checker; one
// that also returns a status it never looked at is a wrapper.
TEST(StatusFunctions, ReturningAnInspectedStatus) {
  Functions F(R"(
    cublasStatus_t logged() {
      cublasStatus_t s = cublasSscal(h, 4, x, x, 1);
      if (s != CUBLAS_STATUS_SUCCESS) report("scal");
      return s;
    }
    cublasStatus_t mixed() {
      cublasStatus_t s = cublasSscal(h, 4, x, x, 1);
      if (s != CUBLAS_STATUS_SUCCESS) return s;
      return cublasSetStream(h, 0);
    }
  )");
  EXPECT_EQ(F.role("logged"), "checker");
  EXPECT_EQ(F.role("mixed"), "wrapper ");
}

// Only a body says what a function does: a declaration alone is unknown;
// a declaration seen before the definition gets the definition's facts.
TEST(StatusFunctions, DefinitionsDecide) {
  Functions F(R"(
    void external(cublasStatus_t s);
    void later(cublasStatus_t s);
    void later(cublasStatus_t s) { if (s) abort(); }
  )");
  EXPECT_EQ(F.role("external"), "unknown");
  const FunctionDecl *First = F.fn("later");
  ASSERT_TRUE(First);
  EXPECT_FALSE(First->doesThisDeclarationHaveABody());
  EXPECT_EQ(F.role("later"), "checker");
  EXPECT_EQ(&statusFunctionFacts(First),
            &statusFunctionFacts(First->getDefinition()));
}

TEST(StatusFunctions, StatusHoldingVariables) {
  Functions F(R"(
    void f(int n) {
      int ret = cublasSscal(h, n, x, x, 1);
      int laundered;
      if ((laundered = cublasSetStream(h, 0)) != 0) return;
      laundered = cublasSscal(h, n, x, x, 1);
      cublasStatus_t typed = cublasSscal(h, n, x, x, 1);
      int mixed = cublasSscal(h, n, x, x, 1); mixed = 0;
      int addressed = cublasSscal(h, n, x, x, 1); int *p = &addressed;
      int bumped = cublasSscal(h, n, x, x, 1); ++bumped;
      int bound = cublasSscal(h, n, x, x, 1); int &r = bound;
      int captured = cublasSscal(h, n, x, x, 1);
      auto g = [&captured] { return captured; };
      long other = n;
    })");
  // `laundered` maps to its first call, the cublasSetStream.
  int Base = std::count(std::begin(Prelude), std::end(Prelude), '\n');
  EXPECT_EQ(F.holders("f"),
            (Strings{"laundered@" + std::to_string(Base + 5),
                     "ret@" + std::to_string(Base + 3)}));
}

} // namespace

namespace {

// A checker whose result a condition can test says what a true result
// means, when its body tells: ifs on the status against success, returns
// of constants or of such a comparison, reports in between.
TEST(StatusFunctions, PredicatesOfSuccess) {
  Functions F(R"(
bool ok(cublasStatus_t s) {
  if (s != CUBLAS_STATUS_SUCCESS) { report("failed"); return false; }
  return true;
}
int failed(cublasStatus_t s) { return s != CUBLAS_STATUS_SUCCESS; }
bool fine(cublasStatus_t s) { return !s; }
bool must(cublasStatus_t s) {
  if (s) { std::fprintf(stderr, "%d\n", (int)s); std::exit(1); }
  return true;
}
int code(cublasStatus_t s) {
  if (s == CUBLAS_STATUS_SUCCESS) return 0;
  return 1;
}
bool always(cublasStatus_t s) { report("x"); return true; }
bool oneError(cublasStatus_t s) { return s == CUBLAS_STATUS_NOT_INITIALIZED; }
bool changes(cublasStatus_t s) {
  s = CUBLAS_STATUS_SUCCESS;
  return s == CUBLAS_STATUS_SUCCESS;
}
bool opaque(cublasStatus_t s) { report("x"); return s == 0 && std::rand(); }
void nothing(cublasStatus_t s) { if (s) report("x"); }
)");
  auto P = [&](const char *Name) {
    switch (statusFunctionFacts(F.fn(Name)).Predicate) {
    case StatusPredicate::TrueIsSuccess:
      return std::string("success");
    case StatusPredicate::TrueIsFailure:
      return std::string("failure");
    case StatusPredicate::Unknown:
      break;
    }
    return std::string("-");
  };
  EXPECT_EQ(P("ok"), "success");
  EXPECT_EQ(P("failed"), "failure");
  EXPECT_EQ(P("fine"), "success");
  EXPECT_EQ(P("must"), "success");
  EXPECT_EQ(P("code"), "failure");
  EXPECT_EQ(P("always"), "-");
  EXPECT_EQ(P("oneError"), "-");
  EXPECT_EQ(P("changes"), "-");
  EXPECT_EQ(P("opaque"), "-");
  EXPECT_EQ(P("nothing"), "-");
}

} // namespace
