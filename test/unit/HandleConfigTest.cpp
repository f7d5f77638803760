//===- HandleConfigTest.cpp - A handle's configuration along a function ---===//

#include "facts/HandleConfig.h"
#include "TestAST.h"
#include "model/CublasApi.h"
#include "model/HandleConfig.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace cublas_tidy;

namespace {

const char *Code = R"(
  #include <cublas_v2.h>
  cublasHandle_t global;
  struct Ctx { cublasHandle_t handle; };
  struct Holder {
    cublasHandle_t h_;
    void member(float *r, const float *x) {
      cublasSetPointerMode(h_, CUBLAS_POINTER_MODE_DEVICE);
      cublasSdot(h_, 4, x, 1, x, 1, r);
    }
    void scale(float *x) {
      const float a = 2;
      cublasSscal(h_, 4, &a, x, 1);
    }
  };
  // Every function sets the mode it needs: nothing leaks.
  struct SelfSetting {
    cublasHandle_t h_;
    void dot(float *r, const float *x) {
      cublasSetPointerMode(h_, CUBLAS_POINTER_MODE_DEVICE);
      cublasSdot(h_, 4, x, 1, x, 1, r);
    }
    void scale(float *x) {
      const float a = 2;
      cublasSetPointerMode(h_, CUBLAS_POINTER_MODE_HOST);
      cublasSscal(h_, 4, &a, x, 1);
    }
  };
  void names(cublasHandle_t p, Ctx *ctx) {
    cublasHandle_t copy = p;
    cublasHandle_t own;
    cublasCreate(&own);
    cublasHandle_t fromCtx = ctx->handle;
    cublasSetStream(p, nullptr);
    cublasSetStream(copy, nullptr);
    cublasSetStream(global, nullptr);
    cublasSetStream(own, nullptr);
    cublasSetStream(fromCtx, nullptr);
    cublasDestroy(own);
  }
  void lost(cublasHandle_t h, void *ws, float *r, const float *x) {
    cublasSetWorkspace(h, ws, 1024);
    cublasSetStream(h, nullptr);
    cublasSdot(h, 4, x, 1, x, 1, r);
  }
  void kept(cublasHandle_t h, void *ws, float *r, const float *x) {
    cublasSetStream(h, nullptr);
    cublasSetWorkspace(h, ws, 1024);
    cublasSdot(h, 4, x, 1, x, 1, r);
  }
  int leaks(cublasHandle_t h, float *r, const float *x, bool early) {
    cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
    cublasSdot(h, 4, x, 1, x, 1, r);
    if (early)
      return 1;
    cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
    return 0;
  }
  void correlated(cublasHandle_t h, float *r, const float *x, bool dev) {
    if (dev)
      cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
    cublasSdot(h, 4, x, 1, x, 1, r);
    if (!dev)
      return;
    cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
  }
)";

// The checks ask only the calls of modelled functions whether they change a
// handle's configuration (HandleStateCheck): every configuration function
// must be one.
TEST(HandleConfig, EveryConfigurationFunctionIsModelled) {
  for (const handle_config::ConfigFunction &F :
       handle_config::configFunctions())
    EXPECT_NE(lookupFunction(F.Name), nullptr) << F.Name;
}

TEST(HandleConfig, NamesAndOwners) {
  auto AST = test::buildAST(Code);
  ASSERT_TRUE(AST);
  ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
  const FunctionDecl *Fn = test::functionNamed(*AST, "names");
  std::vector<const CallExpr *> Sets = test::callsTo(*AST, Fn, "cublasSetStream_v2");
  ASSERT_EQ(Sets.size(), 5u);
  std::vector<std::optional<HandleName>> N;
  for (const CallExpr *C : Sets)
    N.push_back(handleNamed(C->getArg(0), Fn));
  for (const auto &Name : N)
    ASSERT_TRUE(Name.has_value());
  // A local copy never changed names the parameter it was copied from.
  EXPECT_TRUE(*N[0] == *N[1]);
  EXPECT_EQ(handleOwner(*N[0], Fn), HandleOwner::Parameter);
  EXPECT_EQ(handleOwner(*N[2], Fn), HandleOwner::Global);
  EXPECT_EQ(handleOwner(*N[3], Fn), HandleOwner::Function);
  // ctx->handle through a local: a member of an object.
  EXPECT_TRUE(N[4]->Member && N[4]->Base);
  EXPECT_EQ(handleOwner(*N[4], Fn), HandleOwner::Member);
}

TEST(HandleConfig, WorkspaceLostOnlyInTheWrongOrder) {
  auto AST = test::buildAST(Code);
  ASSERT_TRUE(AST);
  std::vector<const Decl *> Unit = test::definedFunctions(*AST);
  const FunctionDecl *Lost = test::functionNamed(*AST, "lost");
  std::vector<LostWorkspace> L = lostWorkspaces(Lost, Unit);
  ASSERT_EQ(L.size(), 1u);
  ASSERT_TRUE(L[0].Use);
  EXPECT_EQ(L[0].Use->getDirectCallee()->getName(), "cublasSdot_v2");
  EXPECT_EQ(L[0].Workspace->getDirectCallee()->getName(),
            "cublasSetWorkspace_v2");
  EXPECT_EQ(L[0].WorkspaceIn, nullptr);
  EXPECT_TRUE(lostWorkspaces(test::functionNamed(*AST, "kept"), Unit).empty());
  EXPECT_TRUE(lostWorkspaces(test::functionNamed(*AST, "names"), Unit).empty());
}

TEST(HandleConfig, PointerModeLeaksWithTheirWayOut) {
  auto AST = test::buildAST(Code);
  ASSERT_TRUE(AST);
  std::vector<const Decl *> Unit = test::definedFunctions(*AST);
  std::vector<PointerModeLeak> L =
      leakedPointerModes(test::functionNamed(*AST, "leaks"), Unit);
  ASSERT_EQ(L.size(), 1u);
  ASSERT_TRUE(L[0].Exit);
  EXPECT_TRUE(isa<ReturnStmt>(L[0].Exit));
  EXPECT_EQ(L[0].Owner, HandleOwner::Parameter);
  // The early return is taken only when nothing was set.
  EXPECT_TRUE(
      leakedPointerModes(test::functionNamed(*AST, "correlated"), Unit).empty());
  // A member handle: left at the end of the body.
  const CXXRecordDecl *Holder = nullptr;
  for (const Decl *D : test::definedFunctions(*AST))
    if (const auto *M = dyn_cast<CXXMethodDecl>(D); M && M->getName() == "member")
      Holder = M->getParent();
  ASSERT_TRUE(Holder);
  const CXXMethodDecl *Member = nullptr;
  for (const CXXMethodDecl *M : Holder->methods())
    if (M->getName() == "member")
      Member = M;
  std::vector<PointerModeLeak> ML = leakedPointerModes(Member, Unit);
  ASSERT_EQ(ML.size(), 1u);
  EXPECT_EQ(ML[0].Exit, nullptr);
  EXPECT_EQ(ML[0].Owner, HandleOwner::Member);
  ASSERT_TRUE(ML[0].Victim);
  EXPECT_EQ(cast<FunctionDecl>(ML[0].VictimIn)->getName(), "scale");
  for (const Decl *D : Unit)
    if (const auto *M = dyn_cast<CXXMethodDecl>(D);
        M && M->getName() == "dot" && M->getParent()->getName() == "SelfSetting")
      EXPECT_TRUE(leakedPointerModes(M, Unit).empty());
}

} // namespace
