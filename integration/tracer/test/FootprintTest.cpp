//===- FootprintTest.cpp - Operand footprints from the API model ----------===//

#include "Footprint.h"
#include "TraceTestUtil.h"

#include "gtest/gtest.h"

namespace cublas_trace {
namespace {

using test::Call;

/// Bytes of parameter Param of the call, or -1 when there is no footprint.
std::int64_t bytes(const Call &C, const char *Param) {
  for (unsigned I = 0; I < C.F.NumParams; ++I)
    if (std::string(C.F.params()[I].Name) == Param) {
      auto FP = operandFootprint(C.F, C.data(), I);
      return FP ? static_cast<std::int64_t>(FP->Bytes) : -1;
    }
  ADD_FAILURE() << "no parameter " << Param;
  return -2;
}

Call gemm(const char *Name, int TransA, int TransB, int M, int N, int K,
          int Lda, int Ldb, int Ldc) {
  Call C(Name);
  C.set("transa", TransA).set("transb", TransB);
  C.set("m", M).set("n", N).set("k", K);
  C.set("lda", Lda).set("ldb", Ldb).set("ldc", Ldc);
  return C;
}

TEST(Footprint, GemmOperandsFollowTheirOperation) {
  // A is m x k (k x m transposed), B is k x n (n x k), C is m x n.
  Call N = gemm("cublasSgemm_v2", 0, 0, 10, 20, 30, 16, 40, 12);
  EXPECT_EQ(bytes(N, "A"), (16 * 29 + 10) * 4);
  EXPECT_EQ(bytes(N, "B"), (40 * 19 + 30) * 4);
  EXPECT_EQ(bytes(N, "C"), (12 * 19 + 10) * 4);
  Call T = gemm("cublasDgemm_v2", 1, 2, 10, 20, 30, 32, 20, 10);
  EXPECT_EQ(bytes(T, "A"), (32 * 9 + 30) * 8);
  EXPECT_EQ(bytes(T, "B"), (20 * 29 + 20) * 8);
  // CUBLAS_OP_CONJG keeps the shape; complex elements are 8 bytes.
  Call Conj = gemm("cublasCgemm_v2", 3, 0, 10, 20, 30, 10, 30, 10);
  EXPECT_EQ(bytes(Conj, "A"), (10 * 29 + 10) * 8);
}

TEST(Footprint, NothingWhenCublasTouchesNoMemory) {
  EXPECT_EQ(bytes(gemm("cublasSgemm_v2", 0, 0, 64, 8, 8, 32, 8, 64), "A"), -1)
      << "lda below m: CUBLAS_STATUS_INVALID_VALUE";
  EXPECT_EQ(bytes(gemm("cublasSgemm_v2", 0, 0, 0, 8, 8, 1, 8, 1), "C"), -1);
  Call Unknown("cublasSgemm_v2");
  EXPECT_EQ(bytes(Unknown, "A"), -1) << "no dimensions known";
  Call Axpy("cublasSaxpy_v2");
  Axpy.ints("n=10 incx=0 incy=1");
  EXPECT_EQ(bytes(Axpy, "x"), -1);
  EXPECT_EQ(bytes(Axpy, "y"), 40);
}

TEST(Footprint, VectorsWithNegativeIncrements) {
  Call C("cublasDaxpy_v2");
  C.ints("n=5 incx=-3 incy=2");
  EXPECT_EQ(bytes(C, "x"), (1 + 4 * 3) * 8);
  EXPECT_EQ(bytes(C, "y"), (1 + 4 * 2) * 8);
}

TEST(Footprint, GemvVectorsSwapWithTheOperation) {
  Call C("cublasSgemv_v2");
  C.ints("trans=1 m=10 n=20 lda=10 incx=1 incy=1");
  EXPECT_EQ(bytes(C, "A"), (10 * 19 + 10) * 4);
  EXPECT_EQ(bytes(C, "x"), 10 * 4);
  EXPECT_EQ(bytes(C, "y"), 20 * 4);
}

TEST(Footprint, StridedBatchesAddTheirStride) {
  Call C("cublasSgemmStridedBatched");
  C.ints("transa=0 transb=0 m=8 n=8 k=8 lda=8 strideA=64 ldb=8 strideB=0 ldc=8 "
         "strideC=32 batchCount=4");
  EXPECT_EQ(bytes(C, "A"), (64 + 64 * 3) * 4);
  EXPECT_EQ(bytes(C, "B"), 64 * 4) << "stride 0: one matrix for every batch";
  EXPECT_EQ(bytes(C, "C"), (64 + 32 * 3) * 4);
}

TEST(Footprint, ElementSizeFromDataTypeOrElemSize) {
  Call Ex = gemm("cublasGemmEx", 0, 0, 4, 4, 4, 4, 4, 4);
  Ex.ints("Atype=2 Btype=14 Ctype=5"); // R_16F, R_16BF, C_64F
  EXPECT_EQ(bytes(Ex, "A"), 16 * 2);
  EXPECT_EQ(bytes(Ex, "B"), 16 * 2);
  EXPECT_EQ(bytes(Ex, "C"), 16 * 16);
  Call Set("cublasSetMatrix");
  Set.ints("rows=3 cols=5 elemSize=16 lda=3 ldb=7");
  EXPECT_EQ(bytes(Set, "B"), (7 * 4 + 3) * 16);
  EXPECT_EQ(dataTypeSize(33), 0u) << "fp4: below a byte";
  EXPECT_EQ(dataTypeSize(-1), 0u);
}

TEST(Footprint, SideDecidesTheTriangularMatrix) {
  Call Left("cublasStrsm_v2");
  Left.ints("side=0 m=6 n=9 lda=6 ldb=6");
  EXPECT_EQ(bytes(Left, "A"), 36 * 4);
  EXPECT_EQ(bytes(Left, "B"), 54 * 4);
  Call Right("cublasSsymm_v2");
  Right.ints("side=1 m=6 n=9 lda=9 ldb=6 ldc=6");
  EXPECT_EQ(bytes(Right, "A"), 81 * 4);
  Call Dgmm("cublasSdgmm");
  Dgmm.ints("mode=1 m=6 n=9 lda=6 incx=2 ldc=6");
  EXPECT_EQ(bytes(Dgmm, "x"), (1 + 8 * 2) * 4);
  Call Syrk("cublasSsyrk_v2");
  Syrk.ints("trans=1 n=5 k=7 lda=7 ldc=5");
  EXPECT_EQ(bytes(Syrk, "A"), 35 * 4);
  EXPECT_EQ(bytes(Syrk, "C"), 25 * 4);
}

TEST(Footprint, BandAndPackedStorageFollowTheSharedGeometry) {
  // The geometry of cublas-matrix-extents: band storage has kl+ku+1 rows
  // (k+1 for a symmetric or triangular band), a packed triangle n*(n+1)/2
  // elements.
  Call Band("cublasSgbmv_v2");
  Band.ints("trans=0 m=4 n=4 kl=1 ku=1 lda=3 incx=1 incy=1");
  EXPECT_EQ(bytes(Band, "A"), (3 * 3 + 3) * 4);
  Band.ints("lda=2");
  EXPECT_EQ(bytes(Band, "A"), -1) << "lda below kl+ku+1: rejected";
  Call Sbmv("cublasDsbmv_v2");
  Sbmv.ints("uplo=0 n=5 k=2 lda=4 incx=1 incy=1");
  EXPECT_EQ(bytes(Sbmv, "A"), (4 * 4 + 3) * 8);
  Call Packed("cublasStpmv_v2");
  Packed.ints("uplo=0 trans=0 diag=0 n=6 incx=1");
  EXPECT_EQ(bytes(Packed, "AP"), 21 * 4);
}

TEST(Footprint, RoutinesWithoutAShapeHaveNone) {
  Call Batched("cublasSgemmBatched");
  Batched.ints("transa=0 transb=0 m=8 n=8 k=8 lda=8 ldb=8 ldc=8 batchCount=2");
  EXPECT_EQ(bytes(Batched, "Aarray"), -1) << "an array of pointers";
  Call Stride("cublasSgemmStridedBatched");
  Stride.ints("transa=0 transb=0 m=8 n=8 k=8 lda=8 strideA=-64 ldb=8 "
              "strideB=64 ldc=8 strideC=64 batchCount=2");
  EXPECT_EQ(bytes(Stride, "B"), (64 + 64) * 4);
}

TEST(Footprint, NegativeStridesReachBeforeThePointer) {
  // A stride computed in int that wrapped: the second member lies
  // |strideA| elements before A.
  Call C("cublasSgemmStridedBatched");
  C.ints("transa=0 transb=0 m=8 n=8 k=8 lda=8 strideA=-2147479015 ldb=8 "
         "strideB=64 ldc=8 strideC=64 batchCount=3");
  unsigned A = static_cast<unsigned>(C.F.findParamNamed("A"));
  auto FP = operandFootprint(C.F, C.data(), A);
  ASSERT_TRUE(FP);
  EXPECT_EQ(FP->Bytes, 64u * 4) << "each member's own span";
  EXPECT_EQ(FP->BytesBefore, 2147479015ull * 2 * 4);
  unsigned B = static_cast<unsigned>(C.F.findParamNamed("B"));
  EXPECT_EQ(operandFootprint(C.F, C.data(), B)->BytesBefore, 0u);
}

} // namespace
} // namespace cublas_trace
