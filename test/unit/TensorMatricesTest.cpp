//===- TensorMatricesTest.cpp - Operands that are a tensor's storage ------===//

#include "facts/libraries/torch/TensorMatrices.h"
#include "TestAST.h"
#include "TorchStandIn.h"
#include "facts/libraries/torch/TorchModel.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace cublas_tidy;

namespace {

const char Prelude[] = R"(
void use(const void *);
float *other();
)";

using Strings = std::vector<std::string>;

/// "<order> <size>,<size>,... of <storage variable>" of the matrix each
/// `use(p)` of `f` is, "-" when none.
Strings matrices(const std::string &Code) {
  auto AST = test::buildAST(std::string(test::TorchStandIn) + Prelude + Code);
  if (!AST || AST->getDiagnostics().hasErrorOccurred())
    return {"does not compile"};
  const FunctionDecl *F = test::functionNamed(*AST, "f");
  ValueFacts Facts(F, AST->getASTContext());
  Strings Out;
  for (const CallExpr *Call : test::callsTo(*AST, F, "use")) {
    std::optional<TensorMatrix> M = tensorMatrix(Call->getArg(0), Facts);
    if (!M) {
      Out.push_back("-");
      continue;
    }
    std::string S =
        M->Layout.Order == TensorOrder::RowMajor ? "row-major" : "transposed";
    for (size_t I = 0; I < M->Sizes.size(); ++I)
      S += (I ? "," : " ") + (M->Sizes[I] ? M->Sizes[I]->str() : "?");
    S += " of ";
    S += M->Layout.StorageVar ? M->Layout.StorageVar->getName().str() : "-";
    Out.push_back(S);
  }
  return Out;
}

// The storage of a factory's tensor, read through a transposed view or a
// local pointer set from it once, has the sizes written in the factory.
TEST(TensorMatrices, FactoryTensors) {
  EXPECT_EQ(matrices(R"(void f(int m, int k) {
    auto a = torch::empty({m, k}, torch::device(torch::kCUDA));
    use(a.data_ptr<float>());
    use(a.t().data_ptr<float>());
    float *p = a.data_ptr<float>();
    use(p);
    use(static_cast<const void *>(a.data_ptr()));
    auto c = torch::empty({2 * m, k + 1});
    use(c.contiguous().data_ptr<float>());
  })"),
            (Strings{"row-major m,k of a", "transposed m,k of a",
                     "row-major m,k of a", "row-major m,k of a",
                     "row-major 2*m,k + 1 of -"}));
}

// A parameter's sizes are its own symbols; where its number of dimensions
// is unknown, the first four are read.
TEST(TensorMatrices, CheckedParameters) {
  EXPECT_EQ(matrices(R"(void f(at::Tensor x, at::Tensor y) {
    TORCH_CHECK(x.is_contiguous(), "x");
    TORCH_CHECK(y.dim() == 2 && y.is_contiguous(), "y");
    use(x.data_ptr<float>());
    use(y.data_ptr<float>());
    use(y.t().data_ptr<float>());
  })"),
            (Strings{"row-major x.size(0),x.size(1),x.size(2),x.size(3) of x",
                     "row-major y.size(0),y.size(1) of y",
                     "transposed y.size(0),y.size(1) of y"}));
}

// No matrix where the layout is unknown, the pointer is not the start of a
// tensor's storage, or a local pointer may hold something else. A view of
// a row-major tensor is one, of the sizes the view writes.
TEST(TensorMatrices, UnknownStorage) {
  EXPECT_EQ(matrices(R"(void f(at::Tensor x, bool c, int m, int k) {
    use(x.data_ptr<float>());
    auto a = torch::empty({m, k});
    use(a.view({k, m}).data_ptr<float>());
    use(a.data_ptr<float>() + 1);
    float *p = a.data_ptr<float>();
    if (c)
      p = other();
    use(p);
    use(other());
  })"),
            (Strings{"-", "row-major k,m of -", "-", "-", "-"}));
}

// A helper on raw pointers: its parameter is the tensor's storage only in
// the context of the call that passes `t.data_ptr<float>()`, with the
// caller's sizes.
TEST(TensorMatrices, FollowsPointerParametersToCallers) {
  auto AST = test::buildAST(std::string(test::TorchStandIn) + Prelude + R"(
    void helper(const float *p) { use(p); }
    void caller(int m, int n) {
      auto t = torch::empty({m, n}, torch::device(torch::kCUDA));
      helper(t.data_ptr<float>());
    })");
  ASSERT_TRUE(AST && !AST->getDiagnostics().hasErrorOccurred());
  ASTContext &Ctx = AST->getASTContext();
  const FunctionDecl *Helper = test::functionNamed(*AST, "helper");
  const FunctionDecl *Caller = test::functionNamed(*AST, "caller");
  auto Sites = test::callsTo(*AST, Caller, "helper");
  auto Uses = test::callsTo(*AST, Helper, "use");
  ASSERT_TRUE(Sites.size() == 1 && Uses.size() == 1);
  ValueFacts HelperFacts(Helper, Ctx), CallerFacts(Caller, Ctx);
  EXPECT_FALSE(tensorMatrix(Uses[0]->getArg(0), HelperFacts));
  ValueFacts InContext(HelperFacts, Sites[0], CallerFacts);
  std::optional<TensorMatrix> M = tensorMatrix(Uses[0]->getArg(0), InContext);
  ASSERT_TRUE(M);
  EXPECT_EQ(M->Layout.Order, TensorOrder::RowMajor);
  ASSERT_EQ(M->Sizes.size(), 2u);
  ASSERT_TRUE(M->Sizes[0] && M->Sizes[1]);
  EXPECT_EQ(M->Sizes[0]->str(), "m");
  EXPECT_EQ(M->Sizes[1]->str(), "n");
}

// sizeDimOf names the dimension of a size symbol of that tensor only.
TEST(TensorMatrices, SizeDimensions) {
  auto AST = test::buildAST(std::string(test::TorchStandIn) +
                            "void f(at::Tensor x, at::Tensor y, int m) {}");
  ASSERT_TRUE(AST && !AST->getDiagnostics().hasErrorOccurred());
  const FunctionDecl *F = test::functionNamed(*AST, "f");
  const VarDecl *X = F->getParamDecl(0), *Y = F->getParamDecl(1),
                *M = F->getParamDecl(2);
  EXPECT_EQ(sizeDimOf(tensorSizeSymbol(X, 1), X), 1);
  EXPECT_EQ(sizeDimOf(tensorSizeSymbol(X, -1), X), -1);
  EXPECT_EQ(sizeDimOf(tensorSizeSymbol(X, 1), Y), std::nullopt);
  Symbol Plain;
  Plain.Decl = M;
  EXPECT_EQ(sizeDimOf(Plain, M), std::nullopt);
  EXPECT_EQ(sizeDimOf(tensorSizeSymbol(X, 0), nullptr), std::nullopt);
}

} // namespace
