//===- ValueFactsTest.cpp - Integers the code proves ----------------------===//

#include "facts/ValueFacts.h"
#include "TestAST.h"

#include "clang/ASTMatchers/ASTMatchers.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace cublas_tidy;

namespace {

const char Prelude[] = R"(
#include <vector>
void use(long long);
void escape(int *);
int opaque();
#define N 512
enum { E = 3 };
constexpr int C = 7;
const int G = 100;
int Global = 5;
)";

/// The value of the argument of every `use(...)` call in the function named
/// `Fn`, printed ("?" when unknown), in source order.
std::vector<std::string> valuesIn(const std::string &Code,
                                  const std::string &Fn = "f") {
  return test::printArguments(std::string(Prelude) + Code, Fn, "use",
                              [](const FunctionDecl *F, ASTContext &Ctx) {
                                auto Facts =
                                    std::make_shared<ValueFacts>(F, Ctx);
                                return [Facts](const Expr *Arg) -> std::string {
                                  std::optional<SymExpr> V =
                                      Facts->evaluate(Arg);
                                  return V ? V->str() : "?";
                                };
                              });
}

using Values = std::vector<std::string>;

TEST(ValueFacts, Constants) {
  EXPECT_EQ(valuesIn("void f() { use(N * E + C + sizeof(float) + G); }"),
            Values{"1647"});
  EXPECT_EQ(valuesIn("void f() { use(Global); use(1 << 10); use(-(7 / 2)); }"),
            (Values{"?", "1024", "-3"}));
}

// Literals, enumerators and const variables are read without the constant
// evaluator; the values must be those it gives, conversions included.
TEST(ValueFacts, ConstantsReadDirectly) {
  EXPECT_EQ(valuesIn(R"(void f(int n) {
    const int lda = 64; use(lda);
    const long long big = 1 << 20; use(big);
    const int fromParam = n; use(fromParam);
    const unsigned char narrow = 300; use(narrow);
    const int negative = -5; use(negative);
    const int viaConst = G; use(viaConst);
    use(E); use(G); use('a');
    const bool flag = 2; use(flag);
  })"),
            (Values{"64", "1048576", "n", "44", "-5", "100", "3", "100", "97",
                    "1"}));
  // Sizes of types, as the constant evaluator gives them.
  EXPECT_EQ(valuesIn(R"(struct S { char c; double d; };
  void f(int n) {
    float arr[16]; long long x = n; S s;
    use(sizeof(double)); use(sizeof arr); use(sizeof x); use(sizeof(S));
    use(sizeof(int &)); use(sizeof s.c); use(sizeof(arr) / sizeof(arr[0]));
    use(alignof(double));
  })"),
            (Values{"8", "64", "8", "16", "4", "1", "16", "8"}));
  // Arithmetic on constants, in the operator's type.
  EXPECT_EQ(valuesIn(R"(void f() {
    const int size = 96; use(size * size * sizeof(float));
    use((long long)size * size - 1); use(long(size) + size);
    const unsigned wrap = 0u - 1u; use(wrap);
    const unsigned char small = 200; use(small + small);
    use(E * 2 - C);
  })"),
            (Values{"36864", "9215", "192", "4294967295", "400", "-1"}));
}

TEST(ValueFacts, LocalsAreFlowSensitive) {
  EXPECT_EQ(valuesIn(R"(void f(bool c) {
    int n = 4; use(n * 2);
    n = 8; use(n);
    if (c) n = 16;
    use(n);
    int m = 4;
    if (c) m = 4;
    use(m);
    int k = c ? 3 : 3; use(k);
    int j = c ? 3 : 4; use(j);
  })"),
            // `j` gets an unknown value: named by its variable, equal only
            // to itself.
            (Values{"8", "8", "?", "4", "3", "j"}));
}

// Variables defined once are answered from the statements alone, those
// stored to again from the CFG; both kinds in one body, and a variable
// declared in a loop or a condition, defined once per iteration.
TEST(ValueFacts, DefinedOnceAndStoredAgain) {
  EXPECT_EQ(valuesIn(R"(void f(int p, int q, int c) {
    use(p); p = 3; use(p); use(q);
    for (int i = 0; i < c; ++i) { const int w = q + 1; int v = q * 2; use(w); use(v); }
    if (int z = q - 1) use(z);
    int after = p + q; use(after);
  })"),
            (Values{"p", "3", "q", "q + 1", "2*q", "q - 1", "q + 3"}));
}

TEST(ValueFacts, LoopsAndUpdates) {
  EXPECT_EQ(valuesIn(R"(void f(int c) {
    int n = 4;
    for (int i = 0; i < c; ++i) { use(n); int m = 3; use(m); use(i); }
    int k = 4;
    while (c--) k = k * 2;
    use(k);
    int a = 4; a += 2; use(a); a++; use(a); a <<= 1; use(a);
  })"),
            (Values{"4", "3", "?", "?", "6", "7", "14"}));
}

TEST(ValueFacts, EscapedAndUninitialised) {
  EXPECT_EQ(valuesIn(R"(void f() {
    int n = 4; escape(&n); use(n);
    int r = 4; int &ref = r; ref = 5; use(r);
    int u; use(u);
    int l = 4; auto g = [&] { l = 5; }; g(); use(l);
  })"),
            (Values{"?", "?", "?", "?"}));
}

TEST(ValueFacts, LambdasAndUnevaluatedOperands) {
  // A capture by reference lets the lambda change the variable; one by copy
  // reads it once, when the lambda is made; unevaluated operands do
  // nothing.
  EXPECT_EQ(valuesIn(R"(void f() {
    int a = 4; auto g = [&a] { a = 5; }; g(); use(a);
    int b = 4; auto h = [&] { return b; }; use(b);
    int c = 4; auto k = [c]() mutable { c = 6; return c; }; k(); use(c);
    int d = 4; auto m = [=] { use(d); }; m(); use(d);
    int e = 4; use(sizeof(e = 7)); use(e);
    int s = 4; decltype(s++) t = s; use(s + t);
  })"),
            // The use(d) in the lambda's body is the lambda's own: unknown.
            (Values{"?", "?", "4", "?", "4", "4", "4", "8"}));
}

// `std::max(1, m)` is m: the leading dimension of LAPACK-style code, m
// whenever memory is touched. Other bounds stay unknown.
TEST(ValueFacts, MaxOfOneAndASize) {
  EXPECT_EQ(valuesIn(R"(#include <algorithm>
  void f(int m, int k) {
    use(std::max(1, m)); use(std::max(m, 1)); use(std::max(0, k));
    use(std::max(2, m)); use(std::min(1, m)); use(std::max(m, k));
    use(std::max(1, 64));
  })"),
            (Values{"m", "m", "k", "?", "?", "?", "64"}));
}

// A function of one `return` over its integer parameters, called with
// constants, is folded as C++ computes it; anything else stays unknown.
TEST(ValueFacts, SmallFunctionsOfConstants) {
  EXPECT_EQ(valuesIn(R"(
  static int pad(int x) { return (x + 31) / 32 * 32; }
  static int align8(int x) { return (x + 7) & ~7; }
  static long choose(int t, int m, int k) { return t == 0 ? k : m; }
  static int halve(int x) { return -x / 2 % 5; }
  static int divide(int x, int y) { return x / y; }
  static int twoStatements(int x) { int r = x + 1; return r; }
  static int reads(int x) { return x + Global; }
  int declared(int x);
  static int huge(long long x) { return x * x * x; }
  static int square(int x) { return x * x; }
  static int nonZero(int x) { return x ? 1 : 2; }
  void f(int m) {
    use(pad(100)); use(pad(96)); use(align8(13)); use(choose(0, 5, 9));
    use(choose(1, 5, 9)); use(halve(15)); use(divide(1, 0));
    use(twoStatements(1)); use(reads(1)); use(declared(1)); use(pad(m));
    use(huge(3000000000LL)); use(square(100000)); use(square(1000));
    use(nonZero(7)); use(nonZero(0));
  })"),
            (Values{"128", "96", "16", "9", "5", "-2", "?", "?", "?", "?", "?",
                    "?", "?", "1000000", "1", "2"}));
}

TEST(ValueFacts, SymbolsForWhatTheCodeDoesNotFix) {
  EXPECT_EQ(valuesIn(R"(void f(int m, int k) {
    use(m * k + 2 * m - m);
    int lda = k; use(lda - m);
    int o = opaque(); use(o + 1); use(o - o);
    use(m * k * k);
    use((m * 4) / 2); use(m / 2);
  })"),
            (Values{"m + m*k", "k - m", "o + 1", "0", "m*k*k", "2*m", "?"}));
}

TEST(ValueFacts, ContainerSizes) {
  EXPECT_EQ(valuesIn(R"(void f(int n) {
    std::vector<float> v(100); use(v.size()); v.data()[0] = 1; use(v.size());
    std::vector<float> w(n * 2); use(w.size());
    std::vector<float> p(10); p.push_back(1); use(p.size());
    std::vector<int> l{1, 2, 3}; use(l.size());
  })"),
            (Values{"100", "100", "2*n", "?", "3"}));
}

/// The facts of `callee` on its own and at its one call from `caller`, and
/// the `use(...)` calls of `callee`, for `Test`.
void inCallerContext(
    const std::string &Code, size_t Uses,
    llvm::function_ref<void(const ValueFacts &Own, const ValueFacts &InContext,
                            llvm::ArrayRef<const CallExpr *> Uses)>
        Test) {
  auto AST = test::buildAST(std::string(Prelude) + Code);
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const FunctionDecl *Callee = test::functionNamed(*AST, "callee");
  const FunctionDecl *Caller = test::functionNamed(*AST, "caller");
  auto Sites = test::callsTo(*AST, Caller, "callee");
  auto Used = test::callsTo(*AST, Callee, "use");
  ASSERT_TRUE(Callee && Caller && Sites.size() == 1 && Used.size() == Uses);
  ValueFacts CalleeFacts(Callee, Ctx), CallerFacts(Caller, Ctx);
  ValueFacts InContext(CalleeFacts, Sites[0], CallerFacts);
  Test(CalleeFacts, InContext, Used);
}

TEST(ValueFacts, ContextBindsParameters) {
  inCallerContext(R"(
    void callee(int m, int guarded) { use(m * 2); if (guarded > 0) use(guarded); }
    void caller() { int x = 32; callee(x, 7); }
  )",
                  2, [](const ValueFacts &Own, const ValueFacts &InContext,
                        llvm::ArrayRef<const CallExpr *> Uses) {
                    const Expr *Twice = Uses[0]->getArg(0);
                    const Expr *Guard = Uses[1]->getArg(0);
                    EXPECT_EQ(Own.evaluate(Twice)->str(), "2*m");
                    EXPECT_EQ(InContext.evaluate(Twice)->str(), "64");
                    // A parameter the callee tests keeps its symbolic value.
                    EXPECT_EQ(InContext.evaluate(Guard)->str(), "guarded");
                  });
}

// A flag that only picks a value (`TransA == 0 ? K : M`) is bound to the
// caller's argument, and comparisons of known values are 1 or 0; a flag
// that guards a statement is not bound, but skips() reads it to tell which
// branch the call site takes.
TEST(ValueFacts, FlagsThatPickAValueAndBranchesACallSiteSkips) {
  inCallerContext(R"(
    void callee(int flag, int k, int m, int branch) {
      int ld = (flag == 0) ? k : m;
      use(ld);
      use(!(flag != 0) && k < m);
      if (branch == 1)
        use(m);
      else
        use(k);
    }
    void caller() { callee(0, 32, 64, 0); }
  )",
                  4, [](const ValueFacts &Own, const ValueFacts &InContext,
                        llvm::ArrayRef<const CallExpr *> Uses) {
                    EXPECT_EQ(Own.evaluate(Uses[0]->getArg(0))->str(), "ld");
                    EXPECT_EQ(InContext.evaluate(Uses[0]->getArg(0))->str(),
                              "32");
                    std::optional<SymExpr> Test =
                        InContext.evaluate(Uses[1]->getArg(0));
                    ASSERT_TRUE(Test);
                    EXPECT_EQ(Test->str(), "1");
                    EXPECT_TRUE(InContext.skips(Uses[2]));
                    EXPECT_FALSE(InContext.skips(Uses[3]));
                    EXPECT_FALSE(Own.skips(Uses[2]));
                  });
}

// A stand-in for the pieces of ATen the tensor facts read (the lit tests
// use the real headers).
const char MiniATen[] = R"(
#include <initializer_list>
namespace c10 {
template <typename T> struct ArrayRef {
  ArrayRef(std::initializer_list<T>);
  const T &operator[](unsigned long) const;
};
using IntArrayRef = ArrayRef<long long>;
}
namespace at {
struct TensorOptions {};
class Tensor {
public:
  long long size(long long dim) const;
  c10::IntArrayRef sizes() const;
  long long stride(long long dim) const;
  Tensor t() const;
  Tensor transpose(long long, long long) const;
  Tensor contiguous() const;
  Tensor cuda() const;
  Tensor view(c10::IntArrayRef) const;
  Tensor permute(c10::IntArrayRef) const;
  Tensor &resize_(c10::IntArrayRef);
  Tensor &zero_();
};
Tensor empty(c10::IntArrayRef size, TensorOptions options = {});
Tensor empty_like(const Tensor &);
}
)";

// Sizes of tensors: by name (a.size(0)) for a parameter or a local defined
// once, as written for a factory or a view ({n, m}), through copies, views
// that swap dimensions and *_like; unknown where a resize changes them.
TEST(ValueFacts, TensorSizes) {
  EXPECT_EQ(valuesIn(std::string(MiniATen) + R"(
  void f(at::Tensor a, at::Tensor b, long long m, long long n) {
    use(a.size(0)); use(a.sizes()[1]); use(a.size(0) * a.size(1));
    long long rows = a.size(0); use(rows - 1);
    auto c = at::empty({m, n}); use(c.size(0)); use(c.size(-1)); use(c.size(2));
    auto ct = c.t(); use(ct.size(0)); use(ct.size(1));
    auto bt = b.t(); use(bt.size(1)); use(bt.size(0));
    auto bc = b.contiguous().cuda(); bc.zero_(); use(bc.size(1));
    use(b.transpose(0, 2).size(2)); use(b.transpose(0, 2).size(1));
    auto v = b.view({n, m}); use(v.size(0));
    auto l = at::empty_like(c); use(l.size(1));
    auto r = at::empty({m, n}); r.resize_({n, m}); use(r.size(0));
    use(a.stride(0));
    auto p = b.permute({2, 0, -2}); use(p.size(0)); use(p.size(-1)); use(p.size(3));
    auto cc = at::empty({m, n}).contiguous(); use(cc.size(-2)); use(cc.size(2));
  })"),
            (Values{"a.size(0)", "a.size(1)", "a.size(0)*a.size(1)",
                    "a.size(0) - 1", "m", "n", "?", "n", "m", "b.size(0)",
                    "bt.size(0)", "b.size(1)", "b.size(0)", "b.size(1)",
                    "n", "n", "?", "?", "b.size(2)", "b.size(1)",
                    "?", "m", "?"}));
}

} // namespace
