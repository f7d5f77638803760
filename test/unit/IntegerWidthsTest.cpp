//===- IntegerWidthsTest.cpp - Upper bounds and integer widths ------------===//

#include "facts/IntegerWidths.h"
#include "facts/ValueBounds.h"
#include "ast/AstUtils.h"
#include "TestAST.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace cublas_tidy;

namespace {

const char *Prelude = "typedef unsigned long size_t;\n"
                      "void wide(long long v);\n"
                      "void narrow(int v);\n"
                      "[[noreturn]] void fail();\n";

/// What the facts say of the first argument of every call to `Sink` in
/// `f`: "wrap m * k", "wrap@s m * k" (through local s), "narrow n",
/// "narrow* rows * cols" (a product), or "-".
std::vector<std::string> facts(const std::string &Body,
                               const std::string &Sink) {
  auto AST = test::buildAST(std::string(Prelude) + Body);
  if (!AST || AST->getDiagnostics().hasErrorOccurred())
    return {"does not compile"};
  ASTContext &Ctx = AST->getASTContext();
  const FunctionDecl *F = test::functionNamed(*AST, "f");
  ValueFacts Facts(F, Ctx);
  UpperBounds Bounds(F);
  std::vector<std::string> Out;
  for (const CallExpr *Call : test::callsTo(*AST, F, Sink)) {
    const Expr *Arg = Call->getArg(0);
    QualType Param = Call->getDirectCallee()->getParamDecl(0)->getType();
    if (auto W = wrapBeforeWidening(Arg, Param, Call, Facts, Bounds))
      Out.push_back(std::string("wrap") +
                    (W->Through ? "@" + W->Through->getName().str() : "") +
                    " " + writtenText(W->Product, Ctx, 40) +
                    (W->Value ? " = " + std::to_string(*W->Value) : ""));
    else if (auto N = narrowing(Arg, Param, Call, Facts, Bounds))
      Out.push_back(std::string(N->FromProduct ? "narrow* " : "narrow ") +
                    writtenText(N->Source, Ctx, 40));
    else
      Out.push_back("-");
  }
  return Out;
}

TEST(IntegerWidths, TypesAndValues) {
  auto AST = test::buildAST("int i; unsigned u; long long l; short s;");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  EXPECT_EQ(integerWidth(Ctx.IntTy, Ctx), 32u);
  EXPECT_EQ(integerWidth(Ctx.LongLongTy, Ctx), 64u);
  EXPECT_EQ(integerWidth(Ctx.BoolTy, Ctx), 0u);
  EXPECT_TRUE(fitsType(2147483647, Ctx.IntTy, Ctx));
  EXPECT_FALSE(fitsType(2147483648, Ctx.IntTy, Ctx));
  EXPECT_TRUE(fitsType(-2147483648LL, Ctx.IntTy, Ctx));
  EXPECT_FALSE(fitsType(-1, Ctx.UnsignedIntTy, Ctx));
  EXPECT_TRUE(fitsType(4294967295LL, Ctx.UnsignedIntTy, Ctx));
  EXPECT_EQ(wrappedTo(2147488281LL, Ctx.IntTy, Ctx), -2147479015LL);
  EXPECT_EQ(wrappedTo(3000000000LL, Ctx.IntTy, Ctx), -1294967296LL);
  EXPECT_EQ(wrappedTo(4294967296LL + 16, Ctx.UnsignedIntTy, Ctx), 16);
}

TEST(IntegerWidths, ProductsWidenedTooLate) {
  EXPECT_EQ(facts("void f(int m, int k) {\n"
                  "  wide(m * k);\n"
                  "  wide((long long)m * k);\n"
                  "  wide(8 * m);\n"
                  "  long long s = m * k; wide(s);\n"
                  "  long long t = (long long)(m + 1) * k; wide(t);\n"
                  "  const int a = 46341, b = 46341; wide(a * b);\n"
                  "  const int c = 64, d = 64; wide(c * d);\n"
                  "  wide(m * k + 1);\n"
                  "}",
                  "wide"),
            (std::vector<std::string>{"wrap m * k", "-", "-", "wrap@s m * k",
                                      "-", "wrap a * b = 2147488281", "-",
                                      "wrap m * k"}));
}

TEST(IntegerWidths, BoundsSilenceTheProduct) {
  EXPECT_EQ(facts("void f(int m, int k, int n) {\n"
                  "  if (m > 4096) return;\n"
                  "  wide(m * k);\n"
                  "  if (n < 1) return;\n"
                  "  wide(n * k);\n"
                  "  for (int i = 0; i < 8; ++i) wide(i * k);\n"
                  "  if (!(k <= 100)) fail();\n"
                  "  wide(n * k);\n"
                  "}",
                  "wide"),
            (std::vector<std::string>{"-", "wrap n * k", "-", "-"}));
}

TEST(IntegerWidths, NarrowedValues) {
  EXPECT_EQ(facts("void f(size_t rows, size_t cols, long long n) {\n"
                  "  narrow(rows * cols);\n"
                  "  narrow(n);\n"
                  "  int c = rows * cols; narrow(c);\n"
                  "  narrow((int)n);\n"
                  "  narrow(sizeof(float) * 4);\n"
                  "  if (n > 2147483647) return;\n"
                  "  narrow(n);\n"
                  "}",
                  "narrow"),
            (std::vector<std::string>{"narrow* rows * cols", "narrow n",
                                      "narrow* rows * cols", "narrow n", "-",
                                      "-"}));
}

TEST(ValueBounds, DirectionAndPlace) {
  auto AST = test::buildAST(std::string(Prelude) +
                            "void f(int a, int b, int c, int d) {\n"
                            "  if (a < 0) return;\n"
                            "  if (b >= 10) fail();\n"
                            "  if (c < 10) { narrow(c); }\n"
                            "  narrow(c);\n"
                            "  narrow(d);\n"
                            "  if (d > 5) throw 1;\n"
                            "}");
  ASSERT_TRUE(AST);
  const FunctionDecl *F = test::functionNamed(*AST, "f");
  UpperBounds B(F);
  auto Calls = test::callsTo(*AST, F, "narrow");
  ASSERT_EQ(Calls.size(), 3u);
  auto Param = [&](unsigned I) { return F->getParamDecl(I); };
  EXPECT_FALSE(B.bounded(Param(0), Calls[0])) << "a lower bound";
  EXPECT_TRUE(B.bounded(Param(1), Calls[0])) << "a guard that fails";
  EXPECT_TRUE(B.bounded(Param(2), Calls[0])) << "inside the if";
  EXPECT_FALSE(B.bounded(Param(2), Calls[1])) << "after the if";
  EXPECT_FALSE(B.bounded(Param(3), Calls[2])) << "a guard after the call";
}

} // namespace

namespace {

TEST(IntegerWidths, FitsAtEveryCallSite) {
  auto AST = test::buildAST(std::string(Prelude) +
                            "static void small(int m, int k) { wide(m * k); }\n"
                            "static void large(int m, int k) { wide(m * k); }\n"
                            "static void none(int m, int k) { wide(m * k); }\n"
                            "void f() { small(64, 64); small(128, 2);\n"
                            "  large(64, 64); large(65536, 65536); }\n");
  ASSERT_TRUE(AST);
  std::vector<const Decl *> Fns = test::definedFunctions(*AST);
  CallerFacts Callers(8);
  Callers.collectCallSites(Fns);
  auto Fits = [&](const char *Name) {
    const FunctionDecl *F = test::functionNamed(*AST, Name);
    const CallExpr *Wide = test::callsTo(*AST, F, "wide").front();
    return fitsAtEveryCallSite(Wide->getArg(0)->IgnoreImpCasts(),
                               AST->getASTContext().IntTy, F, Callers);
  };
  EXPECT_TRUE(Fits("small"));
  EXPECT_FALSE(Fits("large")) << "65536 * 65536 does not fit";
  EXPECT_FALSE(Fits("none")) << "no call site: the values are not known";
}

// Comparisons relate variables, directly or through a chain; a comparison
// with a constant or of one variable with itself relates nothing else.
TEST(ValueBounds, ComparedSizes) {
  auto AST = test::buildAST(std::string(Prelude) + R"(
    struct Size { int v; bool operator==(const Size &) const; };
    void f(int m, int n, int k, int p, int q, Size s, Size t) {
      if (m != k) fail();
      if (n < m) return;
      if (p > 0 && p < 100) return;
      if (s == t) return;
      narrow(q);
    })");
  ASSERT_TRUE(AST);
  const FunctionDecl *F = test::functionNamed(*AST, "f");
  auto P = [&](const char *Name) -> const VarDecl * {
    for (const ParmVarDecl *Param : F->parameters())
      if (Param->getName() == Name)
        return Param;
    return nullptr;
  };
  llvm::SmallVector<const Decl *, 1> In{F};
  EXPECT_TRUE(compared(In, {P("m")}, {P("k")}));
  EXPECT_TRUE(compared(In, {P("k")}, {P("m")}));
  EXPECT_TRUE(compared(In, {P("n")}, {P("k")})); // n < m, m != k
  EXPECT_TRUE(compared(In, {P("s")}, {P("t")})); // an overloaded ==
  EXPECT_FALSE(compared(In, {P("p")}, {P("m")}));
  EXPECT_FALSE(compared(In, {P("q")}, {P("m")}));
  EXPECT_FALSE(compared(In, {P("m")}, {}));
  EXPECT_FALSE(compared({}, {P("m")}, {P("k")}));
}

// The variables of a value's symbols, and the comparisons in the function
// of the call and in the callers that declare them.
TEST(ValueBounds, SizesComparedInCallers) {
  auto AST = test::buildAST(std::string(Prelude) + R"(
    void use(int, int);
    void g(int a, int b) { use(a, b); }
    void f(int m, int n, int k) {
      if (m == k) g(m, k);
      g(m, n);
    })");
  ASSERT_TRUE(AST);
  const FunctionDecl *F = test::functionNamed(*AST, "f");
  const FunctionDecl *G = test::functionNamed(*AST, "g");
  auto Param = [](const FunctionDecl *Fn, unsigned I) {
    return SymExpr::symbol(Symbol{Fn->getParamDecl(I)});
  };
  std::optional<llvm::SmallVector<const VarDecl *, 4>> Vars =
      symbolVariables(*Param(F, 0).mul(Param(F, 1)));
  ASSERT_TRUE(Vars);
  EXPECT_EQ(Vars->size(), 2u);
  const CallExpr *Use = test::callsTo(*AST, G, "use").front();
  // In g's own context its parameters are not compared.
  EXPECT_FALSE(sizesCompared(Param(G, 0), Use->getArg(0), Param(G, 1),
                             Use->getArg(1), G));
  // With f's values, f compares m and k but not m and n.
  EXPECT_TRUE(sizesCompared(Param(F, 0), Use->getArg(0), Param(F, 2),
                            Use->getArg(1), G));
  EXPECT_FALSE(sizesCompared(Param(F, 0), Use->getArg(0), Param(F, 1),
                             Use->getArg(1), G));
}

} // namespace
