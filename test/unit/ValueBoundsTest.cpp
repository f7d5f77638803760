//===- ValueBoundsTest.cpp - Where the code bounds a value from above -----===//

#include "facts/ValueBounds.h"
#include "TestAST.h"
#include "facts/libraries/torch/TorchModel.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace cublas_tidy;

namespace {

const char Prelude[] = R"(
#include <algorithm>
#include <cassert>
void use(long long);
void log(const char *);
[[noreturn]] void fail(const char *);
)";

struct Unit {
  std::unique_ptr<ASTUnit> AST;
  explicit Unit(const std::string &Code)
      : AST(test::buildAST(std::string(Prelude) + Code)) {
    EXPECT_TRUE(AST && !AST->getDiagnostics().hasErrorOccurred()) << Code;
  }
  const FunctionDecl *fn(const char *Name) {
    return test::functionNamed(*AST, Name);
  }
  std::vector<const CallExpr *> uses(const char *Fn) {
    return test::callsTo(*AST, fn(Fn), "use");
  }
};

/// For every `use(e)` of `f`: "bounded" when UpperBounds::boundedExpr holds
/// of `e` there, "-" otherwise.
std::vector<std::string> bounds(const std::string &Code) {
  Unit U(Code);
  if (!U.AST)
    return {"does not compile"};
  UpperBounds B(U.fn("f"));
  std::vector<std::string> Out;
  for (const CallExpr *Use : U.uses("f"))
    Out.push_back(B.boundedExpr(Use->getArg(0), Use) ? "bounded" : "-");
  return Out;
}

using Strings = std::vector<std::string>;

// A guard that leaves when the value is too big bounds it after the guard
// (not before); one that leaves when it is too small does not.
TEST(ValueBounds, GuardsThatLeave) {
  EXPECT_EQ(bounds(R"(void f(int n, int m, int k, int r, int t, int p) {
    use(p);
    if (p > 8) return;
    if (n > 1024) return;
    if (m > 0) throw 1;
    if (k < 16) return;
    if (!(r <= 10)) fail("r");
    if (t >= 64) { log("too big"); return; }
    use(p); use(n); use(m); use(k); use(r); use(t);
  })"),
            (Strings{"-", "bounded", "bounded", "bounded", "-", "bounded",
                     "bounded"}));
}

// A condition bounds where it holds: in the `if` branch and the loop body,
// not after them; a guard that does not leave bounds nothing.
TEST(ValueBounds, ConditionsWhereTheyHold) {
  EXPECT_EQ(bounds(R"(void f(int q, int w, int x, int y) {
    if (q < 100) { use(q); }
    use(q);
    for (int i = 0; i < w; ++i) use(i);
    if (x > 10) log("x is large");
    use(x);
    if (y > 10) { log("y"); } else { use(y); }
  })"),
            (Strings{"bounded", "-", "bounded", "-", "bounded"}));
}

// `a || b` failing bounds both sides; `a && b` failing bounds neither.
// An assert bounds what it asserts; `min` bounds its result.
TEST(ValueBounds, ConjunctionsAssertsAndMin) {
  EXPECT_EQ(
      bounds(R"(void f(int a, int b, int c, int d, int j, int z) {
    if (a > 10 || b > 20) return;
    if (c > 10 && d > 20) return;
    assert(j <= 64);
    use(a); use(b); use(c); use(d); use(j);
    use(std::min(z, 256));
    use(z);
  })"),
      (Strings{"bounded", "bounded", "-", "-", "bounded", "bounded", "-"}));
}

TEST(ValueBounds, BoundOfNamesTheComparison) {
  Unit U(R"(void f(int n, int m) {
    if (n > 1024) return;
    use(n); use(m);
  })");
  ASSERT_TRUE(U.AST);
  UpperBounds B(U.fn("f"));
  auto Uses = U.uses("f");
  const VarDecl *N = U.fn("f")->getParamDecl(0);
  const VarDecl *M = U.fn("f")->getParamDecl(1);
  const Expr *Bound = B.boundOf(N, Uses[0]);
  ASSERT_NE(Bound, nullptr);
  const auto *BO = dyn_cast<BinaryOperator>(Bound);
  ASSERT_NE(BO, nullptr);
  EXPECT_EQ(BO->getOpcode(), BO_GT);
  EXPECT_TRUE(B.bounded(N, Uses[0]));
  EXPECT_EQ(B.boundOf(M, Uses[1]), nullptr);
  EXPECT_FALSE(B.bounded(N, nullptr));
}

// Comparisons relate variables in any direction and place, and chains of
// them relate more; variables no comparison joins are not related.
TEST(ValueBounds, Compared) {
  Unit U(R"(void f(int m, int n, int k, int x, int y) {
    if (m != k) return;
    assert(n == m);
    use(x + y);
  })");
  ASSERT_TRUE(U.AST);
  const FunctionDecl *F = U.fn("f");
  const VarDecl *M = F->getParamDecl(0), *N = F->getParamDecl(1),
                *K = F->getParamDecl(2), *X = F->getParamDecl(3),
                *Y = F->getParamDecl(4);
  std::vector<const Decl *> Fs{F};
  EXPECT_TRUE(compared(Fs, {M}, {K}));
  EXPECT_TRUE(compared(Fs, {N}, {K}));
  EXPECT_TRUE(compared(Fs, {X}, {X}));
  EXPECT_FALSE(compared(Fs, {X}, {Y}));
  EXPECT_FALSE(compared(Fs, {M}, {X}));
  EXPECT_TRUE(compared(Fs, {X, N}, {K}));
  EXPECT_FALSE(compared(Fs, {}, {K}));
}

// The values of a call may come from a caller: its comparisons count.
TEST(ValueBounds, SizesComparedInTheFunctionOfTheirVariables) {
  Unit U(R"(
    void helper(int m, int lda) { use(m); use(lda); }
    void guarded(int rows, int ld) {
      if (ld < rows) return;
      helper(rows, ld);
    }
    void unguarded(int rows, int ld) { helper(rows, ld); }
  )");
  ASSERT_TRUE(U.AST);
  ASTContext &Ctx = U.AST->getASTContext();
  const FunctionDecl *Helper = U.fn("helper");
  auto Uses = U.uses("helper");
  ValueFacts HelperFacts(Helper, Ctx);
  for (const char *Caller : {"guarded", "unguarded"}) {
    const FunctionDecl *C = U.fn(Caller);
    ValueFacts CallerFacts(C, Ctx);
    ValueFacts InContext(HelperFacts, test::callsTo(*U.AST, C, "helper")[0],
                         CallerFacts);
    std::optional<SymExpr> M = InContext.evaluate(Uses[0]->getArg(0));
    std::optional<SymExpr> Ld = InContext.evaluate(Uses[1]->getArg(0));
    ASSERT_TRUE(M && Ld);
    EXPECT_EQ(sizesCompared(*M, nullptr, *Ld, nullptr, Helper),
              std::string(Caller) == "guarded")
        << Caller;
  }
  // In the helper alone, its parameters are compared nowhere.
  std::optional<SymExpr> M = HelperFacts.evaluate(Uses[0]->getArg(0));
  std::optional<SymExpr> Ld = HelperFacts.evaluate(Uses[1]->getArg(0));
  ASSERT_TRUE(M && Ld);
  EXPECT_FALSE(
      sizesCompared(*M, Uses[0]->getArg(0), *Ld, Uses[1]->getArg(0), Helper));
}

TEST(ValueBounds, SymbolAndExpressionVariables) {
  Unit U(R"(void f(int m, int n, int k) {
    use(m * n + k);
    use(4);
    use(k + m * k);
  })");
  ASSERT_TRUE(U.AST);
  const FunctionDecl *F = U.fn("f");
  auto Uses = U.uses("f");
  ValueFacts Facts(F, U.AST->getASTContext());
  auto Names = [](llvm::ArrayRef<const VarDecl *> Vars) {
    std::string S;
    for (const VarDecl *V : Vars)
      S += (S.empty() ? "" : ",") + V->getNameAsString();
    return S;
  };
  auto Of = [&](unsigned I) -> std::string {
    std::optional<SymExpr> V = Facts.evaluate(Uses[I]->getArg(0));
    if (!V)
      return "no value";
    auto Vars = symbolVariables(*V);
    if (!Vars)
      return "not variables";
    llvm::SmallVector<const VarDecl *, 4> Sorted(Vars->begin(), Vars->end());
    llvm::sort(Sorted, [](const VarDecl *L, const VarDecl *R) {
      return L->getName() < R->getName();
    });
    return Names(Sorted);
  };
  EXPECT_EQ(Of(0), "k,m,n");
  EXPECT_EQ(Of(1), "");
  // A library's value (a tensor's size) is not a variable's.
  EXPECT_EQ(
      symbolVariables(SymExpr::symbol(tensorSizeSymbol(F->getParamDecl(0), 0))),
      std::nullopt);

  EXPECT_EQ(Names(variablesIn(Uses[2]->getArg(0))), "k,m");
  EXPECT_EQ(Names(variablesIn(Uses[2]->getArg(0), 1)), "k");
  EXPECT_EQ(Names(variablesIn(nullptr)), "");
}

} // namespace
