//===- ProgramInputsTest.cpp - Integers read from outside the program -----===//

#include "facts/CallerFacts.h"
#include "facts/IntegerWidths.h"
#include "facts/ProgramInputs.h"
#include "ast/AstUtils.h"
#include "TestAST.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace cublas_tidy;

namespace {

const char *Prelude =
    "typedef unsigned long size_t;\n"
    "extern \"C\" int atoi(const char *);\n"
    "extern \"C\" unsigned long long strtoull(const char *, char **, int);\n"
    "extern \"C\" char *getenv(const char *);\n"
    "extern \"C\" int scanf(const char *, ...);\n"
    "extern \"C\" char *fgets(char *, int, void *);\n"
    "void use(long long v);\n";

/// What programInput() says of the argument of every call to `use` in
/// `f`: "command-line m atoi(argv[1])", "input - atoi(line)" or "-".
std::vector<std::string> inputs(const std::string &Code) {
  auto AST = test::buildAST(std::string(Prelude) + Code);
  if (!AST || AST->getDiagnostics().hasErrorOccurred())
    return {"does not compile"};
  ASTContext &Ctx = AST->getASTContext();
  const FunctionDecl *F = test::functionNamed(*AST, "f");
  ValueFacts Facts(F, Ctx);
  std::vector<std::string> Out;
  for (const CallExpr *Call : test::callsTo(*AST, F, "use")) {
    auto In = programInput(Call->getArg(0), Facts);
    if (!In) {
      Out.push_back("-");
      continue;
    }
    std::string Source = inputSourceName(In->Source);
    Out.push_back(Source + " " +
                  (In->Var ? In->Var->getName().str() : std::string("-")) +
                  " " + writtenText(In->Read, Ctx, 40));
  }
  return Out;
}

TEST(ProgramInputs, ParsedFromTheCommandLineAndTheEnvironment) {
  EXPECT_EQ(inputs("void f(int argc, char **argv) {\n"
                   "  int m = atoi(argv[1]);\n"
                   "  use(m * 4);\n"
                   "  int n = 64;\n"
                   "  if (argc > 2) n = atoi(getenv(\"N\"));\n"
                   "  use(n);\n"
                   "  use(atoi(\"12\"));\n"
                   "  int k = atoi(\"12\");\n"
                   "  use(k);\n"
                   "}"),
            // f's argv is not main's: its text is input; getenv says where
            // n's comes from; a literal is the program's own.
            (std::vector<std::string>{"input m atoi(argv[1])",
                                      "the environment n atoi(getenv(\"N\"))",
                                      "-", "-"}));
}

TEST(ProgramInputs, MainsArgvIsTheCommandLine) {
  auto AST = test::buildAST(std::string(Prelude) +
                            "int main(int argc, char **argv) {\n"
                            "  size_t count = strtoull(argv[2], 0, 10);\n"
                            "  use(count);\n"
                            "  return 0;\n"
                            "}");
  ASSERT_TRUE(AST);
  const FunctionDecl *Main = test::functionNamed(*AST, "main");
  ValueFacts Facts(Main, AST->getASTContext());
  auto Calls = test::callsTo(*AST, Main, "use");
  ASSERT_EQ(Calls.size(), 1u);
  auto In = programInput(Calls[0]->getArg(0), Facts);
  ASSERT_TRUE(In);
  EXPECT_EQ(In->Source, InputSource::CommandLine);
  EXPECT_EQ(In->Var->getName(), "count");
}

TEST(ProgramInputs, ScannedAndBounded) {
  EXPECT_EQ(inputs("void f() {\n"
                   "  int n;\n"
                   "  scanf(\"%d\", &n);\n"
                   "  use(n * n);\n"
                   "  if (n > 4096) return;\n"
                   "  use(n * n);\n"
                   "  int m = 3;\n"
                   "  use(m);\n"
                   "}"),
            (std::vector<std::string>{"input n scanf(\"%d\", &n)", "-", "-"}));
}

TEST(ProgramInputs, ThroughTheCallersContext) {
  auto AST = test::buildAST(std::string(Prelude) +
                            "static void f(int T, int HS) { use(T * HS); }\n"
                            "static void g(int T) { f(T, 64); }\n"
                            "int main(int argc, char **argv) {\n"
                            "  int T = atoi(argv[1]);\n"
                            "  g(T);\n"
                            "  f(1024, 64);\n"
                            "  f(65536, 65536);\n"
                            "  return 0;\n"
                            "}");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const FunctionDecl *F = test::functionNamed(*AST, "f");
  std::vector<const Decl *> Callables = test::definedFunctions(*AST);
  CallerFacts Callers(8);
  Callers.collectCallSites(Callables);
  const ValueFacts &Facts = Callers.factsFor(F, Ctx);
  auto Calls = test::callsTo(*AST, F, "use");
  ASSERT_EQ(Calls.size(), 1u);
  const Expr *Product = Calls[0]->getArg(0)->IgnoreImpCasts();
  // On its own, f's parameters come from nowhere known.
  EXPECT_FALSE(programInput(Product, Facts));
  // The constants of the last call do not fit an int: they come first.
  auto E = growthEvidence(Product, Ctx.IntTy, F, Facts, Callers);
  ASSERT_TRUE(E);
  ASSERT_TRUE(E->Value);
  EXPECT_EQ(*E->Value, 4294967296LL);
  ASSERT_EQ(E->Chain.size(), 1u);
  // In 'long long' they fit: the read of main, two calls up, is left.
  E = growthEvidence(Product, Ctx.LongLongTy, F, Facts, Callers);
  ASSERT_TRUE(E);
  EXPECT_FALSE(E->Value);
  ASSERT_TRUE(E->Input);
  EXPECT_EQ(E->Input->Source, InputSource::CommandLine);
  EXPECT_EQ(E->Input->Var->getName(), "T");
  EXPECT_EQ(E->Chain.size(), 2u);
}

} // namespace
