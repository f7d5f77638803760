//===- RepeatedHandlesTest.cpp - Handles made and destroyed repeatedly ----===//

#include "facts/RepeatedHandles.h"
#include "TestAST.h"

#include "clang/ASTMatchers/ASTMatchers.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace cublas_tidy;

namespace {

const char Prelude[] = R"(
#include <cublas_v2.h>
#include <cublasLt.h>
#include <cuda_runtime.h>
float *x;
void sink(cublasHandle_t);
void work(cublasHandle_t h) { cublasSscal(h, 4, x, x, 1); }
)";

struct Analysis {
  std::unique_ptr<ASTUnit> AST;
  std::vector<const Decl *> Callables;

  explicit Analysis(const std::string &Code) {
    AST = test::buildAST(std::string(Prelude) + Code);
    EXPECT_TRUE(AST);
    EXPECT_FALSE(AST->getDiagnostics().hasErrorOccurred()) << Code;
    if (AST)
      Callables = test::definedFunctions(*AST);
  }
  const FunctionDecl *fn(const char *Name) {
    const FunctionDecl *FD = test::functionNamed(*AST, Name);
    EXPECT_NE(FD, nullptr) << Name;
    return FD;
  }
  /// "<var> loop|once" for every repeated handle of `Name`.
  std::vector<std::string> handles(const char *Name) {
    std::vector<std::string> Out;
    for (const ScopedHandle &H : repeatedHandles(fn(Name)))
      Out.push_back(H.Var->getName().str() +
                    (H.Loop ? " loop" : H.OncePerCall ? " once" : " ?"));
    return Out;
  }
};

using Strings = std::vector<std::string>;

TEST(RepeatedHandles, CreatedAndDestroyedInALoop) {
  Analysis A(R"(
    void f(int n, cublasLtMatmulDesc_t op, cublasLtMatrixLayout_t l) {
      for (int i = 0; i < n; ++i) {
        cublasHandle_t h;
        cublasCreate(&h);
        cublasSscal(h, 4, x, x, 1);
        cublasDestroy(h);
      }
      while (n--) {
        cublasLtHandle_t lt;
        cublasLtCreate(&lt);
        cublasLtMatmul(lt, op, x, x, l, x, l, x, x, l, x, l, nullptr,
                       nullptr, 0, 0);
        cublasLtDestroy(lt);
      }
    })");
  std::vector<ScopedHandle> Hs = repeatedHandles(A.fn("f"));
  ASSERT_EQ(Hs.size(), 2u);
  // Not necessarily in source order: cublasCreate is a macro.
  if (Hs[0].Var->getName() != "h")
    std::swap(Hs[0], Hs[1]);
  EXPECT_EQ(Hs[0].Var->getName(), "h");
  EXPECT_EQ(Hs[0].Kind, ResourceKind::Handle);
  EXPECT_TRUE(isa_and_nonnull<ForStmt>(Hs[0].Loop));
  EXPECT_FALSE(Hs[0].OncePerCall);
  ASSERT_TRUE(Hs[0].Work && Hs[0].Destroy);
  EXPECT_EQ(Hs[0].Work->getDirectCallee()->getName(), "cublasSscal_v2");
  EXPECT_EQ(Hs[1].Var->getName(), "lt");
  EXPECT_EQ(Hs[1].Kind, ResourceKind::LtHandle);
  EXPECT_TRUE(isa_and_nonnull<WhileStmt>(Hs[1].Loop));
}

// Once per call of the function: create and destroy outside any loop,
// with work between. Without work, created twice, or destroyed outside
// the loop of the create, nothing is said.
TEST(RepeatedHandles, OncePerCallAndNotScoped) {
  Analysis A(R"(
    void f(int n) {
      cublasHandle_t a, b, c, d;
      cublasCreate(&a); cublasSscal(a, n, x, x, 1); cublasDestroy(a);
      cublasCreate(&b); cublasDestroy(b);
      cublasCreate(&c); cublasCreate(&c); cublasSscal(c, n, x, x, 1);
      cublasDestroy(c);
      for (int i = 0; i < n; ++i) {
        cublasCreate(&d); cublasSscal(d, n, x, x, 1);
      }
      cublasDestroy(d);
    })");
  EXPECT_EQ(A.handles("f"), Strings{"a once"});
}

// A loop that may run once (its own `break`), selects devices, or creates
// under a test of its counter does not repeat the pair; a `break` of an
// inner loop or a switch, or a test of something else, does.
TEST(RepeatedHandles, LoopsThatDoNotRepeat) {
  Analysis A(R"(
    void f(int n, int k) {
      for (int i = 0; i < n; ++i) {
        cublasHandle_t a; cublasCreate(&a);
        cublasSscal(a, n, x, x, 1); cublasDestroy(a);
        if (k) break;
      }
      for (int i = 0; i < n; ++i) {
        cudaSetDevice(i);
        cublasHandle_t b; cublasCreate(&b); cublasSscal(b, n, x, x, 1);
        cublasDestroy(b);
      }
      for (int i = 0; i < n; ++i) {
        cublasHandle_t c;
        if (i == 0) cublasCreate(&c);
        cublasSscal(c, n, x, x, 1); cublasDestroy(c);
      }
      for (int i = 0; i < n; ++i) {
        cublasHandle_t d;
        if (k == 0) cublasCreate(&d);
        cublasSscal(d, n, x, x, 1); cublasDestroy(d);
        for (int j = 0; j < k; ++j) if (j) break;
        switch (k) { case 1: break; }
      }
    })");
  EXPECT_EQ(A.handles("f"), Strings{"d loop"});
}

TEST(RepeatedHandles, CallsInLoops) {
  Analysis A(R"(
    void gemm(int n) {
      cublasHandle_t h; cublasCreate(&h); cublasSscal(h, n, x, x, 1);
      cublasDestroy(h);
    }
    void perDevice() { cudaSetDevice(0); gemm(1); }
    void once() { gemm(1); }
    void retry(int n) { for (int i = 0; i < n; ++i) { gemm(i); break; } }
    void many(int n) { for (int i = 0; i < n; ++i) { gemm(i); perDevice(); } }
  )");
  CallerIndex Index(A.Callables);
  ASSERT_EQ(Index.callersOf(A.fn("gemm")).size(), 4u);
  std::optional<CallInLoop> C = callInLoop(A.fn("gemm"), A.Callables);
  ASSERT_TRUE(C);
  EXPECT_EQ(C->Caller, A.fn("many"));
  EXPECT_TRUE(isa_and_nonnull<ForStmt>(C->Loop));
  EXPECT_TRUE(callInLoop(A.fn("gemm"), Index));
  EXPECT_FALSE(callInLoop(A.fn("perDevice"), A.Callables)); // selects one
  EXPECT_FALSE(callInLoop(A.fn("once"), A.Callables));      // no caller
}

// A loop further up: through functions that call the next on every call
// of theirs (at most two between the loop and the function), not through a
// branch, nor through a function that selects a device.
TEST(RepeatedHandles, CallsInLoopsThroughOtherFunctions) {
  Analysis A(R"(
    void gemm(int n) {
      cublasHandle_t h; cublasCreate(&h); cublasSscal(h, n, x, x, 1);
      cublasDestroy(h);
    }
    void layer(int n) { gemm(n); }
    void step(int n) { layer(n); }
    void train(int n) { for (int i = 0; i < n; ++i) step(i); }
    void scal(int n) { gemm(n); }
    void lazy(int n, bool first) { if (first) scal(n); }
    void warm(int n) { for (int i = 0; i < n; ++i) lazy(i, i == 0); }
    void deep(int n) { gemm(n); }
    void deep1(int n) { deep(n); }
    void deep2(int n) { deep1(n); }
    void deep3(int n) { deep2(n); }
    void deep4(int n) { for (int i = 0; i < n; ++i) deep3(i); }
  )");
  std::optional<CallInLoop> C = callInLoop(A.fn("layer"), A.Callables);
  ASSERT_TRUE(C);
  EXPECT_EQ(C->Caller, A.fn("train"));
  ASSERT_EQ(C->Through.size(), 1u);
  EXPECT_EQ(C->Through[0]->getDirectCallee(), A.fn("layer"));
  // gemm's first caller in a loop: through step and layer, from train.
  C = callInLoop(A.fn("gemm"), A.Callables);
  ASSERT_TRUE(C);
  EXPECT_EQ(C->Caller, A.fn("train"));
  ASSERT_EQ(C->Through.size(), 2u);
  EXPECT_EQ(C->Through[0]->getDirectCallee(), A.fn("layer"));
  EXPECT_EQ(C->Through[1]->getDirectCallee(), A.fn("gemm"));
  EXPECT_FALSE(callInLoop(A.fn("scal"), A.Callables)); // behind a branch
  EXPECT_FALSE(callInLoop(A.fn("deep"), A.Callables)); // three between
  EXPECT_TRUE(callInLoop(A.fn("deep1"), A.Callables));
}

// Two calls in one block where the second runs whenever the first does;
// not in different branches, nor with a device selected between them.
TEST(RepeatedHandles, CalledTwice) {
  Analysis A(R"(
    void run() {
      cublasHandle_t h; cublasCreate(&h); cublasSscal(h, 4, x, x, 1);
      cublasDestroy(h);
    }
    void branches(bool c) { if (c) run(); else run(); }
    void devices() { run(); cudaSetDevice(1); run(); }
    void twice(bool c) { if (c) return; run(); x = nullptr; run(); }
  )");
  std::optional<CallTwice> T = callTwice(A.fn("run"), A.Callables);
  ASSERT_TRUE(T);
  EXPECT_EQ(T->Caller, A.fn("twice"));
  EXPECT_TRUE(T->First->getBeginLoc() < T->Second->getBeginLoc());
  Analysis B(R"(
    void run() { cublasHandle_t h; cublasCreate(&h); cublasDestroy(h); }
    void branches(bool c) { if (c) run(); else run(); }
    void devices() { run(); cudaSetDevice(1); run(); }
  )");
  EXPECT_FALSE(callTwice(B.fn("run"), B.Callables));
}

// Passing the handle to cuBLAS or testing it keeps it where it is; a copy
// or a call of other code may keep it elsewhere.
TEST(RepeatedHandles, HandleCopiedOut) {
  Analysis A(R"(
    cublasHandle_t saved;
    void kept() {
      cublasHandle_t h; cublasCreate(&h);
      if (h) cublasSscal(h, 4, x, x, 1);
      if (!h || h == nullptr) return;
      cublasDestroy(h);
    }
    void copied() { cublasHandle_t g; cublasCreate(&g); saved = g; }
    void passed() { cublasHandle_t p; cublasCreate(&p); sink(p); }
  )");
  auto Var = [&](const char *Fn) {
    return test::selectFirst<VarDecl>(
        *A.AST, varDecl(hasAncestor(functionDecl(hasName(Fn))),
                        hasType(asString("cublasHandle_t")))
                    .bind("x"));
  };
  EXPECT_FALSE(handleCopiedOut(Var("kept"), A.Callables));
  EXPECT_TRUE(handleCopiedOut(Var("copied"), A.Callables));
  EXPECT_TRUE(handleCopiedOut(Var("passed"), A.Callables));
}

// pybind11 registrations, by name or as a lambda; a `def` of another
// class registers nothing.
TEST(RepeatedHandles, OpRegistrations) {
  Analysis A(R"(
    namespace pybind11 { struct module_ {
      template <class F> module_ &def(const char *, F) { return *this; }
    }; }
    struct Other { template <class F> void def(const char *, F) {} };
    void gemm() {}
    void local() {}
    void init(pybind11::module_ &m, Other &o) {
      m.def("gemm", &gemm);
      m.def("inline", [](int n) { return n; });
      o.def("local", &local);
    })");
  std::optional<OpRegistration> R = opRegistration(A.fn("gemm"), A.Callables);
  ASSERT_TRUE(R);
  EXPECT_EQ(R->Name, "gemm");
  EXPECT_EQ(R->Caller, A.fn("init"));
  const auto *Lambda = test::selectFirst<LambdaExpr>(
      *A.AST, lambdaExpr(isExpansionInMainFile()).bind("x"));
  ASSERT_TRUE(Lambda);
  std::optional<OpRegistration> L =
      opRegistration(Lambda->getCallOperator(), A.Callables);
  ASSERT_TRUE(L);
  EXPECT_EQ(L->Name, "inline");
  EXPECT_FALSE(opRegistration(A.fn("local"), A.Callables));
}

// The index read once gives what opRegistration() gives for each function:
// the first registration of a function registered twice, none for a
// function only another class's `def` names or that selects a device.
TEST(RepeatedHandles, OpRegistrationIndexAgrees) {
  Analysis A(R"(
    namespace pybind11 { struct module_ {
      template <class F> module_ &def(const char *, F) { return *this; }
    }; }
    struct Other { template <class F> void def(const char *, F) {} };
    void gemm() {}
    void local() {}
    void pinned() { cudaSetDevice(0); }
    void unregistered() {}
    void first(pybind11::module_ &m) { m.def("gemm", &gemm); }
    void second(pybind11::module_ &m, Other &o) {
      m.def("gemm2", &gemm);
      m.def("pinned", &pinned);
      o.def("local", &local);
    })");
  OpRegistrations Index(A.Callables);
  for (const char *Name : {"gemm", "local", "pinned", "unregistered"}) {
    SCOPED_TRACE(Name);
    std::optional<OpRegistration> Scan =
        opRegistration(A.fn(Name), A.Callables);
    std::optional<OpRegistration> Read = Index.of(A.fn(Name));
    ASSERT_EQ(bool(Scan), bool(Read));
    if (Scan) {
      EXPECT_EQ(Scan->Call, Read->Call);
      EXPECT_EQ(Scan->Caller, Read->Caller);
      EXPECT_EQ(Scan->Name, Read->Name);
    }
  }
  std::optional<OpRegistration> G = Index.of(A.fn("gemm"));
  ASSERT_TRUE(G);
  EXPECT_EQ(G->Name, "gemm");
  EXPECT_EQ(G->Caller, A.fn("first"));
  EXPECT_FALSE(Index.of(A.fn("local")));
  EXPECT_FALSE(Index.of(A.fn("unregistered")));
}

} // namespace
