//===- AstUtilsTest.cpp ---------------------------------------------------===//

#include "ast/AstUtils.h"
#include "TestAST.h"

#include "clang/ASTMatchers/ASTMatchers.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace cublas_tidy;

namespace {

const char Prelude[] = "#include <cublas_v2.h>\n#include <cuda_runtime.h>\n";

/// The type of the variable `Name` declared in the main file; null (and a
/// failure) when there is none.
QualType typeOfVar(ASTUnit &AST, const char *Name) {
  const auto *VD = test::selectFirst<VarDecl>(
      AST, varDecl(hasName(Name), isExpansionInMainFile()).bind("x"));
  EXPECT_NE(VD, nullptr) << Name;
  return VD ? VD->getType() : QualType();
}

TEST(AstUtils, NamesTheStatusAndErrorEnums) {
  auto AST = test::buildAST(std::string(Prelude) + R"(
    cublasStatus_t s; cudaError_t e; int i;
    typedef cublasStatus_t MyStatus; MyStatus m;
    auto a = CUBLAS_STATUS_SUCCESS;
  )");
  ASSERT_TRUE(AST);
  auto TypeOf = [&](const char *Name) { return typeOfVar(*AST, Name); };
  EXPECT_TRUE(isLibraryStatusType(TypeOf("s")));
  EXPECT_TRUE(isLibraryStatusType(TypeOf("m")));
  EXPECT_TRUE(isLibraryStatusType(TypeOf("a")));
  EXPECT_FALSE(isLibraryStatusType(TypeOf("e")));
  EXPECT_TRUE(isCudaErrorType(TypeOf("e")));
  EXPECT_FALSE(isCudaErrorType(TypeOf("i")));
  EXPECT_EQ(enumTypeName(TypeOf("i")), "");
}

TEST(AstUtils, TheNeighboursStatusesAndTheirLibraries) {
  auto AST = test::buildAST(std::string(Prelude) + R"(
    #include <cusolverDn.h>
    #include <cusparse.h>
    cusolverStatus_t v; cusparseStatus_t p; cudaError_t e;
  )");
  ASSERT_TRUE(AST);
  auto TypeOf = [&](const char *Name) { return typeOfVar(*AST, Name); };
  EXPECT_TRUE(isLibraryStatusType(TypeOf("v")));
  EXPECT_TRUE(isLibraryStatusType(TypeOf("p")));
  EXPECT_FALSE(isLibraryStatusType(TypeOf("e")));
  EXPECT_EQ(statusLibrary(enumTypeName(TypeOf("v"))), "cuSOLVER");
  EXPECT_EQ(statusSuccess(enumTypeName(TypeOf("p"))),
            "CUSPARSE_STATUS_SUCCESS");
  EXPECT_EQ(statusLibrary("cublasStatus"), "cuBLAS");
  EXPECT_EQ(statusLibrary("cudaError_t"), "");
  EXPECT_EQ(statusSuccess("int"), "");
}

TEST(AstUtils, StatusTypeInC) {
  auto AST = test::buildAST(std::string(Prelude) + "cublasStatus_t s;\n",
                            "input.c");
  ASSERT_TRUE(AST);
  const auto *VD =
      test::selectFirst<VarDecl>(*AST, varDecl(hasName("s"), isExpansionInMainFile()).bind("x"));
  ASSERT_NE(VD, nullptr);
  EXPECT_TRUE(isLibraryStatusType(VD->getType()));
}

TEST(AstUtils, CalleeAsSpelledThroughCublasMacros) {
  auto AST = test::buildAST(std::string(Prelude) + R"(
    #include <cublasLt.h>
    #define CALL(x) x
    void f(cublasHandle_t h) {
      cublasDestroy(h);
      CALL(cublasDestroy_v2(h));
      cublasLtHandle_t lt = 0;
      cublasLtDestroy(lt);
    }
  )");
  ASSERT_TRUE(AST);
  auto Calls = match(callExpr(isExpansionInMainFile()).bind("x"), AST->getASTContext());
  std::vector<std::string> Names, Real;
  for (const auto &N : Calls) {
    const auto *Call = N.getNodeAs<CallExpr>("x");
    Names.push_back(spelledCalleeName(Call, AST->getSourceManager(),
                                      AST->getLangOpts()));
    const FunctionInfo *F = calledCublasFunction(Call);
    Real.push_back(F ? F->Name : "");
  }
  EXPECT_EQ(Names, (std::vector<std::string>{"cublasDestroy", "cublasDestroy_v2",
                                             "cublasLtDestroy"}));
  EXPECT_EQ(Real, (std::vector<std::string>{"cublasDestroy_v2",
                                            "cublasDestroy_v2",
                                            "cublasLtDestroy"}));
}

TEST(AstUtils, UserLocationLeavesSystemHeaders) {
  auto AST = test::buildAST(std::string(Prelude) + R"(
    #define CALL(x) x
    void f(cublasHandle_t h) {
      cublasDestroy(h);
      CALL(cublasDestroy(h));
    }
  )");
  ASSERT_TRUE(AST);
  const SourceManager &SM = AST->getSourceManager();
  auto Calls = match(callExpr(isExpansionInMainFile()).bind("x"), AST->getASTContext());
  ASSERT_EQ(Calls.size(), 2u);
  std::vector<unsigned> Columns;
  for (const auto &N : Calls) {
    SourceLocation Begin = N.getNodeAs<CallExpr>("x")->getBeginLoc();
    ASSERT_TRUE(Begin.isMacroID()); // `cublasDestroy` is a macro
    EXPECT_TRUE(SM.isInSystemHeader(SM.getSpellingLoc(Begin)));
    SourceLocation User = userLocation(Begin, SM);
    EXPECT_TRUE(User.isFileID());
    EXPECT_TRUE(SM.isInMainFile(User));
    Columns.push_back(SM.getPresumedColumnNumber(User));
  }
  // At `cublasDestroy`, also inside CALL(...).
  EXPECT_EQ(Columns, (std::vector<unsigned>{7, 12}));
}

// The fast test agrees with clang's for every statement: of the main file,
// of macros from system headers expanded there, of system headers.
TEST(AstUtils, ExpandedInSystemHeaderAgreesWithClang) {
  auto AST = test::buildAST(std::string(Prelude) + R"(
    #define CALL(x) x
    void f(cublasHandle_t h) {
      cublasDestroy(h);
      CALL(cublasDestroy(h));
      float *p; cudaMalloc((void **)&p, 4);
    }
  )");
  ASSERT_TRUE(AST);
  const SourceManager &SM = AST->getSourceManager();
  unsigned InSystem = 0, InMain = 0;
  for (const auto &N : match(stmt().bind("x"), AST->getASTContext())) {
    SourceLocation Loc = N.getNodeAs<Stmt>("x")->getBeginLoc();
    bool Clang = Loc.isValid() && SM.isInSystemHeader(SM.getExpansionLoc(Loc));
    ASSERT_EQ(expandedInSystemHeader(Loc, SM), Clang);
    (Clang ? InSystem : InMain)++;
  }
  EXPECT_GT(InSystem, 0u); // inline functions of the CUDA headers
  EXPECT_GT(InMain, 0u);
}

// Line markers in a preprocessed file make part of it a system header.
TEST(AstUtils, ExpandedInSystemHeaderFollowsLineMarkers) {
  auto AST = test::buildAST(R"(# 1 "input.cpp"
# 1 "sys.h" 1 3
inline int g() { return 1; }
# 3 "input.cpp" 2
int h() { return g(); }
)");
  ASSERT_TRUE(AST);
  const SourceManager &SM = AST->getSourceManager();
  auto ReturnIn = [&](const char *Fn) {
    const auto *R = test::selectFirst<ReturnStmt>(
        *AST, returnStmt(hasAncestor(functionDecl(hasName(Fn)))).bind("x"));
    EXPECT_NE(R, nullptr) << Fn;
    return R ? R->getBeginLoc() : SourceLocation();
  };
  EXPECT_TRUE(expandedInSystemHeader(ReturnIn("g"), SM));
  EXPECT_FALSE(expandedInSystemHeader(ReturnIn("h"), SM));
}

} // namespace
