//===- DefinitionsTest.cpp - The definitions of a function's locals -------===//

#include "facts/Definitions.h"
#include "ast/Callables.h"
#include "TestAST.h"

#include "clang/ASTMatchers/ASTMatchers.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace cublas_tidy;

namespace {

const char *const Code = R"(
int opaque();
void take(int *);
void use(int);
void f(bool c) {
  int once = 4;
  int twice = 1;
  if (c)
    twice = 2;
  use(twice);       // 0: both definitions reach
  twice = 3;
  use(twice);       // 1: only the last
  int escapes = 5;
  take(&escapes);
  use(escapes);     // 2: not followed
  use(once);        // 3: its initializer
}
)";

TEST(Definitions, ReachingDefinitions) {
  auto AST = test::buildAST(Code);
  ASSERT_TRUE(AST);
  ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
  const FunctionDecl *F = test::functionNamed(*AST, "f");
  ASSERT_TRUE(F);
  FunctionDefinitions Defs(F, AST->getASTContext());
  std::vector<const CallExpr *> Uses = test::callsTo(*AST, F, "use");
  ASSERT_EQ(Uses.size(), 4u);
  auto VarOf = [](const CallExpr *Use) {
    const auto *DRE =
        dyn_cast<DeclRefExpr>(Use->getArg(0)->IgnoreParenImpCasts());
    return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  };
  auto RefOf = [](const CallExpr *Use) {
    return Use->getArg(0)->IgnoreParenImpCasts();
  };
  const VarDecl *Twice = VarOf(Uses[0]);
  ASSERT_TRUE(Twice && Defs.tracks(Twice));
  auto AtFirst = Defs.reaching(Twice, RefOf(Uses[0]));
  ASSERT_TRUE(AtFirst.has_value());
  EXPECT_EQ(AtFirst->size(), 2u);
  auto AtSecond = Defs.reaching(Twice, RefOf(Uses[1]));
  ASSERT_TRUE(AtSecond && AtSecond->size() == 1u);
  EXPECT_EQ((*AtSecond)[0]->Kind, DefKind::Assign);
  // Its address is taken: its definitions are not followed.
  EXPECT_FALSE(Defs.tracks(VarOf(Uses[2])));
  // Defined once: the initializer.
  const VarDecl *Once = VarOf(Uses[3]);
  ASSERT_TRUE(Once && Defs.tracks(Once));
  const Definition *Init = Defs.initOf(Once);
  ASSERT_TRUE(Init);
  EXPECT_EQ(Init->Kind, DefKind::Init);
  EXPECT_EQ(Init->Value, Once->getInit());
}

} // namespace
