//===- CublasApi.h - The cuBLAS API model ---------------------------------===//
//
// Every cuBLAS function the checks know is one row of CublasApi.def, giving
// the role of each of its parameters. This header is the only way the checks
// read that table. Nothing here depends on clang-tidy.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_MODEL_CUBLASAPI_H
#define CUBLAS_TIDY_LIB_MODEL_CUBLASAPI_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace cublas_tidy {

/// Which of the three cuBLAS APIs a function belongs to, or which of the
/// neighbouring libraries: cuSOLVER's dense API (cusolverDn.h) and cuSPARSE
/// (cusparse.h).
enum class ApiFamily : std::uint8_t { Classic, Lt, Xt, SolverDn, Sparse };

/// The library's name in messages: "cuBLAS" (cuBLASLt and cuBLASXt too),
/// "cuSOLVER", "cuSPARSE".
constexpr llvm::StringLiteral libraryOf(ApiFamily F) {
  return F == ApiFamily::SolverDn ? llvm::StringLiteral("cuSOLVER")
         : F == ApiFamily::Sparse ? llvm::StringLiteral("cuSPARSE")
                                  : llvm::StringLiteral("cuBLAS");
}

/// True for a function of cuSOLVER or cuSPARSE.
constexpr bool isNeighbour(ApiFamily F) {
  return F == ApiFamily::SolverDn || F == ApiFamily::Sparse;
}

/// The element type of the matrices and vectors of a routine, fixed by its
/// precision prefix (S/D/C/Z/H). `Dynamic` means it is given by a
/// `cudaDataType` argument (role `DataType`); `None` means the function
/// has no matrix or vector operands.
enum class ElemType : std::uint8_t { None, F16, F32, F64, C32, C64, Dynamic };

/// A resource that a function creates or destroys.
enum class ResourceKind : std::uint8_t {
  None,
  Handle,                  // cublasHandle_t
  LtHandle,                // cublasLtHandle_t
  XtHandle,                // cublasXtHandle_t
  LtMatmulDesc,            // cublasLtMatmulDesc_t
  LtMatrixLayout,          // cublasLtMatrixLayout_t
  LtMatmulPreference,      // cublasLtMatmulPreference_t
  LtMatrixTransformDesc,   // cublasLtMatrixTransformDesc_t
  LtEmulationDesc,         // cublasLtEmulationDesc_t
  SolverDnHandle,          // cusolverDnHandle_t
  SolverDnParams,          // cusolverDnParams_t
  SolverSyevjInfo,         // syevjInfo_t
  SolverGesvdjInfo,        // gesvdjInfo_t
  SparseHandle,            // cusparseHandle_t
  SparseMatDescr,          // cusparseMatDescr_t (legacy API)
  SparseSpVec,             // cusparse[Const]SpVecDescr_t
  SparseDnVec,             // cusparse[Const]DnVecDescr_t
  SparseSpMat,             // cusparse[Const]SpMatDescr_t
  SparseDnMat,             // cusparse[Const]DnMatDescr_t
  SparseSpSV,              // cusparseSpSVDescr_t
  SparseSpSM,              // cusparseSpSMDescr_t
  SparseSpGEMM,            // cusparseSpGEMMDescr_t
};

/// True for a library handle (not a descriptor).
constexpr bool isHandleKind(ResourceKind K) {
  return K == ResourceKind::Handle || K == ResourceKind::LtHandle ||
         K == ResourceKind::XtHandle || K == ResourceKind::SolverDnHandle ||
         K == ResourceKind::SparseHandle;
}

/// True for a handle whose pointer mode places its routines' scalars
/// (cublasSetPointerMode, cusparseSetPointerMode; host after the create).
constexpr bool carriesPointerMode(ResourceKind K) {
  return K == ResourceKind::Handle || K == ResourceKind::SparseHandle;
}

/// What a parameter means to cuBLAS.
enum class ParamRole : std::uint8_t {
  Other,            // nothing the checks reason about
  // Resources.
  Resource,         // a handle or descriptor that is used (by value)
  ResourceOut,      // where a Create function writes the new resource
  ResourceDestroyed,// the resource a Destroy function releases
  // Flags.
  Operation,        // cublasOperation_t of Operand
  Fill,             // cublasFillMode_t
  Side,             // cublasSideMode_t
  Diag,             // cublasDiagType_t
  PointerMode,      // the cublasPointerMode_t of cublasSetPointerMode
  // Sizes.
  DimM, DimN, DimK, // the m, n, k of the operation (n alone for vectors)
  DimKL, DimKU,     // band widths
  ElemSize,         // elemSize of Set/Get routines, in bytes
  BatchCount,       // number of problems in a batched call
  LeadingDim,       // leading dimension of Operand
  Increment,        // increment of vector Operand
  BatchStride,      // stride between the batch members of Operand
  // Memory.
  DeviceMatrix,     // device memory holding matrix Operand
  DeviceVector,     // device memory holding vector Operand
  DevicePointerArray, // device array of device pointers to Operand's batch
  HostMatrix,       // host memory holding matrix Operand (Set/Get routines)
  HostVector,       // host memory holding vector Operand (Set/Get routines)
  HostArray,        // host memory (e.g. the per-group arrays of grouped calls)
  AnyMemory,        // host or device memory (cublasXt operands)
  HostScalar,       // host memory scalar regardless of pointer mode (cublasXt)
  Scalar,           // alpha/beta-like input: host or device per pointer mode
  ScalarResult,     // result written by cuBLAS: host or device per pointer mode
  DeviceWorkspace,  // device workspace
  WorkspaceSize,    // its size in bytes
  WorkspaceElements,// its size in elements of the routine's type (cuSOLVER)
  WorkspaceSizeOut, // where a _bufferSize query writes a size in bytes
  WorkspaceElementsOut, // where a legacy cuSOLVER query writes one in
                        // elements of the routine's type
  HostWorkspaceSizeOut, // where a 64-bit cuSOLVER query writes the host
                        // workspace's size in bytes
  WorkspaceSizeInOut,   // a routine that sizes its own buffer (cuSPARSE's
                        // SpGEMM): with a null buffer it writes the size in
                        // bytes here, with a buffer it reads it
  // Types.
  DataType,         // cudaDataType_t of Operand
  ComputeType,      // cublasComputeType_t / cudaDataType_t for computation
  Stream,           // cudaStream_t
};

/// True for a parameter that points to memory the memory-space checks judge:
/// an operand, a Set/Get side, a scalar, a workspace.
constexpr bool holdsMemory(ParamRole R) {
  switch (R) {
  case ParamRole::DeviceMatrix:
  case ParamRole::DeviceVector:
  case ParamRole::DevicePointerArray:
  case ParamRole::HostMatrix:
  case ParamRole::HostVector:
  case ParamRole::HostArray:
  case ParamRole::AnyMemory:
  case ParamRole::HostScalar:
  case ParamRole::Scalar:
  case ParamRole::ScalarResult:
  case ParamRole::DeviceWorkspace:
    return true;
  default:
    return false;
  }
}

/// True when that memory's space is fixed by the routine alone: not a
/// scalar that the pointer mode places, nor cublasXt's host-or-device
/// operands.
constexpr bool hasFixedMemorySpace(ParamRole R) {
  return holdsMemory(R) && R != ParamRole::AnyMemory &&
         R != ParamRole::Scalar && R != ParamRole::ScalarResult;
}

/// Which operand of the routine a parameter refers to.
enum class Operand : std::uint8_t {
  None, A, B, C, D, X, Y, Alpha, Beta, Result, Info, Pivot
};

struct ParamInfo {
  const char *Name;   // as spelled in the header
  ParamRole Role;
  Operand Op;
};

struct FunctionInfo {
  const char *Name;        // real symbol, e.g. "cublasSgemm_v2_64"
  const char *Routine;     // BLAS routine without prefix/suffixes: "gemm"
  ApiFamily Family;
  ElemType Elem;
  bool ReturnsStatus;      // returns cublasStatus_t (cusolverStatus_t,
                           // cusparseStatus_t in the neighbours)
  bool Is64;               // the _64 (int64_t sizes) variant
  bool Batched;            // *Batched (arrays of pointers)
  bool StridedBatched;     // *StridedBatched
  ResourceKind Creates;    // None unless this is a Create function
  ResourceKind Destroys;   // None unless this is a Destroy function
  /// A `static inline` helper defined in the header (cublasLtMatmulDescInit,
  /// ...; CUBLAS_INLINE_SIGNATURE in the table): calls of it are calls like
  /// any other, but it has no symbol to link to or interpose.
  bool Inline;
  /// The header documents CUBLAS_STATUS_SUCCESS as the only status the
  /// function returns (CUBLAS_ONLY_SUCCESS in the table: the cuBLASLt
  /// descriptor destroys, the logger's setters).
  bool OnlySuccess;
  const ParamInfo *ParamsBegin;
  unsigned NumParams;

  llvm::ArrayRef<ParamInfo> params() const {
    return {ParamsBegin, NumParams};
  }
  /// Index of the first parameter with this role (and operand, unless
  /// Operand::None is given and any operand matches), or -1.
  int findParam(ParamRole Role, Operand Op = Operand::None) const;
  /// Index of the parameter named `Name` in the header ("computeDesc"), or
  /// -1.
  int findParamNamed(llvm::StringRef Name) const;
};

/// True for a function that computes on a handle, as opposed to one that
/// creates, destroys or configures it: a cuBLAS routine (gemm, ...) or a
/// cuSOLVER or cuSPARSE routine (cusolverDnSgetrf, cusparseSpMV, their
/// _bufferSize queries), not a Set/Get of a setting.
bool doesWork(const FunctionInfo &F);

/// True for a create of a cuSPARSE descriptor that keeps the data pointers
/// it is given (cusparseCreateDnVec, cusparseCreateCsr, ...): cuSPARSE
/// stores them and reads them only in a routine that computes with the
/// descriptor.
bool storesDescriptorData(const FunctionInfo &F);

/// True for a function that replaces the data pointers a descriptor keeps
/// (cusparseDnVecSetValues, cusparseDnMatSetValues, cusparseSpMatSetValues,
/// cusparseCsrSetPointers, ...): the descriptor is its first parameter.
bool setsDescriptorData(const FunctionInfo &F);

/// True for a function that reads a setting or a property into its
/// output parameters (cublasGetMathMode, cublasGetStream, cusparseGetVersion,
/// cublasLtMatmulDescGetAttribute, cusparseSpMatGetSize), as opposed to a
/// transfer of data (cublasGetVector, cublasGetMatrix) or a search
/// (cublasLtMatmulAlgoGetHeuristic).
bool readsSetting(const FunctionInfo &F);

/// The row for a real function name (after macro expansion, e.g.
/// "cublasSgemm_v2"), or nullptr. O(1).
const FunctionInfo *lookupFunction(llvm::StringRef Name);

/// Every row of the table, in table order.
llvm::ArrayRef<FunctionInfo> allFunctions();

/// Functions declared in the CUDA headers that the model knows of and
/// deliberately does not describe, with the reason.
struct OutOfScopeEntry {
  const char *Name;
  const char *Reason;
};
llvm::ArrayRef<OutOfScopeEntry> outOfScopeFunctions();

/// The size in bytes of the storage of attribute `Attr` (its value) that
/// the cuBLASLt accessor `Accessor` sets or gets
/// ("cublasLtMatmulDescSetAttribute"), as cublasLt.h documents it: the
/// accessor fails with CUBLAS_STATUS_INVALID_VALUE, and only then, when its
/// buffer is null or its size is not this one. Nullopt for an attribute
/// whose storage is an array or undocumented, and for another function.
std::optional<unsigned> ltAttributeBytes(llvm::StringRef Accessor,
                                         std::int64_t Attr);

/// The Destroy function that releases what `Kind` names, e.g.
/// "cublasDestroy_v2" for ResourceKind::Handle.
llvm::StringRef destroyFunctionFor(ResourceKind Kind);

/// Where cublasLtMatmul reads alpha or beta.
enum class ScalarSpace : std::uint8_t { Unknown, Host, Device };

/// The enumerator of a cublasLtPointerMode_t value
/// ("CUBLASLT_POINTER_MODE_DEVICE"); empty when unknown.
llvm::StringRef ltPointerModeName(std::int64_t Mode);

/// The enumerator of a classic cuBLAS or a cuSPARSE handle's pointer mode
/// ("CUBLAS_POINTER_MODE_HOST", "CUSPARSE_POINTER_MODE_DEVICE"): each
/// library's handle has its own, with the same two values.
llvm::StringRef pointerModeName(ApiFamily Family, bool Device);

/// Where cublasLtMatmul reads `Op` (Operand::Alpha or Operand::Beta) when
/// its matmul descriptor's CUBLASLT_MATMUL_DESC_POINTER_MODE is `Mode`: the
/// vector modes put alpha on the device, and beta too unless it stays on
/// the host; Unknown where it is not read (beta of ..._BETA_ZERO) or the
/// mode is unknown.
ScalarSpace ltScalarSpace(std::int64_t Mode, Operand Op);

llvm::StringRef toString(ParamRole Role);
llvm::StringRef toString(Operand Op);
llvm::StringRef toString(ResourceKind Kind);
llvm::StringRef toString(ElemType Elem);

/// Size in bytes of one element of `Elem`; 0 when not fixed.
unsigned elementSize(ElemType Elem);

} // namespace cublas_tidy

#endif
