//===- LtAttributes.h - The cuBLASLt attributes the facts and tracer read -===//
//
// cuBLASLt configures layouts, matmul descriptors and preferences through
// `...SetAttribute(obj, attr, &value, sizeof value)`: the attribute is an
// enumerator whose value the facts see as an integer (a constant, or a
// variable holding one) and the tracer as the call's argument. These are
// the enumerators both read, with the values cublasLt.h gives them, so
// that no code compares an attribute with a bare number. Nothing here knows
// of clang.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_MODEL_LTATTRIBUTES_H
#define CUBLAS_TIDY_LIB_MODEL_LTATTRIBUTES_H

#include <cstdint>

namespace cublas_tidy::lt_api {

/// cublasLtMatrixLayoutAttribute_t.
enum LayoutAttribute : std::int64_t {
  LayoutType = 0,               // CUBLASLT_MATRIX_LAYOUT_TYPE
  LayoutOrder = 1,              // CUBLASLT_MATRIX_LAYOUT_ORDER
  LayoutRows = 2,               // CUBLASLT_MATRIX_LAYOUT_ROWS
  LayoutCols = 3,               // CUBLASLT_MATRIX_LAYOUT_COLS
  LayoutLd = 4,                 // CUBLASLT_MATRIX_LAYOUT_LD
  LayoutBatchCount = 5,         // CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT
  LayoutStridedBatchOffset = 6, // CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET
};

/// cublasLtMatmulDescAttributes_t (the ones read).
enum MatmulDescAttribute : std::int64_t {
  DescComputeType = 0,    // CUBLASLT_MATMUL_DESC_COMPUTE_TYPE
  DescScaleType = 1,      // CUBLASLT_MATMUL_DESC_SCALE_TYPE
  DescPointerMode = 2,    // CUBLASLT_MATMUL_DESC_POINTER_MODE
  DescTransA = 3,         // CUBLASLT_MATMUL_DESC_TRANSA
  DescTransB = 4,         // CUBLASLT_MATMUL_DESC_TRANSB
  DescBiasPointer = 8,    // CUBLASLT_MATMUL_DESC_BIAS_POINTER
  DescAScalePointer = 17, // CUBLASLT_MATMUL_DESC_A_SCALE_POINTER
  DescBScalePointer = 18, // CUBLASLT_MATMUL_DESC_B_SCALE_POINTER
  DescCScalePointer = 19, // CUBLASLT_MATMUL_DESC_C_SCALE_POINTER
  DescDScalePointer = 20, // CUBLASLT_MATMUL_DESC_D_SCALE_POINTER
  DescAmaxDPointer = 21,  // CUBLASLT_MATMUL_DESC_AMAX_D_POINTER
};

/// The name of a matmul descriptor attribute whose value is a pointer to
/// device memory that cublasLtMatmul reads or writes on the GPU (the bias
/// vector, the FP8 scales, the amax of D); null for another attribute. A
/// host pointer there is an illegal address on the GPU (seen on an H200
/// for the A scale).
inline const char *devicePointerAttributeName(std::int64_t Attr) {
  switch (Attr) {
  case DescBiasPointer:
    return "CUBLASLT_MATMUL_DESC_BIAS_POINTER";
  case DescAScalePointer:
    return "CUBLASLT_MATMUL_DESC_A_SCALE_POINTER";
  case DescBScalePointer:
    return "CUBLASLT_MATMUL_DESC_B_SCALE_POINTER";
  case DescCScalePointer:
    return "CUBLASLT_MATMUL_DESC_C_SCALE_POINTER";
  case DescDScalePointer:
    return "CUBLASLT_MATMUL_DESC_D_SCALE_POINTER";
  case DescAmaxDPointer:
    return "CUBLASLT_MATMUL_DESC_AMAX_D_POINTER";
  default:
    return nullptr;
  }
}

/// cublasLtMatmulPreferenceAttributes_t (the ones read).
enum PreferenceAttribute : std::int64_t {
  PrefMaxWorkspaceBytes = 1,  // CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES
  PrefMinAlignmentABytes = 5, // CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES
  PrefMinAlignmentBBytes = 6, // ..._B_BYTES
  PrefMinAlignmentCBytes = 7, // ..._C_BYTES
  PrefMinAlignmentDBytes = 8, // ..._D_BYTES
};

/// The alignment a preference states for A, B, C and D where the program
/// does not set it: the heuristic picks algorithms for 256-byte aligned
/// operands (cublasLt.h).
constexpr std::int64_t DefaultPrefMinAlignmentBytes = 256;

/// cublasLtOrder_t.
enum Order : std::int64_t {
  OrderCol = 0, // CUBLASLT_ORDER_COL, the default
  OrderRow = 1, // CUBLASLT_ORDER_ROW
};

/// cublasLtPointerMode_t.
enum PointerMode : std::int64_t {
  PointerModeHost = 0,                       // ..._HOST
  PointerModeDevice = 1,                     // ..._DEVICE
  PointerModeDeviceVector = 2,               // ..._DEVICE_VECTOR
  PointerModeAlphaDeviceVectorBetaZero = 3,  // ..._ALPHA_DEVICE_VECTOR_BETA_ZERO
  PointerModeAlphaDeviceVectorBetaHost = 4,  // ..._ALPHA_DEVICE_VECTOR_BETA_HOST
};

} // namespace cublas_tidy::lt_api

#endif
