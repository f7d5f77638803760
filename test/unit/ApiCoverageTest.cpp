//===- ApiCoverageTest.cpp - The model against the real CUDA headers ------===//
//
// Parses cublas_api.h, cublasLt.h and cublasXt.h, and the neighbours
// cusolverDn.h and cusparse.h, with clang and fails when a
// declared function is neither modelled nor listed as out of scope, or when
// a modelled function's parameters differ from its declaration. A new CUDA
// release thus shows its gaps at once.
//
//===----------------------------------------------------------------------===//

#include "model/ComputeTypes.h"
#include "model/CublasApi.h"
#include "model/ElementTypes.h"
#include "TestAST.h"

#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace cublas_tidy;

namespace {

/// The headers the model describes, each completely.
constexpr llvm::StringLiteral ModelledHeaders[] = {
    "cublas_api.h", "cublasLt.h", "cublasXt.h", "cusolverDn.h", "cusparse.h"};
constexpr const char *IncludeModelledHeaders =
    "#include <cublas_v2.h>\n#include <cublasLt.h>\n#include <cublasXt.h>\n"
    "#include <cusolverDn.h>\n#include <cusparse.h>\n";

struct Declared {
  llvm::StringMap<std::vector<const FunctionDecl *>> ByName;
  llvm::StringMap<unsigned> PerHeader;
};

void collectFrom(const DeclContext *DC, const SourceManager &SM,
                 Declared &Result) {
  for (const Decl *D : DC->decls()) {
    if (const auto *LS = dyn_cast<LinkageSpecDecl>(D)) {
      collectFrom(LS, SM, Result); // extern "C" { ... }
      continue;
    }
    const auto *FD = dyn_cast<FunctionDecl>(D);
    if (!FD || !FD->getIdentifier())
      continue;
    llvm::StringRef Header =
        llvm::sys::path::filename(SM.getFilename(SM.getExpansionLoc(
            FD->getLocation())));
    if (!llvm::is_contained(ModelledHeaders, Header))
      continue;
    auto &Decls = Result.ByName[FD->getName()];
    if (Decls.empty())
      ++Result.PerHeader[Header];
    Decls.push_back(FD);
  }
}

Declared collect(ASTUnit &AST) {
  Declared Result;
  collectFrom(AST.getASTContext().getTranslationUnitDecl(),
              AST.getSourceManager(), Result);
  return Result;
}

TEST(ApiCoverage, EveryDeclaredFunctionIsModelledOrOutOfScope) {
  if (!test::haveRealCudaHeaders())
    GTEST_SKIP() << "no CUDA toolkit headers: set CUDA_PATH to run this test";
  std::unique_ptr<ASTUnit> AST = test::buildAST(IncludeModelledHeaders);
  ASSERT_TRUE(AST);
  ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred())
      << "the CUDA headers do not parse";
  Declared D = collect(*AST);

  llvm::StringSet<> OutOfScope;
  for (const OutOfScopeEntry &E : outOfScopeFunctions())
    OutOfScope.insert(E.Name);

  unsigned Modelled = 0, Excluded = 0, Params = 0, ParamsWithRole = 0;
  std::vector<std::string> Missing;
  for (const auto &Entry : D.ByName) {
    llvm::StringRef Name = Entry.getKey();
    const FunctionInfo *F = lookupFunction(Name);
    if (!F) {
      if (OutOfScope.contains(Name))
        ++Excluded;
      else
        Missing.push_back(Name.str());
      continue;
    }
    ++Modelled;
    // A row is marked inline exactly when the header only defines the
    // function inline (cublasLtMatmulPreferenceInit): no symbol.
    bool OnlyInline =
        llvm::all_of(Entry.getValue(), [](const FunctionDecl *FD) {
          return FD->isInlineSpecified() && FD->hasBody();
        });
    EXPECT_EQ(F->Inline, OnlyInline) << Name.str();
    for (const FunctionDecl *FD : Entry.getValue()) {
      // The C++ inline overloads (cublasGemmEx with cublasComputeType_t, ...)
      // share the row: same parameters, other types.
      ASSERT_EQ(FD->getNumParams(), F->NumParams) << Name.str();
      // The inline C++ wrappers may name their parameters differently; an
      // inline row is its own declaration.
      bool Wrapper = FD->isInlineSpecified() && FD->hasBody() && !F->Inline;
      for (unsigned I = 0; I < F->NumParams && !Wrapper; ++I) {
        std::string Declared = FD->getParamDecl(I)->getName().str();
        if (!Declared.empty())
          EXPECT_EQ(Declared, std::string(F->ParamsBegin[I].Name))
              << Name.str() << " parameter " << I;
      }
      std::string Returns = FD->getReturnType().getAsString();
      EXPECT_EQ(F->ReturnsStatus, Returns == "cublasStatus_t" ||
                                      Returns == "cusolverStatus_t" ||
                                      Returns == "cusparseStatus_t")
          << Name.str();
    }
    for (const ParamInfo &P : F->params()) {
      ++Params;
      ParamsWithRole += P.Role != ParamRole::Other;
    }
  }
  std::sort(Missing.begin(), Missing.end());
  std::string MissingList;
  for (const std::string &M : Missing)
    MissingList += "\n  " + M;
  EXPECT_TRUE(Missing.empty())
      << Missing.size()
      << " declared functions are neither modelled nor out of scope "
         "(regenerate lib/model/CublasApi.def with scripts/gen-api-model.py):"
      << MissingList;

  std::printf("API coverage: %u functions declared (cublas_api.h %u, "
              "cublasLt.h %u, cublasXt.h %u, cusolverDn.h %u, cusparse.h %u): "
              "%u modelled, %u out of scope, %zu missing; %u of %u parameters "
              "have a role\n",
              unsigned(D.ByName.size()), D.PerHeader["cublas_api.h"],
              D.PerHeader["cublasLt.h"], D.PerHeader["cublasXt.h"],
              D.PerHeader["cusolverDn.h"], D.PerHeader["cusparse.h"], Modelled,
              Excluded, Missing.size(), ParamsWithRole, Params);
}

TEST(ApiCoverage, ModelledFunctionsAreDeclared) {
  if (!test::haveRealCudaHeaders())
    GTEST_SKIP() << "no CUDA toolkit headers: set CUDA_PATH to run this test";
  std::unique_ptr<ASTUnit> AST = test::buildAST(IncludeModelledHeaders);
  ASSERT_TRUE(AST);
  Declared D = collect(*AST);
  unsigned Stale = 0;
  for (const FunctionInfo &F : allFunctions())
    if (!D.ByName.count(F.Name)) {
      ADD_FAILURE() << F.Name << " is modelled but not declared";
      ++Stale;
    }
  EXPECT_EQ(Stale, 0u);
}

/// The enumerators of the enum named `TypedefName` (a typedef of an
/// anonymous enum in the headers), by name with their values.
std::vector<std::pair<std::string, int64_t>>
enumeratorsOf(ASTUnit &AST, llvm::StringRef TypedefName) {
  std::vector<std::pair<std::string, int64_t>> Out;
  std::vector<const Decl *> Decls;
  for (const Decl *D : AST.getASTContext().getTranslationUnitDecl()->decls()) {
    Decls.push_back(D);
    if (const auto *LS = dyn_cast<LinkageSpecDecl>(D)) // extern "C" { ... }
      Decls.insert(Decls.end(), LS->decls_begin(), LS->decls_end());
  }
  for (const Decl *D : Decls) {
    const auto *TD = dyn_cast<TypedefNameDecl>(D);
    if (!TD || TD->getName() != TypedefName)
      continue;
    const auto *ET = TD->getUnderlyingType()->getAs<EnumType>();
    if (!ET)
      continue;
    for (const EnumConstantDecl *C :
         ET->getOriginalDecl()->getDefinitionOrSelf()->enumerators())
      Out.push_back({C->getName().str(), C->getInitVal().getExtValue()});
  }
  return Out;
}

// Every cudaDataType_t of library_types.h is a row of the element-type
// table (model/ElementTypes.cpp), and every cublasComputeType_t of
// cublas_api.h a row of the compute-type table (model/ComputeTypes.cpp),
// with the same value. The compute types without rows in the cublasGemmEx
// table are the ones the documentation does not list for it.
TEST(ApiCoverage, EveryDataTypeAndComputeTypeIsInTheTables) {
  if (!test::haveRealCudaHeaders())
    GTEST_SKIP() << "no CUDA toolkit headers: set CUDA_PATH to run this test";
  std::unique_ptr<ASTUnit> AST = test::buildAST("#include <cublas_v2.h>\n");
  ASSERT_TRUE(AST);
  auto DataTypes = enumeratorsOf(*AST, "cudaDataType");
  ASSERT_GT(DataTypes.size(), 20u);
  for (const auto &[Name, Value] : DataTypes) {
    const DataTypeInfo *T = dataTypeByName(Name);
    ASSERT_NE(T, nullptr) << Name << " is not in the cudaDataType_t table";
    EXPECT_EQ(T->Value, Value) << Name;
  }
  auto ComputeTypes = enumeratorsOf(*AST, "cublasComputeType_t");
  ASSERT_GT(ComputeTypes.size(), 10u);
  std::vector<std::string> NotInGemmExTable;
  for (const auto &[Name, Value] : ComputeTypes) {
    const ComputeTypeInfo *C = computeTypeByName(Name);
    ASSERT_NE(C, nullptr) << Name << " is not in the compute-type table";
    EXPECT_EQ(C->Value, Value) << Name;
    EXPECT_NE(dataTypeByName(C->RealScale), nullptr) << Name;
    if (!gemmExTableCovers(Name))
      NotInGemmExTable.push_back(Name);
  }
  EXPECT_EQ(ComputeTypes.size(), allComputeTypes().size());
  // The one compute type the cublasGemmEx documentation does not list.
  EXPECT_EQ(NotInGemmExTable,
            std::vector<std::string>{"CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT"});
  // Every compute type has rows in the cublasLtMatmul table, whose types
  // are known.
  for (const auto &[Name, Value] : ComputeTypes)
    EXPECT_TRUE(ltMatmulTableCovers(Name)) << Name;
  for (const GemmTypes &R : ltMatmulTypeRows()) {
    EXPECT_NE(computeTypeByName(R.Compute), nullptr) << R.Compute;
    for (const char *T : {R.Scale, R.AB, R.C})
      EXPECT_NE(dataTypeByName(T), nullptr) << T;
  }
  // Every row of the cublasGemmEx table names known types, and its scale
  // type is the one the compute type implies.
  for (const GemmTypes &R : gemmExTypeRows()) {
    const DataTypeInfo *C = dataTypeByName(R.C);
    ASSERT_NE(C, nullptr) << R.C;
    ASSERT_NE(dataTypeByName(R.AB), nullptr) << R.AB;
    const DataTypeInfo *Scale = scaleTypeOf(R.Compute, C);
    ASSERT_NE(Scale, nullptr) << R.Compute;
    EXPECT_STREQ(Scale->Name, R.Scale) << R.Compute << " " << R.AB << " " << R.C;
  }
}

} // namespace
