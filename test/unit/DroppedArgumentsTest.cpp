//===- DroppedArgumentsTest.cpp - Reads a build leaves out ----------------===//

#include "ast/DroppedArguments.h"
#include "TestAST.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/Frontend/ASTUnit.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace cublas_tidy;

namespace {

/// What firstDroppedArgument says of `st` in the body of `f`, read from
/// its first statement to its end: the line of the read and how it was
/// dropped ("block '#ifndef NDEBUG'", "else '#ifdef NDEBUG'", "macro
/// 'assert'"), or "" when nothing was.
std::string dropped(const std::string &Code) {
  auto AST = test::buildAST(Code);
  if (!AST)
    return "no AST";
  const FunctionDecl *F = test::functionNamed(*AST, "f");
  const auto *Body = F ? dyn_cast_or_null<CompoundStmt>(F->getBody()) : nullptr;
  if (!Body || Body->body_empty())
    return "no body";
  const SourceManager &SM = AST->getSourceManager();
  std::optional<DroppedArgument> D = firstDroppedArgument(
      "st", SM.getExpansionLoc((*Body->body_begin())->getEndLoc()),
      SM.getExpansionLoc(Body->getEndLoc()), AST->getPreprocessor());
  if (!D)
    return "";
  std::string Line = std::to_string(SM.getExpansionLineNumber(D->Loc));
  if (!D->Block.empty())
    return Line + (D->InElse ? " else '" : " block '") + D->Block + "'";
  return Line + " macro '" + D->Macro + "'";
}

TEST(DroppedArguments, SkippedBlocksAsTheirDirectivesTell) {
  // Line 1 is the code's first line.
  EXPECT_EQ(dropped("#define NDEBUG\n"
                    "void g(int);\n"
                    "void f(int st) {\n"
                    "  st = 1;\n"
                    "#ifndef NDEBUG\n"
                    "  g(st);\n"
                    "#endif\n"
                    "}\n"),
            "6 block '#ifndef NDEBUG'");
  // `#if 0`, `#if !defined X`, a macro defined as 0, and one defined as
  // a macro defined as 0.
  EXPECT_EQ(dropped("void g(int);\nvoid f(int st) {\n  st = 1;\n"
                    "#if 0\n  g(st);\n#endif\n}\n"),
            "5 block '#if 0'");
  EXPECT_EQ(dropped("#define X\nvoid g(int);\nvoid f(int st) {\n  st = 1;\n"
                    "#if !defined X\n  g(st);\n#endif\n}\n"),
            "6 block '#if !defined X'");
  EXPECT_EQ(dropped("#define OFF 0\n#define LEVEL OFF\nvoid g(int);\n"
                    "void f(int st) {\n  st = 1;\n"
                    "#if (LEVEL)\n  g(st);\n#endif\n}\n"),
            "7 block '#if (LEVEL)'");
  // The branch after a kept one is skipped, whatever its test; the first
  // kept branch of a chain is the one that stays.
  EXPECT_EQ(dropped("void g(int);\nvoid f(int st) {\n  st = 1;\n"
                    "#if 1\n  st = 2;\n#elif 1\n  g(st);\n#endif\n}\n"),
            "7 block '#elif 1'");
  EXPECT_EQ(dropped("void g(int);\nvoid f(int st) {\n  st = 1;\n"
                    "#ifdef UNDEFINED_HERE\n  st = 2;\n#else\n  st = 3;\n"
                    "#endif\n#if 1\n#else\n  g(st);\n#endif\n}\n"),
            "11 else '#if 1'");
}

TEST(DroppedArguments, KeptAndUnknownBlocksAreNotBlamed) {
  // A kept block holds no dropped read.
  EXPECT_EQ(dropped("void g(int);\nvoid f(int st) {\n  st = 1;\n"
                    "#if 1\n  g(st);\n#endif\n}\n"),
            "");
  // A test this reading cannot tell, and everything nested in it.
  EXPECT_EQ(dropped("#define LEVEL 2\nvoid g(int);\nvoid f(int st) {\n"
                    "  st = 1;\n#if LEVEL > 3\n#if 0\n  g(st);\n#endif\n"
                    "#endif\n}\n"),
            "");
  // C++ reads `true` in an #if as 1, not as an undefined name.
  EXPECT_EQ(dropped("void g(int);\nvoid f(int st) {\n  st = 1;\n"
                    "#if true\n  g(st);\n#endif\n}\n"),
            "");
  // A macro defined as itself is not followed forever.
  EXPECT_EQ(dropped("#define SELF SELF\nvoid g(int);\nvoid f(int st) {\n"
                    "  st = 1;\n#if SELF\n  g(st);\n#endif\n}\n"),
            "");
  // The text begins inside a kept branch: the '#else' that follows is
  // skipped, but by which test is not read, so it is not blamed.
  EXPECT_EQ(dropped("void g(int);\nvoid f(int st) {\n#if 1\n  st = 1;\n"
                    "#else\n  g(st);\n#endif\n}\n"),
            "");
  // The name in a skipped directive's own test is not a read.
  EXPECT_EQ(dropped("void g(int);\nvoid f(int st) {\n  st = 1;\n"
                    "#if 0\n#if defined(st)\n#endif\n#endif\n}\n"),
            "");
}

TEST(DroppedArguments, MacroArgumentsInKeptTextOnly) {
  // A macro's dropped argument in kept text is reported as the macro's.
  EXPECT_EQ(dropped("#define CHECK(x) ((void)0)\nvoid f(int st) {\n"
                    "  st = 1;\n  CHECK(st);\n}\n"),
            "4 macro 'CHECK'");
  // The same invocation inside a skipped block is the block's.
  EXPECT_EQ(dropped("#define CHECK(x) ((void)0)\nvoid f(int st) {\n"
                    "  st = 1;\n#ifdef UNDEFINED_HERE\n  CHECK(st);\n"
                    "#endif\n}\n"),
            "5 block '#ifdef UNDEFINED_HERE'");
}

} // namespace
