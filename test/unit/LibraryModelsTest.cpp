//===- LibraryModelsTest.cpp - PyTorch, thrust and RMM as library models --===//

#include "TestAST.h"
#include "TorchStandIn.h"
#include "facts/Allocations.h"
#include "facts/LibraryModel.h"
#include "facts/OperandTypes.h"
#include "facts/PointerProvenance.h"
#include "facts/ValueFacts.h"
#include "facts/libraries/RmmModel.h"
#include "facts/libraries/ThrustModel.h"
#include "facts/libraries/torch/TorchModel.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace cublas_tidy;

namespace {

// `sink(p)` asks what p points to, `sized(p)` how big its buffer is, `use(n)`
// the value of n. thrust's and RMM's stand-ins are those of the lit tests.
const char Prelude[] = R"(
#include <thrust_stub.h>
#include <rmm/device_buffer.hpp>
#include <rmm/device_scalar.hpp>
#include <rmm/device_uvector.hpp>
#include <rmm/mr/device_memory_resource.hpp>
#include <utility>
#include <vector>
namespace thrust {
template <class T> device_ptr<T> device_malloc(unsigned long n);
} // namespace thrust
void sink(const void *);
void sized(const void *);
void use(long long);
void takeOver(rmm::device_uvector<float> &&);
)";

/// `Code` after the stand-ins, parsed, with its function `f`.
struct Unit {
  std::unique_ptr<ASTUnit> AST;
  const FunctionDecl *F = nullptr;

  explicit Unit(const std::string &Code)
      : AST(test::buildAST(std::string(test::TorchStandIn) + Prelude + Code,
                           "input.cpp",
                           {"-isystem", test::testInputs()})) {
    EXPECT_TRUE(AST && !AST->getDiagnostics().hasErrorOccurred()) << Code;
    if (AST)
      F = test::functionNamed(*AST, "f");
  }
  ASTContext &ctx() { return AST->getASTContext(); }
  /// The arguments of the calls of `Callee` in `f`, implicit casts aside.
  std::vector<const Expr *> args(const char *Callee) {
    std::vector<const Expr *> Out;
    for (const CallExpr *C : test::callsTo(*AST, F, Callee))
      Out.push_back(C->getArg(0)->IgnoreParenImpCasts());
    return Out;
  }
};

using Strings = std::vector<std::string>;

std::string kindName(MemoryKind K) {
  switch (K) {
  case MemoryKind::Unknown:
    return "unknown";
  case MemoryKind::Null:
    return "null";
  case MemoryKind::Device:
    return "device";
  case MemoryKind::Managed:
    return "managed";
  case MemoryKind::PinnedHost:
    return "pinned";
  case MemoryKind::PageableHost:
    return "pageable";
  }
  return "?";
}

/// "<kind>[ <origin name>]" of the argument of every `sink(p)` in `f`.
Strings pointees(const std::string &Code) {
  Unit U(Code);
  if (!U.F)
    return {"does not compile"};
  PointerProvenance P = PointerProvenance::analyze(U.F, U.ctx());
  Strings Out;
  for (const CallExpr *Sink : test::callsTo(*U.AST, U.F, "sink")) {
    PointerFact Fact = P.argument(Sink, 0);
    std::string S = kindName(Fact.Kind);
    if (!Fact.Origin.Name.empty())
      S += " " + Fact.Origin.Name.str();
    Out.push_back(S);
  }
  return Out;
}

/// "<allocator> <bytes> @<offset>" of the argument of every `sized(p)` in
/// `f`; "?" when unknown.
Strings extents(const std::string &Code) {
  Unit U(Code);
  if (!U.F)
    return {"does not compile"};
  ValueFacts Facts(U.F, U.ctx());
  Strings Out;
  for (const CallExpr *Sized : test::callsTo(*U.AST, U.F, "sized")) {
    std::optional<Extent> X = pointerExtent(Sized->getArg(0), Facts);
    Out.push_back(X ? X->Allocator.str() + " " + X->Bytes.str() + " @" +
                          X->OffsetBytes.str()
                    : "?");
  }
  return Out;
}

/// The value of the argument of every `use(n)` in `f`; "?" when unknown.
Strings values(const std::string &Code) {
  Unit U(Code);
  if (!U.F)
    return {"does not compile"};
  ValueFacts Facts(U.F, U.ctx());
  Strings Out;
  for (const CallExpr *Use : test::callsTo(*U.AST, U.F, "use")) {
    std::optional<SymExpr> V = Facts.evaluate(Use->getArg(0));
    Out.push_back(V ? V->str() : "?");
  }
  return Out;
}

// A tensor's storage is where the source puts the tensor; a parameter's is
// unknown.
TEST(TorchModel, Pointees) {
  EXPECT_EQ(pointees(R"(void f(at::Tensor x) {
    auto d = torch::empty({4}, torch::device(torch::kCUDA));
    auto c = torch::zeros({4});
    auto p = torch::empty({4}, torch::dtype(torch::kFloat).pinned_memory(true));
    sink(d.data_ptr<float>());
    sink(c.data_ptr<float>());
    sink(p.data_ptr<float>());
    sink(x.data_ptr<float>());
  })"),
            (Strings{"device torch::Tensor", "pageable torch::Tensor",
                     "pinned torch::Tensor", "unknown"}));
}

// A tensor made with its sizes written out holds their product of the
// pointer's elements (the dtype's for `data_ptr()`); not a view, nor a
// tensor whose sizes the source does not write.
TEST(TorchModel, Extents) {
  EXPECT_EQ(extents(R"(void f(int m, int n, at::Tensor x) {
    auto a = torch::empty({m, n}, x.options());
    sized(a.data_ptr<float>());
    auto h = torch::empty({8, 8}, torch::dtype(torch::kHalf));
    sized(h.data_ptr());
    auto u = torch::empty({8}, x.options());
    sized(u.data_ptr());
    sized(a.view({n, m}).data_ptr<float>());
    sized(x.data_ptr<float>());
  })"),
            (Strings{"tensor 4*m*n @0", "tensor 128 @0", "?", "?", "?"}));
}

// `t.size(d)` is the size written in the factory, or a symbol of the
// tensor variable's size.
TEST(TorchModel, Sizes) {
  EXPECT_EQ(values(R"(void f(at::Tensor x, int m) {
    auto a = torch::empty({m, 2 * m});
    use(a.size(1));
    use(x.size(0) * 2);
    int64_t rows = x.sizes()[1];
    use(rows);
    use(x.size(0) - x.size(0));
    use(x.view({-1}).size(0));
  })"),
            (Strings{"2*m", "2*x.size(0)", "x.size(1)", "0", "?"}));
}

TEST(TorchModel, SizeSymbols) {
  Unit U("void f(at::Tensor x, int m) {}");
  ASSERT_TRUE(U.F);
  const VarDecl *X = U.F->getParamDecl(0), *M = U.F->getParamDecl(1);
  Symbol S = tensorSizeSymbol(X, 1);
  EXPECT_TRUE(S.NonNegative);
  EXPECT_EQ(SymExpr::symbol(S).str(), "x.size(1)");
  auto Of = tensorSizeOf(S);
  ASSERT_TRUE(Of);
  EXPECT_EQ(Of->first, X);
  EXPECT_EQ(Of->second, 1);
  EXPECT_EQ(tensorSizeOf(tensorSizeSymbol(X, -2))->second, -2);
  // Different dimensions are different symbols.
  EXPECT_NE(tensorSizeSymbol(X, 0), tensorSizeSymbol(X, 1));
  // Dimensions beyond the tags have no symbol.
  EXPECT_EQ(tensorSizeSymbol(X, 8).Decl, nullptr);
  EXPECT_FALSE(tensorSizeOf(tensorSizeSymbol(X, 8)));
  Symbol Plain;
  Plain.Decl = M;
  EXPECT_FALSE(tensorSizeOf(Plain));
}

// thrust's raw pointers: the vector's storage behind raw_pointer_cast,
// get() and &v[i], device_malloc's memory; a device_ptr from elsewhere is
// unknown.
TEST(ThrustModel, Pointees) {
  EXPECT_EQ(
      pointees(R"(void f(thrust::device_ptr<float> given) {
    thrust::device_vector<float> dv(16);
    thrust::host_vector<float> hv(16);
    sink(thrust::raw_pointer_cast(dv.data()));
    sink(thrust::raw_pointer_cast(&dv[3]));
    sink(dv.data().get());
    sink(thrust::raw_pointer_cast(hv.data()));
    sink(thrust::raw_pointer_cast(thrust::device_malloc<float>(8)));
    sink(thrust::raw_pointer_cast(given));
    sink(given.get());
  })"),
      (Strings{"device thrust::device_vector", "device thrust::device_vector",
               "device thrust::device_vector", "pageable thrust::host_vector",
               "device thrust::device_malloc", "unknown", "unknown"}));
}

TEST(ThrustModel, Extents) {
  EXPECT_EQ(
      extents(R"(void f(int n, thrust::device_ptr<float> given) {
    thrust::device_vector<float> x(100), y(n);
    sized(thrust::raw_pointer_cast(x.data()));
    sized(thrust::raw_pointer_cast(&x[10]));
    sized(x.data().get());
    sized(thrust::raw_pointer_cast(y.data()));
    sized(given.get());
  })"),
      (Strings{"thrust::device_vector 400 @0", "thrust::device_vector 400 @40",
               "thrust::device_vector 400 @0", "thrust::device_vector 4*n @0",
               "?"}));
}

// RMM's buffers are device memory, unless made with a resource of their
// own.
TEST(RmmModel, Pointees) {
  EXPECT_EQ(pointees(R"(void f(rmm::cuda_stream_view s,
                              rmm::device_uvector<float> &given, int n) {
    rmm::device_uvector<float> v(n, s);
    rmm::device_buffer b(256, s);
    rmm::device_scalar<float> one(s);
    rmm::mr::managed_memory_resource mr;
    rmm::device_uvector<float> managed(n, s, &mr);
    sink(v.data());
    sink(v.element_ptr(2));
    sink(b.data());
    sink(one.data());
    sink(given.data());
    sink(managed.data());
  })"),
            (Strings{"device rmm::device_uvector", "device rmm::device_uvector",
                     "device rmm::device_buffer", "device rmm::device_scalar",
                     "device rmm::device_uvector", "unknown"}));
}

// A local made with its size and kept holds that many elements (bytes for
// device_buffer, one for device_scalar); not one resized or moved from, nor
// one from elsewhere.
TEST(RmmModel, Extents) {
  EXPECT_EQ(extents(R"(void f(rmm::cuda_stream_view s,
                             rmm::device_uvector<float> &given, int n) {
    rmm::device_uvector<float> v(n, s);
    sized(v.data());
    sized(v.element_ptr(3));
    rmm::device_buffer b(256, s);
    sized(b.data());
    rmm::device_scalar<double> d(s);
    sized(d.data());
    rmm::device_uvector<float> r(n, s);
    r.resize(2 * n, s);
    sized(r.data());
    rmm::device_uvector<float> moved(n, s);
    takeOver(std::move(moved));
    sized(moved.data());
    sized(given.data());
  })"),
            (Strings{"rmm::device_uvector 4*n @0",
                     "rmm::device_uvector 4*n @12", "rmm::device_buffer 256 @0",
                     "rmm::device_scalar 8 @0", "?", "?", "?"}));
}

TEST(RmmModel, Sizes) {
  EXPECT_EQ(values(R"(void f(rmm::cuda_stream_view s,
                            rmm::device_uvector<float> &given, int n) {
    rmm::device_uvector<float> v(n, s);
    use(v.size());
    rmm::device_buffer b(64, s);
    use(b.size());
    rmm::device_uvector<float> r(n, s);
    r.resize(8, s);
    use(r.size());
    use(given.size());
  })"),
            (Strings{"n", "64", "?", "?"}));
}

/// A pointer analysis that knows nothing.
class NothingKnown : public PointerQuery {
public:
  explicit NothingKnown(ASTContext &Ctx) : Ctx(Ctx) {}
  ASTContext &context() const override { return Ctx; }
  PointerFact pointee(const Expr *) const override { return {}; }
  PointerFact storage(const Expr *, const Expr *, bool) const override {
    return {};
  }

private:
  ASTContext &Ctx;
};

// Each model answers for its own library's expressions only, so that the
// first answer the analyses take is the right model's.
TEST(LibraryModels, EachAnswersForItsOwn) {
  Unit U(R"(void f(at::Tensor t, rmm::cuda_stream_view s) {
    rmm::device_uvector<float> v(4, s);
    thrust::device_vector<float> dv(4);
    std::vector<float> hv(4);
    use(t.size(0));
    use(v.size());
    use(hv.size());
    sink(t.data_ptr<float>());
    sink(v.data());
    sink(thrust::raw_pointer_cast(dv.data()));
    sink(hv.data());
  })");
  ASSERT_TRUE(U.F);
  NothingKnown Q(U.ctx());
  auto Evaluate = [](const Expr *) -> std::optional<SymExpr> {
    return SymExpr::constant(4);
  };
  const LibraryModel *Models[] = {&torchModel(), &thrustModel(), &rmmModel()};
  auto Answers = [&](auto Asks, const std::vector<const Expr *> &Exprs) {
    Strings Out;
    for (const Expr *E : Exprs) {
      std::string S;
      for (const LibraryModel *M : Models)
        if (Asks(*M, E))
          S += (S.empty() ? "" : ",") + M->name().str();
      Out.push_back(S.empty() ? "-" : S);
    }
    return Out;
  };
  EXPECT_EQ(
      Answers([&](const LibraryModel &M,
                  const Expr *E) { return M.integer(E, Evaluate).has_value(); },
              U.args("use")),
      (Strings{"PyTorch", "RMM", "-"}));
  EXPECT_EQ(Answers([&](const LibraryModel &M,
                        const Expr *E) { return M.pointee(E, Q).has_value(); },
                    U.args("sink")),
            (Strings{"PyTorch", "RMM", "thrust", "-"}));
  // Neither thrust nor RMM knows an element type behind a `void *`.
  EXPECT_FALSE(thrustModel().heldType(U.args("sink")[2], U.ctx()));
  EXPECT_FALSE(rmmModel().heldType(U.args("sink")[1], U.ctx()));
}

} // namespace
