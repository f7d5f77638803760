//===- CallGeometryTest.cpp - The operands of one cuBLAS call -------------===//

#include "facts/CallGeometry.h"
#include "TestAST.h"

#include "gtest/gtest.h"

#include <map>

using namespace clang;
using namespace cublas_tidy;

namespace {

const char Prelude[] = R"(
#include <cublas_v2.h>
cublasHandle_t h;
const float one = 1, zero = 0;
float *A, *B, *C, *x, *y;
)";

std::string text(const std::optional<ArgValue> &V) {
  return V ? V->V.str() : "?";
}

/// "<pointer>: <rows>x<cols> ld|inc=<..> <member>[ total <total>]
/// <plural><selector>" for each operand of the first call of `Callee` in
/// `f`.
std::vector<std::string> operands(const std::string &Code,
                                  const std::string &Callee) {
  auto AST = test::buildAST(std::string(Prelude) + Code);
  if (!AST || AST->getDiagnostics().hasErrorOccurred())
    return {"does not compile"};
  const FunctionDecl *F = test::functionNamed(*AST, "f");
  auto Calls = test::callsTo(*AST, F, Callee);
  const FunctionInfo *Info = lookupFunction(Callee);
  if (Calls.empty() || !Info)
    return {"no call"};
  ValueFacts Facts(F, AST->getASTContext());
  auto Args = argumentsAt(Calls[0], Facts, AST->getASTContext());
  CallGeometry G(*Info, *Args);
  std::vector<std::string> Out;
  for (const OperandAtCall &O : G.operands()) {
    std::string S = std::string(Info->params()[O.Params.Memory].Name) + ": " +
                    text(O.Rows) + "x" + text(O.Cols);
    if (O.Ld)
      S += " ld=" + text(O.Ld);
    if (O.Inc)
      S += " inc=" + text(O.Inc);
    S += " " + (O.Member ? O.Member->str() : "?");
    if (O.Total && O.Member && !(*O.Total == *O.Member))
      S += " total " + O.Total->str();
    S += " " + O.Plural + O.SelectorText;
    Out.push_back(S);
  }
  return Out;
}

using Strings = std::vector<std::string>;

// Each operand's shape follows its transpose flag; it spans
// ld * (cols - 1) + rows elements.
TEST(CallGeometry, GemmOperands) {
  EXPECT_EQ(operands(R"(void f() {
    const int m = 64, n = 32, k = 16;
    cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, m, n, k, &one, A, m, B, n,
                &zero, C, m);
  })",
                     "cublasSgemm_v2"),
            (Strings{"A: 64x16 ld=64 1024 floats for transa=CUBLAS_OP_N",
                     "B: 32x16 ld=32 512 floats for transb=CUBLAS_OP_T",
                     "C: 64x32 ld=64 2048 floats"}));
}

// An unknown transpose flag leaves the rows and columns unknown, unless
// both shapes agree (m == k).
TEST(CallGeometry, UnknownFlags) {
  EXPECT_EQ(operands(R"(void f(cublasOperation_t op) {
    cublasSgemm(h, op, CUBLAS_OP_N, 64, 32, 16, &one, A, 64, B, 16, &zero,
                C, 64);
  })",
                     "cublasSgemm_v2")[0],
            "A: ?x? ld=64 ? floats");
  EXPECT_EQ(operands(R"(void f(cublasOperation_t op) {
    cublasSgemm(h, op, CUBLAS_OP_N, 32, 32, 32, &one, A, 32, B, 32, &zero,
                C, 32);
  })",
                     "cublasSgemm_v2")[0],
            "A: 32x32 ld=32 1024 floats");
}

// Vectors span 1 + (n - 1) * |inc| elements; an unknown increment leaves
// them unknown. Symbolic values stay symbolic.
TEST(CallGeometry, VectorsAndSymbols) {
  EXPECT_EQ(
      operands(R"(void f() {
    cublasSaxpy(h, 100, &one, x, 2, y, -1);
  })",
               "cublasSaxpy_v2"),
      (Strings{"x: 100x1 inc=2 199 floats", "y: 100x1 inc=-1 100 floats"}));
  EXPECT_EQ(operands(R"(void f(int n, int incx) {
    cublasSaxpy(h, n, &one, x, incx, y, 1);
  })",
                     "cublasSaxpy_v2"),
            (Strings{"x: nx1 inc=incx ? floats", "y: nx1 inc=1 n floats"}));
}

// A strided batch spans stride * (count - 1) + one member's elements.
TEST(CallGeometry, StridedBatches) {
  std::vector<std::string> Ops = operands(R"(void f() {
    cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, &one,
                              A, 8, 64, B, 8, 64, &zero, C, 8, 100, 10);
  })",
                                          "cublasSgemmStridedBatched");
  ASSERT_EQ(Ops.size(), 3u);
  EXPECT_EQ(Ops[0], "A: 8x8 ld=8 64 total 640 floats for transa=CUBLAS_OP_N");
  EXPECT_EQ(Ops[2], "C: 8x8 ld=8 64 total 964 floats");
}

// The Ex routines' elements are those of the cudaDataType_t argument;
// unknown where that argument is.
TEST(CallGeometry, ElementTypesOfExRoutines) {
  std::vector<std::string> Ops = operands(R"(void f(cudaDataType_t t) {
    cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, A, CUDA_R_16F,
                 4, B, t, 4, &zero, C, CUDA_R_32F, 4, CUBLAS_COMPUTE_32F,
                 CUBLAS_GEMM_DEFAULT);
  })",
                                          "cublasGemmEx");
  ASSERT_EQ(Ops.size(), 3u);
  EXPECT_EQ(Ops[0], "A: 4x4 ld=4 16 __half values for transa=CUBLAS_OP_N");
  EXPECT_EQ(Ops[1], "B: 4x4 ld=4 16  for transb=CUBLAS_OP_N");
  EXPECT_EQ(Ops[2], "C: 4x4 ld=4 16 floats");
}

/// Arguments given by index, as the tracer gives the integers a call
/// passed.
class GivenArguments : public CallArguments {
public:
  explicit GivenArguments(std::map<int, int64_t> Values)
      : Values(std::move(Values)) {}
  std::optional<ArgValue> value(int Index) const override {
    auto It = Values.find(Index);
    if (It == Values.end())
      return std::nullopt;
    return ArgValue{SymExpr::constant(It->second), LazyText()};
  }
  std::string enumerator(int, int64_t V) const override {
    return "#" + std::to_string(V);
  }

private:
  std::map<int, int64_t> Values;
};

TEST(CallGeometry, GivenValues) {
  const FunctionInfo *Gemm = lookupFunction("cublasSgemm_v2");
  ASSERT_NE(Gemm, nullptr);
  // transa, transb, m, n, k, lda, ldb, ldc; CUBLAS_OP_T is 1.
  GivenArguments Args(
      {{1, 1}, {2, 0}, {3, 10}, {4, 20}, {5, 30}, {8, 30}, {10, 30}, {13, 10}});
  CallGeometry G(*Gemm, Args);
  ASSERT_EQ(G.operands().size(), 3u);
  const OperandAtCall &A = G.operands()[0];
  ASSERT_TRUE(A.Rows && A.Cols && A.Member);
  EXPECT_EQ(A.Rows->V.str(), "30"); // k x m for CUBLAS_OP_T
  EXPECT_EQ(A.Cols->V.str(), "10");
  EXPECT_EQ(A.RowDim, ShapeDim::K);
  EXPECT_EQ(A.Member->str(), "300");
  EXPECT_EQ(A.SelectorText, " for transa=#1");
  EXPECT_EQ(Args.knownEnumerator(1), "#1");
  EXPECT_EQ(Args.knownEnumerator(0), "");
  EXPECT_EQ(Args.knownEnumerator(-1), "");
  // Without ldc, C spans no known number of elements.
  GivenArguments NoLdc({{1, 0}, {2, 0}, {3, 10}, {4, 20}, {5, 30}});
  CallGeometry G2(*Gemm, NoLdc);
  EXPECT_FALSE(G2.operands()[2].Member);
}

// How a value is written in a message: the text, and the number when the
// text is not the number itself or the name it is given.
TEST(CallGeometry, DescribeAndBrief) {
  ArgValue Named{SymExpr::constant(128), std::string("K")};
  EXPECT_EQ(Named.describe(), "K = 128");
  EXPECT_EQ(Named.describe("K"), "128");
  EXPECT_EQ(Named.brief(), "128");
  ArgValue Literal{SymExpr::constant(64), std::string("64")};
  EXPECT_EQ(Literal.describe("lda"), "64");
  ArgValue Unwritten{SymExpr::constant(7), LazyText()};
  EXPECT_EQ(Unwritten.describe("n"), "7");
  int Made = 0;
  ArgValue Lazy{SymExpr::constant(3), LazyText([&] {
                  ++Made;
                  return std::string("m - 1");
                })};
  EXPECT_EQ(Made, 0);
  EXPECT_EQ(Lazy.brief(), "3");
  EXPECT_EQ(Made, 0); // a constant's brief text needs no source text
  EXPECT_EQ(Lazy.describe(), "m - 1 = 3");
  EXPECT_EQ(Lazy.describe(), "m - 1 = 3");
  EXPECT_EQ(Made, 1); // made once
}

} // namespace
