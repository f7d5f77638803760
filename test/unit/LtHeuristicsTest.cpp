//===- LtHeuristicsTest.cpp - cuBLASLt heuristic results used untested ----===//

#include "facts/LtHeuristics.h"
#include "TestAST.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace cublas_tidy;

namespace {

// `HEURISTIC(results, count)` asks for one algorithm; `MATMUL(algo)` runs
// the product with it.
const char Prelude[] = R"(
#include <cublasLt.h>
void log(int);
cublasLtHandle_t lt;
cublasLtMatmulDesc_t op;
cublasLtMatrixLayout_t la, lb, lc;
cublasLtMatmulPreference_t pref;
const float one = 1.f, zero = 0.f;
float *A, *B, *C;
#define HEURISTIC(results, count)                                              \
  cublasLtMatmulAlgoGetHeuristic(lt, op, la, lb, lc, lc, pref, 1, results,     \
                                 count)
#define MATMUL(algo)                                                           \
  cublasLtMatmul(lt, op, &one, A, la, B, lb, &zero, C, lc, C, lc, algo,        \
                 nullptr, 0, 0)
)";

/// "<count> <results>" for each untested heuristic of `f`, in order.
std::vector<std::string> untested(const std::string &Code) {
  auto AST = test::buildAST(std::string(Prelude) + Code);
  if (!AST || AST->getDiagnostics().hasErrorOccurred())
    return {"does not compile"};
  std::vector<std::string> Out;
  const FunctionDecl *F = test::functionNamed(*AST, "f");
  auto Matmuls = test::callsTo(*AST, F, "cublasLtMatmul");
  for (const UntestedHeuristic &U : untestedHeuristics(F)) {
    std::string S =
        U.Count->getNameAsString() + " " + U.Results->getNameAsString();
    // The use is the first matmul given a result.
    for (size_t I = 0; I < Matmuls.size(); ++I)
      if (Matmuls[I] == U.Use)
        S += " matmul " + std::to_string(I);
    Out.push_back(S);
  }
  return Out;
}

using Strings = std::vector<std::string>;

// The heuristic's declarations are in the CUDA toolkit's cublasLt.h only.
class LtHeuristics : public ::testing::Test {
protected:
  void SetUp() override {
    if (!test::haveRealCudaHeaders())
      GTEST_SKIP() << "no CUDA toolkit headers: set CUDA_PATH to run this test";
  }
};

TEST_F(LtHeuristics, CountNeverRead) {
  EXPECT_EQ(untested(R"(void f() {
    cublasLtMatmulHeuristicResult_t results[4];
    int returned = 0;
    HEURISTIC(results, &returned);
    MATMUL(&results[0].algo);
  })"),
            Strings{"returned results matmul 0"});
  // One result, not an array; the use is the matmul that is given it.
  EXPECT_EQ(untested(R"(void f() {
    cublasLtMatmulHeuristicResult_t r;
    int n;
    HEURISTIC(&r, &n);
    MATMUL(nullptr);
    MATMUL(&r.algo);
  })"),
            Strings{"n r matmul 1"});
}

// Any other mention of the count is a test: a comparison, a call that
// receives it, a lambda that captures it.
TEST_F(LtHeuristics, CountReadAnywhere) {
  EXPECT_EQ(untested(R"(void f() {
    cublasLtMatmulHeuristicResult_t results[1];
    int returned = 0;
    HEURISTIC(results, &returned);
    if (returned == 0)
      return;
    MATMUL(&results[0].algo);
  })"),
            Strings{});
  EXPECT_EQ(untested(R"(void f() {
    cublasLtMatmulHeuristicResult_t results[1];
    int returned = 0;
    HEURISTIC(results, &returned);
    log(returned);
    MATMUL(&results[0].algo);
  })"),
            Strings{});
  EXPECT_EQ(untested(R"(void f() {
    cublasLtMatmulHeuristicResult_t results[1];
    int returned = 0;
    HEURISTIC(results, &returned);
    auto ok = [&returned] { return returned > 0; };
    MATMUL(&results[0].algo);
  })"),
            Strings{});
}

// Untested results that no matmul uses, and counts or results that are not
// locals of the function, are not reported.
TEST_F(LtHeuristics, NoUseOrNotLocal) {
  EXPECT_EQ(untested(R"(void f() {
    cublasLtMatmulHeuristicResult_t results[1];
    int returned = 0;
    HEURISTIC(results, &returned);
    MATMUL(nullptr);
  })"),
            Strings{});
  EXPECT_EQ(untested(R"(void f(int *count,
                                cublasLtMatmulHeuristicResult_t *given) {
    cublasLtMatmulHeuristicResult_t results[1];
    HEURISTIC(results, count);
    MATMUL(&results[0].algo);
    int returned;
    HEURISTIC(given, &returned);
    MATMUL(&given[0].algo);
  })"),
            Strings{});
}

// Each heuristic call is judged by its own count.
TEST_F(LtHeuristics, EachCallOnItsOwn) {
  EXPECT_EQ(untested(R"(void f() {
    cublasLtMatmulHeuristicResult_t first[1], second[1];
    int n1 = 0, n2 = 0;
    HEURISTIC(first, &n1);
    HEURISTIC(second, &n2);
    if (n1 > 0)
      MATMUL(&first[0].algo);
    MATMUL(&second[0].algo);
  })"),
            Strings{"n2 second matmul 1"});
}

TEST_F(LtHeuristics, BodyWithErrorsHasNone) {
  auto AST = test::buildAST(std::string(Prelude) + R"(void f() {
    cublasLtMatmulHeuristicResult_t results[1];
    int returned = 0;
    HEURISTIC(results, &returned);
    MATMUL(&results[0].algo);
    undeclared();
  })");
  ASSERT_TRUE(AST);
  ASSERT_TRUE(AST->getDiagnostics().hasErrorOccurred());
  EXPECT_TRUE(untestedHeuristics(test::functionNamed(*AST, "f")).empty());
}

} // namespace
