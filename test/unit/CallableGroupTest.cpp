//===- CallableGroupTest.cpp - The callables matched once for every check -===//

#include "CallableGroup.h"
#include "TestAST.h"

#include "clang/AST/DeclCXX.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace clang;
using namespace clang::ast_matchers;
using clang::tidy::cublas::CallableGroup;

namespace {

std::string nameOf(const Decl *D) {
  const auto *ND = dyn_cast<NamedDecl>(D);
  return ND ? ND->getQualifiedNameAsString() : "?";
}

const char *const Code = R"(
  #include <algorithm>
  #include <vector>
  #include <cublas_v2.h>
  template <typename T> T twice(T x) { return [](T y) { return y * 2; }(x); }
  struct S { int get() const { return 1; } };
  int user(std::vector<int> &xs) {
    std::sort(xs.begin(), xs.end(), [](int a, int b) { return a > b; });
    return twice(2) + S().get();
  }
)";

TEST(CallableGroup, ChecksOfOneFinderShareOneGroup) {
  size_t Before = CallableGroup::liveGroups();
  int A = 0, B = 0;
  {
    MatchFinder Finder;
    CallableGroup *G1 = CallableGroup::join(&Finder, &A);
    CallableGroup *G2 = CallableGroup::join(&Finder, &B);
    EXPECT_EQ(G1, G2);
    EXPECT_EQ(CallableGroup::liveGroups(), Before + 1);

    auto AST = cublas_tidy::test::buildAST(Code);
    ASSERT_TRUE(AST);
    ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
    Finder.matchAST(AST->getASTContext());
    std::vector<std::string> Names;
    for (const Decl *D : G1->callables())
      Names.push_back(nameOf(D));
    // User code only (nothing of <algorithm> or the CUDA headers), each
    // callable once: the template and its instantiation, the lambdas'
    // call operators, S::get.
    auto Count = [&](const std::string &N) {
      return std::count(Names.begin(), Names.end(), N);
    };
    EXPECT_EQ(Count("twice"), 2);
    EXPECT_EQ(Count("user"), 1);
    EXPECT_EQ(Count("S::get"), 1);
    size_t Lambdas = 0;
    for (const Decl *D : G1->callables())
      if (const auto *M = dyn_cast<CXXMethodDecl>(D))
        Lambdas += M->getParent()->isLambda() && M->getOverloadedOperator() == OO_Call;
    EXPECT_EQ(Lambdas, 3u); // in twice, twice<int> and user
    const SourceManager &SM = AST->getSourceManager();
    for (const Decl *D : G1->callables())
      EXPECT_FALSE(SM.isInSystemHeader(SM.getExpansionLoc(D->getBeginLoc())))
          << nameOf(D);

    // A second unit starts afresh.
    Finder.matchAST(AST->getASTContext());
    EXPECT_EQ(G1->callables().size(), Names.size());

    G1->leave(&A);
    EXPECT_EQ(CallableGroup::liveGroups(), Before + 1);
    G2->leave(&B);
    EXPECT_EQ(CallableGroup::liveGroups(), Before);
  }
}

TEST(CallableGroup, AFinderAtAReusedAddressGetsAGroupOfItsOwn) {
  // A finder and its checks go together; a later finder in the same place
  // must register the matchers again, or its checks would see nothing.
  auto AST = cublas_tidy::test::buildAST(Code);
  ASSERT_TRUE(AST);
  int Member = 0;
  std::optional<MatchFinder> Slot;
  for (int Round = 0; Round < 2; ++Round) {
    Slot.emplace();
    CallableGroup *G = CallableGroup::join(&*Slot, &Member);
    Slot->matchAST(AST->getASTContext());
    EXPECT_GT(G->callables().size(), 5u) << "round " << Round;
    G->leave(&Member);
    Slot.reset();
  }
}

} // namespace
