//===- ComputeTypes.cpp - Compute types, scale types and combinations -----===//

#include "model/ComputeTypes.h"
#include "model/Rows.h"

#include "llvm/ADT/STLExtras.h"

namespace cublas_tidy {

namespace {

const ComputeTypeInfo ComputeTypes[] = {
    {64, "CUBLAS_COMPUTE_16F", "CUDA_R_16F", nullptr},
    {65, "CUBLAS_COMPUTE_16F_PEDANTIC", "CUDA_R_16F", nullptr},
    {68, "CUBLAS_COMPUTE_32F", "CUDA_R_32F", "CUDA_C_32F"},
    {69, "CUBLAS_COMPUTE_32F_PEDANTIC", "CUDA_R_32F", "CUDA_C_32F"},
    {70, "CUBLAS_COMPUTE_64F", "CUDA_R_64F", "CUDA_C_64F"},
    {71, "CUBLAS_COMPUTE_64F_PEDANTIC", "CUDA_R_64F", "CUDA_C_64F"},
    {72, "CUBLAS_COMPUTE_32I", "CUDA_R_32I", nullptr},
    {73, "CUBLAS_COMPUTE_32I_PEDANTIC", "CUDA_R_32I", nullptr},
    {74, "CUBLAS_COMPUTE_32F_FAST_16F", "CUDA_R_32F", "CUDA_C_32F"},
    {75, "CUBLAS_COMPUTE_32F_FAST_16BF", "CUDA_R_32F", "CUDA_C_32F"},
    {77, "CUBLAS_COMPUTE_32F_FAST_TF32", "CUDA_R_32F", "CUDA_C_32F"},
    {78, "CUBLAS_COMPUTE_32F_EMULATED_16BFX9", "CUDA_R_32F", "CUDA_C_32F"},
    {79, "CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT", "CUDA_R_64F", "CUDA_C_64F"},
};

// The table of "cublasGemmEx()" in the cuBLAS API reference (section
// 2.8.12 of the CUDA 13.2 edition; cublasGemmBatchedEx and
// cublasGemmStridedBatchedEx print the same rows, cublasGemmGroupedBatchedEx
// has a table of its own and is not judged here). The _PEDANTIC compute
// types share the rows of their default.
const GemmTypes GemmExRows[] = {
    {"CUBLAS_COMPUTE_16F", "CUDA_R_16F", "CUDA_R_16F", "CUDA_R_16F"},
    {"CUBLAS_COMPUTE_32I", "CUDA_R_32I", "CUDA_R_8I", "CUDA_R_32I"},
    {"CUBLAS_COMPUTE_32F", "CUDA_R_32F", "CUDA_R_16BF", "CUDA_R_16BF"},
    {"CUBLAS_COMPUTE_32F", "CUDA_R_32F", "CUDA_R_16F", "CUDA_R_16F"},
    {"CUBLAS_COMPUTE_32F", "CUDA_R_32F", "CUDA_R_8I", "CUDA_R_32F"},
    {"CUBLAS_COMPUTE_32F", "CUDA_R_32F", "CUDA_R_16BF", "CUDA_R_32F"},
    {"CUBLAS_COMPUTE_32F", "CUDA_R_32F", "CUDA_R_16F", "CUDA_R_32F"},
    {"CUBLAS_COMPUTE_32F", "CUDA_R_32F", "CUDA_R_32F", "CUDA_R_32F"},
    {"CUBLAS_COMPUTE_32F", "CUDA_C_32F", "CUDA_C_8I", "CUDA_C_32F"},
    {"CUBLAS_COMPUTE_32F", "CUDA_C_32F", "CUDA_C_32F", "CUDA_C_32F"},
    {"CUBLAS_COMPUTE_32F_FAST_16F", "CUDA_R_32F", "CUDA_R_32F", "CUDA_R_32F"},
    {"CUBLAS_COMPUTE_32F_FAST_16F", "CUDA_C_32F", "CUDA_C_32F", "CUDA_C_32F"},
    {"CUBLAS_COMPUTE_32F_FAST_16BF", "CUDA_R_32F", "CUDA_R_32F", "CUDA_R_32F"},
    {"CUBLAS_COMPUTE_32F_FAST_16BF", "CUDA_C_32F", "CUDA_C_32F", "CUDA_C_32F"},
    {"CUBLAS_COMPUTE_32F_FAST_TF32", "CUDA_R_32F", "CUDA_R_32F", "CUDA_R_32F"},
    {"CUBLAS_COMPUTE_32F_FAST_TF32", "CUDA_C_32F", "CUDA_C_32F", "CUDA_C_32F"},
    {"CUBLAS_COMPUTE_32F_EMULATED_16BFX9", "CUDA_R_32F", "CUDA_R_32F",
     "CUDA_R_32F"},
    {"CUBLAS_COMPUTE_32F_EMULATED_16BFX9", "CUDA_C_32F", "CUDA_C_32F",
     "CUDA_C_32F"},
    {"CUBLAS_COMPUTE_64F", "CUDA_R_64F", "CUDA_R_64F", "CUDA_R_64F"},
    {"CUBLAS_COMPUTE_64F", "CUDA_C_64F", "CUDA_C_64F", "CUDA_C_64F"},
};

// The table of "cublasLtMatmul()" for regular column- or row-major
// matrices in the cuBLAS API reference (section 3.4.17 of the CUDA 13.2
// edition; the FP8 and IMMA tables are not here). D has C's type. The
// compute types written in one cell share their rows (see ltDefaultOf).
const GemmTypes LtMatmulRows[] = {
    {"CUBLAS_COMPUTE_16F", "CUDA_R_16F", "CUDA_R_16F", "CUDA_R_16F"},
    {"CUBLAS_COMPUTE_32I", "CUDA_R_32I", "CUDA_R_8I", "CUDA_R_32I"},
    {"CUBLAS_COMPUTE_32I", "CUDA_R_32F", "CUDA_R_8I", "CUDA_R_8I"},
    {"CUBLAS_COMPUTE_32F", "CUDA_R_32F", "CUDA_R_16BF", "CUDA_R_16BF"},
    {"CUBLAS_COMPUTE_32F", "CUDA_R_32F", "CUDA_R_16F", "CUDA_R_16F"},
    {"CUBLAS_COMPUTE_32F", "CUDA_R_32F", "CUDA_R_8I", "CUDA_R_32F"},
    {"CUBLAS_COMPUTE_32F", "CUDA_R_32F", "CUDA_R_16BF", "CUDA_R_32F"},
    {"CUBLAS_COMPUTE_32F", "CUDA_R_32F", "CUDA_R_16F", "CUDA_R_32F"},
    {"CUBLAS_COMPUTE_32F", "CUDA_R_32F", "CUDA_R_32F", "CUDA_R_32F"},
    {"CUBLAS_COMPUTE_32F", "CUDA_C_32F", "CUDA_C_8I", "CUDA_C_32F"},
    {"CUBLAS_COMPUTE_32F", "CUDA_C_32F", "CUDA_C_32F", "CUDA_C_32F"},
    {"CUBLAS_COMPUTE_32F_FAST_16F", "CUDA_R_32F", "CUDA_R_32F", "CUDA_R_32F"},
    {"CUBLAS_COMPUTE_32F_FAST_16F", "CUDA_C_32F", "CUDA_C_32F", "CUDA_C_32F"},
    {"CUBLAS_COMPUTE_64F", "CUDA_R_64F", "CUDA_R_64F", "CUDA_R_64F"},
    {"CUBLAS_COMPUTE_64F", "CUDA_C_64F", "CUDA_C_64F", "CUDA_C_64F"},
};

/// The compute type whose rows `Compute` shares in the cublasLtMatmul
/// table.
llvm::StringRef ltDefaultOf(llvm::StringRef Compute) {
  Compute.consume_back("_PEDANTIC");
  if (Compute == "CUBLAS_COMPUTE_32F_FAST_16BF" ||
      Compute == "CUBLAS_COMPUTE_32F_FAST_TF32" ||
      Compute == "CUBLAS_COMPUTE_32F_EMULATED_16BFX9")
    return "CUBLAS_COMPUTE_32F_FAST_16F";
  if (Compute == "CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT")
    return "CUBLAS_COMPUTE_64F";
  return Compute;
}

/// The row of `Rows` for compute type `Default` (as the table writes it)
/// and these types; an empty `Scale` matches any (cublasGemmEx's scale type
/// follows from the others).
const GemmTypes *rowFor(llvm::ArrayRef<GemmTypes> Rows, llvm::StringRef Default,
                        llvm::StringRef Scale, llvm::StringRef A,
                        llvm::StringRef B, llvm::StringRef C) {
  for (const GemmTypes &R : Rows)
    if (Default == R.Compute && (Scale.empty() || Scale == R.Scale) &&
        A == R.AB && B == R.AB && C == R.C)
      return &R;
  return nullptr;
}

bool hasRowsFor(llvm::ArrayRef<GemmTypes> Rows, llvm::StringRef Default) {
  return llvm::any_of(Rows,
                      [&](const GemmTypes &R) { return Default == R.Compute; });
}

struct TypeName {
  const char *Name;
  const char *DataType;
};

// Names as clang prints them, after typedefs are looked through (`half`
// is `__half`, `cuComplex` is `float2`, `int8_t` is `signed char`). The
// one-byte integer types (char, signed char, unsigned char, std::byte) are
// absent on purpose: they are how code holds raw bytes of any type.
const TypeName TypeNames[] = {
    {"float", "CUDA_R_32F"},
    {"double", "CUDA_R_64F"},
    {"__half", "CUDA_R_16F"},
    {"_Float16", "CUDA_R_16F"},
    {"__fp16", "CUDA_R_16F"},
    {"__half2", "CUDA_C_16F"},
    {"__nv_bfloat16", "CUDA_R_16BF"},
    {"__bf16", "CUDA_R_16BF"},
    {"__nv_bfloat162", "CUDA_C_16BF"},
    {"float2", "CUDA_C_32F"},
    {"double2", "CUDA_C_64F"},
    {"char2", "CUDA_C_8I"},
    {"uchar2", "CUDA_C_8U"},
    {"short", "CUDA_R_16I"},
    {"unsigned short", "CUDA_R_16U"},
    {"int", "CUDA_R_32I"},
    {"unsigned int", "CUDA_R_32U"},
    {"long long", "CUDA_R_64I"},
    {"unsigned long long", "CUDA_R_64U"},
    {"__nv_fp8_e4m3", "CUDA_R_8F_E4M3"},
    {"__nv_fp8_e5m2", "CUDA_R_8F_E5M2"},
    {"__nv_fp8_e8m0", "CUDA_R_8F_UE8M0"},
    {"std::complex<float>", "CUDA_C_32F"},
    {"std::complex<double>", "CUDA_C_64F"},
    {"cuda::std::complex<float>", "CUDA_C_32F"},
    {"cuda::std::complex<double>", "CUDA_C_64F"},
    {"thrust::complex<float>", "CUDA_C_32F"},
    {"thrust::complex<double>", "CUDA_C_64F"},
    {"c10::Half", "CUDA_R_16F"},
    {"c10::BFloat16", "CUDA_R_16BF"},
    {"c10::complex<float>", "CUDA_C_32F"},
    {"c10::complex<double>", "CUDA_C_64F"},
    {"c10::Float8_e4m3fn", "CUDA_R_8F_E4M3"},
    {"c10::Float8_e5m2", "CUDA_R_8F_E5M2"},
    {"cutlass::half_t", "CUDA_R_16F"},
    {"cutlass::bfloat16_t", "CUDA_R_16BF"},
    {"cutlass::float_e4m3_t", "CUDA_R_8F_E4M3"},
    {"cutlass::float_e5m2_t", "CUDA_R_8F_E5M2"},
};

llvm::StringRef defaultOf(llvm::StringRef Compute) {
  Compute.consume_back("_PEDANTIC");
  return Compute;
}

} // namespace

llvm::ArrayRef<ComputeTypeInfo> allComputeTypes() { return ComputeTypes; }

const ComputeTypeInfo *computeTypeByName(llvm::StringRef Name) {
  return rowNamed(ComputeTypes, Name);
}

bool isFp8Operand(llvm::StringRef Name) {
  return Name == "CUDA_R_8F_E4M3" || Name == "CUDA_R_8F_E5M2";
}

bool isFp8Operand(const DataTypeInfo &T) { return isFp8Operand(T.Name); }

const OperandAlignment *integerGemmAlignment(llvm::StringRef ComputeName) {
  static const OperandAlignment Integer = {"CUBLAS_COMPUTE_32I", 4, 4};
  if (ComputeName == "CUBLAS_COMPUTE_32I" ||
      ComputeName == "CUBLAS_COMPUTE_32I_PEDANTIC" ||
      ComputeName == "CUDA_R_32I")
    return &Integer;
  return nullptr;
}

const OperandAlignment &fp8MatmulAlignment() {
  static const OperandAlignment Fp8 = {"FP8", 16, 16};
  return Fp8;
}

const OperandAlignment *heuristicMatmulAlignment(const DataTypeInfo &T) {
  // 16-byte pointers; columns of a multiple of 16 bytes (8 halves).
  static const OperandAlignment Heuristic = {"a heuristic's algorithm", 16, 8};
  llvm::StringRef Name = T.Name;
  return Name == "CUDA_R_16F" || Name == "CUDA_R_16BF" ? &Heuristic : nullptr;
}

const char *operationName(int64_t Op) {
  static const char *const Names[] = {"CUBLAS_OP_N", "CUBLAS_OP_T",
                                      "CUBLAS_OP_C"};
  return Op >= 0 && Op < 3 ? Names[Op] : nullptr;
}

const DataTypeInfo *scaleTypeOf(llvm::StringRef ComputeName,
                                const DataTypeInfo *C) {
  if (const ComputeTypeInfo *CT = computeTypeByName(ComputeName)) {
    if (!C)
      return nullptr; // real or complex: C decides
    const char *Scale = llvm::StringRef(C->Name).starts_with("CUDA_C_")
                            ? CT->ComplexScale
                            : CT->RealScale;
    return Scale ? dataTypeByName(Scale) : nullptr;
  }
  // The C++ overloads of cublas_api.h take a cudaDataType_t computeType
  // and migrate it (CUDA_R_32F to CUBLAS_COMPUTE_32F, ...): the scale type
  // is that type.
  const DataTypeInfo *Legacy = dataTypeByName(ComputeName);
  if (!Legacy)
    return nullptr;
  for (llvm::StringRef Known : {"CUDA_R_16F", "CUDA_R_32F", "CUDA_R_64F",
                                "CUDA_R_32I", "CUDA_C_32F", "CUDA_C_64F"})
    if (Known == Legacy->Name)
      return Legacy;
  return nullptr;
}

llvm::ArrayRef<GemmTypes> gemmExTypeRows() { return GemmExRows; }

bool gemmExTableCovers(llvm::StringRef ComputeName) {
  return hasRowsFor(GemmExRows, defaultOf(ComputeName));
}

bool gemmExSupports(llvm::StringRef ComputeName, llvm::StringRef A,
                    llvm::StringRef B, llvm::StringRef C) {
  return rowFor(GemmExRows, defaultOf(ComputeName), "", A, B, C);
}

llvm::ArrayRef<GemmTypes> ltMatmulTypeRows() { return LtMatmulRows; }

bool ltMatmulTableCovers(llvm::StringRef ComputeName) {
  return hasRowsFor(LtMatmulRows, ltDefaultOf(ComputeName));
}

bool ltMatmulSupports(llvm::StringRef ComputeName, llvm::StringRef Scale,
                      llvm::StringRef A, llvm::StringRef B, llvm::StringRef C,
                      llvm::StringRef D) {
  return C == D &&
         rowFor(LtMatmulRows, ltDefaultOf(ComputeName), Scale, A, B, C);
}

bool ltFp8TableCovers(llvm::StringRef ComputeName, llvm::StringRef Scale) {
  return ComputeName == "CUBLAS_COMPUTE_32F" && Scale == "CUDA_R_32F";
}

bool ltFp8MatmulSupports(llvm::StringRef A, llvm::StringRef B,
                         llvm::StringRef C, llvm::StringRef D) {
  if (!isFp8Operand(A) || !isFp8Operand(B) || (A == "CUDA_R_8F_E5M2" && B == A))
    return false;
  if (C == "CUDA_R_32F")
    return D == C;
  if (C != "CUDA_R_16F" && C != "CUDA_R_16BF")
    return false;
  bool AnyE5M2 = A == "CUDA_R_8F_E5M2" || B == "CUDA_R_8F_E5M2";
  return D == C || D == "CUDA_R_8F_E4M3" || (AnyE5M2 && D == "CUDA_R_8F_E5M2");
}

const DataTypeInfo *dataTypeOfTypeName(llvm::StringRef Name) {
  const TypeName *T = rowNamed(TypeNames, Name);
  return T ? dataTypeByName(T->DataType) : nullptr;
}

bool judgedByGemmExTable(llvm::StringRef Name) {
  Name.consume_back("_64");
  return Name == "cublasGemmEx" || Name == "cublasGemmBatchedEx" ||
         Name == "cublasGemmStridedBatchedEx";
}

} // namespace cublas_tidy
