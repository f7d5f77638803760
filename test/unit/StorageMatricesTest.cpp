//===- StorageMatricesTest.cpp - Operands that are an object's storage ----===//

#include "facts/StorageMatrices.h"
#include "TestAST.h"
#include "TorchStandIn.h"
#include "facts/LibraryModel.h"
#include "facts/libraries/torch/TorchModel.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace cublas_tidy;

namespace {

const char Prelude[] = R"(
void use(const void *);
float *other();
)";

/// The storage matrices of the `use(p)` calls of `f`, with the facts of
/// `f`, for `Test` to look at.
void withMatrices(
    const std::string &Code,
    llvm::function_ref<void(llvm::ArrayRef<std::optional<StorageMatrix>>)>
        Test) {
  auto AST = test::buildAST(std::string(test::TorchStandIn) + Prelude + Code);
  ASSERT_TRUE(AST && !AST->getDiagnostics().hasErrorOccurred());
  const FunctionDecl *F = test::functionNamed(*AST, "f");
  ValueFacts Facts(F, AST->getASTContext());
  std::vector<std::optional<StorageMatrix>> Matrices;
  for (const CallExpr *Call : test::callsTo(*AST, F, "use"))
    Matrices.push_back(storageMatrix(Call->getArg(0), Facts));
  Test(Matrices);
}

SymExpr sizeOf(const StorageMatrix &M, unsigned Dim) {
  return *M.Sizes[Dim];
}

// The PyTorch model answers for a tensor's storage, and names itself; a
// pointer that is no library object's storage is no matrix.
TEST(StorageMatrices, AskTheLibraryModels) {
  withMatrices(R"(void f(int m, int k) {
    auto a = torch::empty({m, k}, torch::device(torch::kCUDA));
    use(a.data_ptr<float>());
    use(other());
  })",
               [](llvm::ArrayRef<std::optional<StorageMatrix>> M) {
                 ASSERT_EQ(M.size(), 2u);
                 ASSERT_TRUE(M[0]);
                 EXPECT_EQ(M[0]->Library, &torchModel());
                 EXPECT_EQ(M[0]->Layout.Order, StorageOrder::RowMajor);
                 EXPECT_EQ(M[0]->Library->terms().Object, "tensor");
                 EXPECT_FALSE(M[1]);
               });
}

// With the number of dimensions known, a leading dimension that is a size
// other than the last misreads the storage; the last size, or a matrix of
// one column, does not.
TEST(StorageMatrices, MisreadWithKnownDimensions) {
  withMatrices(R"(void f(int m, int k) {
    auto a = torch::empty({m, k}, torch::device(torch::kCUDA));
    use(a.data_ptr<float>());
  })",
               [](llvm::ArrayRef<std::optional<StorageMatrix>> M) {
                 ASSERT_TRUE(M.size() == 1 && M[0]);
                 SymExpr Rows = sizeOf(*M[0], 0), Cols = sizeOf(*M[0], 1);
                 SymbolBounds Bounds;
                 auto Misread =
                     misreadStorageLd(*M[0], Rows, Cols, {}, Bounds);
                 ASSERT_TRUE(Misread);
                 EXPECT_EQ(Misread->Named, 0);
                 ASSERT_TRUE(Misread->Last);
                 EXPECT_EQ(Misread->Last->str(), "k");
                 EXPECT_FALSE(misreadStorageLd(*M[0], Cols, Rows, {}, Bounds));
                 EXPECT_FALSE(misreadStorageLd(*M[0], Rows,
                                               SymExpr::constant(1), {},
                                               Bounds));
               });
}

// Without the number of dimensions, only a larger size of the same object
// among the call's values shows that the named size is not the last.
TEST(StorageMatrices, MisreadWithUnknownDimensions) {
  withMatrices(R"(void f(at::Tensor x) {
    TORCH_CHECK(x.is_contiguous(), "x");
    use(x.data_ptr<float>());
  })",
               [](llvm::ArrayRef<std::optional<StorageMatrix>> M) {
                 ASSERT_TRUE(M.size() == 1 && M[0]);
                 SymExpr First = sizeOf(*M[0], 0), Second = sizeOf(*M[0], 1);
                 SymbolBounds Bounds;
                 EXPECT_FALSE(misreadStorageLd(*M[0], First, std::nullopt,
                                               {First}, Bounds));
                 auto Misread = misreadStorageLd(*M[0], First, std::nullopt,
                                                 {First, Second}, Bounds);
                 ASSERT_TRUE(Misread);
                 EXPECT_EQ(Misread->Named, 0);
                 EXPECT_EQ(M[0]->Library->sizeSpelling("x", 1), "x.size(1)");
               });
}

// Sizes a check before the use compares equal are recorded as a pair of
// dimensions (directly or through a local), and a leading dimension that
// is the first is then the last size too; an inequality records nothing.
TEST(StorageMatrices, SizesACheckComparesEqual) {
  withMatrices(R"(void f(at::Tensor w, at::Tensor r) {
    TORCH_CHECK(w.is_contiguous() && r.is_contiguous(), "w, r");
    const long n = w.size(0);
    TORCH_CHECK(w.dim() == 2 && w.size(1) == n, "square");
    TORCH_CHECK(r.dim() == 2 && r.size(0) <= r.size(1), "wide");
    use(w.data_ptr<float>());
    use(r.data_ptr<float>());
  })",
               [](llvm::ArrayRef<std::optional<StorageMatrix>> M) {
                 ASSERT_TRUE(M.size() == 2 && M[0] && M[1]);
                 ASSERT_EQ(M[0]->EqualSizes.size(), 1u);
                 EXPECT_EQ(M[0]->EqualSizes[0], std::make_pair(0u, 1u));
                 EXPECT_TRUE(M[1]->EqualSizes.empty());
                 SymbolBounds Bounds;
                 EXPECT_FALSE(misreadStorageLd(*M[0], sizeOf(*M[0], 0),
                                               std::nullopt, {}, Bounds));
                 EXPECT_TRUE(misreadStorageLd(*M[1], sizeOf(*M[1], 0),
                                              std::nullopt, {}, Bounds));
               });
}

// A transpose of a row-major tensor of four dimensions is a Permuted view
// of its storage: a leading dimension that is the view's last size, and a
// batch stride that is one packed matrix of the view, misread it; the
// storage's own strides do not.
TEST(StorageMatrices, PermutedViewsOfRowMajorTensors) {
  withMatrices(R"(void f(at::Tensor q) {
    TORCH_CHECK(q.is_contiguous() && q.dim() == 4, "q");
    use(q.transpose(1, 2).data_ptr<float>());
    use(q.transpose(0, 1).data_ptr<float>());
    use(q.transpose(-1, -2).data_ptr<float>());
  })",
               [](llvm::ArrayRef<std::optional<StorageMatrix>> M) {
                 ASSERT_TRUE(M.size() == 3 && M[0] && M[1] && M[2]);
                 ASSERT_EQ(M[0]->Layout.Order, StorageOrder::View);
                 EXPECT_EQ(M[0]->Layout.Ops, unsigned(ViewOps::Reorders));
                 EXPECT_EQ(llvm::to_vector(llvm::map_range(
                               M[0]->Layout.ViewDims,
                               [](const ViewDim &D) { return D.StorageDim; })),
                           (llvm::SmallVector<int, 4>{0, 2, 1, 3}));
                 SymExpr S = sizeOf(*M[0], 1), H = sizeOf(*M[0], 2),
                         D = sizeOf(*M[0], 3);
                 auto Ld = misreadViewLd(*M[0], D);
                 ASSERT_TRUE(Ld);
                 EXPECT_EQ(Ld->Actual, *H.mul(D));
                 EXPECT_FALSE(misreadViewLd(*M[0], *H.mul(D)));
                 auto Stride = misreadViewStride(*M[0], *S.mul(D));
                 ASSERT_TRUE(Stride);
                 EXPECT_EQ(Stride->Actual, D);
                 EXPECT_FALSE(misreadViewStride(*M[0], D));
                 // Batches swapped, matrices untouched: packed matrices.
                 // The batch stride of the view's third dimension from the
                 // end (the storage's first) is S*H*D, but a stride of one
                 // matrix takes the matrices in the storage's order, right
                 // when every operand is reordered alike: silent.
                 ASSERT_TRUE(M[1]->ViewStrides.size() == 4 &&
                             M[1]->ViewStrides[1]);
                 EXPECT_EQ(*M[1]->ViewStrides[1], *S.mul(H)->mul(D));
                 ASSERT_EQ(M[1]->Layout.Order, StorageOrder::View);
                 EXPECT_FALSE(misreadViewLd(*M[1], D));
                 EXPECT_FALSE(misreadViewStride(*M[1], *H.mul(D)));
                 // The last two swapped: each matrix transposed, read with
                 // ld = the view's last size (S) where the storage has D.
                 ASSERT_EQ(M[2]->Layout.Order, StorageOrder::View);
                 auto T = misreadViewLd(*M[2], H);
                 ASSERT_TRUE(T);
                 EXPECT_EQ(T->Actual, D);
               });
}

// The columns of a row-major tensor narrowed, or a row of a tensor of
// three selected: the view's rows stay the storage's rows apart, so its
// last size (the packed leading dimension) misreads it; rows narrowed keep
// it packed. An expanded vector repeats one row: its rows are 0 apart; an
// expanded matrix's batches too.
TEST(StorageMatrices, NarrowedSelectedAndExpandedViews) {
  withMatrices(R"(void f(at::Tensor w, int m, int n, int k, int b) {
    auto a = torch::empty({m, n});
    use(a.narrow(1, 0, k).data_ptr<float>());
    use(a.narrow(0, 0, k).data_ptr<float>());
    auto c = torch::empty({b, m, n});
    use(c.select(1, 0).data_ptr<float>());
    auto v = torch::empty({n});
    use(v.expand({m, n}).data_ptr<float>());
    auto x = torch::empty({m, k});
    use(x.expand({b, m, k}).data_ptr<float>());
    use(a.slice(1, 0, k).data_ptr<float>());
  })",
               [](llvm::ArrayRef<std::optional<StorageMatrix>> M) {
                 ASSERT_EQ(M.size(), 6u);
                 for (const auto &Matrix : M)
                   ASSERT_TRUE(Matrix &&
                               Matrix->Layout.Order == StorageOrder::View);
                 SymExpr N = sizeOf(*M[0], 1), K = *M[0]->ViewSizes[1];
                 EXPECT_EQ(K.str(), "k");
                 auto Ld = misreadViewLd(*M[0], K);
                 ASSERT_TRUE(Ld);
                 EXPECT_EQ(Ld->Actual, N);
                 EXPECT_FALSE(misreadViewLd(*M[0], N));
                 EXPECT_FALSE(misreadViewLd(*M[1], N));
                 auto Row = misreadViewLd(*M[2], N);
                 ASSERT_TRUE(Row);
                 EXPECT_EQ(Row->Actual.str(), "m*n");
                 auto Repeated = misreadViewLd(*M[3], N);
                 ASSERT_TRUE(Repeated);
                 EXPECT_EQ(Repeated->Actual, SymExpr::constant(0));
                 SymExpr Mx = sizeOf(*M[4], 0), Kx = sizeOf(*M[4], 1);
                 EXPECT_FALSE(misreadViewLd(*M[4], Kx));
                 auto Batch = misreadViewStride(*M[4], *Mx.mul(Kx));
                 ASSERT_TRUE(Batch);
                 EXPECT_EQ(Batch->Actual, SymExpr::constant(0));
                 EXPECT_FALSE(misreadViewStride(*M[4], SymExpr::constant(0)));
                 // slice(1, 0, k): k - 0 columns.
                 ASSERT_TRUE(M[5]->ViewSizes[1]);
                 EXPECT_EQ(M[5]->ViewSizes[1]->str(), "k");
                 EXPECT_TRUE(misreadViewLd(*M[5], K));
               });
}

} // namespace
