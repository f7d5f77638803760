//===- ObjectChangesTest.cpp - Where a local object's fields may change ---===//

#include "ast/ObjectChanges.h"
#include "TestAST.h"
#include "ast/Callables.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace cublas_tidy;

namespace {

/// The calls and operators at which `Name` may change, by callee name or
/// operator spelling, in source order.
std::vector<std::string> changes(const FunctionDecl *FD, llvm::StringRef Name,
                                 bool &Aliased) {
  LocalObjectChanges Changes(FD);
  const ObjectChanges &C = Changes.of(test::localNamed(FD, Name));
  Aliased = C.Aliased;
  std::vector<std::string> Out;
  for (const BodyStmt &S : stmtsIn(FD)) {
    if (!C.ChangedAt.contains(S.S))
      continue;
    if (const auto *Call = dyn_cast<CallExpr>(S.S))
      Out.push_back(Call->getDirectCallee()
                        ? Call->getDirectCallee()->getNameAsString()
                        : "?");
    else if (const auto *BO = dyn_cast<BinaryOperator>(S.S))
      Out.push_back(BO->getOpcodeStr().str());
    else if (const auto *UO = dyn_cast<UnaryOperator>(S.S))
      Out.push_back(UnaryOperator::getOpcodeStr(UO->getOpcode()).str());
    else
      Out.push_back("other");
  }
  return Out;
}

constexpr const char *Options = R"(
  struct Options {
    bool gpu = false; int repeat = 1;
    void set() { gpu = true; }
    bool get() const { return gpu; }
  };
  int parse(Options &, int);
  void show(const Options &);
  void fill(Options *);
  void touch(int &);
)";

TEST(ObjectChanges, ReadsAndChanges) {
  auto AST = test::buildAST(std::string(Options) + R"(
    void f(int argc, Options byValue) {
      Options o;
      parse(o, argc);
      show(o);
      if (o.gpu && o.get()) ++o.repeat;
      o.gpu = false;
      fill(&o);
      o.set();
      touch(o.repeat);
      Options copy = o;
      if (byValue.gpu) show(byValue);
    }
  )");
  ASSERT_TRUE(AST);
  const FunctionDecl *F = test::functionNamed(*AST, "f");
  ASSERT_TRUE(F);
  bool Aliased = true;
  EXPECT_EQ(
      changes(F, "o", Aliased),
      (std::vector<std::string>{"parse", "++", "=", "fill", "set", "touch"}));
  EXPECT_FALSE(Aliased);
  EXPECT_TRUE(changes(F, "byValue", Aliased).empty());
  EXPECT_FALSE(Aliased);
}

TEST(ObjectChanges, AddressesKeptAlias) {
  auto AST = test::buildAST(std::string(Options) + R"(
    void f() {
      Options p, r, l, c;
      Options *kept = &p;
      Options &ref = r;
      const Options &cref = c;
      auto lambda = [&] { return l.gpu; };
      (void)kept; (void)ref; (void)cref; (void)lambda;
    }
  )");
  ASSERT_TRUE(AST);
  const FunctionDecl *F = test::functionNamed(*AST, "f");
  ASSERT_TRUE(F);
  bool Aliased = false;
  changes(F, "p", Aliased);
  EXPECT_TRUE(Aliased);
  changes(F, "r", Aliased);
  EXPECT_TRUE(Aliased);
  changes(F, "l", Aliased);
  EXPECT_TRUE(Aliased);
  changes(F, "c", Aliased);
  EXPECT_FALSE(Aliased);
}

TEST(ObjectChanges, FieldsOfLocalObjects) {
  auto AST = test::buildAST(std::string(Options) + R"(
    struct Outer { Options in; };
    Options g;
    bool f(Options *ptr, Options &ref) {
      Options o; Outer out;
      return o.gpu || out.in.gpu || ptr->gpu || ref.gpu || g.gpu;
    }
  )");
  ASSERT_TRUE(AST);
  const FunctionDecl *F = test::functionNamed(*AST, "f");
  ASSERT_TRUE(F);
  std::vector<std::string> Found;
  for (const BodyStmt &S : stmtsIn(F))
    if (const auto *ME = dyn_cast<MemberExpr>(S.S);
        ME && ME->getMemberDecl()->getName() == "gpu")
      if (auto Field = fieldOfLocalObject(ME))
        Found.push_back(Field->first->getNameAsString());
  // Only `o.gpu`: not a field of a field, through a pointer or reference,
  // or of a global.
  EXPECT_EQ(Found, std::vector<std::string>{"o"});
}

} // namespace
