//===- SummariesTest.cpp - Function summaries across translation units ----===//

#include "facts/Summaries.h"
#include "facts/BufferParams.h"
#include "facts/HandleStates.h"
#include "facts/StatusFunctions.h"
#include "facts/UnitSummaries.h"
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
#include <cstdio>
)";

/// The summaries a unit makes of its functions, by name.
std::map<std::string, FunctionSummary> summariesOf(const std::string &Code) {
  std::unique_ptr<ASTUnit> AST = test::buildAST(std::string(Prelude) + Code);
  EXPECT_TRUE(AST);
  std::map<std::string, FunctionSummary> Out;
  for (FunctionSummary &S :
       summarizeFunctions(test::definedFunctions(*AST), AST->getASTContext()))
    Out[S.Name] = S;
  return Out;
}

/// The first declaration of `Name`, with or without a body.
const FunctionDecl *declared(ASTUnit &AST, const std::string &Name) {
  return test::selectFirst<FunctionDecl>(
      AST, functionDecl(hasName(Name)).bind("x"));
}

FunctionSummary summary(std::string Key, std::string File, unsigned Line) {
  FunctionSummary S;
  S.Key = Key;
  S.Name = Key;
  S.File = File;
  S.Line = Line;
  S.Status = FunctionSummary::StatusRole::Checker;
  return S;
}

TEST(SummariesTest, RolesAndHandleEffects) {
  auto S = summariesOf(R"(
cublasStatus_t check(cublasStatus_t s) {
  if (s != CUBLAS_STATUS_SUCCESS) std::printf("failed\n");
  return s;
}
cublasStatus_t scale(cublasHandle_t h, float *x) {
  const float a = 2;
  return cublasSscal(h, 4, &a, x, 1);
}
void done(cublasHandle_t h) { cublasDestroy(h); }
void sometimes(cublasHandle_t h, bool b) { if (b) cublasDestroy(h); }
cublasHandle_t kept;
void keep(cublasHandle_t h) { kept = h; }
void layouts(cublasLtMatrixLayout_t l) { cublasLtMatrixLayoutDestroy(l); }
static void internal(cublasHandle_t h) { cublasDestroy(h); }
void unrelated(int n) {}
template <typename T> void pattern(cublasHandle_t h) { cublasDestroy(h); }
)");
  EXPECT_EQ(S["check"].Status, FunctionSummary::StatusRole::Checker);
  EXPECT_EQ(S["scale"].Status, FunctionSummary::StatusRole::Wrapper);
  EXPECT_EQ(S["scale"].Wrapped, "cublasSscal");
  EXPECT_EQ(S["scale"].WrappedLine, S["scale"].Line + 2);
  EXPECT_EQ(S["scale"].handleEffect(0), FunctionSummary::HandleEffect::Keeps);
  EXPECT_EQ(S["done"].handleEffect(0), FunctionSummary::HandleEffect::Destroys);
  EXPECT_EQ(S["layouts"].handleEffect(0),
            FunctionSummary::HandleEffect::Destroys);
  // Destroyed on some paths, or kept elsewhere: nothing to say.
  EXPECT_FALSE(S.count("sometimes"));
  EXPECT_FALSE(S.count("keep"));
  // Nothing another unit can call, or nothing of cuBLAS.
  EXPECT_FALSE(S.count("internal"));
  EXPECT_FALSE(S.count("unrelated"));
  EXPECT_FALSE(S.count("pattern"));
  EXPECT_EQ(S["done"].Key, "_Z4doneP13cublasContext");
}

TEST(SummariesTest, HandlesMadePerCall) {
  auto S = summariesOf(R"(
int perCall(float *x) {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return 1;
  const float a = 2;
  cublasSscal(h, 4, &a, x, 1);
  cublasDestroy(h);
  return 0;
}
int onDevice(int d, float *x) {
  cudaSetDevice(d);
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return 1;
  const float a = 2;
  cublasSscal(h, 4, &a, x, 1);
  cublasDestroy(h);
  return 0;
}
int inALoop(float *x) {
  for (int i = 0; i < 4; ++i) {
    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return 1;
    const float a = 2;
    cublasSscal(h, 4, &a, x, 1);
    cublasDestroy(h);
  }
  return 0;
}
)");
  ASSERT_EQ(S["perCall"].PerCall.size(), 1u);
  EXPECT_EQ(S["perCall"].PerCall[0].Create, "cublasCreate");
  EXPECT_FALSE(S["perCall"].PerCall[0].Lt);
  EXPECT_EQ(S["perCall"].PerCall[0].Line, S["perCall"].Line + 2);
  // One handle per device is the guidance; a loop of its own is judged
  // where it is.
  EXPECT_TRUE(S["onDevice"].PerCall.empty());
  EXPECT_TRUE(S["inALoop"].PerCall.empty());
}

TEST(SummariesTest, BuffersGivenToCublasUnchanged) {
  auto S = summariesOf(R"(
void scal(cublasHandle_t h, float *x, float *y, const float *host, int n) {
  const float a = 2;
  cublasSscal(h, n, &a, x, 1);
  y += 1;                        // changed: its memory is not the caller's
  cublasSscal(h, n, &a, y, 1);
  cublasSetVector(n, 4, host, 1, x, 1);
}
void scalar(cublasHandle_t h, const float *alpha, float *x) {
  cublasSscal(h, 4, alpha, x, 1); // alpha: the pointer mode decides
}
)");
  std::vector<std::string> Got;
  for (const auto &B : S["scal"].Buffers)
    Got.push_back(std::to_string(B.Index) + "->" + B.Spelled + ":" +
                  std::to_string(B.Arg));
  EXPECT_EQ(Got, (std::vector<std::string>{
                     "1->cublasSscal:3", "3->cublasSetVector:2",
                     "1->cublasSetVector:4"}));
  EXPECT_EQ(S["scal"].Buffers.front().Callee, "cublasSscal_v2");
  ASSERT_EQ(S["scalar"].Buffers.size(), 1u);
  EXPECT_EQ(S["scalar"].Buffers[0].Index, 2u);
}

TEST(SummariesTest, SpansInTermsOfTheParameters) {
  auto S = summariesOf(R"(
int padded(int);
void gemm(cublasHandle_t h, int m, int n, int k, const float *A,
          const float *B, float *C) {
  const float one = 1, zero = 0;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, m, n, k, &one, A, m, B, n + 1,
              &zero, C, m);
}
void padded_ld(cublasHandle_t h, int m, int n, const float *A, float *C) {
  const float one = 1, zero = 0;
  int lda = padded(m);
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, m, &one, A, lda, A, m, &zero,
              C, m);
}
void changed(cublasHandle_t h, int n, float *x) {  // n: parameter 1
  const float a = 2;
  n = n * 2;
  cublasSscal(h, n, &a, x, 1);
}
void gemm_half(cublasHandle_t h, int n, const void *A, void *C) {
  const float one = 1, zero = 0;
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, CUDA_R_16F, n,
               A, CUDA_R_16F, n, &zero, C, CUDA_R_32F, n, CUBLAS_COMPUTE_32F,
               CUBLAS_GEMM_DEFAULT);
}
)");
  // A: m x k at lda = m; B: transposed, n x k at ldb = n + 1.
  const auto &G = S["gemm"].Buffers;
  ASSERT_EQ(G.size(), 3u);
  ASSERT_TRUE(G[0].Spans && G[1].Spans && G[2].Spans);
  EXPECT_EQ(G[0].Spans->Operand, "A");
  EXPECT_EQ(G[0].Spans->ElementBytes, 4u);
  auto At = [](int64_t M, int64_t N, int64_t K) {
    return [=](unsigned I) -> std::optional<SymExpr> {
      switch (I) {
      case 1: return SymExpr::constant(M);
      case 2: return SymExpr::constant(N);
      case 3: return SymExpr::constant(K);
      }
      return std::nullopt;
    };
  };
  auto Elements = [&](const FunctionSummary::BufferParam &B, int64_t M,
                      int64_t N, int64_t K) {
    std::optional<SymExpr> V = B.Spans->Elements.bind(At(M, N, K));
    return V ? V->getConstant().value_or(-1) : -1;
  };
  EXPECT_EQ(Elements(G[0], 4, 5, 6), 4 * 6);
  EXPECT_EQ(Elements(G[1], 4, 5, 6), 6 * 5 + 5);   // (n + 1) * (k - 1) + n
  EXPECT_EQ(Elements(G[2], 4, 5, 6), 4 * 5);
  ASSERT_EQ(G[1].Spans->Layout.size(), 1u);
  EXPECT_EQ(G[1].Spans->Layout[0].first, "ldb");
  EXPECT_EQ(G[0].Spans->Positive, (std::vector<unsigned>{1, 2, 3}));
  // Without a parameter behind every size: no span.
  const auto &P = S["padded_ld"].Buffers;
  ASSERT_EQ(P.size(), 3u);
  EXPECT_FALSE(P[0].Spans); // A at lda = padded(m)
  EXPECT_TRUE(P[1].Spans);  // A again, at lda = m
  // A parameter changed before the call: in terms of its value on entry.
  ASSERT_EQ(S["changed"].Buffers.size(), 1u);
  ASSERT_TRUE(S["changed"].Buffers[0].Spans);
  EXPECT_EQ(Elements(S["changed"].Buffers[0], 3, 0, 0), 6);
  // The type the function declares.
  const auto &H = S["gemm_half"].Buffers;
  ASSERT_EQ(H.size(), 3u);
  EXPECT_EQ(H[0].DataType, "CUDA_R_16F");
  EXPECT_EQ(H[2].DataType, "CUDA_R_32F");
  EXPECT_EQ(H[0].Spans->ElementBytes, 2u);
}

// A leading dimension written the LAPACK way, `std::max(1, m)`: the span
// is in terms of m.
TEST(SummariesTest, LeadingDimensionsOfAtLeastOne) {
  auto S = summariesOf(R"(#include <algorithm>
void gemv(cublasHandle_t h, int m, int n, const float *A, const float *x,
          float *y) {
  const float one = 1, zero = 0;
  int lda = std::max(1, m);
  cublasSgemv(h, CUBLAS_OP_N, m, n, &one, A, lda, x, 1, &zero, y, 1);
}
)");
  const auto &G = S["gemv"].Buffers;
  ASSERT_EQ(G.size(), 3u);
  ASSERT_TRUE(G[0].Spans);
  EXPECT_EQ(G[0].Spans->Operand, "A");
  auto At = [](unsigned I) -> std::optional<SymExpr> {
    return I == 1   ? std::optional(SymExpr::constant(64))
           : I == 2 ? std::optional(SymExpr::constant(32))
                    : std::nullopt;
  };
  std::optional<SymExpr> A = G[0].Spans->Elements.bind(At);
  ASSERT_TRUE(A);
  EXPECT_EQ(A->getConstant(), 64 * 32);
}

// A strided batch whose stride the function computes from its sizes: the
// last element of C is m * n * batch, a product of three parameters.
TEST(SummariesTest, StridedBatchSpansAreProductsOfThree) {
  auto S = summariesOf(R"(
void bgemm(cublasHandle_t h, int m, int n, int k, int batch, const float *A,
           const float *B, float *C) {
  const float one = 1, zero = 0;
  long long sa = (long long)m * k, sb = (long long)k * n, sc = (long long)m * n;
  cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, A, m,
                            sa, B, k, sb, &zero, C, m, sc, batch);
}
)");
  const auto &G = S["bgemm"].Buffers;
  ASSERT_EQ(G.size(), 3u);
  ASSERT_TRUE(G[2].Spans);
  EXPECT_EQ(G[2].Spans->Operand, "C");
  EXPECT_EQ(G[2].Spans->Elements, (ParamPolynomial{0, {{1, 2, 1, 4}}}));
  auto At = [](unsigned I) -> std::optional<SymExpr> {
    const int64_t V[] = {0, 3, 5, 7, 4};
    return I >= 1 && I <= 4 ? std::optional(SymExpr::constant(V[I]))
                            : std::nullopt;
  };
  std::optional<SymExpr> A = G[0].Spans->Elements.bind(At);
  ASSERT_TRUE(A);
  EXPECT_EQ(A->getConstant(), 3 * 7 * 4); // m * k * batch
  std::optional<SymExpr> C = G[2].Spans->Elements.bind(At);
  ASSERT_TRUE(C);
  EXPECT_EQ(C->getConstant(), 3 * 5 * 4);
}

// A flag the function only compares with constants in a conditional that
// picks a value gives one span per value (and one for every other value);
// the span at a call is the case of the caller's constant. A flag that an
// `if` tests, or that does not change the span, makes no cases.
TEST(SummariesTest, SpansPerFlagValue) {
  auto S = summariesOf(R"(
enum Trans { NoTrans = 111, Transposed = 112 };
void gemm(cublasHandle_t h, Trans ta, int m, int n, int k, const float *A,
          const float *B, float *C) {
  const float one = 1, zero = 0;
  int lda = (ta == NoTrans) ? k : m;
  cublasOperation_t op = (ta == NoTrans) ? CUBLAS_OP_N : CUBLAS_OP_T;
  cublasSgemm(h, CUBLAS_OP_N, op, n, m, k, &one, B, n, A, lda, &zero, C, n);
}
void guarded(cublasHandle_t h, int ta, int m, int k, const float *A) {
  const float one = 1;
  int lda = (ta == 0) ? k : m;
  if (ta == 0)
    cublasSscal(h, m * k, &one, (float *)A, 1);
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, m, k, &one, A, lda, A, k, &one,
              (float *)A, m);
}
)");
  const auto &G = S["gemm"].Buffers;
  ASSERT_EQ(G.size(), 3u);
  EXPECT_FALSE(G[1].Spans); // A
  ASSERT_EQ(G[1].Flags.size(), 1u);
  EXPECT_EQ(G[1].Flags[0].Param, 1u);
  EXPECT_EQ(G[1].Flags[0].Values, (std::vector<int64_t>{111}));
  EXPECT_EQ(G[1].Cases.size(), 2u);
  EXPECT_TRUE(G[0].Spans && G[0].Flags.empty()); // B: no flag matters
  auto At = [](int64_t Ta, int64_t M, int64_t N, int64_t K) {
    return [=](unsigned I) -> std::optional<SymExpr> {
      switch (I) {
      case 1: return SymExpr::constant(Ta);
      case 2: return SymExpr::constant(M);
      case 3: return SymExpr::constant(N);
      case 4: return SymExpr::constant(K);
      }
      return std::nullopt;
    };
  };
  auto Elements = [&](int64_t Ta) -> int64_t {
    const auto *Span = spanAtCall(G[1], At(Ta, 4, 5, 6));
    std::optional<SymExpr> V =
        Span ? Span->Elements.bind(At(Ta, 4, 5, 6)) : std::nullopt;
    return V ? V->getConstant().value_or(-1) : -1;
  };
  EXPECT_EQ(Elements(111), 4 * 6); // m x k at lda = k
  EXPECT_EQ(Elements(112), 6 * 4); // k x m at lda = m
  EXPECT_EQ(Elements(7), 6 * 4);   // any other value: transposed too
  EXPECT_FALSE(spanAtCall(G[1], [](unsigned) { return std::nullopt; }));
  // The flag an `if` tests decides what runs: no cases.
  const auto &Guarded = S["guarded"].Buffers;
  ASSERT_FALSE(Guarded.empty());
  EXPECT_TRUE(Guarded[0].Cases.empty());
  // The cases survive the store.
  FunctionSummary Back = *FunctionSummary::fromJson(S["gemm"].toJson());
  EXPECT_EQ(Back.Buffers, G);
}

TEST(SummariesTest, ExternCFunctionsAreKeyedByTheirName) {
  auto S = summariesOf(R"(
extern "C" void release(cublasHandle_t h) { cublasDestroy(h); }
)");
  EXPECT_EQ(S["release"].Key, "release");
}

TEST(SummariesTest, JsonRoundTrip) {
  FunctionSummary S = summary("_Z1fv", "/p/a.cpp", 3);
  S.Status = FunctionSummary::StatusRole::Wrapper;
  S.Wrapped = "cublasSgemm";
  S.WrappedLine = 5;
  S.Handles = {{0, FunctionSummary::HandleEffect::Keeps},
               {2, FunctionSummary::HandleEffect::Destroys}};
  S.Buffers = {{1,
                "cublasSgemm_v2",
                "cublasSgemm",
                7,
                5,
                std::nullopt,
                "",
                {},
                {},
                "",
                ""},
               {2,
                "cublasGemmEx",
                "cublasGemmEx",
                8,
                6,
                std::nullopt,
                "",
                {},
                {},
                "",
                ""}};
  FunctionSummary::BufferParam::Span Span;
  Span.Operand = "A";
  Span.ElementBytes = 2;
  Span.Plural = "__half values";
  Span.Elements = {-1, {{3, 4, 2}, {3, -1, 1}, {3, 4, 1, 5}}};
  Span.Layout = {{"lda", {0, {{3, -1, 1}}}}};
  Span.Positive = {3, 4};
  S.Buffers[1].Spans = Span;
  S.Buffers[1].DataType = "CUDA_R_16F";
  S.Buffers[0].CallFile = "/p/c.cpp";
  S.Buffers[0].Through = "gemmRaw";
  S.PerCall = {{true, "cublasLtCreate", 9, "", ""},
               {false, "cublasCreate", 4, "/p/c.cpp", "makeAndDrop"}};
  S.WrappedFile = "/p/b.cpp";
  S.Predicate = StatusPredicate::TrueIsFailure;
  S.ReleasedGlobals = {{"g_blas", 0}, {"g_lt", 1}};
  std::optional<FunctionSummary> Back = FunctionSummary::fromJson(S.toJson());
  ASSERT_TRUE(Back);
  EXPECT_EQ(*Back, S);
  // What does not parse is no summary.
  EXPECT_FALSE(FunctionSummary::fromJson(llvm::json::Object{{"key", "x"}}));
  llvm::json::Value Bad = S.toJson();
  (*Bad.getAsObject())["status"] = "maybe";
  EXPECT_FALSE(FunctionSummary::fromJson(Bad));
}

TEST(SummariesTest, TwoDefinitionsMakeAKeyAmbiguous) {
  SummaryStore Store;
  Store.add(summary("f", "/p/a.cpp", 3));
  Store.add(summary("f", "/p/a.cpp", 3)); // the same definition again
  ASSERT_NE(Store.find("f"), nullptr);
  Store.add(summary("f", "/p/b.cpp", 3));
  EXPECT_EQ(Store.find("f"), nullptr);
  Store.add(summary("f", "/p/a.cpp", 3)); // stays ambiguous
  EXPECT_EQ(Store.find("f"), nullptr);
  EXPECT_EQ(Store.size(), 0u);
  EXPECT_EQ(Store.ambiguous(), 1u);
  // Summaries that say nothing are not kept.
  FunctionSummary Empty = summary("g", "/p/a.cpp", 9);
  Empty.Status = FunctionSummary::StatusRole::Unknown;
  Store.add(Empty);
  EXPECT_EQ(Store.find("g"), nullptr);
}

TEST(SummariesTest, StoreTextRoundTripAndVersion) {
  SummaryStore Store;
  Store.add(summary("f", "/p/a.cpp", 3));
  Store.add(summary("g", "/p/a.cpp", 4));
  Store.add(summary("g", "/p/b.cpp", 4));
  std::string Text = Store.toText("tool 1");
  llvm::Expected<SummaryStore> Back = SummaryStore::fromText(Text, "tool 1");
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  ASSERT_NE(Back->find("f"), nullptr);
  EXPECT_EQ(*Back->find("f"), *Store.find("f"));
  EXPECT_EQ(Back->find("g"), nullptr);
  EXPECT_EQ(Back->ambiguous(), 1u);
  llvm::Expected<SummaryStore> Other = SummaryStore::fromText(Text, "tool 2");
  ASSERT_FALSE(bool(Other));
  EXPECT_NE(llvm::toString(Other.takeError()).find("another build"),
            std::string::npos);
  llvm::Expected<SummaryStore> Broken =
      SummaryStore::fromText("{\"tool\": \"tool 1\"}", "tool 1");
  EXPECT_FALSE(bool(Broken));
  llvm::consumeError(Broken.takeError());
}

TEST(SummariesTest, DigestCoversOnlyTheKeysAsked) {
  SummaryStore A, B;
  A.add(summary("f", "/p/a.cpp", 3));
  B.add(summary("f", "/p/a.cpp", 3));
  B.add(summary("g", "/p/a.cpp", 4));
  EXPECT_EQ(A.digest({"f"}), B.digest({"f"}));
  EXPECT_EQ(A.digest({"f", "f"}), B.digest({"f"}));
  EXPECT_NE(A.digest({"f", "g"}), B.digest({"f", "g"}));
  FunctionSummary Changed = summary("f", "/p/a.cpp", 3);
  Changed.Status = FunctionSummary::StatusRole::Wrapper;
  SummaryStore C;
  C.add(Changed);
  EXPECT_NE(A.digest({"f"}), C.digest({"f"}));
}

// A file's routes of exceptions: through JSON and the store's text, found
// by the function they route, and digested under `catch:KEY`: a route of
// another function changes nothing of it.
TEST(SummariesTest, FileSummariesRouteExceptions) {
  FileSummary App{"/p/app.cpp", "h1", {}};
  App.Exceptions.push_back({"_Z3libv", {}, 12, "serve", false});
  App.Exceptions.push_back({"_Z4stepv", {"_Z3runv", "_Z5serveiv"}, 0, "", false});
  App.Exceptions.push_back({"_Z6scaleOpv", {}, 40, "", true});
  std::optional<FileSummary> Back = FileSummary::fromJson(App.toJson());
  ASSERT_TRUE(Back);
  EXPECT_EQ(*Back, App);
  ASSERT_TRUE(App.routeOf("_Z4stepv"));
  EXPECT_EQ(App.routeOf("_Z4stepv")->Through.size(), 2u);
  EXPECT_FALSE(App.routeOf("_Z5otherv"));
  EXPECT_FALSE(FileSummary::fromJson(llvm::json::Object{{"file", "/p/x.cpp"}}));

  SummaryStore Store;
  Store.add(summary("f", "/p/a.cpp", 3));
  Store.add(App);
  Store.add(FileSummary{"/p/mid.cpp", "h2", {{"_Z3libv", {"_Z5relayv"}, 0, "", false}}});
  Store.add(FileSummary{"/p/empty.cpp", "h3", {}});
  std::vector<const FileSummary *> Lib = Store.routesOf("_Z3libv");
  ASSERT_EQ(Lib.size(), 2u);
  EXPECT_EQ(Lib[0]->File, "/p/app.cpp");
  EXPECT_EQ(Lib[1]->File, "/p/mid.cpp");
  EXPECT_TRUE(Store.routesOf("_Z5otherv").empty());
  // File summaries are not function summaries.
  EXPECT_EQ(Store.size(), 1u);

  llvm::Expected<SummaryStore> Read =
      SummaryStore::fromText(Store.toText("tool 1"), "tool 1");
  ASSERT_TRUE(bool(Read)) << llvm::toString(Read.takeError());
  ASSERT_EQ(Read->routesOf("_Z3libv").size(), 2u);
  EXPECT_EQ(*Read->routesOf("_Z6scaleOpv")[0], App);

  std::string Before = Store.digest({"catch:_Z3libv"});
  EXPECT_EQ(Before, Read->digest({"catch:_Z3libv"}));
  FileSummary Changed = App;
  Changed.Exceptions[1].Through.pop_back();
  SummaryStore Other = Store;
  Other.add(Changed); // replaces app.cpp's summary
  EXPECT_EQ(Before, Other.digest({"catch:_Z3libv"}));
  EXPECT_NE(Store.digest({"catch:_Z4stepv"}), Other.digest({"catch:_Z4stepv"}));
  Changed.Exceptions[0].CaughtLine = 13;
  Other.add(Changed);
  EXPECT_NE(Before, Other.digest({"catch:_Z3libv"}));
  // A file whose summary is empty now routes nothing.
  Other.add(FileSummary{"/p/app.cpp", "h4", {}});
  EXPECT_EQ(Other.routesOf("_Z3libv").size(), 1u);
}

TEST(SummariesTest, GlobalsDestroyedAndTheirDigest) {
  auto S = summariesOf(R"(
cublasHandle_t g_handle;
static cublasHandle_t g_local;
namespace ctx { cublasHandle_t handle; }
void shutdown() {
  cublasDestroy(g_handle);
  cublasDestroy(g_local);   // internal linkage: no other unit names it
  cublasDestroy(ctx::handle);
}
void use() { cublasSetStream(g_handle, nullptr); }
)");
  EXPECT_EQ(S["shutdown"].DestroyedGlobals,
            (std::vector<std::string>{"_ZN3ctx6handleE", "g_handle"}));
  EXPECT_FALSE(S.count("use"));
  // A question about a global is answered by the functions that destroy
  // it: one more changes the digest, one that destroys another does not.
  SummaryStore A, B, C;
  FunctionSummary D = summary("d", "/p/a.cpp", 3);
  D.DestroyedGlobals = {"g"};
  FunctionSummary E = summary("e", "/p/b.cpp", 3);
  E.DestroyedGlobals = {"h"};
  A.add(summary("f", "/p/a.cpp", 9));
  B.add(D);
  C.add(E);
  EXPECT_NE(A.digest({"global:g"}), B.digest({"global:g"}));
  EXPECT_EQ(A.digest({"global:g"}), C.digest({"global:g"}));
  ASSERT_EQ(B.destroyersOf("g").size(), 1u);
  EXPECT_EQ(B.destroyersOf("g")[0]->Key, "d");
  D.CreatedGlobals = {{"g2", "g2", "handle", 7}};
  D.PerDeviceGlobals = {{"g3", "g3", 11}};
  D.TouchedMembers = std::vector<std::string>{"ns::Ctx::handle_"};
  // The creators of a per-device array are a key of their own.
  SummaryStore P;
  P.add(D);
  EXPECT_NE(A.digest({"perdevice:g3"}), P.digest({"perdevice:g3"}));
  ASSERT_EQ(P.perDeviceCreatorsOf("g3").size(), 1u);
  EXPECT_TRUE(P.perDeviceCreatorsOf("g2").empty());
  std::optional<FunctionSummary> Back = FunctionSummary::fromJson(D.toJson());
  ASSERT_TRUE(Back);
  EXPECT_EQ(*Back, D);
}

TEST(SummariesTest, MembersTouchedByMemberFunctions) {
  auto S = summariesOf(R"(
struct Ctx {
  Ctx();
  ~Ctx();
  void use(float *x);
  cublasHandle_t get();
  cublasHandle_t h_;
  int n_ = 0;
};
Ctx::~Ctx() { cublasDestroy(h_); }
void Ctx::use(float *x) { const float a = 2; cublasSscal(h_, n_, &a, x, 1); }
cublasHandle_t Ctx::get() { return h_; }
struct Plain { void f(); int n; };
void Plain::f() { n = 1; }
)");
  ASSERT_TRUE(S["Ctx::~Ctx"].TouchedMembers);
  EXPECT_EQ(*S["Ctx::~Ctx"].TouchedMembers, std::vector<std::string>{"Ctx::h_"});
  EXPECT_EQ(S["Ctx::~Ctx"].Key, "_ZN3CtxD1Ev");
  ASSERT_TRUE(S["Ctx::use"].TouchedMembers);
  EXPECT_TRUE(S["Ctx::use"].TouchedMembers->empty()); // handed to cuBLAS
  ASSERT_TRUE(S["Ctx::get"].TouchedMembers);
  EXPECT_EQ(*S["Ctx::get"].TouchedMembers, std::vector<std::string>{"Ctx::h_"});
  EXPECT_FALSE(S.count("Plain::f")); // no handle member: nothing to say
}

TEST(SummariesTest, GlobalsCreatedOnEveryCall) {
  auto S = summariesOf(R"(
#include <cuda_runtime_api.h>
cublasHandle_t g_open, g_guarded, g_closed, g_copied;
cublasHandle_t saved;
void open() { cublasCreate(&g_open); }
void guarded() { if (!g_guarded) cublasCreate(&g_guarded); }
void closed() { cublasCreate(&g_closed); }
void close() { cublasDestroy(g_closed); }
void copied() { cublasCreate(&g_copied); saved = g_copied; }
void onDevice(int d, cublasHandle_t old) {
  cublasDestroy(old);
  cudaSetDevice(d);
  cublasCreate(&g_open);
}
)");
  ASSERT_EQ(S["open"].CreatedGlobals.size(), 1u);
  EXPECT_EQ(S["open"].CreatedGlobals[0].Key, "g_open");
  EXPECT_EQ(S["open"].CreatedGlobals[0].Noun, "handle");
  EXPECT_EQ(S["open"].CreatedGlobals[0].Line, S["open"].Line);
  ASSERT_TRUE(S.count("onDevice")); // for what it does to `old`
  // Guarded, destroyed in the unit, copied, or one per device: none.
  EXPECT_TRUE(S["guarded"].CreatedGlobals.empty());
  EXPECT_TRUE(S["closed"].CreatedGlobals.empty());
  EXPECT_TRUE(S["copied"].CreatedGlobals.empty());
  EXPECT_TRUE(S["onDevice"].CreatedGlobals.empty());
}

// An array of handles created one per device, each while the device of its
// index is current, is said by the function that creates it; not one
// created on whatever device is current, nor a local array.
TEST(SummariesTest, GlobalsCreatedPerDevice) {
  auto S = summariesOf(R"(
#include <cuda_runtime_api.h>
cublasHandle_t g_dev[8], g_any[8];
static cublasHandle_t s_dev[8];
void init(int n) {
  for (int d = 0; d < n; ++d) {
    cudaSetDevice(d);
    cublasCreate(&g_dev[d]);
    cublasCreate(&s_dev[d]);
  }
}
void anywhere(int n) {
  for (int d = 0; d < n; ++d)
    cublasCreate(&g_any[d]);
}
void local(int n) {
  cublasHandle_t h[8];
  for (int d = 0; d < n; ++d) {
    cudaSetDevice(d);
    cublasCreate(&h[d]);
  }
}
)");
  ASSERT_EQ(S["init"].PerDeviceGlobals.size(), 1u);
  EXPECT_EQ(S["init"].PerDeviceGlobals[0].Name, "g_dev");
  EXPECT_EQ(S["init"].PerDeviceGlobals[0].Line, S["init"].Line + 3);
  EXPECT_TRUE(S["anywhere"].PerDeviceGlobals.empty());
  EXPECT_TRUE(S["local"].PerDeviceGlobals.empty());
}

/// The unit that calls: `check` and `done` are only declared here.
const char Caller[] = R"(
cublasStatus_t check(cublasStatus_t s);
void done(cublasHandle_t h);
void use(float *x) {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return;
  done(h);
}
)";

TEST(SummariesTest, TheAnalysesAskTheStoreAndSayWhatTheyAsked) {
  std::unique_ptr<ASTUnit> AST = test::buildAST(std::string(Prelude) + Caller);
  ASSERT_TRUE(AST);
  const FunctionDecl *Check = declared(*AST, "check");
  const FunctionDecl *Use = test::functionNamed(*AST, "use");
  ResourceTable Table = ResourceTable::fromApiModel();

  // Without a store: unknown, and the handle escapes into `done`.
  {
    std::vector<std::string> Asked;
    ProjectFactsScope Scope(nullptr, &Asked);
    EXPECT_EQ(statusFunctionFacts(Check).Role, StatusFunctionFacts::Unknown);
    HandleAnalyzer Analyzer(AST->getASTContext(), Table);
    HandleAnalysisResult R = Analyzer.analyze(Use);
    EXPECT_TRUE(R.Completed);
    EXPECT_TRUE(R.Leaks.empty());
    EXPECT_NE(std::find(Asked.begin(), Asked.end(),
                        "_Z4doneP13cublasContext"),
              Asked.end());
  }
}

TEST(SummariesTest, AKeptHandleLeaksAtTheCaller) {
  for (auto Effect : {FunctionSummary::HandleEffect::Keeps,
                      FunctionSummary::HandleEffect::Destroys}) {
    std::unique_ptr<ASTUnit> AST =
        test::buildAST(std::string(Prelude) + Caller);
    ASSERT_TRUE(AST);
    SummaryStore Store;
    FunctionSummary Done = summary("_Z4doneP13cublasContext", "/p/d.cpp", 1);
    Done.Status = FunctionSummary::StatusRole::Unknown;
    Done.Handles = {{0, Effect}};
    Store.add(Done);
    FunctionSummary Check =
        summary("_Z5check14cublasStatus_t", "/p/d.cpp", 2);
    Store.add(Check);
    ProjectFactsScope Scope(&Store, nullptr);
    EXPECT_EQ(statusFunctionFacts(declared(*AST, "check")).Role,
              StatusFunctionFacts::Checker);
    ResourceTable Table = ResourceTable::fromApiModel();
    HandleAnalyzer Analyzer(AST->getASTContext(), Table);
    HandleAnalysisResult R =
        Analyzer.analyze(test::functionNamed(*AST, "use"));
    EXPECT_TRUE(R.Completed);
    EXPECT_EQ(R.Leaks.size(),
              Effect == FunctionSummary::HandleEffect::Keeps ? 1u : 0u);
  }
}

// The summaries of a unit analysed with the store: a function that gives
// its handle or its buffer to a function of another file says what that
// function does with it, in its own parameters.
TEST(SummariesTest, SummariesMadeWithTheStoreFollowAFunctionOfAThirdFile) {
  std::unique_ptr<ASTUnit> AST = test::buildAST(std::string(Prelude) + R"(
void destroyHandle(cublasHandle_t h);
void gemmRaw(cublasHandle_t h, int op, int m, int n, int k, const float *A,
             float *C);
void shutdown(cublasHandle_t h) { destroyHandle(h); }
void gemm(cublasHandle_t h, int op, int rows, int cols, const float *A,
          float *C) {
  gemmRaw(h, op, rows, cols, 2 * rows, A, C);
}
void gemmT(cublasHandle_t h, int rows, const float *A, float *C) {
  gemmRaw(h, 1, rows, rows, rows, A, C);
}
void gemmComputed(cublasHandle_t h, int rows, const float *A, float *C) {
  int k = rows > 8 ? rows : 8;
  gemmRaw(h, 0, rows, rows, k, A, C);
}
)");
  ASSERT_TRUE(AST);
  SummaryStore Store;
  FunctionSummary Destroy =
      summary("_Z13destroyHandleP13cublasContext", "/p/c.cpp", 1);
  Destroy.Status = FunctionSummary::StatusRole::Unknown;
  Destroy.Handles = {{0, FunctionSummary::HandleEffect::Destroys}};
  Store.add(Destroy);
  // gemmRaw(h, op, m, n, k, A, C): A spans m*k elements for op 0 (lda = m)
  // and k*m + ... for op 1; C spans m*n at ldc = m.
  FunctionSummary Raw =
      summary("_Z7gemmRawP13cublasContextiiiiPKfPf", "/p/c.cpp", 5);
  Raw.Name = "gemmRaw";
  Raw.Status = FunctionSummary::StatusRole::Unknown;
  FunctionSummary::BufferParam::Span AN, AT, C;
  AN.Operand = AT.Operand = "A";
  C.Operand = "C";
  AN.ElementBytes = AT.ElementBytes = C.ElementBytes = 4;
  AN.Plural = AT.Plural = C.Plural = "floats";
  AN.Elements = {0, {{2, 4, 1}}}; // m*k
  AT.Elements = {1, {{4, 2, 1}}}; // k*m + 1
  AN.Layout = {{"lda", {0, {{2, -1, 1}}}}};
  C.Elements = {0, {{2, 3, 1}}}; // m*n
  AN.Positive = AT.Positive = C.Positive = {2, 3, 4};
  FunctionSummary::BufferParam BA{
      5, "cublasSgemm_v2", "cublasSgemm", 7, 9, std::nullopt, "", {}, {}, "",
      ""};
  BA.Flags = {{1, {0, 1}, 2}};
  BA.Cases = {{{0}, AN}, {{1}, AT}};
  FunctionSummary::BufferParam BC{
      6, "cublasSgemm_v2", "cublasSgemm", 12, 9, C, "", {}, {}, "", ""};
  Raw.Buffers = {BA, BC};
  Store.add(Raw);

  std::vector<std::string> Asked;
  ProjectFactsScope Scope(&Store, &Asked);
  std::map<std::string, FunctionSummary> S;
  for (FunctionSummary &F :
       summarizeFunctions(test::definedFunctions(*AST), AST->getASTContext()))
    S[F.Name] = F;
  EXPECT_NE(llvm::find(Asked, Raw.Key), Asked.end());

  ASSERT_TRUE(S.count("shutdown"));
  EXPECT_EQ(S["shutdown"].handleEffect(0),
            FunctionSummary::HandleEffect::Destroys);

  // gemm passes its flag on: its cases, in its own parameters (rows is
  // parameter 2, k = 2 * rows).
  ASSERT_TRUE(S.count("gemm"));
  ASSERT_EQ(S["gemm"].Buffers.size(), 2u);
  const FunctionSummary::BufferParam &A = S["gemm"].Buffers[0];
  EXPECT_EQ(A.Index, 4u);
  EXPECT_EQ(A.CallFile, "/p/c.cpp");
  EXPECT_EQ(A.Through, "gemmRaw");
  EXPECT_EQ(A.Line, 9u);
  ASSERT_EQ(A.Flags.size(), 1u);
  EXPECT_EQ(A.Flags[0].Param, 1u);
  ASSERT_EQ(A.Cases.size(), 2u);
  EXPECT_EQ(A.Cases[0].S.Elements, (ParamPolynomial{0, {{2, 2, 2}}}));
  EXPECT_EQ(A.Cases[1].S.Elements, (ParamPolynomial{1, {{2, 2, 2}}}));
  EXPECT_EQ(A.Cases[0].S.Layout.size(), 1u);
  const FunctionSummary::BufferParam &CC = S["gemm"].Buffers[1];
  ASSERT_TRUE(CC.Spans);
  EXPECT_EQ(CC.Spans->Elements, (ParamPolynomial{0, {{2, 3, 1}}}));
  EXPECT_EQ(CC.Spans->Positive, (std::vector<unsigned>{2, 3}));

  // A constant flag picks its case.
  ASSERT_TRUE(S.count("gemmT"));
  ASSERT_TRUE(S["gemmT"].Buffers[0].Spans);
  EXPECT_TRUE(S["gemmT"].Buffers[0].Flags.empty());
  EXPECT_EQ(S["gemmT"].Buffers[0].Spans->Elements,
            (ParamPolynomial{1, {{1, 1, 1}}}));

  // A size the function computes is no polynomial of its parameters: the
  // buffer is known, its span not.
  ASSERT_TRUE(S.count("gemmComputed"));
  EXPECT_FALSE(S["gemmComputed"].Buffers[0].Spans);
  EXPECT_TRUE(S["gemmComputed"].Buffers[0].Cases.empty());
  EXPECT_TRUE(S["gemmComputed"].Buffers[1].Spans);
}

} // namespace
