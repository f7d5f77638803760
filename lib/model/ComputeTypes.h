//===- ComputeTypes.h - Compute types, scale types and type combinations --===//
//
// What the cuBLAS documentation says about the types of the Ex routines:
// the scale type (the type of alpha and beta) each compute type implies,
// the combinations of A/B/C types and compute type that cublasGemmEx and
// its batched forms support, and which C and C++ element types hold the
// data of each cudaDataType_t. Sources: the cuBLAS API reference
// (docs.nvidia.com/cuda/cublas/, CUDA 13.2 edition: section 2.8.12
// "cublasGemmEx()", the table under "cublasGemmEx() supports the following
// Compute Type, Scale Type, Atype/Btype, and Ctype", printed again for
// cublasGemmBatchedEx and cublasGemmStridedBatchedEx; section 2.2.11
// "cublasComputeType_t"), and the headers (cublas_api.h, library_types.h,
// cuda_fp16.h, cuda_bf16.h, cuda_fp8.h, vector_types.h). The compute types
// the table does not list (CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT) are not
// judged.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_MODEL_COMPUTETYPES_H
#define CUBLAS_TIDY_LIB_MODEL_COMPUTETYPES_H

#include "model/ElementTypes.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace cublas_tidy {

struct ComputeTypeInfo {
  std::int64_t Value; // the cublasComputeType_t value
  const char *Name;   // "CUBLAS_COMPUTE_32F"
  /// The scale type for real and for complex C ("CUDA_R_32F",
  /// "CUDA_C_32F"; null when the compute type has no complex form).
  const char *RealScale;
  const char *ComplexScale;
};

/// Every cublasComputeType_t enumerator of cublas_api.h (CUDA 13).
llvm::ArrayRef<ComputeTypeInfo> allComputeTypes();
const ComputeTypeInfo *computeTypeByName(llvm::StringRef Name);

/// The scale type (alpha, beta) of a GEMM whose computeType is the
/// enumerator `ComputeName` and whose C is of type `C` (null: unknown).
/// A cudaDataType_t given as computeType (the C++ overloads of cublas_api.h
/// kept for old code) is its own scale type. Null when unknown.
const DataTypeInfo *scaleTypeOf(llvm::StringRef ComputeName,
                                const DataTypeInfo *C);

/// One row of a table of supported types: a compute type, the scale type,
/// the type of A and B (the same), the type of C (and D).
struct GemmTypes {
  const char *Compute;
  const char *Scale;
  const char *AB;
  const char *C;
};

/// The documented rows of cublasGemmEx (each _PEDANTIC compute type has
/// the rows of its default one).
llvm::ArrayRef<GemmTypes> gemmExTypeRows();

/// Whether the table has rows for compute type `ComputeName` (the others,
/// the emulated compute types for instance, are not judged).
bool gemmExTableCovers(llvm::StringRef ComputeName);

/// Whether the type combinations of the routine `Name` are the cublasGemmEx
/// table's: cublasGemmEx and its batched and strided forms (also _64).
bool judgedByGemmExTable(llvm::StringRef Name);

/// Whether A, B and C of these types are a documented combination for
/// `ComputeName`.
bool gemmExSupports(llvm::StringRef ComputeName, llvm::StringRef A,
                    llvm::StringRef B, llvm::StringRef C);

/// The documented rows of cublasLtMatmul for regular (column- or
/// row-major) matrices (compute types written in one cell of the
/// documentation share the rows of the first: the _PEDANTIC forms, the
/// fast and emulated 32F forms, the emulated 64F form).
llvm::ArrayRef<GemmTypes> ltMatmulTypeRows();

/// Whether the cublasLtMatmul table has rows for `ComputeName`.
bool ltMatmulTableCovers(llvm::StringRef ComputeName);

/// Whether these types are a documented combination of cublasLtMatmul for
/// regular matrices (the FP8 table is another one: not judged here).
bool ltMatmulSupports(llvm::StringRef ComputeName, llvm::StringRef Scale,
                      llvm::StringRef A, llvm::StringRef B, llvm::StringRef C,
                      llvm::StringRef D);

/// The FP8 table of cublasLtMatmul (A and B both FP8): whether it has rows
/// for this compute and scale type (CUBLAS_COMPUTE_32F with a CUDA_R_32F
/// scale; the others are not judged), and whether the types are a row:
/// A and B E4M3 or E5M2 but not both E5M2; C CUDA_R_16F, CUDA_R_16BF or
/// CUDA_R_32F; D of C's type, or, for a 16-bit C, E4M3 (E5M2 too when an
/// input is E5M2). All 19 rows, and nothing else of these types, ran on an
/// H200 with cuBLAS 13.0.
bool ltFp8TableCovers(llvm::StringRef ComputeName, llvm::StringRef Scale);
bool ltFp8MatmulSupports(llvm::StringRef A, llvm::StringRef B,
                         llvm::StringRef C, llvm::StringRef D);

/// FP8 in cublasLtMatmul: whether `T` (or the cudaDataType_t named
/// `Name`) is an FP8 element type of A or B (CUDA_R_8F_E4M3,
/// CUDA_R_8F_E5M2).
bool isFp8Operand(llvm::StringRef Name);
bool isFp8Operand(const DataTypeInfo &T);

/// The compute capability (x10, sm_100 is 100) from which cublasLtMatmul
/// takes FP8 A and B in any layout; below it (Ada sm_89, Hopper sm_90) only
/// A transposed and B not, the "TN" layout (CUBLAS_OP_T, CUBLAS_OP_N),
/// else CUBLAS_STATUS_NOT_SUPPORTED.
constexpr unsigned Fp8AnyLayoutFromSm = 100;

/// What a kind of matrix product needs of the memory of A and B, else it
/// returns CUBLAS_STATUS_NOT_SUPPORTED (cuBLAS 13 on an H200; the
/// documentation of cublasGemmEx and cublasLtMatmul states the same).
struct OperandAlignment {
  /// The product, for messages: "CUBLAS_COMPUTE_32I", "FP8".
  const char *What;
  /// A and B start on a multiple of this many bytes.
  unsigned PointerBytes;
  /// lda and ldb are multiples of this many elements.
  unsigned LdMultiple;
};

/// cublasGemmEx and its strided form with an integer compute type
/// (CUBLAS_COMPUTE_32I, its _PEDANTIC form, or CUDA_R_32I through the C++
/// overload): A and B 4-byte aligned, lda and ldb multiples of 4. Null for
/// other compute types.
const OperandAlignment *integerGemmAlignment(llvm::StringRef ComputeName);

/// cublasLtMatmul with FP8 A or B (isFp8Operand): 16-byte aligned A and B,
/// and their leading dimensions multiples of 16.
const OperandAlignment &fp8MatmulAlignment();

/// cublasLtMatmul with half or bf16 A or B and an algorithm a heuristic
/// chose for the alignment the preference states (256 bytes by default):
/// when A or B starts off a multiple of 16 bytes while every column is a
/// multiple of 16 bytes long (an even `lda` of halves, measured on an H200;
/// an odd one makes the heuristic choose algorithms that read any
/// alignment), the matmul returns CUBLAS_STATUS_NOT_SUPPORTED. Null for
/// other element types.
const OperandAlignment *heuristicMatmulAlignment(const DataTypeInfo &T);

/// The name of a cublasOperation_t value ("CUBLAS_OP_T"); null for another.
const char *operationName(int64_t Op);

/// The cudaDataType_t whose elements a C or C++ type holds, by the type's
/// name as written in the headers ("float", "__half", "__nv_bfloat16",
/// "float2", "c10::Half", "std::complex<float>"); null for names it does
/// not know.
const DataTypeInfo *dataTypeOfTypeName(llvm::StringRef Name);

} // namespace cublas_tidy

#endif
