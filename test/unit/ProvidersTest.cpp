//===- ProvidersTest.cpp - Which units define what others call -----------===//

#include "Providers.h"

#include "gtest/gtest.h"

using namespace cublas_tidy;

namespace {

TEST(ProvidersTest, DefinitionsAndMentions) {
  NamesInText N = namesIn(R"(
#include "x.h"
// checkBlas(a) { in a comment }
static const char *s = "gemm(x) {";
cublasStatus_t checkBlas(cublasStatus_t s) { if (s) { report(s); } return s; }
int Widget::size() const noexcept { return n; }
void run() {
  for (int i = 0; i < 3; ++i) { gemm(h); }
  while (ok(i)) {}
  auto f = [](int a) { return a; };
}
)");
  EXPECT_EQ(N.Defined, (std::set<std::string>{"checkBlas", "run", "size"}));
  EXPECT_TRUE(N.Mentioned.count("gemm"));
  EXPECT_TRUE(N.Mentioned.count("report"));
  EXPECT_TRUE(N.Mentioned.count("ok"));
  // Keywords followed by a body, names in comments and strings.
  EXPECT_FALSE(N.Defined.count("for"));
  EXPECT_FALSE(N.Defined.count("while"));
  EXPECT_FALSE(N.Defined.count("gemm"));
  // What a unit defines is not what it mentions.
  EXPECT_FALSE(N.Mentioned.count("checkBlas"));
}

TEST(ProvidersTest, AUnitProvidesWhatAnotherCalls) {
  std::vector<NamesInText> Units = {
      namesIn("cublasStatus_t checkBlas(cublasStatus_t s) { return s; }"),
      namesIn("int scale(int x) { return checkBlas(x); }"),
      // Defines scale too, and calls its own: no provider of the other.
      namesIn("static int scale(int x) { return x; } int g() { return scale(1); }"),
      namesIn("void unused() {}"),
  };
  std::vector<bool> P = providers(Units);
  EXPECT_EQ(P, (std::vector<bool>{true, false, false, false}));
}

TEST(ProvidersTest, UnbalancedTextEnds) {
  NamesInText N = namesIn("void f(int a { /* unterminated");
  EXPECT_TRUE(N.Defined.empty());
  N = namesIn("\"unterminated");
  EXPECT_TRUE(N.Defined.empty());
}

} // namespace
