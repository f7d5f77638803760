//===- CublasApi.cpp - The cuBLAS API model -------------------------------===//
//
// The table and everything that reads it, except the name index
// (CublasApiLookup.cpp). This file uses only header-only parts of LLVM, so
// that the runtime tracer (integration/tracer/), an LD_PRELOAD library that
// must not drag LLVM into the traced program, compiles it as it is.
//
//===----------------------------------------------------------------------===//

#include "model/CublasApi.h"
#include "model/LtAttributes.h"

#include "llvm/ADT/STLExtras.h"

namespace cublas_tidy {
namespace {

// One parameter array per function, each closed by a sentinel so that
// functions without parameters still have an array.
#define CUBLAS_FUNCTION(Name, Routine, Family, Elem, ReturnsStatus, Is64,      \
                        Batched, StridedBatched, Creates, Destroys)            \
  const ParamInfo Params_##Name[] = {
#define CUBLAS_PARAM(Name, Role, Op) {#Name, ParamRole::Role, Operand::Op},
#define CUBLAS_END_FUNCTION(Name)                                              \
  { nullptr, ParamRole::Other, Operand::None }                                 \
  }                                                                            \
  ;
#include "model/CublasApi.def"

// Whether each row is an inline helper of the header: `false || true` for
// a row with CUBLAS_INLINE_SIGNATURE.
#define CUBLAS_FUNCTION(Name, ...) constexpr bool Inline_##Name = false
#define CUBLAS_INLINE_SIGNATURE(Name, ...) || true
#define CUBLAS_END_FUNCTION(Name) ;
#include "model/CublasApi.def"

// Whether the header documents only success for each row: `false ||
// true` for a row with CUBLAS_ONLY_SUCCESS.
#define CUBLAS_FUNCTION(Name, ...) constexpr bool OnlySuccess_##Name = false
#define CUBLAS_ONLY_SUCCESS(Name) || true
#define CUBLAS_END_FUNCTION(Name) ;
#include "model/CublasApi.def"

const FunctionInfo Functions[] = {
#define CUBLAS_FUNCTION(Name, Routine, Family, Elem, ReturnsStatus, Is64,      \
                        Batched, StridedBatched, Creates, Destroys)            \
  {#Name,                                                                      \
   Routine,                                                                    \
   ApiFamily::Family,                                                          \
   ElemType::Elem,                                                             \
   ReturnsStatus,                                                              \
   Is64,                                                                       \
   Batched,                                                                    \
   StridedBatched,                                                             \
   ResourceKind::Creates,                                                      \
   ResourceKind::Destroys,                                                     \
   Inline_##Name,                                                              \
   OnlySuccess_##Name,                                                         \
   Params_##Name,                                                              \
   static_cast<unsigned>(std::size(Params_##Name) - 1)},
#include "model/CublasApi.def"
};

const OutOfScopeEntry OutOfScope[] = {
#define CUBLAS_OUT_OF_SCOPE(Name, Reason) {#Name, Reason},
#include "model/CublasApi.def"
};

struct LtAttributeEntry {
  const char *Accessor;
  std::int64_t Value;
  unsigned Bytes;
};

const LtAttributeEntry LtAttributes[] = {
#define CUBLAS_LT_ATTRIBUTE(Accessor, Enumerator, Value, Bytes)                \
  {#Accessor, Value, Bytes},
#include "model/CublasApi.def"
};

} // namespace

std::optional<unsigned> ltAttributeBytes(llvm::StringRef Accessor,
                                         std::int64_t Attr) {
  for (const LtAttributeEntry &E : LtAttributes)
    if (E.Value == Attr && Accessor == E.Accessor)
      return E.Bytes;
  return std::nullopt;
}

int FunctionInfo::findParam(ParamRole Role, Operand Op) const {
  for (unsigned I = 0; I < NumParams; ++I)
    if (ParamsBegin[I].Role == Role &&
        (Op == Operand::None || ParamsBegin[I].Op == Op))
      return static_cast<int>(I);
  return -1;
}

int FunctionInfo::findParamNamed(llvm::StringRef Name) const {
  for (unsigned I = 0; I < NumParams; ++I)
    if (Name == ParamsBegin[I].Name)
      return static_cast<int>(I);
  return -1;
}

llvm::StringRef ltPointerModeName(std::int64_t Mode) {
  switch (Mode) {
  case lt_api::PointerModeHost:
    return "CUBLASLT_POINTER_MODE_HOST";
  case lt_api::PointerModeDevice:
    return "CUBLASLT_POINTER_MODE_DEVICE";
  case lt_api::PointerModeDeviceVector:
    return "CUBLASLT_POINTER_MODE_DEVICE_VECTOR";
  case lt_api::PointerModeAlphaDeviceVectorBetaZero:
    return "CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_ZERO";
  case lt_api::PointerModeAlphaDeviceVectorBetaHost:
    return "CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_HOST";
  }
  return "";
}

llvm::StringRef pointerModeName(ApiFamily Family, bool Device) {
  if (Family == ApiFamily::Sparse)
    return Device ? "CUSPARSE_POINTER_MODE_DEVICE"
                  : "CUSPARSE_POINTER_MODE_HOST";
  return Device ? "CUBLAS_POINTER_MODE_DEVICE" : "CUBLAS_POINTER_MODE_HOST";
}

ScalarSpace ltScalarSpace(std::int64_t Mode, Operand Op) {
  switch (Mode) {
  case lt_api::PointerModeHost:
    return ScalarSpace::Host;
  case lt_api::PointerModeDevice:
  case lt_api::PointerModeDeviceVector:
    return ScalarSpace::Device;
  case lt_api::PointerModeAlphaDeviceVectorBetaZero:
    return Op == Operand::Alpha ? ScalarSpace::Device : ScalarSpace::Unknown;
  case lt_api::PointerModeAlphaDeviceVectorBetaHost:
    return Op == Operand::Alpha ? ScalarSpace::Device : ScalarSpace::Host;
  }
  return ScalarSpace::Unknown;
}

llvm::ArrayRef<FunctionInfo> allFunctions() { return Functions; }

llvm::ArrayRef<OutOfScopeEntry> outOfScopeFunctions() { return OutOfScope; }

bool doesWork(const FunctionInfo &F) {
  if (!isNeighbour(F.Family))
    return F.Routine && *F.Routine;
  if (F.Creates != ResourceKind::None || F.Destroys != ResourceKind::None)
    return false;
  llvm::StringRef Rest(F.Name);
  if (!Rest.consume_front("cusolverDn"))
    Rest.consume_front("cusparse");
  return !Rest.starts_with("Set") && !Rest.starts_with("Get");
}

/// True when `F` takes a device array that is not a workspace.
static bool takesDeviceArray(const FunctionInfo &F) {
  return llvm::any_of(F.params(), [](const ParamInfo &P) {
    return P.Role == ParamRole::DeviceVector ||
           P.Role == ParamRole::DeviceMatrix;
  });
}

bool storesDescriptorData(const FunctionInfo &F) {
  switch (F.Creates) {
  case ResourceKind::SparseSpVec:
  case ResourceKind::SparseDnVec:
  case ResourceKind::SparseSpMat:
  case ResourceKind::SparseDnMat:
    return takesDeviceArray(F);
  default:
    return false;
  }
}

bool setsDescriptorData(const FunctionInfo &F) {
  if (F.Family != ApiFamily::Sparse || F.Creates != ResourceKind::None ||
      F.Destroys != ResourceKind::None || F.NumParams == 0 ||
      F.params()[0].Role != ParamRole::Resource)
    return false;
  llvm::StringRef Name(F.Name);
  return (Name.ends_with("SetValues") || Name.ends_with("SetPointers")) &&
         takesDeviceArray(F);
}

// The position of Needle in Hay, or Hay.size(): StringRef::find lives in
// LLVMSupport's library, and this layer uses the header-only part.
static size_t positionOf(llvm::StringRef Hay, llvm::StringRef Needle) {
  for (size_t I = 0; I + Needle.size() <= Hay.size(); ++I)
    if (Hay.substr(I).starts_with(Needle))
      return I;
  return Hay.size();
}

bool readsSetting(const FunctionInfo &F) {
  llvm::StringRef Rest(F.Name);
  for (llvm::StringRef Prefix :
       {"cublasLt", "cublasXt", "cublas", "cusolverDn", "cusparse"})
    if (Rest.consume_front(Prefix))
      break;
  size_t Get = positionOf(Rest, "Get");
  if (Get == Rest.size())
    return false;
  llvm::StringRef What = Rest.drop_front(Get + 3);
  return !What.starts_with("Vector") && !What.starts_with("Matrix") &&
         positionOf(What, "Heuristic") == What.size() &&
         F.Creates == ResourceKind::None && F.Destroys == ResourceKind::None;
}

llvm::StringRef destroyFunctionFor(ResourceKind Kind) {
  if (Kind == ResourceKind::None)
    return {};
  for (const FunctionInfo &F : Functions)
    if (F.Destroys == Kind)
      return F.Name;
  return {};
}

llvm::StringRef toString(ParamRole Role) {
  switch (Role) {
#define ROLE(R)                                                                \
  case ParamRole::R:                                                           \
    return #R;
    ROLE(Other) ROLE(Resource) ROLE(ResourceOut) ROLE(ResourceDestroyed)
    ROLE(Operation) ROLE(Fill) ROLE(Side) ROLE(Diag) ROLE(PointerMode)
    ROLE(DimM) ROLE(DimN) ROLE(DimK) ROLE(DimKL) ROLE(DimKU) ROLE(ElemSize)
    ROLE(BatchCount) ROLE(LeadingDim) ROLE(Increment) ROLE(BatchStride)
    ROLE(DeviceMatrix) ROLE(DeviceVector) ROLE(DevicePointerArray)
    ROLE(HostMatrix) ROLE(HostVector) ROLE(HostArray) ROLE(AnyMemory)
    ROLE(HostScalar) ROLE(Scalar) ROLE(ScalarResult) ROLE(DeviceWorkspace)
    ROLE(WorkspaceSize) ROLE(WorkspaceElements) ROLE(WorkspaceSizeOut)
    ROLE(WorkspaceElementsOut) ROLE(HostWorkspaceSizeOut)
    ROLE(WorkspaceSizeInOut) ROLE(DataType) ROLE(ComputeType) ROLE(Stream)
#undef ROLE
  }
  return "?";
}

llvm::StringRef toString(Operand Op) {
  switch (Op) {
  case Operand::None: return "None";
  case Operand::A: return "A";
  case Operand::B: return "B";
  case Operand::C: return "C";
  case Operand::D: return "D";
  case Operand::X: return "x";
  case Operand::Y: return "y";
  case Operand::Alpha: return "alpha";
  case Operand::Beta: return "beta";
  case Operand::Result: return "result";
  case Operand::Info: return "info";
  case Operand::Pivot: return "pivot";
  }
  return "?";
}

llvm::StringRef toString(ResourceKind Kind) {
  switch (Kind) {
  case ResourceKind::None: return "none";
  case ResourceKind::Handle: return "cublasHandle_t";
  case ResourceKind::LtHandle: return "cublasLtHandle_t";
  case ResourceKind::XtHandle: return "cublasXtHandle_t";
  case ResourceKind::LtMatmulDesc: return "cublasLtMatmulDesc_t";
  case ResourceKind::LtMatrixLayout: return "cublasLtMatrixLayout_t";
  case ResourceKind::LtMatmulPreference: return "cublasLtMatmulPreference_t";
  case ResourceKind::LtMatrixTransformDesc:
    return "cublasLtMatrixTransformDesc_t";
  case ResourceKind::LtEmulationDesc: return "cublasLtEmulationDesc_t";
  case ResourceKind::SolverDnHandle: return "cusolverDnHandle_t";
  case ResourceKind::SolverDnParams: return "cusolverDnParams_t";
  case ResourceKind::SolverSyevjInfo: return "syevjInfo_t";
  case ResourceKind::SolverGesvdjInfo: return "gesvdjInfo_t";
  case ResourceKind::SparseHandle: return "cusparseHandle_t";
  case ResourceKind::SparseMatDescr: return "cusparseMatDescr_t";
  case ResourceKind::SparseSpVec: return "cusparseSpVecDescr_t";
  case ResourceKind::SparseDnVec: return "cusparseDnVecDescr_t";
  case ResourceKind::SparseSpMat: return "cusparseSpMatDescr_t";
  case ResourceKind::SparseDnMat: return "cusparseDnMatDescr_t";
  case ResourceKind::SparseSpSV: return "cusparseSpSVDescr_t";
  case ResourceKind::SparseSpSM: return "cusparseSpSMDescr_t";
  case ResourceKind::SparseSpGEMM: return "cusparseSpGEMMDescr_t";
  }
  return "?";
}

llvm::StringRef toString(ElemType Elem) {
  switch (Elem) {
  case ElemType::None: return "none";
  case ElemType::F16: return "__half";
  case ElemType::F32: return "float";
  case ElemType::F64: return "double";
  case ElemType::C32: return "cuComplex";
  case ElemType::C64: return "cuDoubleComplex";
  case ElemType::Dynamic: return "cudaDataType";
  }
  return "?";
}

} // namespace cublas_tidy
