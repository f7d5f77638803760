//===- TensorFactsTest.cpp - What the source says of a torch::Tensor ------===//

#include "facts/libraries/torch/TensorFacts.h"
#include "facts/libraries/torch/TensorShapes.h"
#include "TestAST.h"
#include "TorchStandIn.h"
#include "ast/AstUtils.h"

#include "clang/ASTMatchers/ASTMatchers.h"
#include "gtest/gtest.h"

#include <functional>

using namespace clang;
using namespace clang::ast_matchers;
using namespace cublas_tidy;

namespace {

// `use(x)` marks a point of interest: the tests ask about its argument.
const char Prelude[] = R"(
void use(const at::Tensor &);
void use(const void *);
void use(int64_t);
void mutate(at::Tensor &);
void look(const at::Tensor &);
void log(const char *);
)";

using Strings = std::vector<std::string>;

/// Parses `Code` (after the stand-in and the prelude) and prints
/// `Print(Arg, Ctx)` for the argument of every `use(...)` in `f`.
Strings
atUses(const std::string &Code,
       const std::function<std::string(const Expr *, ASTContext &)> &Print) {
  auto AST = test::buildAST(std::string(test::TorchStandIn) + Prelude + Code);
  if (!AST || AST->getDiagnostics().hasErrorOccurred())
    return {"does not compile"};
  const FunctionDecl *F = test::functionNamed(*AST, "f");
  Strings Out;
  for (const CallExpr *Call : test::callsTo(*AST, F, "use"))
    Out.push_back(Print(Call->getArg(0), AST->getASTContext()));
  return Out;
}

/// "<device>[ pinned][ by default] <dtype>", "?" for what is unknown.
Strings facts(const std::string &Code) {
  return atUses(Code, [](const Expr *E, ASTContext &Ctx) {
    TensorFact T = tensorFact(E, Ctx);
    std::string Device = T.Device == TensorDevice::CPU    ? "CPU"
                         : T.Device == TensorDevice::CUDA ? "CUDA"
                                                          : "?";
    if (T.Pinned)
      Device += " pinned";
    if (T.DefaultDevice)
      Device += " by default";
    return Device + " " + (T.DType.empty() ? "?" : T.DType.str());
  });
}

std::string varName(const VarDecl *V) { return V ? V->getName().str() : "-"; }

// The device and dtype are those of the options a factory is given; a
// factory whose options name no device makes a CPU tensor.
TEST(TensorFacts, Factories) {
  EXPECT_EQ(
      facts(R"(void f(int n, at::Tensor p) {
    auto a = torch::empty({n, n},
                          torch::device(torch::kCUDA).dtype(torch::kHalf));
    use(a);
    auto b = torch::zeros({n});
    use(b);
    auto c = torch::ones({n}, torch::dtype(torch::kFloat).pinned_memory(true));
    use(c);
    auto d = torch::empty({n}, a.options());
    use(d);
    use(torch::empty_like(a));
    use(torch::empty({n}, torch::kCUDA));
    use(torch::empty({n}, p.options()));
  })"),
      (Strings{"CUDA Half", "CPU by default ?", "CPU pinned by default Float",
               "CUDA Half", "CUDA Half", "CUDA ?", "? ?"}));
}

// A device written as a string: `at::Device("cuda:1")` is a functional
// cast around the Device constructor.
TEST(TensorFacts, DevicesWrittenAsStrings) {
  EXPECT_EQ(facts(R"(void f(int n) {
    use(torch::empty({n}, torch::TensorOptions().device(at::Device("cuda:1"))));
    use(torch::zeros({n}, torch::TensorOptions().device(at::Device("cpu"))));
  })"),
            (Strings{"CUDA ?", "CPU ?"}));
}

// `.cuda()`, `.cpu()`, `.to(...)` and the casts say what they do; the
// methods that keep the storage's place keep the device and the dtype.
TEST(TensorFacts, Conversions) {
  EXPECT_EQ(
      facts(R"(void f() {
    auto a = torch::zeros({4}, torch::dtype(torch::kFloat));
    use(a.cuda());
    use(a.half());
    use(a.to(at::kDouble));
    use(a.cuda().cpu());
    use(a.to(at::kCUDA, at::kHalf));
    use(a.contiguous().t());
    use(at::matmul(a, a));
  })"),
      (Strings{"CUDA Float", "CPU by default Half", "CPU by default Double",
               "CPU Float", "CUDA Half", "CPU by default Float", "? ?"}));
}

// A local is followed to its one definition only while nothing may change
// it: an assignment, a non-const reference, or a choice between tensors
// that differ leaves it unknown; reading it through a const reference does
// not.
TEST(TensorFacts, ChangedLocalsAreUnknown) {
  EXPECT_EQ(facts(R"(void f(bool c) {
    auto a = torch::empty({4}, torch::device(torch::kCUDA));
    a = torch::zeros({4});
    use(a);
    auto b = torch::empty({4}, torch::device(torch::kCUDA));
    mutate(b);
    use(b);
    auto r = torch::empty({4}, torch::device(torch::kCUDA));
    at::Tensor &alias = r;
    use(r);
    auto k = torch::empty({4}, torch::device(torch::kCUDA));
    look(k);
    use(k);
    at::Tensor m =
        c ? torch::zeros({4}, torch::dtype(torch::kHalf))
          : torch::empty({4}, torch::device(torch::kCUDA).dtype(torch::kHalf));
    use(m);
  })"),
            (Strings{"? ?", "? ?", "? ?", "CUDA ?", "? Half"}));
}

// A parameter is a CUDA tensor, or of a dtype, only after a TORCH_CHECK
// that stops otherwise, and only while nothing changes it.
TEST(TensorFacts, ParametersFromChecks) {
  EXPECT_EQ(facts(R"(void f(at::Tensor x, at::Tensor y, at::Tensor z,
                           at::Tensor w) {
    use(x);
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(y.device().is_cuda() && y.scalar_type() == at::kHalf, "y");
    if (!z.is_cuda())
      log("z is not a CUDA tensor");
    TORCH_CHECK(w.is_cuda(), "w");
    mutate(w);
    use(x);
    use(y);
    use(z);
    use(w);
  })"),
            (Strings{"? ?", "CUDA ?", "CUDA Half", "? ?", "? ?"}));
}

// The data pointer calls, through casts, and the tensor they read; not a
// method of another class, nor a pointer variable.
TEST(TensorFacts, DataPointerCalls) {
  EXPECT_EQ(atUses(R"(
    struct NotATensor { float *data_ptr(); };
    void f(at::Tensor a) {
      use(a.data_ptr<float>());
      use((float *)a.data_ptr());
      use(reinterpret_cast<const c10::Half *>(a.data_ptr()));
      use(a.contiguous().data_ptr<float>());
      NotATensor n;
      use(n.data_ptr());
      float *p = a.data_ptr<float>();
      use(p);
    })",
                   [](const Expr *E, ASTContext &Ctx) -> std::string {
                     const CXXMemberCallExpr *Call = dataPointerCall(E);
                     return Call ? writtenText(dataPointerTensor(Call), Ctx, 40)
                                 : "-";
                   }),
            (Strings{"a", "a", "a", "a.contiguous()", "-", "-"}));
}

// The sizes written in a factory, through locals defined once and
// `.contiguous()`; not a view, a `*_like` factory, a parameter, or a
// tensor resized in place.
TEST(TensorFacts, Allocations) {
  EXPECT_EQ(atUses(R"(void f(int m, int n, at::Tensor p) {
    auto a = torch::empty({m, n}, p.options());
    use(a);
    auto b = a.contiguous();
    use(b);
    use(torch::zeros({8}));
    use(a.view({n, m}));
    use(torch::empty_like(a));
    use(p);
    auto r = torch::empty({m});
    r.resize_({n});
    use(r);
  })",
                   [](const Expr *E, ASTContext &Ctx) -> std::string {
                     std::optional<TensorAllocation> A = tensorAllocation(E);
                     if (!A)
                       return "?";
                     std::string Out = varName(A->Var);
                     for (const Expr *Size : A->Sizes)
                       Out += " " + writtenText(Size, Ctx, 40);
                     return Out;
                   }),
            (Strings{"a m n", "b m n", "- 8", "?", "?", "?", "?"}));
}

/// The size each `use(...)` reads: the expression written in a factory,
/// or "<tensor>.size(<dim>)"; "?" when unknown.
Strings sizes(const std::string &Code) {
  return atUses(Code, [](const Expr *E, ASTContext &Ctx) -> std::string {
    std::optional<TensorSize> S = tensorSizeRead(E);
    if (!S)
      return "?";
    if (S->Written)
      return writtenText(S->Written, Ctx, 40);
    return varName(S->Tensor) + ".size(" + std::to_string(S->Dim) + ")";
  });
}

// `t.size(d)` and `t.sizes()[d]`, followed through transposes and copies to
// the tensor whose size it is, or to the size written where it was made.
TEST(TensorFacts, SizeReads) {
  EXPECT_EQ(sizes(R"(void f(at::Tensor x, int m, int n) {
    use(x.size(0));
    use(x.sizes()[1]);
    use(x.t().size(1));
    use(x.transpose(0, 2).size(0));
    auto a = torch::empty({m, n});
    use(a.size(1));
    use(a.size(-1));
    use(a.contiguous().t().size(0));
    use(a.clone().sizes()[0]);
  })"),
            (Strings{"x.size(0)", "x.size(1)", "x.size(0)", "x.size(2)", "n",
                     "n", "n", "m"}));
}

// Where the size is not fixed by the source: a dimension past the written
// ones, a view, a dimension that is not a constant, a local assigned again,
// and `t().size(0)` of a tensor that may have one dimension (t() of a 1-D
// tensor is the tensor itself) until a check says it has two.
TEST(TensorFacts, UnknownSizes) {
  EXPECT_EQ(sizes(R"(void f(at::Tensor x, at::Tensor y, int m, int n, int d) {
    auto a = torch::empty({m, n});
    use(a.size(2));
    use(x.view({-1}).size(0));
    use(x.size(d));
    auto r = torch::empty({m, n});
    r = y;
    use(r.size(0));
    use(x.t().size(0));
    TORCH_CHECK(y.dim() == 2, "y must be a matrix");
    use(y.t().size(0));
  })"),
            (Strings{"?", "?", "?", "?", "?", "y.size(1)"}));
}

/// "<order> <dims> <storage variable>" of the tensor of each `use(...)`.
Strings layouts(const std::string &Code) {
  return atUses(Code, [](const Expr *E, ASTContext &) -> std::string {
    TensorLayout L = tensorLayout(E);
    if (L.Order == TensorOrder::Unknown)
      return "?";
    std::string Order = L.Order == TensorOrder::RowMajor     ? "row-major"
                        : L.Order == TensorOrder::Transposed ? "transposed"
                                                             : "view";
    for (const ViewDim &D : L.ViewDims)
      Order += D.StorageDim >= 0 ? std::to_string(D.StorageDim) : "*";
    return Order + " " + (L.Dims ? std::to_string(*L.Dims) : "?") + " " +
           varName(L.StorageVar);
  });
}

TEST(TensorFacts, Layouts) {
  EXPECT_EQ(layouts(R"(void f(at::Tensor x, at::Tensor y, at::Tensor z,
                             int m, int n) {
    auto a = torch::empty({m, n});
    use(a);
    use(a.t());
    use(a.transpose(0, 1));
    use(a.clone());
    TORCH_CHECK(y.is_contiguous(), "y");
    use(y);
    use(y.t());
    z = z.contiguous();
    use(z);
    use(x.contiguous());
  })"),
            (Strings{"row-major 2 a", "transposed 2 a", "transposed 2 a",
                     "row-major 2 a", "row-major ? y", "transposed ? y",
                     "row-major ? z", "row-major ? -"}));
}

// No order where the source does not fix one: a parameter nothing checks,
// t() of a tensor that is not 2-D, `transpose(0, 1)` of a tensor
// whose number of dimensions is unknown, a transpose of dimensions that are
// not constants. A transpose or permute of a row-major tensor of three or
// more dimensions is a view of its storage with the dimensions reordered;
// one that moves nothing is the tensor itself. view() of a row-major
// tensor is a row-major tensor of the sizes written; of another, unknown.
TEST(TensorFacts, UnknownLayouts) {
  EXPECT_EQ(layouts(R"(void f(at::Tensor x, at::Tensor y, int m, int n) {
    use(x);
    auto a = torch::empty({m, n});
    use(a.view({n, m}));
    use(x.view({n, m}));
    auto b = torch::empty({2, m, n});
    use(b.t());
    use(b.transpose(1, n));
    TORCH_CHECK(y.is_contiguous(), "y");
    use(y.transpose(0, 1));
  })"),
            (Strings{"?", "row-major 2 -", "?", "?", "?", "?"}));
  EXPECT_EQ(layouts(R"(void f(int m, int n) {
    auto b = torch::empty({2, m, n});
    use(b.transpose(1, 2));
    use(b.transpose(-1, 0));
    use(b.transpose(1, 1));
  })"),
            (Strings{"view021 3 b", "view210 3 b", "row-major 3 b"}));
}

// Views that narrow, select, slice, expand or restride a row-major tensor
// of known rank share its storage: each dimension keeps a storage
// dimension's stride ("*": stride 0 or a stride written). A copy of such a
// view is packed or not a copy: unknown. Nothing is known of a view of a
// tensor whose rank or order is unknown, nor of a dimension that is not a
// constant, nor of a slice with a step.
TEST(TensorFacts, SlicedViews) {
  EXPECT_EQ(layouts(R"(void f(at::Tensor x, int m, int n, int k, int i) {
    auto a = torch::empty({m, n});
    use(a.narrow(1, 0, k));
    use(a.slice(1, 0, k));
    use(a.select(0, i));
    auto b = torch::empty({2, m, n});
    use(b.select(1, i));
    use(b.narrow(-1, 0, k).transpose(0, 2));
    auto v = torch::empty({n});
    use(v.expand({m, n}));
    use(a.as_strided({m, k}, {n, 1}));
    use(a.narrow(1, 0, k).clone());
    use(a.narrow(1, 0, k).contiguous());
    use(x.narrow(1, 0, k));
    use(a.narrow(i, 0, k));
    use(a.slice(1, 0, k, 2));
  })"),
            (Strings{"view01 2 a", "view01 2 a", "view1 2 a", "view02 3 b",
                     "view210 3 b", "view*0 1 v", "view** 2 a", "?",
                     "row-major 2 -", "?", "?", "?"}));
}

// index() with Slices and integers makes the views slice() and select()
// make; a whole Slice changes nothing. A step, an ellipsis, None, an open
// end and a tensor of indices (a copy) are unknown.
TEST(TensorFacts, IndexedViews) {
  EXPECT_EQ(layouts(R"(void f(at::Tensor t, int m, int n, int k, int i) {
    using namespace torch::indexing;
    auto a = torch::empty({m, n});
    use(a.index({Slice(), Slice(0, k)}));
    use(a.index({i}));
    use(a.index({Slice()}));
    auto b = torch::empty({2, m, n});
    use(b.index({Slice(), i}));
    use(b.index({0, Slice(None, k)}).t());
    use(a.index({Slice(), Slice(0, k, 2)}));
    use(b.index({Ellipsis, Slice(0, k)}));
    use(a.index({None, Slice(0, k)}));
    use(a.index({Slice(), Slice(k, None)}));
    use(a.index({t}));
  })"),
            (Strings{"view01 2 a", "view1 2 a", "row-major 2 a", "view02 3 b",
                     "view21 3 b", "?", "?", "?", "?", "?"}));
}

// The sizes of such views: narrow's length, the base's sizes past a
// selected dimension, the sizes expand writes (-1: the base's).
TEST(TensorFacts, SizesOfSlicedViews) {
  EXPECT_EQ(sizes(R"(void f(int m, int n, int k, int i) {
    auto a = torch::empty({m, n});
    use(a.narrow(1, 0, k).size(1));
    use(a.narrow(1, 0, k).size(0));
    auto b = torch::empty({i, m, n});
    use(b.select(1, 0).size(1));
    use(b.select(-1, 0).size(-1));
    auto v = torch::empty({n});
    use(v.expand({m, -1}).size(1));
    use(v.expand({m, n}).size(0));
    use(a.slice(1, 0, k).size(1));
  })"),
            (Strings{"k", "m", "n", "m", "n", "m", "?"}));
}

// index() with Slices and integers: a Slice from the start has its end
// for a size, an integer drops the dimension; a Slice from elsewhere
// (end - start), an ellipsis or a tensor of indices has no size written.
TEST(TensorFacts, SizesOfIndexedViews) {
  EXPECT_EQ(sizes(R"(void f(int m, int n, int k, int i, torch::Tensor t) {
    using namespace torch::indexing;
    auto a = torch::empty({m, n});
    use(a.index({Slice(), Slice(None, k)}).size(1));
    use(a.index({Slice(), Slice(0, k)}).size(0));
    use(a.index({Slice(0, k)}).size(1));
    use(a.index({Slice(1, k)}).size(0));
    auto b = torch::empty({i, m, n});
    use(b.index({Slice(), 0}).size(1));
    use(b.index({i}).size(0));
    use(b.index({i}).size(-1));
    use(b.index({Ellipsis, 0}).size(0));
    use(b.index({t}).size(1));
  })"),
            (Strings{"k", "m", "n", "?", "n", "m", "n", "?", "?"}));
}

// The handle PyTorch owns: its getter in at::cuda, directly or through a
// local defined once; not a function of the same name elsewhere, nor a
// local that may be set otherwise.
TEST(TensorFacts, TorchOwnedHandles) {
  auto AST = test::buildAST(std::string(test::TorchStandIn) + R"(
    namespace other { cublasHandle_t getCurrentCUDABlasHandle(); }
    void take(cublasHandle_t);
    void f(bool c) {
      take(at::cuda::getCurrentCUDABlasHandle());
      cublasHandle_t h = at::cuda::getCurrentCUDABlasHandle();
      take(h);
      cublasHandle_t g = at::cuda::getCurrentCUDABlasHandle();
      if (c)
        cublasCreate(&g);
      take(g);
      take(other::getCurrentCUDABlasHandle());
    })");
  ASSERT_TRUE(AST && !AST->getDiagnostics().hasErrorOccurred());
  auto Takes = test::callsTo(*AST, test::functionNamed(*AST, "f"), "take");
  ASSERT_EQ(Takes.size(), 4u);
  EXPECT_NE(torchOwnedHandle(Takes[0]->getArg(0)), nullptr);
  EXPECT_NE(torchOwnedHandle(Takes[1]->getArg(0)), nullptr);
  EXPECT_EQ(torchOwnedHandle(Takes[2]->getArg(0)), nullptr);
  EXPECT_EQ(torchOwnedHandle(Takes[3]->getArg(0)), nullptr);
}

TEST(TensorFacts, TensorTypes) {
  auto AST = test::buildAST(std::string(test::TorchStandIn) + R"(
    namespace mine { class Tensor {}; }
    at::Tensor tensorA; torch::Tensor tensorB;
    const at::TensorBase &tensorC = tensorA; mine::Tensor tensorD;
  )");
  ASSERT_TRUE(AST && !AST->getDiagnostics().hasErrorOccurred());
  auto TypeOf = [&](const char *Name) {
    return test::selectFirst<VarDecl>(*AST, varDecl(hasName(Name)).bind("x"))
        ->getType();
  };
  EXPECT_TRUE(isTensorType(TypeOf("tensorA")));
  EXPECT_TRUE(isTensorType(TypeOf("tensorB")));
  EXPECT_TRUE(isTensorType(TypeOf("tensorC")));
  EXPECT_FALSE(isTensorType(TypeOf("tensorD")));
  EXPECT_TRUE(unitMayHoldTensors(AST->getASTContext()));

  auto Plain = test::buildAST("#include <cublas_v2.h>\nint x;");
  ASSERT_TRUE(Plain);
  EXPECT_FALSE(unitMayHoldTensors(Plain->getASTContext()));
}

} // namespace
