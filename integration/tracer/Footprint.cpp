//===- Footprint.cpp - Bytes a cuBLAS call touches through one pointer ----===//

#include "Footprint.h"

#include <cstdlib>

namespace cublas_trace {

using cublas_tidy::ElemType;
using cublas_tidy::Operand;
using cublas_tidy::ParamRole;

namespace {

using Value = std::optional<std::int64_t>;

/// The integer arguments of one call, by role.
struct CallArgs {
  const FunctionInfo &F;
  const Arg *Args;

  Value get(ParamRole Role, Operand Op = Operand::None) const {
    int I = F.findParam(Role, Op);
    if (I < 0 || Args[I].K != Arg::Integer)
      return std::nullopt;
    return Args[I].Int;
  }
  const char *nameOf(ParamRole Role, Operand Op) const {
    int I = F.findParam(Role, Op);
    return I < 0 ? "?" : F.params()[I].Name;
  }
};

bool isOneOf(llvm::StringRef R, std::initializer_list<llvm::StringRef> Set) {
  for (llvm::StringRef S : Set)
    if (R == S)
      return true;
  return false;
}

/// CUBLAS_OP_T and CUBLAS_OP_C swap rows and columns; CUBLAS_OP_N (0) and
/// CUBLAS_OP_CONJG (3) keep them.
bool swapsShape(Value Op) { return Op && *Op != 0 && *Op != 3; }

/// CUBLAS_SIDE_LEFT is 0.
bool leftSide(Value Side) { return Side && *Side == 0; }

struct Shape {
  std::int64_t Rows = 0, Cols = 0;
};

std::optional<Shape> makeShape(Value Rows, Value Cols, bool Swap) {
  if (!Rows || !Cols)
    return std::nullopt;
  Shape S{*Rows, *Cols};
  if (Swap)
    std::swap(S.Rows, S.Cols);
  return S;
}

/// Rows and columns of matrix operand Op, stored column-major.
std::optional<Shape> matrixShape(const CallArgs &C, Operand Op) {
  llvm::StringRef R = C.F.Routine;
  Value M = C.get(ParamRole::DimM), N = C.get(ParamRole::DimN),
        K = C.get(ParamRole::DimK);
  Value TransA = C.get(ParamRole::Operation, Operand::A);
  Value TransB = C.get(ParamRole::Operation, Operand::B);
  if (isOneOf(R, {"gemm", "gemm3m"})) {
    if (Op == Operand::A)
      return makeShape(M, K, swapsShape(TransA));
    if (Op == Operand::B)
      return makeShape(K, N, swapsShape(TransB));
    if (Op == Operand::C)
      return makeShape(M, N, false);
  }
  if (R == "geam") {
    if (Op == Operand::A)
      return makeShape(M, N, swapsShape(TransA));
    if (Op == Operand::B)
      return makeShape(M, N, swapsShape(TransB));
    if (Op == Operand::C)
      return makeShape(M, N, false);
  }
  if (isOneOf(
          R, {"gemv", "ger", "geru", "gerc", "dgmm", "setmatrix", "getmatrix"}))
    return makeShape(M, N, false);
  if (isOneOf(R,
              {"symv", "hemv", "syr", "her", "syr2", "her2", "trmv", "trsv"}) &&
      Op == Operand::A)
    return makeShape(N, N, false);
  if (isOneOf(R, {"symm", "hemm", "trsm", "trmm"})) {
    Value Side = C.get(ParamRole::Side);
    if (Op == Operand::A) {
      if (!Side)
        return std::nullopt;
      return leftSide(Side) ? makeShape(M, M, false) : makeShape(N, N, false);
    }
    return makeShape(M, N, false);
  }
  if (isOneOf(R, {"syrk", "herk", "syrkx", "herkx", "syr2k", "her2k"})) {
    if (Op == Operand::C)
      return makeShape(N, N, false);
    return makeShape(N, K, swapsShape(TransA));
  }
  return std::nullopt;
}

/// Number of elements of vector operand Op.
Value vectorLength(const CallArgs &C, Operand Op) {
  llvm::StringRef R = C.F.Routine;
  Value M = C.get(ParamRole::DimM), N = C.get(ParamRole::DimN);
  if (isOneOf(R, {"axpy", "copy",      "scal",      "dot",  "dotu", "dotc",
                  "nrm2", "asum",      "amax",      "amin", "swap", "rot",
                  "rotm", "setvector", "getvector", "symv", "hemv", "syr",
                  "her",  "syr2",      "her2",      "trmv", "trsv"}))
    return N;
  if (R == "gemv") {
    bool Swap = swapsShape(C.get(ParamRole::Operation, Operand::A));
    if (Op == Operand::X)
      return Swap ? M : N;
    return Swap ? N : M;
  }
  if (isOneOf(R, {"ger", "geru", "gerc"}))
    return Op == Operand::X ? M : N;
  if (R == "dgmm")
    return leftSide(C.get(ParamRole::Side)) ? M : N;
  return std::nullopt;
}

std::size_t elementBytes(const CallArgs &C, Operand Op) {
  if (unsigned Size = cublas_tidy::elementSize(C.F.Elem))
    return Size;
  if (Value Size = C.get(ParamRole::ElemSize))
    return *Size > 0 ? static_cast<std::size_t>(*Size) : 0;
  if (C.F.Elem == ElemType::Dynamic)
    if (Value Type = C.get(ParamRole::DataType, Op))
      return dataTypeSize(*Type);
  return 0;
}

bool mulAdd(std::int64_t A, std::int64_t B, std::int64_t Add,
            std::int64_t &Out) {
  std::int64_t P;
  return !__builtin_mul_overflow(A, B, &P) &&
         !__builtin_add_overflow(P, Add, &Out);
}

} // namespace

std::size_t dataTypeSize(std::int64_t T) {
  // Indexed by the cudaDataType_t value (library_types.h); 0 for the
  // sub-byte types (4-bit, 6-bit).
  static const unsigned char Sizes[] = {
      4,  // 0 CUDA_R_32F
      8,  // 1 CUDA_R_64F
      2,  // 2 CUDA_R_16F
      1,  // 3 CUDA_R_8I
      8,  // 4 CUDA_C_32F
      16, // 5 CUDA_C_64F
      4,  // 6 CUDA_C_16F
      2,  // 7 CUDA_C_8I
      1,  // 8 CUDA_R_8U
      2,  // 9 CUDA_C_8U
      4,  // 10 CUDA_R_32I
      8,  // 11 CUDA_C_32I
      4,  // 12 CUDA_R_32U
      8,  // 13 CUDA_C_32U
      2,  // 14 CUDA_R_16BF
      4,  // 15 CUDA_C_16BF
      0,  // 16 CUDA_R_4I
      0,  // 17 CUDA_C_4I
      0,  // 18 CUDA_R_4U
      0,  // 19 CUDA_C_4U
      2,  // 20 CUDA_R_16I
      4,  // 21 CUDA_C_16I
      2,  // 22 CUDA_R_16U
      4,  // 23 CUDA_C_16U
      8,  // 24 CUDA_R_64I
      16, // 25 CUDA_C_64I
      8,  // 26 CUDA_R_64U
      16, // 27 CUDA_C_64U
      1,  // 28 CUDA_R_8F_E4M3
      1,  // 29 CUDA_R_8F_E5M2
      1,  // 30 CUDA_R_8F_UE8M0
  };
  if (T < 0 || T >= static_cast<std::int64_t>(sizeof(Sizes)))
    return 0;
  return Sizes[T];
}

std::optional<Footprint> operandFootprint(const FunctionInfo &F,
                                          const Arg *Args, unsigned I) {
  if (I >= F.NumParams)
    return std::nullopt;
  const ParamInfo &P = F.params()[I];
  CallArgs C{F, Args};
  std::size_t ElemBytes = elementBytes(C, P.Op);
  if (ElemBytes == 0)
    return std::nullopt;

  std::int64_t Elements = 0;
  std::string Formula;
  if (P.Role == ParamRole::DeviceMatrix) {
    std::optional<Shape> S = matrixShape(C, P.Op);
    Value Ld = C.get(ParamRole::LeadingDim, P.Op);
    if (!S || !Ld || S->Rows <= 0 || S->Cols <= 0 ||
        *Ld < std::max<std::int64_t>(1, S->Rows))
      return std::nullopt;
    if (!mulAdd(*Ld, S->Cols - 1, S->Rows, Elements))
      return std::nullopt;
    const char *LdName = C.nameOf(ParamRole::LeadingDim, P.Op);
    Formula = std::string(LdName) + "*(cols-1)+rows = " + std::to_string(*Ld) +
              "*(" + std::to_string(S->Cols) + "-1)+" + std::to_string(S->Rows);
  } else if (P.Role == ParamRole::DeviceVector) {
    Value Len = vectorLength(C, P.Op);
    Value Inc = C.get(ParamRole::Increment, P.Op);
    if (!Len || !Inc || *Len <= 0 || *Inc == 0)
      return std::nullopt;
    std::int64_t Step = std::llabs(*Inc);
    if (!mulAdd(*Len - 1, Step, 1, Elements))
      return std::nullopt;
    const char *IncName = C.nameOf(ParamRole::Increment, P.Op);
    Formula = std::string("1+(n-1)*|") + IncName + "| = 1+(" +
              std::to_string(*Len) + "-1)*" + std::to_string(Step);
  } else {
    return std::nullopt;
  }

  if (F.StridedBatched) {
    Value Stride = C.get(ParamRole::BatchStride, P.Op);
    Value Count = C.get(ParamRole::BatchCount);
    if (!Count || *Count <= 0)
      return std::nullopt;
    if (Stride && *Stride > 0 && *Count > 1) {
      if (!mulAdd(*Stride, *Count - 1, Elements, Elements))
        return std::nullopt;
      Formula += std::string(" + ") + C.nameOf(ParamRole::BatchStride, P.Op) +
                 "*(batchCount-1) = " + std::to_string(*Stride) + "*(" +
                 std::to_string(*Count) + "-1)";
    }
  }
  std::int64_t Bytes;
  if (!mulAdd(Elements, static_cast<std::int64_t>(ElemBytes), 0, Bytes))
    return std::nullopt;
  Formula += " = " + std::to_string(Elements) + " elements of " +
             std::to_string(ElemBytes) + " bytes";
  return Footprint{static_cast<std::uint64_t>(Bytes), Formula};
}

} // namespace cublas_trace
