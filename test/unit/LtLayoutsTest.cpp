//===- LtLayoutsTest.cpp - Whether a function may reorder its layouts -----===//

#include "facts/LtLayouts.h"
#include "TestAST.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace cublas_tidy;

namespace {

const char Prelude[] = R"(
#include <cublasLt.h>
void other(cublasLtMatrixLayout_t);
)";

/// maySetLayoutAttributes() of the function `f` of `Code`.
bool maySet(const std::string &Code) {
  auto AST = test::buildAST(std::string(Prelude) + Code);
  EXPECT_TRUE(AST && !AST->getDiagnostics().hasErrorOccurred()) << Code;
  if (!AST)
    return false;
  const FunctionDecl *F = test::functionNamed(*AST, "f");
  EXPECT_NE(F, nullptr);
  return maySetLayoutAttributes(F);
}

TEST(LtLayouts, CreatesOnly) {
  EXPECT_FALSE(maySet(R"(void f() {
    cublasLtMatrixLayout_t l;
    cublasLtMatrixLayoutCreate(&l, CUDA_R_32F, 4, 4, 4);
    other(l);
    cublasLtMatrixLayoutDestroy(l);
  })"));
  // Other descriptors leave the layouts as they are.
  EXPECT_FALSE(maySet(R"(void f(cublasLtMatrixLayout_t l) {
    cublasLtMatmulDesc_t d;
    cublasLtMatmulDescCreate(&d, CUBLAS_COMPUTE_32F, CUDA_R_32F);
    other(l);
    cublasLtMatmulDescDestroy(d);
  })"));
}

// A set anywhere in the body, nested in statements or a lambda, counts.
TEST(LtLayouts, SetsAnAttribute) {
  EXPECT_TRUE(maySet(R"(void f(bool rowMajor) {
    cublasLtMatrixLayout_t l;
    cublasLtMatrixLayoutCreate(&l, CUDA_R_32F, 4, 4, 4);
    if (rowMajor) {
      cublasLtOrder_t order = CUBLASLT_ORDER_ROW;
      cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_ORDER,
                                       &order, sizeof(order));
    }
  })"));
  EXPECT_TRUE(maySet(R"(void f() {
    cublasLtMatrixLayout_t l;
    cublasLtMatrixLayoutCreate(&l, CUDA_R_32F, 4, 4, 4);
    auto reorder = [&] {
      cublasLtOrder_t order = CUBLASLT_ORDER_ROW;
      cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_ORDER,
                                       &order, sizeof(order));
    };
    reorder();
  })"));
}

// A body too large to look through, or no callable at all, may set one.
TEST(LtLayouts, UnknownIsMaySet) {
  std::string Big = "void f() { int x = 0;\n";
  for (int I = 0; I < 5000; ++I)
    Big += "  x = x + 1;\n";
  Big += "}\n";
  EXPECT_TRUE(maySet(Big));
  EXPECT_TRUE(maySetLayoutAttributes(nullptr));
}

} // namespace
