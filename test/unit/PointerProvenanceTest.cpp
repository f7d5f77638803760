//===- PointerProvenanceTest.cpp - What memory pointers point to ----------===//

#include "facts/PointerProvenance.h"
#include "ast/AstUtils.h"
#include "TestAST.h"

#include "clang/ASTMatchers/ASTMatchers.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace cublas_tidy;

namespace {

// `sink(p)` marks a point of interest: the tests ask what its argument
// points to there.
const char Prelude[] = R"(
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdlib.h>
#include <array>
#include <memory>
#include <string>
#include <utility>
#include <thrust_stub.h>
#include <vector>
void sink(const void *);
void init(float **);
void touch(cublasHandle_t);
void configure();
cublasHandle_t global_handle;
float *make();
float *global_ptr;
float global_array[16];
struct Holder { float *p; float a[4]; cublasHandle_t h; void run(); };
)";

struct Analysis {
  std::unique_ptr<ASTUnit> AST;
  const FunctionDecl *Fn = nullptr;
  std::optional<PointerProvenance> P;
  std::vector<const CallExpr *> Sinks;
  std::vector<const CallExpr *> Cublas;

  /// What the argument of the `N`th sink call points to.
  PointerFact at(unsigned N) const {
    EXPECT_LT(N, Sinks.size());
    if (N >= Sinks.size())
      return {};
    return P->argument(Sinks[N], 0);
  }
  MemoryKind kindAt(unsigned N) const { return at(N).Kind; }
  /// The pointer mode of the first argument of the `N`th cuBLAS call that
  /// is not a create or pointer-mode call.
  PointerMode modeAt(unsigned N) const {
    EXPECT_LT(N, Cublas.size());
    if (N >= Cublas.size())
      return PointerMode::Unknown;
    return P->pointerMode(Cublas[N], Cublas[N]->getArg(0)).Mode;
  }
};

/// Expects the arguments of the sink calls to point to `Kinds`, in order.
void expectKinds(const Analysis &A, std::vector<MemoryKind> Kinds) {
  ASSERT_TRUE(A.P && A.P->complete());
  ASSERT_EQ(A.Sinks.size(), Kinds.size());
  for (unsigned I = 0; I < Kinds.size(); ++I)
    EXPECT_EQ(A.kindAt(I), Kinds[I]) << "sink " << I;
}

/// Analyses the function `f` (or the method `Holder::run`) in `Code`.
Analysis analyze(const std::string &Code,
                 PointerProvenance::Options Opts = {}) {
  Analysis A;
  A.AST = test::buildAST(std::string(Prelude) + Code, "input.cpp",
                         {"-isystem", test::testInputs()});
  EXPECT_TRUE(A.AST);
  if (!A.AST)
    return A;
  EXPECT_FALSE(A.AST->getDiagnostics().hasErrorOccurred()) << Code;
  A.Fn = test::selectFirst<FunctionDecl>(
      *A.AST, functionDecl(hasAnyName("f", "run"), isDefinition(),
                           isExpansionInMainFile())
                  .bind("x"));
  EXPECT_NE(A.Fn, nullptr);
  if (!A.Fn)
    return A;
  A.P.emplace(PointerProvenance::analyze(A.Fn, A.AST->getASTContext(), Opts));
  for (const CallExpr *Call : A.P->calls()) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD || !FD->getIdentifier())
      continue;
    if (FD->getName() == "sink")
      A.Sinks.push_back(Call);
    else if (FD->getName() == "cublasSnrm2_v2" ||
             FD->getName() == "cublasSscal_v2")
      A.Cublas.push_back(Call);
  }
  return A;
}

TEST(PointerProvenance, Allocators) {
  Analysis A = analyze(R"(
    void f(int n) {
      float *d, *m, *ph, *pa, *h, *c, *v;
      cudaMalloc(&d, n);
      cudaMallocManaged(&m, n);
      cudaMallocHost(&ph, n);
      cudaMallocHost((void **)&pa, n);
      h = (float *)malloc(n);
      c = static_cast<float *>(calloc(n, 4));
      v = new float[n];
      sink(d); sink(m); sink(ph); sink(pa); sink(h); sink(c); sink(v);
      sink(new float);
    }
  )");
  using K = MemoryKind;
  expectKinds(A, {K::Device, K::Managed, K::PinnedHost, K::PinnedHost,
                  K::PageableHost, K::PageableHost, K::PageableHost,
                  K::PageableHost});

  PointerFact D = A.at(0);
  EXPECT_EQ(D.Origin.Kind, OriginKind::Allocation);
  EXPECT_EQ(D.Origin.Name, "cudaMalloc");
  ASSERT_NE(D.Origin.Where, nullptr);
  EXPECT_TRUE(isa<CallExpr>(D.Origin.Where));
  EXPECT_EQ(A.at(4).Origin.Name, "malloc");
  EXPECT_EQ(A.at(6).Origin.Kind, OriginKind::New);
  EXPECT_EQ(A.at(6).Origin.Name, "new[]");
  EXPECT_EQ(A.at(7).Origin.Name, "new");
}

TEST(PointerProvenance, HostStorage) {
  Analysis A = analyze(R"(
    void f(std::vector<float> &ref, std::array<float, 4> *pa) {
      float arr[8];
      float x = 0;
      std::vector<float> v(4);
      std::array<float, 4> a;
      std::string s;
      float *pv = v.data();
      sink(arr); sink(&x); sink(pv); sink(&v[0]); sink(a.data());
      sink(ref.data()); sink(pa->data()); sink(s.data()); sink(&arr[2]);
      sink(global_array); sink(&v.front());
      std::unique_ptr<float[]> owned(new float[4]);
      auto made = std::make_unique<float[]>(4);
      sink(owned.get()); sink(made.get());
    }
  )");
  ASSERT_TRUE(A.P->complete());
  for (unsigned I : {0u, 1u, 2u, 3u, 4u, 5u, 7u, 8u, 9u, 10u, 11u, 12u})
    EXPECT_EQ(A.kindAt(I), MemoryKind::PageableHost) << "sink " << I;
  // A std::array behind a pointer parameter may be anywhere.
  EXPECT_EQ(A.kindAt(6), MemoryKind::Unknown);

  EXPECT_EQ(A.at(0).Origin.Kind, OriginKind::Array);
  ASSERT_NE(A.at(0).Origin.Object, nullptr);
  EXPECT_EQ(A.at(0).Origin.Object->getName(), "arr");
  EXPECT_EQ(A.at(1).Origin.Kind, OriginKind::Variable);
  EXPECT_EQ(A.at(1).Origin.Object->getName(), "x");
  PointerFact V = A.at(2);
  EXPECT_EQ(V.Origin.Kind, OriginKind::Container);
  EXPECT_EQ(V.Origin.Name, "std::vector");
  ASSERT_NE(V.Origin.Object, nullptr);
  EXPECT_EQ(V.Origin.Object->getName(), "v");
  EXPECT_EQ(A.at(4).Origin.Name, "std::array");
  EXPECT_EQ(A.at(7).Origin.Name, "std::string");
  EXPECT_EQ(A.at(11).Origin.Name, "std::unique_ptr");
}

TEST(PointerProvenance, UnknownSources) {
  Analysis A = analyze(R"(
    void f(float *param, Holder *holder, long bits) {
      float *q = param;
      float *r = make();
      float *s = (float *)bits;
      float *t = holder->p;
      sink(param); sink(q); sink(r); sink(s); sink(global_ptr); sink(t);
      sink(holder->a);
    }
  )");
  ASSERT_TRUE(A.P->complete());
  for (unsigned I = 0; I < 7; ++I)
    EXPECT_EQ(A.kindAt(I), MemoryKind::Unknown) << "sink " << I;
}

TEST(PointerProvenance, FlowSensitive) {
  Analysis A = analyze(R"(
    void f(bool c, int n) {
      std::vector<float> v(n);
      float *p = v.data();
      sink(p);
      cudaMalloc(&p, n);
      sink(p);
      float *d;
      cudaMalloc(&d, n);
      float *q = nullptr;
      if (c) q = v.data(); else q = d;
      sink(q); // host on one path, device on the other
      float *r = nullptr;
      if (c) r = d;
      sink(r); // null on the other
      sink(c ? d : v.data());
      sink(c ? d + 1 : d);
      float *e = d + 16;
      ++e;
      e += 2;
      sink(e);
      sink(&d[4]);
      float *w = nullptr;
      sink(w);
      for (int i = 0; i < n; ++i)
        w = (i % 2) ? d : v.data();
      sink(w);
    }
  )");
  using K = MemoryKind;
  expectKinds(A, {K::PageableHost, K::Device, K::Unknown, K::Device, K::Unknown,
                  K::Device, K::Device, K::Device, K::Null, K::Unknown});
}

TEST(PointerProvenance, Escapes) {
  Analysis A = analyze(R"(
    void f(int n) {
      std::vector<float> v(n);
      float *p = v.data();
      sink(p);
      init(&p);
      sink(p);
      float *q = v.data();
      float *&alias = q;
      sink(q);
      float *r = v.data();
      auto set = [&] { r = nullptr; };
      set();
      sink(r);
      float *s = v.data(), *t = v.data();
      std::swap(s, t);
      sink(s);
      float *u = v.data();
      float **pu = &u;
      sink(u);
      float *copy = v.data();
      auto byValue = [copy] { sink(copy); };
      sink(copy);
    }
  )");
  using K = MemoryKind;
  expectKinds(A, {K::PageableHost, K::Unknown, K::Unknown, K::Unknown,
                  K::Unknown, K::Unknown, K::PageableHost});
}

// A cast to void reads nothing and changes nothing: the pointer is still
// followed (ast/PlainUses.h, shared with the other flow analyses).
TEST(PointerProvenance, CastToVoidIsNoEscape) {
  Analysis A = analyze(R"(
    void f(int n) {
      std::vector<float> v(n);
      float *p = v.data();
      (void)p;
      sink(p);
    }
  )");
  expectKinds(A, {MemoryKind::PageableHost});
}

// `&p` given to a call that copies the pointer out: what `p` holds there.
TEST(PointerProvenance, HeldByAVariableWhoseAddressIsGiven) {
  Analysis A = analyze(R"(
    void f(int n, float *given) {
      float *d;
      cudaMalloc(&d, 4);
      float *h = static_cast<float *>(malloc(4));
      float *p = h;
      p = d;
      sink(&h);
      sink(&p);
      sink(&given);
    }
  )");
  ASSERT_TRUE(A.P && A.P->complete());
  ASSERT_EQ(A.Sinks.size(), 3u);
  auto HeldAt = [&](unsigned N) {
    const auto *Address =
        cast<UnaryOperator>(A.Sinks[N]->getArg(0)->IgnoreParenImpCasts());
    return A.P->heldBy(A.Sinks[N], Address->getSubExpr()).Kind;
  };
  EXPECT_EQ(HeldAt(0), MemoryKind::PageableHost);
  EXPECT_EQ(HeldAt(1), MemoryKind::Device); // flow-sensitive: p = d
  EXPECT_EQ(HeldAt(2), MemoryKind::Unknown); // a parameter: not tracked
  // The address itself is the host stack's, as before.
  EXPECT_EQ(A.kindAt(0), MemoryKind::PageableHost);
}

TEST(PointerProvenance, HostRegisterPinsThatMemory) {
  Analysis A = analyze(R"(
    void f(int n) {
      std::vector<float> v(n), w(n);
      cudaHostRegister(v.data(), n * sizeof(float), 0);
      sink(v.data()); sink(w.data());
    }
  )");
  using K = MemoryKind;
  expectKinds(A, {K::PinnedHost, K::PageableHost});

  Analysis B = analyze(R"(
    void f(float *unknown, int n) {
      std::vector<float> v(n);
      cudaHostRegister(unknown, n, 0);
      sink(v.data());
    }
  )");
  EXPECT_EQ(B.kindAt(0), MemoryKind::Unknown);
}

TEST(PointerProvenance, Thrust) {
  Analysis A = analyze(R"(
    void f(int n) {
      thrust::device_vector<float> dv;
      thrust::host_vector<float> hv;
      sink(thrust::raw_pointer_cast(dv.data()));
      sink(thrust::raw_pointer_cast(&dv[0]));
      sink(dv.data().get());
      sink(thrust::raw_pointer_cast(hv.data()));
      sink(thrust::raw_pointer_cast(&hv[0]));
    }
  )");
  using K = MemoryKind;
  expectKinds(
      A, {K::Device, K::Device, K::Device, K::PageableHost, K::PageableHost});
  EXPECT_EQ(A.at(0).Origin.Name, "thrust::device_vector");
  EXPECT_EQ(A.at(3).Origin.Name, "thrust::host_vector");
}

TEST(PointerProvenance, PointerModes) {
  Analysis A = analyze(R"(
    void f(cublasHandle_t param, cublasPointerMode_t mode, bool c, float *x,
           float *r) {
      cublasHandle_t h;
      cublasCreate(&h);
      cublasSnrm2(h, 1, x, 1, r);          // 0: host, by default
      cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
      cublasSnrm2(h, 1, x, 1, r);          // 1: device
      cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
      cublasSnrm2(h, 1, x, 1, r);          // 2: host
      cublasSnrm2(param, 1, x, 1, r);      // 3: unknown
      cublasSetPointerMode(param, CUBLAS_POINTER_MODE_DEVICE);
      cublasSnrm2(param, 1, x, 1, r);      // 4: device
      cublasSetPointerMode(h, mode);
      cublasSnrm2(h, 1, x, 1, r);          // 5: unknown
      cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
      if (c)
        cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
      cublasSnrm2(h, 1, x, 1, r);          // 6: unknown
      cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
      touch(h);
      cublasSnrm2(h, 1, x, 1, r);          // 7: unknown
      cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
      cublasHandle_t copy = h;
      cublasSetPointerMode(copy, CUBLAS_POINTER_MODE_HOST);
      cublasSnrm2(h, 1, x, 1, r);          // 8: unknown (same context)
      cublasSetPointerMode(param, CUBLAS_POINTER_MODE_DEVICE);
      sink(x);
      cublasSnrm2(param, 1, x, 1, r);      // 9: device
      touch(param);
      cublasSnrm2(param, 1, x, 1, r);      // 10: unknown
    }
  )");
  ASSERT_TRUE(A.P->complete());
  ASSERT_EQ(A.Cublas.size(), 11u);
  EXPECT_EQ(A.modeAt(0), PointerMode::Host);
  PointerModeFact Created =
      A.P->pointerMode(A.Cublas[0], A.Cublas[0]->getArg(0));
  EXPECT_TRUE(Created.FromCreate);
  ASSERT_NE(Created.Where, nullptr);
  EXPECT_EQ(A.modeAt(1), PointerMode::Device);
  PointerModeFact Set = A.P->pointerMode(A.Cublas[1], A.Cublas[1]->getArg(0));
  EXPECT_FALSE(Set.FromCreate);
  EXPECT_EQ(A.modeAt(2), PointerMode::Host);
  EXPECT_EQ(A.modeAt(3), PointerMode::Unknown);
  EXPECT_EQ(A.modeAt(4), PointerMode::Device);
  EXPECT_EQ(A.modeAt(5), PointerMode::Unknown);
  EXPECT_EQ(A.modeAt(6), PointerMode::Unknown);
  EXPECT_EQ(A.modeAt(7), PointerMode::Unknown);
  EXPECT_EQ(A.modeAt(8), PointerMode::Unknown);
  EXPECT_EQ(A.modeAt(9), PointerMode::Device); // sink cannot reach it
  EXPECT_EQ(A.modeAt(10), PointerMode::Unknown);
}

// A copy that nothing changes, of a parameter that nothing changes, names
// the same handle (HandleNames.h); a copy of a handle created again after
// it keeps the old one.
TEST(PointerProvenance, UnchangedCopiesShareTheMode) {
  Analysis A = analyze(R"(
    void f(cublasHandle_t param, float *x, float *r) {
      cublasHandle_t alias = param;
      cublasSetPointerMode(alias, CUBLAS_POINTER_MODE_DEVICE);
      cublasSnrm2(param, 1, x, 1, r);      // 0: device
      cublasHandle_t h;
      cublasCreate(&h);
      cublasHandle_t old = h;
      cublasCreate(&h);
      cublasSetPointerMode(old, CUBLAS_POINTER_MODE_DEVICE);
      cublasSnrm2(old, 1, x, 1, r);        // 1: device
      cublasSnrm2(h, 1, x, 1, r);          // 2: not the old handle's mode
    }
  )");
  ASSERT_TRUE(A.P->complete());
  ASSERT_EQ(A.Cublas.size(), 3u);
  EXPECT_EQ(A.modeAt(0), PointerMode::Device);
  EXPECT_EQ(A.modeAt(1), PointerMode::Device);
  EXPECT_NE(A.modeAt(2), PointerMode::Device);
}

TEST(PointerProvenance, HandlesStoredElsewhereMayChangeMode) {
  Analysis A = analyze(R"(
    struct Ctx { cublasHandle_t h; };
    void f(float *x, float *r) {
      cublasHandle_t h, kept, wrapped;
      cublasCreate(&h);
      cublasCreate(&kept);
      cublasCreate(&wrapped);
      global_handle = h;
      Ctx c{wrapped};
      configure();
      cublasSnrm2(h, 1, x, 1, r);          // 0: unknown, stored in a global
      cublasSnrm2(kept, 1, x, 1, r);       // 1: host
      cublasSnrm2(wrapped, 1, x, 1, r);    // 2: unknown, stored in c
    }
  )");
  ASSERT_TRUE(A.P->complete());
  ASSERT_EQ(A.Cublas.size(), 3u);
  EXPECT_EQ(A.modeAt(0), PointerMode::Unknown);
  EXPECT_EQ(A.modeAt(1), PointerMode::Host);
  EXPECT_EQ(A.modeAt(2), PointerMode::Unknown);
}

TEST(PointerProvenance, MemberHandles) {
  Analysis A = analyze(R"(
    struct ModeGuard {
      explicit ModeGuard(cublasHandle_t &h);
      ~ModeGuard();
    };
    void Holder::run() {
      cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
      float one = 1;
      cublasSscal(h, 4, &one, p, 1);
      sink(p);
      cublasSscal(h, 4, &one, p, 1);
      run();
      cublasSscal(h, 4, &one, p, 1);
      cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
      {
        ModeGuard g(h);
        cublasSscal(h, 4, &one, p, 1);
      }
    }
  )");
  ASSERT_TRUE(A.P->complete());
  ASSERT_EQ(A.Cublas.size(), 4u);
  EXPECT_EQ(A.modeAt(0), PointerMode::Device);
  EXPECT_EQ(A.modeAt(1), PointerMode::Device);
  EXPECT_EQ(A.modeAt(2), PointerMode::Unknown);
  EXPECT_EQ(A.modeAt(3), PointerMode::Unknown); // the guard may set it
  EXPECT_EQ(A.P->argument(A.Cublas[0], 2).Kind, MemoryKind::PageableHost);
  EXPECT_EQ(A.P->argument(A.Cublas[0], 3).Kind, MemoryKind::Unknown);
}

TEST(PointerProvenance, BudgetExhaustedKnowsNothing) {
  PointerProvenance::Options Opts;
  Opts.MaxBlockVisits = 2;
  Analysis A = analyze(R"(
    void f(bool c, int n) {
      float arr[4];
      for (int i = 0; i < n; ++i)
        if (c) sink(arr);
      sink(arr);
    }
  )",
                       Opts);
  EXPECT_FALSE(A.P->complete());
  EXPECT_TRUE(A.P->calls().empty());
}

TEST(PointerProvenance, CublasCallsOnlyKeepsTheirStatesAlone) {
  const char *Code = R"(
    void f(cublasHandle_t h, bool c) {
      float one = 1.0f;
      float *p = (float *)malloc(16);
      sink(p);
      if (c)
        p = &one;
      cublasSscal(h, 4, &one, p, 1);
      sink(p);
      cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
      cublasSnrm2(h, 4, p, 1, &one);
    }
  )";
  Analysis All = analyze(Code);
  PointerProvenance::Options Opts;
  Opts.CublasCallsOnly = true;
  Analysis Only = analyze(Code, Opts);
  ASSERT_TRUE(All.P->complete());
  ASSERT_TRUE(Only.P->complete());
  // Every call, sinks and malloc included, against the cuBLAS calls alone,
  // still in source order.
  EXPECT_EQ(All.Sinks.size(), 2u);
  EXPECT_TRUE(Only.Sinks.empty());
  ASSERT_EQ(Only.P->calls().size(), 3u);
  for (const CallExpr *Call : Only.P->calls())
    EXPECT_NE(calledCublasFunction(Call), nullptr);
  EXPECT_TRUE(Only.P->calls()[0]->getBeginLoc() <
              Only.P->calls()[1]->getBeginLoc());
  EXPECT_TRUE(Only.P->calls()[1]->getBeginLoc() <
              Only.P->calls()[2]->getBeginLoc());
  // The facts at the cuBLAS calls are the same; a sink is not known.
  ASSERT_EQ(All.Cublas.size(), 2u);
  ASSERT_EQ(Only.Cublas.size(), 2u);
  for (unsigned I = 0; I < 2; ++I) {
    for (unsigned Arg = 0; Arg < Only.Cublas[I]->getNumArgs(); ++Arg)
      EXPECT_EQ(Only.P->argument(Only.Cublas[I], Arg).Kind,
                All.P->argument(All.Cublas[I], Arg).Kind)
          << "call " << I << " argument " << Arg;
    EXPECT_EQ(Only.modeAt(I), All.modeAt(I)) << "call " << I;
  }
  EXPECT_EQ(Only.modeAt(1), PointerMode::Device);
  EXPECT_EQ(All.kindAt(0), MemoryKind::PageableHost);
  const auto *Sink = test::selectFirst<CallExpr>(
      *Only.AST, callExpr(callee(functionDecl(hasName("sink")))).bind("x"));
  ASSERT_NE(Sink, nullptr);
  EXPECT_EQ(Only.P->argument(Sink, 0).Kind, MemoryKind::Unknown);
}

TEST(PointerProvenance, LambdasAreTheirOwnFunctions) {
  // The captured pointer is not this lambda's local: unknown inside it.
  auto AST = test::buildAST(std::string(Prelude) + R"(
    void f(int n) {
      std::vector<float> v(n);
      float *p = v.data();
      auto g = [p] { sink(p); };
      g();
    }
  )",
                            "input.cpp", {"-isystem", test::testInputs()});
  ASSERT_TRUE(AST);
  const auto *Lambda = test::selectFirst<LambdaExpr>(
      *AST, lambdaExpr(isExpansionInMainFile()).bind("x"));
  ASSERT_NE(Lambda, nullptr);
  PointerProvenance P = PointerProvenance::analyze(Lambda->getCallOperator(),
                                                   AST->getASTContext());
  ASSERT_TRUE(P.complete());
  ASSERT_EQ(P.calls().size(), 1u);
  EXPECT_EQ(P.argument(P.calls()[0], 0).Kind, MemoryKind::Unknown);
}

// The quick look before the dataflow: only functions whose pointer
// arguments could be known are analysed.
TEST(PointerProvenance, LearnsNothingWrongFromParametersAlone) {
  auto AST = test::buildAST(R"(
    #include <cublas_v2.h>
    #include <cuda_runtime.h>
    #include <vector>
    void params(cublasHandle_t h, int n, const float *x, float *y) {
      const float a = 2;
      cublasSaxpy(h, n, &a, x + 1, 1, (float *)y, 1);
    }
    void local(cublasHandle_t h, int n, const float *x) {
      float *y;
      cudaMalloc(&y, n * sizeof(float));
      const float a = 2;
      cublasSaxpy(h, n, &a, x, 1, y, 1);
    }
    void mode(cublasHandle_t h, int n, const float *x, float *y) {
      const float a = 2;
      cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
      cublasSaxpy(h, n, &a, x, 1, y, 1);
    }
    void hostVector(cublasHandle_t h, int n, float *d) {
      std::vector<float> v(n * n);
      cublasSetMatrix(n, n, sizeof(float), v.data(), n, d, n);
    }
    void hostVectorToDevice(cublasHandle_t h, int n) {
      std::vector<float> v(n);
      const float a = 2;
      cublasSscal(h, n, &a, v.data(), 1);
    }
    void reassigned(cublasHandle_t h, int n, const float *x, float *y) {
      y = nullptr;
      const float a = 2;
      cublasSaxpy(h, n, &a, x, 1, y, 1);
    }
  )");
  ASSERT_TRUE(AST);
  auto Fn = [&](const char *Name) { return test::functionNamed(*AST, Name); };
  EXPECT_TRUE(PointerProvenance::learnsNothingWrong(Fn("params")));
  EXPECT_FALSE(PointerProvenance::learnsNothingWrong(Fn("local")));
  EXPECT_FALSE(PointerProvenance::learnsNothingWrong(Fn("mode")));
  EXPECT_TRUE(PointerProvenance::learnsNothingWrong(Fn("hostVector")));
  EXPECT_FALSE(PointerProvenance::learnsNothingWrong(Fn("hostVectorToDevice")));
  EXPECT_FALSE(PointerProvenance::learnsNothingWrong(Fn("reassigned")));
}

} // namespace
