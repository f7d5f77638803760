//===- HandleNamesTest.cpp - Which handle an expression names -------------===//

#include "facts/HandleNames.h"
#include "TestAST.h"
#include "TorchStandIn.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace cublas_tidy;

namespace {

/// The names of the handles that the cublasSetStream calls of `Fn` name,
/// in source order; each call names one.
std::vector<HandleName> setStreamNames(ASTUnit &AST, const char *Fn) {
  const FunctionDecl *F = test::functionNamed(AST, Fn);
  std::vector<HandleName> N;
  for (const CallExpr *C : test::callsTo(AST, F, "cublasSetStream_v2")) {
    std::optional<HandleName> Name = handleNamed(C->getArg(0), F);
    EXPECT_TRUE(Name.has_value());
    if (Name)
      N.push_back(*Name);
  }
  return N;
}

const char *const Code = R"(
#include <cublas_v2.h>
struct Ctx { cublasHandle_t handle; cublasHandle_t get() const; };
struct Engine {
  cublasHandle_t h_;
  void run(Ctx &ctx, cublasHandle_t param, cudaStream_t s) {
    cublasSetStream(h_, s);                          // 0: member of this
    cublasSetStream(ctx.handle, s);                  // 1: member of ctx
    cublasSetStream(ctx.get(), s);                   // 2: accessor
    cublasHandle_t torch = at::cuda::getCurrentCUDABlasHandle();
    cublasSetStream(torch, s);                       // 3: PyTorch's
    cublasHandle_t copy = param;
    cublasSetStream(copy, s);                        // 4: param
    cublasHandle_t moved = param;
    moved = h_;
    cublasSetStream(moved, s);                       // 5: moved itself
  }
};
)";

TEST(HandleNames, EachShapeOfName) {
  auto AST = test::buildAST(std::string(test::TorchStandIn) + Code);
  ASSERT_TRUE(AST);
  ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
  std::vector<HandleName> N = setStreamNames(*AST, "run");
  ASSERT_EQ(N.size(), 6u);
  // A member of this is a key of its own; a member of another object, an
  // accessor and a library's handle are not.
  ASSERT_TRUE(N[0].Member);
  EXPECT_EQ(N[0].Base, nullptr);
  EXPECT_EQ(N[0].plainKey(), N[0].Member);
  EXPECT_TRUE(N[1].Member && N[1].Base);
  EXPECT_EQ(N[1].plainKey(), nullptr);
  ASSERT_TRUE(N[2].Getter);
  EXPECT_EQ(N[2].Getter->getName(), "get");
  EXPECT_EQ(N[2].plainKey(), nullptr);
  ASSERT_TRUE(N[3].Library);
  EXPECT_EQ(N[3].Library->name(), "PyTorch");
  EXPECT_EQ(N[3].plainKey(), nullptr);
  // A copy that nothing changes names its source; one assigned again
  // names itself.
  EXPECT_EQ(N[4].Base->getName(), "param");
  EXPECT_EQ(N[5].Base->getName(), "moved");
}

TEST(HandleNames, LibraryOwnedHandles) {
  auto AST = test::buildAST(std::string(test::TorchStandIn) + R"(
    #include <cublas_v2.h>
    cublasHandle_t mine();
    void f() {
      cublasDestroy(at::cuda::getCurrentCUDABlasHandle());
      cublasDestroy(mine());
    }
  )");
  ASSERT_TRUE(AST);
  const FunctionDecl *Fn = test::functionNamed(*AST, "f");
  std::vector<const CallExpr *> Destroys =
      test::callsTo(*AST, Fn, "cublasDestroy_v2");
  ASSERT_EQ(Destroys.size(), 2u);
  std::optional<LibraryHandle> Torch =
      libraryOwnedHandle(Destroys[0]->getArg(0));
  ASSERT_TRUE(Torch.has_value());
  EXPECT_EQ(Torch->Library->name(), "PyTorch");
  EXPECT_FALSE(libraryOwnedHandle(Destroys[1]->getArg(0)).has_value());
}

TEST(HandleNames, ElementsNameTheirArray) {
  auto AST = test::buildAST(R"(
    #include <cublas_v2.h>
    #include <map>
    #include <vector>
    cublasHandle_t g_raw[4];
    std::vector<cublasHandle_t> g_vec;
    std::vector<cublasHandle_t> g_other;
    struct Pool {
      std::map<int, cublasHandle_t> byDevice_;
      void f(int d, cudaStream_t s, cublasHandle_t *given) {
        cublasSetStream(g_raw[d], s);
        cublasSetStream(g_vec[d], s);
        cublasSetStream(g_other[d], s);
        cublasSetStream(byDevice_.at(d), s);
        cublasSetStream(byDevice_[d], s);
        cublasSetStream(given[d], s);
      }
    };
  )");
  ASSERT_TRUE(AST);
  ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
  std::vector<HandleName> N = setStreamNames(*AST, "f");
  ASSERT_EQ(N.size(), 6u);
  for (const HandleName &Name : N) {
    EXPECT_TRUE(Name.Element);
    EXPECT_EQ(Name.plainKey(), nullptr); // no flow of one element
    EXPECT_EQ(Name.Getter, nullptr);
  }
  EXPECT_EQ(N[0].Base->getName(), "g_raw");
  EXPECT_EQ(N[1].Base->getName(), "g_vec");
  EXPECT_FALSE(N[1] == N[2]); // another container
  ASSERT_TRUE(N[3].Member);
  EXPECT_EQ(N[3].Member->getName(), "byDevice_");
  EXPECT_TRUE(N[3] == N[4]); // at(d) and [d]: the same map
  EXPECT_EQ(N[5].Base->getName(), "given");
}

} // namespace

namespace {

TEST(HandleNames, SingletonObjects) {
  auto AST = test::buildAST(R"(
#include <cublas_v2.h>
struct Ctx {
  static Ctx &instance() { static Ctx c; return c; }
  static Ctx *pointer() { static Ctx p; return &p; }
  static Ctx fresh() { return Ctx(); }
  static Ctx &of(int device) { static Ctx d[8]; return d[device]; }
  cublasHandle_t handle() const { return h; }
  cublasHandle_t h;
};
void run(cudaStream_t s) {
  cublasSetStream(Ctx::instance().handle(), s);      // 0: the static c
  cublasSetStream(Ctx::instance().handle(), s);      // 1: the same
  cublasSetStream(Ctx::pointer()->handle(), s);      // 2: the static p
}
void unknown(cudaStream_t s) {
  cublasSetStream(Ctx::fresh().handle(), s);         // a new object
  cublasSetStream(Ctx::of(0).handle(), s);           // takes a device
}
)");
  ASSERT_TRUE(AST);
  ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
  std::vector<HandleName> N = setStreamNames(*AST, "run");
  ASSERT_EQ(N.size(), 3u);
  ASSERT_TRUE(N[0].Getter && N[0].Base);
  EXPECT_EQ(N[0].Base->getName(), "c");
  EXPECT_TRUE(N[0] == N[1]);
  ASSERT_TRUE(N[2].Base);
  EXPECT_EQ(N[2].Base->getName(), "p");
  const FunctionDecl *F = test::functionNamed(*AST, "unknown");
  for (const CallExpr *C : test::callsTo(*AST, F, "cublasSetStream_v2"))
    EXPECT_FALSE(handleNamed(C->getArg(0), F).has_value());
}

} // namespace
