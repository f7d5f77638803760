//===- HandleStatesTest.cpp - The handle state analysis -------------------===//

#include "facts/HandleStates.h"
#include "TestAST.h"

#include "clang/ASTMatchers/ASTMatchers.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace cublas_tidy;

namespace {

const char Prelude[] = "#include <cublas_v2.h>\n#include <cublasLt.h>\n"
                       "#include <cstdlib>\nvoid sink(cublasHandle_t);\n";

struct Analysis {
  std::unique_ptr<ASTUnit> AST;
  ResourceTable Table = ResourceTable::fromApiModel();
  std::unique_ptr<HandleAnalyzer> Analyzer;

  explicit Analysis(const std::string &Code, HandleAnalysisOptions O = {}) {
    AST = test::buildAST(std::string(Prelude) + Code);
    EXPECT_TRUE(AST);
    EXPECT_FALSE(AST->getDiagnostics().hasErrorOccurred()) << Code;
    Analyzer = std::make_unique<HandleAnalyzer>(AST->getASTContext(), Table, O);
  }
  const FunctionDecl *fn(const char *Name) {
    const auto *FD = test::selectFirst<FunctionDecl>(
        *AST, functionDecl(hasName(Name), isDefinition()).bind("x"));
    EXPECT_NE(FD, nullptr) << Name;
    return FD;
  }
  HandleAnalysisResult run(const char *Name) {
    return Analyzer->analyze(fn(Name));
  }
  unsigned line(SourceLocation Loc) {
    return AST->getSourceManager().getPresumedLineNumber(
        AST->getSourceManager().getExpansionLoc(Loc));
  }
};

TEST(HandleStates, ReportsEachExitOnce) {
  Analysis A(R"(
    int f(bool a, bool b) {
      cublasHandle_t h;
      if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
        return -1;
      if (a)
        return 1;
      if (b)
        return 2;
      cublasDestroy(h);
      return 0;
    })");
  HandleAnalysisResult R = A.run("f");
  ASSERT_TRUE(R.Completed);
  ASSERT_EQ(R.Leaks.size(), 1u);
  EXPECT_EQ(R.Leaks[0].Var->getName(), "h");
  EXPECT_EQ(A.line(R.Leaks[0].Create->getBeginLoc()), 8u);
  ASSERT_EQ(R.Leaks[0].Exits.size(), 2u);
  EXPECT_EQ(R.Leaks[0].Exits[0].Kind, LeakExit::Return);
  EXPECT_EQ(A.line(R.Leaks[0].Exits[0].Loc), 11u);
  EXPECT_EQ(A.line(R.Leaks[0].Exits[1].Loc), 13u);
}

TEST(HandleStates, FailedCreateIsNotALeak) {
  Analysis A(R"(
    int f() {
      cublasHandle_t h;
      cublasStatus_t st = cublasCreate(&h);
      if (st != CUBLAS_STATUS_SUCCESS) return -1;
      cublasHandle_t g;
      if (cublasCreate(&g)) { cublasDestroy(h); return -2; }
      cublasHandle_t k;
      bool made = cublasCreate(&k) == CUBLAS_STATUS_SUCCESS;
      if (!made) { cublasDestroy(h); cublasDestroy(g); return -3; }
      cublasDestroy(k);
      cublasDestroy(g);
      cublasDestroy(h);
      return 0;
    })");
  HandleAnalysisResult R = A.run("f");
  ASSERT_TRUE(R.Completed);
  EXPECT_TRUE(R.Leaks.empty());
}

TEST(HandleStates, CorrelatedBranchesAreOnePath) {
  Analysis A(R"(
    void f(bool use) {
      cublasHandle_t h = nullptr;
      if (use) cublasCreate(&h);
      sink(nullptr);
      if (use) cublasDestroy(h);
    }
    void g(bool use, bool other) {
      cublasHandle_t h = nullptr;
      if (use) cublasCreate(&h);
      if (other) cublasDestroy(h);
      if (use) sink(nullptr);
    })");
  EXPECT_TRUE(A.run("f").Leaks.empty());
  EXPECT_EQ(A.run("g").Leaks.size(), 1u);
}

TEST(HandleStates, SummariesOfSameFileFunctions) {
  Analysis A(R"(
    static void release(cublasHandle_t h) { cublasDestroy(h); }
    static void maybe_release(cublasHandle_t h, bool b) { if (b) cublasDestroy(h); }
    static void use_only(cublasHandle_t h) { cublasSetStream(h, nullptr); }
    static void stash(cublasHandle_t h) { sink(h); }
    static void recurse(cublasHandle_t h, int n) { if (n) recurse(h, n - 1); else cublasDestroy(h); }
    void f() {})");
  auto Effect = [&](const char *Name) {
    return A.Analyzer->summarize(A.fn(Name), 0, 1);
  };
  EXPECT_EQ(Effect("release"), HandleAnalyzer::ParamEffect::Destroys);
  EXPECT_EQ(Effect("maybe_release"), HandleAnalyzer::ParamEffect::Escapes);
  EXPECT_EQ(Effect("use_only"), HandleAnalyzer::ParamEffect::Keeps);
  EXPECT_EQ(Effect("stash"), HandleAnalyzer::ParamEffect::Escapes);
  // Recursion does not loop; the recursive path reads as an escape.
  EXPECT_EQ(Effect("recurse"), HandleAnalyzer::ParamEffect::Escapes);
}

TEST(HandleStates, ModelRowsWinOverHeaderBodies) {
  // cublasLtMatmulPreferenceInit has a body in cublasLt.h; as a row of the
  // model it uses the descriptor instead of letting it escape.
  Analysis A(R"(
    int leak() {
      cublasLtMatmulPreference_t p;
      cublasLtMatmulPreferenceCreate(&p);
      cublasLtMatmulPreferenceInit(p);
      return 0;
    }
    void after_destroy() {
      cublasLtMatmulPreference_t p;
      if (cublasLtMatmulPreferenceCreate(&p) != CUBLAS_STATUS_SUCCESS)
        return;
      cublasLtMatmulPreferenceDestroy(p);
      cublasLtMatmulPreferenceInit(p);
    }
    void caller_owned() {
      cublasLtMatmulPreferenceOpaque_t storage;
      cublasLtMatmulPreference_t p = &storage;
      cublasLtMatmulPreferenceInit(p);
    }
    static void init(cublasLtMatmulPreference_t p) {
      cublasLtMatmulPreferenceInit(p);
    })");
  HandleAnalysisResult Leak = A.run("leak");
  ASSERT_TRUE(Leak.Completed);
  ASSERT_EQ(Leak.Leaks.size(), 1u);
  EXPECT_TRUE(Leak.Leaks[0].NeverReleased);
  EXPECT_EQ(A.line(Leak.Leaks[0].Create->getBeginLoc()), 8u);

  HandleAnalysisResult After = A.run("after_destroy");
  ASSERT_TRUE(After.Completed);
  EXPECT_TRUE(After.Leaks.empty());
  ASSERT_EQ(After.UsesAfterDestroy.size(), 1u);
  EXPECT_EQ(A.line(After.UsesAfterDestroy[0].Use->getBeginLoc()), 17u);

  HandleAnalysisResult Owned = A.run("caller_owned");
  ASSERT_TRUE(Owned.Completed);
  EXPECT_TRUE(Owned.Leaks.empty());
  EXPECT_TRUE(Owned.UsesAfterDestroy.empty());

  // A same-file function that only initialises keeps the descriptor.
  EXPECT_EQ(A.Analyzer->summarize(A.fn("init"), 0, 1),
            HandleAnalyzer::ParamEffect::Keeps);
}

TEST(HandleStates, UseAfterDestroyOnEveryPathOrEveryWayOn) {
  // Line 10 is reached without the destroy of line 9 when !b, but every way
  // on from that destroy reaches it; every path to line 12 destroys at 11.
  Analysis A(R"(
    void f(bool b) {
      cublasHandle_t h;
      cublasCreate(&h);
      if (b) cublasDestroy(h);
      cublasSetStream(h, nullptr);
      cublasDestroy(h);
      cublasSetStream(h, nullptr);
    })");
  HandleAnalysisResult R = A.run("f");
  ASSERT_TRUE(R.Completed);
  ASSERT_EQ(R.UsesAfterDestroy.size(), 2u);
  const UseAfterDestroyReport &WayOn = R.UsesAfterDestroy[0];
  EXPECT_FALSE(WayOn.IsDestroy);
  EXPECT_TRUE(WayOn.EveryWayOnFromDestroy);
  EXPECT_EQ(A.line(WayOn.Use->getBeginLoc()), 10u);
  EXPECT_EQ(A.line(WayOn.Destroy->getBeginLoc()), 9u);
  const UseAfterDestroyReport &Every = R.UsesAfterDestroy[1];
  EXPECT_FALSE(Every.EveryWayOnFromDestroy);
  EXPECT_EQ(A.line(Every.Use->getBeginLoc()), 12u);
  EXPECT_EQ(A.line(Every.Destroy->getBeginLoc()), 11u);
}

TEST(HandleStates, UseAfterDestroyAvoidedOnSomeWayOn) {
  // From each destroy some way on avoids the use: a return, a call of
  // another unit's function that may not return, the handle made again.
  Analysis A(R"(
    void die(const char *);
    void f(bool b, bool c, bool d) {
      cublasHandle_t h;
      cublasCreate(&h);
      if (b) { cublasDestroy(h); return; }
      if (c) { cublasDestroy(h); die("c"); }
      if (d) { cublasDestroy(h); cublasCreate(&h); }
      cublasSetStream(h, nullptr);
      cublasDestroy(h);
    })");
  HandleAnalysisResult R = A.run("f");
  ASSERT_TRUE(R.Completed);
  EXPECT_TRUE(R.UsesAfterDestroy.empty());
}

TEST(HandleStates, BoundsMakeItSilent) {
  // Five independent flags, each tested twice, give 2^5 paths.
  std::string Code = "void f(";
  for (int I = 0; I < 5; ++I)
    Code += std::string(I ? ", " : "") + "bool b" + std::to_string(I);
  Code += ") {\n cublasHandle_t h;\n cublasCreate(&h);\n";
  for (int Round = 0; Round < 2; ++Round)
    for (int I = 0; I < 5; ++I)
      Code += " if (b" + std::to_string(I) + ") sink(nullptr);\n";
  Code += "}\n";
  HandleAnalysisOptions Small;
  Small.MaxStatesPerBlock = 16;
  Analysis A(Code, Small);
  HandleAnalysisResult R = A.run("f");
  EXPECT_FALSE(R.Completed);
  EXPECT_TRUE(R.Leaks.empty());
  Analysis B(Code);
  HandleAnalysisResult Full = B.run("f");
  EXPECT_TRUE(Full.Completed);
  EXPECT_EQ(Full.Leaks.size(), 1u);
}

TEST(HandleStates, MayDestroyResourceFollowsCallsOfTheUnit) {
  Analysis A(R"(
    void shutdown(cublasHandle_t h) { cublasDestroy(h); }
    void close_all(cublasHandle_t h) { shutdown(h); }
    void warm_up(cublasHandle_t h) { cublasSetStream(h, nullptr); }
    void ping(cublasHandle_t h);
    void pong(cublasHandle_t h) { ping(h); }
    void ping(cublasHandle_t h) { pong(h); }
    void make(cublasHandle_t *h) { cublasCreate(h); }
  )");
  llvm::DenseMap<const FunctionDecl *, bool> Known;
  EXPECT_TRUE(mayDestroyResource(A.fn("shutdown"), A.Table, Known));
  EXPECT_TRUE(mayDestroyResource(A.fn("close_all"), A.Table, Known));
  EXPECT_FALSE(mayDestroyResource(A.fn("warm_up"), A.Table, Known));
  EXPECT_FALSE(mayDestroyResource(A.fn("ping"), A.Table, Known));
  EXPECT_FALSE(mayDestroyResource(A.fn("make"), A.Table, Known));
  EXPECT_FALSE(mayDestroyResource(nullptr, A.Table, Known));
}

TEST(HandleStates, UseAfterADestroyInAFunction) {
  Analysis A(R"(
    void shutdown(cublasHandle_t h) { cublasDestroy(h); }
    void maybe(cublasHandle_t h, bool b) { if (b) cublasDestroy(h); }
    void f() {
      cublasHandle_t h;
      if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return;
      shutdown(h);
      shutdown(h);
    }
    void g(bool b) {
      cublasHandle_t h;
      if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return;
      maybe(h, b);
      cublasSetStream(h, nullptr);
      cublasDestroy(h);
    })");
  HandleAnalysisResult F = A.run("f");
  ASSERT_TRUE(F.Completed);
  ASSERT_EQ(F.UsesAfterDestroy.size(), 1u);
  EXPECT_TRUE(F.UsesAfterDestroy[0].IsDestroy);
  EXPECT_EQ(A.line(F.UsesAfterDestroy[0].Use->getBeginLoc()), 12u);
  EXPECT_EQ(A.line(F.UsesAfterDestroy[0].Destroy->getBeginLoc()), 11u);
  HandleAnalysisResult G = A.run("g");
  ASSERT_TRUE(G.Completed);
  EXPECT_TRUE(G.UsesAfterDestroy.empty());
}

TEST(HandleStates, GlobalsDestroyedOnEveryWayOut) {
  Analysis A(R"(
    cublasHandle_t g;
    cublasLtHandle_t lt;
    void teardown() { cublasDestroy(g); cublasLtDestroy(lt); }
    void reset() { cublasDestroy(g); g = nullptr; }
    void some(bool b) { if (b) cublasDestroy(g); }
    void chain() { teardown(); }
    void init() { cublasCreate(&g); }
    void other();
    void check(cublasStatus_t);
    void f() {
      init();
      other();
      check(cublasSetStream(g, nullptr));
      sink(nullptr);
    })");
  llvm::ArrayRef<std::pair<const VarDecl *, unsigned>> T =
      A.Analyzer->globalsDestroyed(A.fn("teardown"), 1);
  ASSERT_EQ(T.size(), 2u);
  EXPECT_EQ(T[0].first->getName(), "g");
  EXPECT_EQ(A.Table.kind(T[0].second).Destroy, "cublasDestroy");
  EXPECT_EQ(T[1].first->getName(), "lt");
  EXPECT_TRUE(A.Analyzer->globalsDestroyed(A.fn("reset"), 1).empty());
  EXPECT_TRUE(A.Analyzer->globalsDestroyed(A.fn("some"), 1).empty());
  EXPECT_EQ(A.Analyzer->globalsDestroyed(A.fn("chain"), 1).size(), 2u);

  // f calls init (names g), other (unknown), check (given a status) and
  // sink (unknown, given a handle).
  const VarDecl *G = T[0].first;
  llvm::SmallVector<const CallExpr *, 4> Calls;
  for (const Stmt *S : cast<CompoundStmt>(A.fn("f")->getBody())->body())
    Calls.push_back(cast<CallExpr>(S));
  EXPECT_TRUE(A.Analyzer->mayWriteGlobal(Calls[0], G, 1));
  EXPECT_TRUE(A.Analyzer->mayWriteGlobal(Calls[1], G, 1));
  EXPECT_FALSE(A.Analyzer->mayWriteGlobal(Calls[2], G, 1));
  EXPECT_TRUE(A.Analyzer->mayWriteGlobal(Calls[3], G, 1));
}

TEST(HandleStates, MayDestroyGlobalFollowsTheCallsOfTheUnit) {
  Analysis A(R"(
    cublasHandle_t g;
    cublasHandle_t other;
    void check(cublasStatus_t);
    void unknown();
    void close() { check(cublasDestroy(g)); }
    void finish() { close(); }
    void close_other() { cublasDestroy(other); }
    void f() {
      cublasDestroy(g);
      finish();
      close_other();
      check(cublasSetStream(g, nullptr));
      unknown();
      std::srand(1);
    })");
  const VarDecl *G = nullptr;
  llvm::SmallVector<const CallExpr *, 6> Calls;
  for (const Stmt *S : cast<CompoundStmt>(A.fn("f")->getBody())->body())
    Calls.push_back(cast<CallExpr>(S));
  G = cast<VarDecl>(cast<DeclRefExpr>(Calls[0]->getArg(0)->IgnoreParenImpCasts())
                        ->getDecl());
  llvm::DenseMap<std::pair<const FunctionDecl *, const VarDecl *>, bool> Known;
  EXPECT_TRUE(mayDestroyGlobal(Calls[0], G, A.Table, Known));
  EXPECT_TRUE(mayDestroyGlobal(Calls[1], G, A.Table, Known));
  EXPECT_FALSE(mayDestroyGlobal(Calls[2], G, A.Table, Known));
  EXPECT_FALSE(mayDestroyGlobal(Calls[3], G, A.Table, Known));
  EXPECT_TRUE(mayDestroyGlobal(Calls[4], G, A.Table, Known));
  EXPECT_FALSE(mayDestroyGlobal(Calls[5], G, A.Table, Known));
}

} // namespace
