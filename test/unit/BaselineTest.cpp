//===- BaselineTest.cpp - Which findings a baseline accepts ---------------===//

#include "Baseline.h"
#include "Findings.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace cublas_tidy;

namespace {

Finding finding(std::string Check, std::string Message, unsigned Line,
                std::string Text, std::string File = "/repo/a.cpp") {
  Finding F;
  F.Check = std::move(Check);
  F.Message = std::move(Message);
  F.Where.File = std::move(File);
  F.Where.Line = Line;
  F.Where.LineText = std::move(Text);
  return F;
}

const char *Leak = "cublas-handle-leak";

Finding leakOf(std::string Name, unsigned Line = 5) {
  return finding(Leak,
                 "handle '" + Name + "' created here is never destroyed; "
                 "call 'cublasDestroy' before it goes out of reach",
                 Line, "  if (cublasCreate(&" + Name + ") != 0)");
}

/// The findings of `Head` that a baseline of `Base` does not accept.
std::vector<Finding> newOnes(std::vector<Finding> Base,
                             std::vector<Finding> Head) {
  Baseline::of(Base, "/repo/base").filter(Head);
  return Head;
}

TEST(BaselineTest, MovedCodeKeepsItsFinding) {
  EXPECT_TRUE(newOnes({leakOf("h", 5)}, {leakOf("h", 17)}).empty());
  // Indentation is not the finding.
  Finding Indented = leakOf("h", 9);
  Indented.Where.LineText = "\t\t" + Indented.Where.LineText;
  EXPECT_TRUE(newOnes({leakOf("h")}, {Indented}).empty());
}

TEST(BaselineTest, RenamedVariableKeepsItsFinding) {
  EXPECT_TRUE(newOnes({leakOf("h")}, {leakOf("handle")}).empty());
}

TEST(BaselineTest, ASecondCopyIsNew) {
  std::vector<Finding> New = newOnes({leakOf("h")}, {leakOf("h"), leakOf("g", 9)});
  ASSERT_EQ(New.size(), 1u);
  EXPECT_EQ(New[0].Where.Line, 9u);
}

TEST(BaselineTest, TheSameFindingFirstThenARenamedOne) {
  // Two handles, 'h' unchanged and 'g' renamed to 'k': both old.
  std::vector<Finding> New =
      newOnes({leakOf("g", 5), leakOf("h", 9)}, {leakOf("h", 9), leakOf("k", 5)});
  EXPECT_TRUE(New.empty());
}

Finding in(Finding F, std::string Function, std::string File) {
  F.Function = std::move(Function);
  F.Where.File = std::move(File);
  return F;
}

TEST(BaselineTest, AFunctionMovedToAnotherFileKeepsItsFinding) {
  EXPECT_TRUE(newOnes({in(leakOf("h"), "setup", "/repo/a.cpp")},
                      {in(leakOf("h", 40), "setup", "/repo/b.cpp")})
                  .empty());
  // Renamed on the way.
  EXPECT_TRUE(newOnes({in(leakOf("h"), "setup", "/repo/a.cpp")},
                      {in(leakOf("handle", 40), "setup", "/repo/b.cpp")})
                  .empty());
}

TEST(BaselineTest, TheSameLineInAnotherFunctionOfAnotherFileIsNew) {
  EXPECT_EQ(newOnes({in(leakOf("h"), "setup", "/repo/a.cpp")},
                    {in(leakOf("h"), "other", "/repo/b.cpp")})
                .size(),
            1u);
}

TEST(BaselineTest, ItsOwnFunctionBeforeACopyInItsFile) {
  // The old function moved away; a copy of its line stays in a new
  // function of the old file: the moved one is old, the copy new.
  std::vector<Finding> Left =
      newOnes({in(leakOf("h"), "setup", "/repo/a.cpp")},
              {in(leakOf("h", 9), "fresh", "/repo/a.cpp"),
               in(leakOf("h", 40), "setup", "/repo/b.cpp")});
  ASSERT_EQ(Left.size(), 1u);
  EXPECT_EQ(Left[0].Function, "fresh");
}

TEST(BaselineTest, ARenamedFunctionInItsFileKeepsItsFinding) {
  EXPECT_TRUE(newOnes({in(leakOf("h"), "setup", "/repo/a.cpp")},
                      {in(leakOf("h"), "initialise", "/repo/a.cpp")})
                  .empty());
  // A baseline without functions matches by file.
  EXPECT_TRUE(newOnes({in(leakOf("h"), "", "/repo/a.cpp")},
                      {in(leakOf("h"), "setup", "/repo/a.cpp")})
                  .empty());
  EXPECT_EQ(newOnes({in(leakOf("h"), "", "/repo/a.cpp")},
                    {in(leakOf("h"), "setup", "/repo/b.cpp")})
                .size(),
            1u);
}

TEST(BaselineTest, FingerprintsIgnoreFileLineAndNames) {
  std::string A = Baseline::fingerprint(in(leakOf("h"), "setup", "/repo/a.cpp"));
  EXPECT_EQ(A.size(), 16u);
  EXPECT_EQ(A, Baseline::fingerprint(
                   in(leakOf("handle", 70), "setup", "/repo/b.cpp")));
  EXPECT_NE(A, Baseline::fingerprint(in(leakOf("h"), "other", "/repo/a.cpp")));
}

/// The functions functionBodies() finds, as "name@line" in order.
std::vector<std::string> bodies(llvm::StringRef Text) {
  std::vector<std::string> Out;
  for (const FunctionBody &B : functionBodies(Text))
    Out.push_back(B.Name + "@" +
                  std::to_string(1 + Text.take_front(B.Open).count('\n')));
  llvm::sort(Out);
  return Out;
}

TEST(FunctionBodiesTest, FunctionsNotTheirStatementsOrLambdas) {
  EXPECT_EQ(bodies("void f(int x) const {\n"
                   "  if (x) { g(); } else { h(); }\n"
                   "  auto l = [&](int y) { return y; };\n"
                   "  std::for_each(a, b, [](int) { });\n"
                   "  for (int i = 0; i < n; ++i) {}\n"
                   "}\n"),
            (std::vector<std::string>{"f@1"}));
  EXPECT_EQ(bodies("namespace ns {\nstruct S {\n"
                   "  S() : a(1), b(2) {}\n"
                   "  int get() const { return a; }\n"
                   "};\n}\n"
                   "int ns::S::twice(int v) noexcept {\n  return 2 * v;\n}\n"),
            (std::vector<std::string>{"S@3", "get@4", "ns::S::twice@7"}));
  EXPECT_EQ(bodies("template <typename T>\nT g(T x) {\n  return T{x};\n}\n"
                   "int v = f(Type{1});\n"),
            (std::vector<std::string>{"g@2"}));
}

TEST(FunctionBodiesTest, BracedMemberInitializersAreNotBodies) {
  // The braces of a constructor's member initializers initialize; the body
  // is the brace after them, and its name the constructor's.
  EXPECT_EQ(bodies("struct S {\n"
                   "  S() : h_{}\n  {\n    create();\n  }\n"
                   "  S(int n) : a{n}, b(2), c{n, 1} {}\n"
                   "  Holder(int n)\n      : v_{n} { use(); }\n"
                   "  int h_, a, b, c;\n"
                   "};\n"
                   "S::S(long n) : a{int(n)} {\n}\n"
                   "auto f() -> std::vector<int> {\n  return {};\n}\n"),
            (std::vector<std::string>{"Holder@8", "S::S@11", "S@3", "S@6",
                                      "f@13"}));
  // A long table of braced elements holds no body (the head of each of its
  // braces looks back over at most 64 initializers).
  std::string Table = "void g() {\n  static const A t[] = {";
  for (int I = 0; I < 20000; ++I)
    Table += "A{" + std::to_string(I) + "}, ";
  Table += "};\n}\n";
  EXPECT_EQ(bodies(Table), (std::vector<std::string>{"g@1"}));
}

TEST(FunctionBodiesTest, CommentsStringsAndDirectivesHoldNoBraces) {
  EXPECT_EQ(bodies("// void a() {\n"
                   "/* void b() { */\n"
                   "#define M(x) { x }\n"
                   "void c() {\n"
                   "  const char *s = \"}{\";\n"
                   "  char k = '}';\n"
                   "  int n = 1'000;\n"
                   "}\n"
                   "void d() {}\n"),
            (std::vector<std::string>{"c@4", "d@9"}));
}

TEST(BaselineTest, AnotherMessageIsNew) {
  Finding Path = leakOf("handle");
  Path.Message = "handle 'handle' created here is not destroyed on every path";
  EXPECT_EQ(newOnes({leakOf("h")}, {Path}).size(), 1u);
  // cuBLAS's names are not the program's: another routine is another
  // finding.
  Finding Lt = leakOf("h");
  Lt.Message = "handle 'h' created here is never destroyed; call "
               "'cublasLtDestroy' before it goes out of reach";
  EXPECT_EQ(newOnes({leakOf("h")}, {Lt}).size(), 1u);
  // Another number is another finding.
  Finding Lda = finding("cublas-matrix-extents", "'lda' (8) is less than 'm' (16)",
                        4, "cublasSgemm(h, N, N, m, n, k, &a, A, 8, B, k, &b, C, m);");
  Finding Lda2 = Lda;
  Lda2.Message = "'lda' (12) is less than 'm' (16)";
  EXPECT_EQ(newOnes({Lda}, {Lda2}).size(), 1u);
}

TEST(BaselineTest, AnotherCheckOrFileIsNew) {
  Finding Other = leakOf("h");
  Other.Check = "cublas-handle-per-call";
  EXPECT_EQ(newOnes({leakOf("h")}, {Other}).size(), 1u);
  Finding Moved = leakOf("h");
  Moved.Where.File = "/repo/b.cpp";
  EXPECT_EQ(newOnes({leakOf("h")}, {Moved}).size(), 1u);
}

} // namespace

namespace {

TEST(BaselineTest, EarlierWordingsAreTheCurrentOnes) {
  auto Now = [](const char *Check, const char *Old) {
    return Baseline::currentWording(Check, Old);
  };
  EXPECT_EQ(Now("cublas-unchecked-status",
                "cublasStatus_t returned by 'cublasCreate' is discarded; a "
                "failure here goes unnoticed"),
            "the cublasStatus_t returned by 'cublasCreate' is discarded; a "
            "failure here goes unnoticed");
  EXPECT_EQ(Now("cublas-unchecked-status",
                "status returned by 'gemm_call' is discarded"),
            "the status returned by 'gemm_call' is discarded");
  EXPECT_EQ(Now("cublas-unchecked-status",
                "cudaError_t compared with cublasStatus_t value "
                "'CUBLAS_STATUS_SUCCESS'; cuBLAS"),
            "a cudaError_t compared with the cublasStatus_t value "
            "'CUBLAS_STATUS_SUCCESS'; cuBLAS");
  EXPECT_EQ(Now("cublas-unchecked-status",
                "cublasStatus_t compared with cudaError_t; cuBLAS and CUDA"),
            "a cublasStatus_t compared with a cudaError_t; cuBLAS and CUDA");
  EXPECT_EQ(Now("cublas-handle-per-call",
                "cuBLASLt handle 'lt' is created and destroyed"),
            "the cuBLASLt handle 'lt' is created and destroyed");
  EXPECT_EQ(Now("cublas-data-type",
                "alpha '&alpha' points to '__half' (2 bytes) but"),
            "'&alpha' (alpha) points to '__half' (2 bytes) but");
  EXPECT_EQ(Now("cublas-matrix-extents",
                "lda (n = 128) is smaller than the rows of A (m = 256)"),
            "'lda' (n = 128) is smaller than the rows of A (m = 256)");
  EXPECT_EQ(Now("cublas-matrix-extents",
                "x needs 1001 elements at incx=2 but 'dx' holds 1000 floats"),
            "'x' needs 1001 elements at incx=2 but 'dx' holds 1000 floats");
  // Current words, and words of other checks, stay as they are.
  for (const char *Current :
       {"the cublasStatus_t returned by 'cublasCreate' is discarded",
        "'lda' (n = 128) is smaller than the rows of A (m = 256)",
        "'&alpha' (alpha) points to '__half' (2 bytes) but"})
    for (const char *Check : {"cublas-unchecked-status", "cublas-data-type",
                              "cublas-matrix-extents"})
      EXPECT_EQ(Now(Check, Current), Current);
  EXPECT_EQ(Now("cublas-handle-leak", "handle 'h' created here is never "
                                      "destroyed"),
            "handle 'h' created here is never destroyed");
}

TEST(BaselineTest, ABaselineInEarlierWordsAcceptsTheFindings) {
  llvm::SmallString<128> Path;
  int FD;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("baseline", "json", FD, Path));
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << R"({"version": 1, "tool": "cublas-tidy", "findings": [
      {"check": "cublas-unchecked-status", "file": "a.cpp",
       "message": "cublasStatus_t returned by 'cublasCreate' is discarded",
       "line": "cublasCreate(&h);", "count": 1}]})";
  }
  llvm::Expected<Baseline> B = Baseline::read(Path);
  llvm::sys::fs::remove(Path);
  ASSERT_TRUE(bool(B)) << llvm::toString(B.takeError());
  llvm::SmallString<128> File(Path);
  llvm::sys::path::remove_filename(File);
  llvm::sys::path::append(File, "a.cpp");
  std::vector<Finding> Head = {
      finding("cublas-unchecked-status",
              "the cublasStatus_t returned by 'cublasCreate' is discarded", 3,
              "  cublasCreate(&h);", std::string(File))};
  EXPECT_EQ(B->filter(Head), 1u);
}

} // namespace
