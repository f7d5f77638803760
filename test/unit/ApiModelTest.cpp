//===- ApiModelTest.cpp - The cuBLAS API table ----------------------------===//

#include "model/CublasApi.h"

#include "llvm/ADT/StringSet.h"
#include "gtest/gtest.h"

using namespace cublas_tidy;

namespace {

const ParamInfo &param(const FunctionInfo &F, llvm::StringRef Name) {
  for (const ParamInfo &P : F.params())
    if (Name == P.Name)
      return P;
  ADD_FAILURE() << F.Name << " has no parameter " << Name.str();
  static ParamInfo None{"", ParamRole::Other, Operand::None};
  return None;
}

TEST(ApiModel, LooksUpRealSymbolNames) {
  const FunctionInfo *F = lookupFunction("cublasSgemm_v2");
  ASSERT_NE(F, nullptr);
  EXPECT_STREQ(F->Routine, "gemm");
  EXPECT_EQ(F->Family, ApiFamily::Classic);
  EXPECT_EQ(F->Elem, ElemType::F32);
  EXPECT_TRUE(F->ReturnsStatus);
  EXPECT_FALSE(F->Is64);
  EXPECT_EQ(F->NumParams, 14u);
  // The macro name users write is not a symbol: cublas_v2.h maps it.
  EXPECT_EQ(lookupFunction("cublasSgemm"), nullptr);
  EXPECT_EQ(lookupFunction("notCublas"), nullptr);
  EXPECT_EQ(lookupFunction(""), nullptr);
}

TEST(ApiModel, GemmParameterRoles) {
  const FunctionInfo &F = *lookupFunction("cublasDgemm_v2_64");
  EXPECT_TRUE(F.Is64);
  EXPECT_EQ(F.Elem, ElemType::F64);
  EXPECT_EQ(param(F, "handle").Role, ParamRole::Resource);
  EXPECT_EQ(param(F, "transa").Role, ParamRole::Operation);
  EXPECT_EQ(param(F, "transa").Op, Operand::A);
  EXPECT_EQ(param(F, "transb").Op, Operand::B);
  EXPECT_EQ(param(F, "m").Role, ParamRole::DimM);
  EXPECT_EQ(param(F, "n").Role, ParamRole::DimN);
  EXPECT_EQ(param(F, "k").Role, ParamRole::DimK);
  EXPECT_EQ(param(F, "alpha").Role, ParamRole::Scalar);
  EXPECT_EQ(param(F, "A").Role, ParamRole::DeviceMatrix);
  EXPECT_EQ(param(F, "lda").Role, ParamRole::LeadingDim);
  EXPECT_EQ(param(F, "lda").Op, Operand::A);
  EXPECT_EQ(param(F, "ldc").Op, Operand::C);
  EXPECT_EQ(F.findParam(ParamRole::LeadingDim, Operand::B), 10);
  EXPECT_EQ(F.findParam(ParamRole::BatchStride), -1);
}

TEST(ApiModel, BatchedVariants) {
  const FunctionInfo &Strided = *lookupFunction("cublasSgemmStridedBatched");
  EXPECT_TRUE(Strided.StridedBatched);
  EXPECT_FALSE(Strided.Batched);
  EXPECT_EQ(param(Strided, "strideA").Role, ParamRole::BatchStride);
  EXPECT_EQ(param(Strided, "strideA").Op, Operand::A);
  EXPECT_EQ(param(Strided, "batchCount").Role, ParamRole::BatchCount);

  const FunctionInfo &Batched = *lookupFunction("cublasSgemmBatched");
  EXPECT_TRUE(Batched.Batched);
  EXPECT_EQ(param(Batched, "Aarray").Role, ParamRole::DevicePointerArray);

  const FunctionInfo &Ex = *lookupFunction("cublasGemmEx");
  EXPECT_EQ(Ex.Elem, ElemType::Dynamic);
  EXPECT_EQ(param(Ex, "Atype").Role, ParamRole::DataType);
  EXPECT_EQ(param(Ex, "Atype").Op, Operand::A);
  EXPECT_EQ(param(Ex, "computeType").Role, ParamRole::ComputeType);
}

TEST(ApiModel, PrecisionPrefixes) {
  EXPECT_EQ(lookupFunction("cublasZgemm_v2")->Elem, ElemType::C64);
  EXPECT_EQ(lookupFunction("cublasCgemm_v2")->Elem, ElemType::C32);
  EXPECT_EQ(lookupFunction("cublasHgemm")->Elem, ElemType::F16);
  // Mixed prefixes name the vectors' type.
  EXPECT_EQ(lookupFunction("cublasScnrm2_v2")->Elem, ElemType::C32);
  EXPECT_EQ(lookupFunction("cublasIzamax_v2")->Elem, ElemType::C64);
  EXPECT_STREQ(lookupFunction("cublasIzamax_v2")->Routine, "amax");
  // Functions that start with C or D but have no precision prefix.
  EXPECT_EQ(lookupFunction("cublasCreate_v2")->Elem, ElemType::None);
  EXPECT_EQ(lookupFunction("cublasDestroy_v2")->Elem, ElemType::None);
  EXPECT_EQ(elementSize(ElemType::C64), 16u);
  EXPECT_EQ(elementSize(ElemType::F16), 2u);
  EXPECT_EQ(elementSize(ElemType::Dynamic), 0u);
}

TEST(ApiModel, MemorySpacesOfCopyRoutines) {
  const FunctionInfo &Set = *lookupFunction("cublasSetMatrix");
  EXPECT_EQ(param(Set, "A").Role, ParamRole::HostMatrix);
  EXPECT_EQ(param(Set, "B").Role, ParamRole::DeviceMatrix);
  EXPECT_EQ(param(Set, "elemSize").Role, ParamRole::ElemSize);
  const FunctionInfo &Get = *lookupFunction("cublasGetMatrix");
  EXPECT_EQ(param(Get, "A").Role, ParamRole::DeviceMatrix);
  EXPECT_EQ(param(Get, "B").Role, ParamRole::HostMatrix);
  const FunctionInfo &Dot = *lookupFunction("cublasSdot_v2");
  EXPECT_EQ(param(Dot, "result").Role, ParamRole::ScalarResult);
  EXPECT_EQ(param(Dot, "incx").Role, ParamRole::Increment);
  EXPECT_EQ(param(Dot, "incx").Op, Operand::X);
  const FunctionInfo &Xt = *lookupFunction("cublasXtSgemm");
  EXPECT_EQ(Xt.Family, ApiFamily::Xt);
  EXPECT_EQ(param(Xt, "A").Role, ParamRole::AnyMemory);
  EXPECT_EQ(param(Xt, "alpha").Role, ParamRole::HostScalar);
}

TEST(ApiModel, ResourcesAndTheirDestroyers) {
  struct {
    const char *Create, *Destroy;
    ResourceKind Kind;
  } Pairs[] = {
      {"cublasCreate_v2", "cublasDestroy_v2", ResourceKind::Handle},
      {"cublasLtCreate", "cublasLtDestroy", ResourceKind::LtHandle},
      {"cublasXtCreate", "cublasXtDestroy", ResourceKind::XtHandle},
      {"cublasLtMatmulDescCreate", "cublasLtMatmulDescDestroy",
       ResourceKind::LtMatmulDesc},
      {"cublasLtMatrixLayoutCreate", "cublasLtMatrixLayoutDestroy",
       ResourceKind::LtMatrixLayout},
      {"cublasLtMatmulPreferenceCreate", "cublasLtMatmulPreferenceDestroy",
       ResourceKind::LtMatmulPreference},
      {"cublasLtMatrixTransformDescCreate",
       "cublasLtMatrixTransformDescDestroy",
       ResourceKind::LtMatrixTransformDesc},
  };
  for (const auto &P : Pairs) {
    const FunctionInfo *C = lookupFunction(P.Create);
    const FunctionInfo *D = lookupFunction(P.Destroy);
    ASSERT_NE(C, nullptr) << P.Create;
    ASSERT_NE(D, nullptr) << P.Destroy;
    EXPECT_EQ(C->Creates, P.Kind) << P.Create;
    EXPECT_EQ(D->Destroys, P.Kind) << P.Destroy;
    EXPECT_GE(C->findParam(ParamRole::ResourceOut), 0) << P.Create;
    EXPECT_GE(D->findParam(ParamRole::ResourceDestroyed), 0) << P.Destroy;
    EXPECT_EQ(destroyFunctionFor(P.Kind), P.Destroy);
  }
  EXPECT_EQ(destroyFunctionFor(ResourceKind::None), "");
}

TEST(ApiModel, LtLayoutsGiveTheirShape) {
  const FunctionInfo *F = lookupFunction("cublasLtMatrixLayoutCreate");
  ASSERT_TRUE(F);
  EXPECT_EQ(F->findParam(ParamRole::DimM), 2);
  EXPECT_EQ(F->findParam(ParamRole::DimN), 3);
  EXPECT_EQ(F->findParam(ParamRole::LeadingDim), 4);
}

TEST(ApiModel, InlineInitHelpersUseTheirDescriptor) {
  // cublasLt.h's static inline Init helpers re-initialise a descriptor in
  // place: a use of it, not a create, and no symbol.
  for (const char *Name :
       {"cublasLtMatrixLayoutInit", "cublasLtMatmulDescInit",
        "cublasLtMatrixTransformDescInit", "cublasLtEmulationDescInit",
        "cublasLtMatmulPreferenceInit"}) {
    const FunctionInfo *F = lookupFunction(Name);
    ASSERT_NE(F, nullptr) << Name;
    EXPECT_TRUE(F->Inline) << Name;
    EXPECT_EQ(F->Family, ApiFamily::Lt) << Name;
    EXPECT_TRUE(F->ReturnsStatus) << Name;
    EXPECT_EQ(F->Creates, ResourceKind::None) << Name;
    EXPECT_EQ(F->Destroys, ResourceKind::None) << Name;
    ASSERT_GE(F->NumParams, 1u) << Name;
    EXPECT_EQ(F->params()[0].Role, ParamRole::Resource) << Name;
  }
  const FunctionInfo &Layout = *lookupFunction("cublasLtMatrixLayoutInit");
  EXPECT_EQ(Layout.findParam(ParamRole::DimM), 2);
  EXPECT_EQ(Layout.findParam(ParamRole::DimN), 3);
  EXPECT_EQ(Layout.findParam(ParamRole::LeadingDim), 4);
  EXPECT_EQ(
      param(*lookupFunction("cublasLtMatmulDescInit"), "computeType").Role,
      ParamRole::ComputeType);
  // The rest are real entry points.
  EXPECT_FALSE(lookupFunction("cublasLtMatmulPreferenceCreate")->Inline);
  EXPECT_FALSE(lookupFunction("cublasSgemm_v2")->Inline);
  unsigned Inline = 0;
  for (const FunctionInfo &F : allFunctions())
    Inline += F.Inline;
  EXPECT_EQ(Inline, 5u);
}

TEST(ApiModel, TableIsConsistent) {
  llvm::StringSet<> Names;
  for (const FunctionInfo &F : allFunctions()) {
    EXPECT_TRUE(Names.insert(F.Name).second) << "duplicate row " << F.Name;
    EXPECT_FALSE(F.Batched && F.StridedBatched) << F.Name;
    EXPECT_EQ(F.Is64, llvm::StringRef(F.Name).ends_with("_64")) << F.Name;
    for (const ParamInfo &P : F.params()) {
      // Operands only where the role names one. A cublasLt layout's
      // leading dimension belongs to whichever operand uses the layout.
      bool Layout = F.Creates == ResourceKind::LtMatrixLayout ||
                    llvm::StringRef(F.Name) == "cublasLtMatrixLayoutInit";
      if (P.Role == ParamRole::LeadingDim || P.Role == ParamRole::Increment ||
          P.Role == ParamRole::BatchStride)
        EXPECT_TRUE(P.Op != Operand::None || Layout)
            << F.Name << " " << P.Name;
    }
    if (F.Elem != ElemType::Dynamic && F.Elem != ElemType::None)
      EXPECT_GT(elementSize(F.Elem), 0u);
  }
  for (const OutOfScopeEntry &E : outOfScopeFunctions()) {
    EXPECT_FALSE(Names.contains(E.Name))
        << E.Name << " is both modelled and out of scope";
    EXPECT_GT(llvm::StringRef(E.Reason).size(), 10u) << E.Name;
  }
  EXPECT_GT(allFunctions().size(), 600u);
}

TEST(ApiModel, NeighbourRowsFollowCublasAndCarryTheRulesRoles) {
  // cuSOLVER and cuSPARSE rows come after every cuBLAS row: a cuBLAS row
  // keeps its index (the tracer's FunctionIds).
  bool SeenNeighbour = false;
  for (const FunctionInfo &F : allFunctions()) {
    if (isNeighbour(F.Family))
      SeenNeighbour = true;
    else
      EXPECT_FALSE(SeenNeighbour) << F.Name << " after a neighbour's row";
  }
  EXPECT_TRUE(SeenNeighbour);

  const FunctionInfo *Getrf = lookupFunction("cusolverDnSgetrf");
  ASSERT_TRUE(Getrf);
  EXPECT_EQ(Getrf->Family, ApiFamily::SolverDn);
  EXPECT_EQ(Getrf->Elem, ElemType::F32);
  EXPECT_TRUE(Getrf->ReturnsStatus);
  EXPECT_TRUE(doesWork(*Getrf));
  EXPECT_EQ(Getrf->findParam(ParamRole::DeviceWorkspace),
            Getrf->findParamNamed("Workspace"));
  EXPECT_EQ(Getrf->findParam(ParamRole::DeviceVector, Operand::Info),
            Getrf->findParamNamed("devInfo"));
  EXPECT_EQ(libraryOf(Getrf->Family), "cuSOLVER");

  const FunctionInfo *Query = lookupFunction("cusolverDnZgetrf_bufferSize");
  ASSERT_TRUE(Query);
  EXPECT_EQ(Query->Elem, ElemType::C64);
  EXPECT_GE(Query->findParam(ParamRole::WorkspaceElementsOut), 0);

  const FunctionInfo *SpMV = lookupFunction("cusparseSpMV_bufferSize");
  ASSERT_TRUE(SpMV);
  EXPECT_GE(SpMV->findParam(ParamRole::WorkspaceSizeOut), 0);
  EXPECT_EQ(SpMV->findParam(ParamRole::WorkspaceElementsOut), -1);

  // SpGEMM's steps size their own buffer through one in/out size; the
  // step with three buffers has three.
  const FunctionInfo *Compute = lookupFunction("cusparseSpGEMM_compute");
  ASSERT_TRUE(Compute);
  EXPECT_EQ(Compute->findParam(ParamRole::WorkspaceSizeInOut),
            Compute->findParamNamed("bufferSize2"));
  EXPECT_EQ(Compute->findParam(ParamRole::DeviceWorkspace),
            Compute->findParamNamed("externalBuffer2"));
  const FunctionInfo *Nnz = lookupFunction("cusparseSpGEMMreuse_nnz");
  ASSERT_TRUE(Nnz);
  EXPECT_EQ(llvm::count_if(Nnz->params(),
                           [](const ParamInfo &P) {
                             return P.Role == ParamRole::WorkspaceSizeInOut;
                           }),
            3);

  // Configuration is not work; the handle's kinds are handles.
  const FunctionInfo *SetStream = lookupFunction("cusparseSetStream");
  ASSERT_TRUE(SetStream);
  EXPECT_FALSE(doesWork(*SetStream));
  EXPECT_FALSE(doesWork(*lookupFunction("cusolverDnCreate")));
  EXPECT_TRUE(isHandleKind(lookupFunction("cusparseCreate")->Creates));
  EXPECT_FALSE(isHandleKind(lookupFunction("cusparseCreateCsr")->Creates));
  EXPECT_EQ(destroyFunctionFor(ResourceKind::SparseSpMat),
            "cusparseDestroySpMat");
  // Names outside the three libraries are not looked up.
  EXPECT_EQ(lookupFunction("cudaMalloc"), nullptr);
  EXPECT_EQ(lookupFunction("cusolverSpCreate"), nullptr); // not modelled
}

// The creates of cuSPARSE's generic descriptors keep the arrays they are
// given; the setters replace them. Handles, the legacy matrix descriptor,
// the routines and the getters do neither.
TEST(ApiModel, DescriptorDataCreatesAndSetters) {
  for (const char *Name : {"cusparseCreateDnVec", "cusparseCreateConstDnVec",
                           "cusparseCreateDnMat", "cusparseCreateCsr",
                           "cusparseCreateCoo", "cusparseCreateSpVec"}) {
    SCOPED_TRACE(Name);
    const FunctionInfo *F = lookupFunction(Name);
    ASSERT_TRUE(F);
    EXPECT_TRUE(storesDescriptorData(*F));
    EXPECT_FALSE(setsDescriptorData(*F));
  }
  for (const char *Name :
       {"cusparseDnVecSetValues", "cusparseDnMatSetValues",
        "cusparseSpMatSetValues", "cusparseCsrSetPointers",
        "cusparseCooSetPointers", "cusparseSpVecSetValues"}) {
    SCOPED_TRACE(Name);
    const FunctionInfo *F = lookupFunction(Name);
    ASSERT_TRUE(F);
    EXPECT_TRUE(setsDescriptorData(*F));
    EXPECT_FALSE(storesDescriptorData(*F));
  }
  for (const char *Name :
       {"cusparseCreate", "cusparseCreateMatDescr", "cusolverDnCreate",
        "cublasCreate_v2", "cusparseSpMV", "cusparseDnVecGetValues",
        "cusparseSetStream", "cusparseDestroyDnVec", "cublasSetVector"}) {
    SCOPED_TRACE(Name);
    const FunctionInfo *F = lookupFunction(Name);
    ASSERT_TRUE(F);
    EXPECT_FALSE(storesDescriptorData(*F));
    EXPECT_FALSE(setsDescriptorData(*F));
  }
}

TEST(ApiModel, ReadsSettingGettersOnly) {
  for (const char *Name :
       {"cublasGetMathMode", "cublasGetStream_v2", "cublasGetPointerMode_v2",
        "cublasGetVersion_v2", "cusparseGetVersion", "cusparseGetStream",
        "cublasLtMatmulDescGetAttribute", "cusparseSpMatGetSize",
        "cusolverDnGetStream"}) {
    SCOPED_TRACE(Name);
    const FunctionInfo *F = lookupFunction(Name);
    ASSERT_TRUE(F);
    EXPECT_TRUE(readsSetting(*F));
  }
  // Transfers, searches, creates and work whose names hold "get" or "Get"
  // elsewhere read no setting.
  for (const char *Name :
       {"cublasGetVector", "cublasGetMatrix", "cublasGetVectorAsync",
        "cublasGetMatrixAsync", "cublasLtMatmulAlgoGetHeuristic",
        "cublasCreate_v2", "cublasSgemm_v2", "cusolverDnSgetrf",
        "cusolverDnSgetrf_bufferSize", "cusparseSetStream"}) {
    SCOPED_TRACE(Name);
    const FunctionInfo *F = lookupFunction(Name);
    ASSERT_TRUE(F);
    EXPECT_FALSE(readsSetting(*F));
  }
}

} // namespace

TEST(ApiModel, DocumentedOnlySuccess) {
  // cublasLt.h lists CUBLAS_STATUS_SUCCESS as the only status of the
  // destroys of its descriptors, not of its handle's.
  for (const char *Name :
       {"cublasLtMatmulDescDestroy", "cublasLtMatrixLayoutDestroy",
        "cublasLtMatmulPreferenceDestroy",
        "cublasLtMatrixTransformDescDestroy"}) {
    const FunctionInfo *F = lookupFunction(Name);
    ASSERT_TRUE(F) << Name;
    EXPECT_TRUE(F->OnlySuccess) << Name;
  }
  for (const char *Name :
       {"cublasLtDestroy", "cublasDestroy_v2", "cublasLtMatmulDescCreate",
        "cublasSgemm_v2", "cusparseDestroy", "cublasLtMatmulDescSetAttribute"})
    EXPECT_FALSE(lookupFunction(Name)->OnlySuccess) << Name;
}

TEST(ApiModel, LtAttributeStorageSizes) {
  // As the doc comments of cublasLt.h name them: int32_t, uint64_t,
  // uint16_t, int8_t, a pointer.
  EXPECT_EQ(ltAttributeBytes("cublasLtMatmulDescSetAttribute", 3), 4u);
  EXPECT_EQ(ltAttributeBytes("cublasLtMatmulDescGetAttribute", 3), 4u);
  EXPECT_EQ(ltAttributeBytes("cublasLtMatmulPreferenceSetAttribute", 1), 8u);
  EXPECT_EQ(ltAttributeBytes("cublasLtMatmulAlgoConfigSetAttribute", 7), 2u);
  EXPECT_EQ(ltAttributeBytes("cublasLtMatmulDescSetAttribute", 25), 1u);
  // CUBLASLT_MATMUL_DESC_BIAS_POINTER: "Bias case: const void *".
  EXPECT_EQ(ltAttributeBytes("cublasLtMatmulDescSetAttribute", 8), 8u);
  // The layout's CUBLASLT_MATRIX_LAYOUT_LD is an int64_t; the transform
  // descriptor's attributes are numbered without initialisers.
  EXPECT_EQ(ltAttributeBytes("cublasLtMatrixLayoutSetAttribute", 4), 8u);
  EXPECT_EQ(ltAttributeBytes("cublasLtMatrixTransformDescSetAttribute", 3), 4u);
  // CUBLASLT_ALGO_CAP_TILE_IDS is an array; 9 is no matmul descriptor
  // attribute; cublasSgemm is no accessor.
  EXPECT_FALSE(ltAttributeBytes("cublasLtMatmulAlgoCapGetAttribute", 6));
  EXPECT_FALSE(ltAttributeBytes("cublasLtMatmulDescSetAttribute", 9));
  EXPECT_FALSE(ltAttributeBytes("cublasSgemm_v2", 3));
}
