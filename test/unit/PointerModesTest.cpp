//===- PointerModesTest.cpp - The pointer mode a scalar is read in --------===//

#include "facts/PointerModes.h"
#include "TestAST.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace cublas_tidy;

namespace {

/// The function `f` of a parsed unit, its provenance and its values.
struct Analysis {
  std::unique_ptr<ASTUnit> AST;
  const FunctionDecl *F = nullptr;
  std::optional<PointerProvenance> P;
  std::optional<ValueFacts> Facts;
  unsigned FactsAsked = 0;

  explicit Analysis(const std::string &Code) {
    AST = test::buildAST(Code);
    EXPECT_TRUE(AST && !AST->getDiagnostics().hasErrorOccurred()) << Code;
    if (!AST)
      return;
    F = test::functionNamed(*AST, "f");
    P.emplace(PointerProvenance::analyze(F, AST->getASTContext()));
  }

  /// The mode in which the `N`th call of `Callee` (the model's name) reads
  /// its parameter `Param`.
  ScalarPointerMode at(const std::string &Callee, unsigned N,
                       const char *Param) {
    const FunctionInfo *Info = lookupFunction(Callee);
    auto Calls = test::callsTo(*AST, F, Callee);
    EXPECT_TRUE(Info && N < Calls.size()) << Callee;
    if (!Info || N >= Calls.size())
      return {};
    int Index = Info->findParamNamed(Param);
    EXPECT_GE(Index, 0) << Param;
    return pointerModeAt(Calls[N], *Info, unsigned(Index), *P,
                         [&]() -> const ValueFacts & {
                           ++FactsAsked;
                           if (!Facts)
                             Facts.emplace(F, AST->getASTContext());
                           return *Facts;
                         });
  }
};

std::string describe(const ScalarPointerMode &M) {
  std::string Mode = M.Mode.Mode == PointerMode::Host     ? "host"
                     : M.Mode.Mode == PointerMode::Device ? "device"
                                                          : "?";
  return Mode + (M.Mode.FromCreate ? " from create " : " ") + M.Name;
}

// A classic handle's mode is the provenance analysis's, from the set or
// the create; the values of the function are not asked for it.
TEST(PointerModes, ClassicHandles) {
  Analysis A(R"(#include <cublas_v2.h>
    void f(cublasHandle_t param, const float *x, float *r) {
      cublasHandle_t h;
      cublasCreate(&h);
      cublasSnrm2(h, 4, x, 1, r);
      cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
      cublasSnrm2(h, 4, x, 1, r);
      cublasSnrm2(param, 4, x, 1, r);
    })");
  ScalarPointerMode Created = A.at("cublasSnrm2_v2", 0, "result");
  EXPECT_EQ(describe(Created), "host from create CUBLAS_POINTER_MODE_HOST");
  ASSERT_NE(Created.Handle, nullptr);
  EXPECT_EQ(Created.Handle,
            test::callsTo(*A.AST, A.F, "cublasSnrm2_v2")[0]->getArg(0));
  ASSERT_NE(Created.Mode.Where, nullptr);
  EXPECT_EQ(describe(A.at("cublasSnrm2_v2", 1, "result")),
            "device CUBLAS_POINTER_MODE_DEVICE");
  // Unknown: the message names the default.
  ScalarPointerMode Unknown = A.at("cublasSnrm2_v2", 2, "result");
  EXPECT_EQ(describe(Unknown), "? CUBLAS_POINTER_MODE_HOST");
  EXPECT_NE(Unknown.Handle, nullptr);
  EXPECT_EQ(A.FactsAsked, 0u);
}

// cublasXt takes its scalars from the host: no handle has a mode.
TEST(PointerModes, XtReadsTheHost) {
  Analysis A(R"(#include <cublasXt.h>
    void f(cublasXtHandle_t h, const float *a, float *c) {
      const float one = 1, zero = 0;
      cublasXtSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, a, 4, a, 4,
                    &zero, c, 4);
    })");
  ScalarPointerMode M = A.at("cublasXtSgemm", 0, "alpha");
  EXPECT_EQ(describe(M), "? CUBLAS_POINTER_MODE_HOST");
  EXPECT_EQ(M.Handle, nullptr);
  EXPECT_EQ(A.FactsAsked, 0u);
}

const char LtPrelude[] = R"(#include <cublasLt.h>
#define DSET(d, attr, v) cublasLtMatmulDescSetAttribute(d, attr, &v, sizeof(v))
#define MATMUL(desc)                                                           \
  cublasLtMatmul(lt, desc, alpha, A, l, A, l, beta, C, l, C, l, nullptr,       \
                 nullptr, 0, 0)
)";

// cublasLtMatmul reads alpha and beta by its matmul descriptor's mode,
// which the vector modes set apart for each; a descriptor from elsewhere
// has no known mode.
TEST(PointerModes, LtMatmulDescriptors) {
  if (!test::haveRealCudaHeaders())
    GTEST_SKIP() << "no CUDA toolkit headers: set CUDA_PATH to run this test";
  Analysis A(std::string(LtPrelude) + R"(
    void f(cublasLtHandle_t lt, cublasLtMatmulDesc_t given,
           cublasLtMatrixLayout_t l, const float *alpha, const float *beta,
           const float *A, float *C) {
      cublasLtMatmulDesc_t plain, dev, split;
      cublasLtMatmulDescCreate(&plain, CUBLAS_COMPUTE_32F, CUDA_R_32F);
      cublasLtMatmulDescCreate(&dev, CUBLAS_COMPUTE_32F, CUDA_R_32F);
      cublasLtPointerMode_t d = CUBLASLT_POINTER_MODE_DEVICE;
      DSET(dev, CUBLASLT_MATMUL_DESC_POINTER_MODE, d);
      cublasLtMatmulDescCreate(&split, CUBLAS_COMPUTE_32F, CUDA_R_32F);
      cublasLtPointerMode_t s =
          CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_HOST;
      DSET(split, CUBLASLT_MATMUL_DESC_POINTER_MODE, s);
      MATMUL(plain);
      MATMUL(dev);
      MATMUL(split);
      MATMUL(given);
    })");
  const char *M = "cublasLtMatmul";
  EXPECT_EQ(describe(A.at(M, 0, "alpha")),
            "host from create CUBLASLT_POINTER_MODE_HOST");
  EXPECT_EQ(describe(A.at(M, 1, "beta")),
            "device CUBLASLT_POINTER_MODE_DEVICE");
  EXPECT_EQ(describe(A.at(M, 2, "alpha")),
            "device CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_HOST");
  EXPECT_EQ(describe(A.at(M, 2, "beta")),
            "host CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_HOST");
  ScalarPointerMode Given = A.at(M, 3, "alpha");
  EXPECT_EQ(describe(Given), "? ");
  EXPECT_EQ(Given.Handle, nullptr);
  EXPECT_GT(A.FactsAsked, 0u);
  // The descriptor argument is the one whose mode it is.
  EXPECT_EQ(A.at(M, 1, "alpha").Handle,
            test::callsTo(*A.AST, A.F, M)[1]->getArg(1));
}

} // namespace
