//===- LtDescriptorsTest.cpp - cuBLASLt layouts and descriptors at a use --===//

#include "facts/LtDescriptors.h"
#include "TestAST.h"

#include "clang/ASTMatchers/ASTMatchers.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace cublas_tidy;

namespace {

const char Prelude[] = R"(
#include <cublasLt.h>
void sink(cublasLtMatrixLayout_t);
#define SET(l, attr, v) \
  cublasLtMatrixLayoutSetAttribute(l, attr, &v, sizeof(v))
#define DSET(d, attr, v) cublasLtMatmulDescSetAttribute(d, attr, &v, sizeof(v))
#define PSET(p, attr, v) \
  cublasLtMatmulPreferenceSetAttribute(p, attr, &v, sizeof(v))
)";

std::string text(const std::optional<ArgValue> &V) {
  return V ? V->V.str() : "?";
}
std::string text(const std::optional<SymExpr> &V) {
  return V ? V->str() : "?";
}

/// "<type> <rows>x<cols> ld=<ld> b=<batches> s=<stride>[ row]" of a layout.
std::string describe(const LtLayoutFacts &L) {
  return std::string(L.Type ? L.Type->Name : "?") + " " + text(L.Rows) + "x" +
         text(L.Cols) + " ld=" + text(L.Ld) + " b=" + text(L.BatchCount) +
         " s=" + text(L.BatchStride) + (L.ColumnMajor ? "" : " row");
}

/// Parses `Code` (after the prelude) and prints `Print(Call, Facts)` for
/// every call to `Callee` in the function `f`, in source order.
template <typename PrintT>
std::vector<std::string> atCalls(const std::string &Code,
                                 const std::string &Callee, PrintT Print) {
  auto AST = test::buildAST(std::string(Prelude) + Code);
  if (!AST || AST->getDiagnostics().hasErrorOccurred())
    return {"does not compile"};
  const FunctionDecl *F = test::functionNamed(*AST, "f");
  ValueFacts Facts(F, AST->getASTContext());
  std::vector<std::string> Out;
  for (const CallExpr *Call : test::callsTo(*AST, F, Callee))
    Out.push_back(Print(Call, Facts));
  return Out;
}

/// The layout every `cublasLtMatrixLayoutDestroy(l)` of `f` sees; with
/// `Elements`, the elements it spans instead ("-" when none are known,
/// "rejected" for a layout cuBLASLt rejects).
std::vector<std::string> layouts(const std::string &Code,
                                 bool Elements = false) {
  return atCalls(Code, "cublasLtMatrixLayoutDestroy",
                 [&](const CallExpr *Use, const ValueFacts &Facts) {
                   auto L = ltLayoutAt(Use, Use->getArg(0), Facts);
                   if (!L)
                     return std::string("unknown");
                   if (!Elements)
                     return describe(*L);
                   if (ltLayoutRejected(*L, {}))
                     return std::string("rejected");
                   std::optional<SymExpr> E = ltLayoutElements(*L, {});
                   return E ? E->str() : std::string("-");
                 });
}

using Strings = std::vector<std::string>;

// The create's type, rows, columns and ld; attributes set before the use
// change them. An order other than column-major is kept as such.
TEST(LtDescriptors, LayoutAttributes) {
  EXPECT_EQ(layouts(R"(void f(int m) {
    const int k = 32, lda = 160;
    cublasLtMatrixLayout_t a, b, c;
    cublasLtMatrixLayoutCreate(&a, CUDA_R_16F, m, k, lda + m);
    cublasLtMatrixLayoutCreate(&b, CUDA_R_32F, 64, 64, 64);
    int32_t count = 8; int64_t stride = 8192;
    SET(b, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, count);
    SET(b, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, stride);
    uint64_t rows = 32; cudaDataType_t t = CUDA_R_64F;
    SET(b, CUBLASLT_MATRIX_LAYOUT_ROWS, rows);
    SET(b, CUBLASLT_MATRIX_LAYOUT_TYPE, t);
    cublasLtMatrixLayoutCreate(&c, CUDA_R_32F, 64, 64, 64);
    cublasLtOrder_t row = CUBLASLT_ORDER_ROW;
    SET(c, CUBLASLT_MATRIX_LAYOUT_ORDER, row);
    cublasLtMatrixLayoutDestroy(a); cublasLtMatrixLayoutDestroy(b);
    cublasLtMatrixLayoutDestroy(c);
  })"),
            (Strings{"CUDA_R_16F mx32 ld=m + 160 b=1 s=0",
                     "CUDA_R_64F 32x64 ld=64 b=8 s=8192",
                     "CUDA_R_32F 64x64 ld=64 b=1 s=0 row"}));
}

// Nothing is known of a layout the function does not follow whole: passed
// to other code, created twice, set after the use, set through an
// attribute not modelled or an id that is not known. A value stored to
// again after its initializer is not known either.
TEST(LtDescriptors, LayoutsNotFollowed) {
  EXPECT_EQ(layouts(R"(void f(cublasLtMatrixLayout_t given, int id) {
    cublasLtMatrixLayoutDestroy(given);
    cublasLtMatrixLayout_t a, b, c, d, e, g;
    cublasLtMatrixLayoutCreate(&a, CUDA_R_32F, 8, 8, 8); sink(a);
    cublasLtMatrixLayoutDestroy(a);
    cublasLtMatrixLayoutCreate(&b, CUDA_R_32F, 8, 8, 8);
    cublasLtMatrixLayoutCreate(&b, CUDA_R_32F, 8, 8, 8);
    cublasLtMatrixLayoutDestroy(b);
    int32_t count = 4;
    cublasLtMatrixLayoutCreate(&c, CUDA_R_32F, 8, 8, 8);
    cublasLtMatrixLayoutDestroy(c);
    SET(c, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, count);
    int64_t plane = 0;
    cublasLtMatrixLayoutCreate(&d, CUDA_R_32F, 8, 8, 8);
    SET(d, CUBLASLT_MATRIX_LAYOUT_PLANE_OFFSET, plane);
    cublasLtMatrixLayoutDestroy(d);
    cublasLtMatrixLayoutCreate(&e, CUDA_R_32F, 8, 8, 8);
    cublasLtMatrixLayoutSetAttribute(e, (cublasLtMatrixLayoutAttribute_t)id,
                                     &count, sizeof(count));
    cublasLtMatrixLayoutDestroy(e);
    int32_t later = 4; later = 16;
    cublasLtMatrixLayoutCreate(&g, CUDA_R_32F, 8, 8, 8);
    SET(g, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, later);
    cublasLtMatrixLayoutDestroy(g);
  })"),
            (Strings{"unknown", "unknown", "unknown", "unknown", "unknown",
                     "unknown", "CUDA_R_32F 8x8 ld=8 b=? s=0"}));
}

// ld*(cols-1)+rows for one member, stride*(batches-1) more: a batch count
// of 1 adds nothing whatever the stride, a count of 0 spans nothing.
// cuBLASLt rejects a layout whose ld is proven below its rows (not one
// equal to them, or not comparable); a row-major layout has no footprint.
TEST(LtDescriptors, LayoutElements) {
  EXPECT_EQ(layouts(R"(void f(int n, int m) {
    cublasLtMatrixLayout_t a, b, c, d, e, g, r1, r2, r3, row;
    cublasLtMatrixLayoutCreate(&a, CUDA_R_32F, 128, 32, 160);
    int32_t one = 1, eight = 8, none = 0; int64_t big = 1 << 20;
    int64_t stride = 8192;
    cublasLtMatrixLayoutCreate(&b, CUDA_R_32F, 128, 32, 160);
    SET(b, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, one);
    SET(b, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, big);
    cublasLtMatrixLayoutCreate(&c, CUDA_R_16F, 64, 64, 64);
    SET(c, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, eight);
    SET(c, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, stride);
    cublasLtMatrixLayoutCreate(&d, CUDA_R_32F, 64, 64, 64);
    SET(d, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, none);
    cublasLtMatrixLayoutCreate(&e, CUDA_R_32F, n, 4, n);
    cublasLtMatrixLayoutCreate(&g, (cudaDataType_t)n, 8, 8, 8);
    cublasLtMatrixLayoutCreate(&r1, CUDA_R_32F, 128, 32, 64);
    cublasLtMatrixLayoutCreate(&r2, CUDA_R_32F, m, 32, m - 1);
    cublasLtMatrixLayoutCreate(&r3, CUDA_R_32F, m, 32, n);
    cublasLtMatrixLayoutCreate(&row, CUDA_R_32F, 128, 32, 128);
    cublasLtOrder_t order = CUBLASLT_ORDER_ROW;
    SET(row, CUBLASLT_MATRIX_LAYOUT_ORDER, order);
    cublasLtMatrixLayoutDestroy(a); cublasLtMatrixLayoutDestroy(b);
    cublasLtMatrixLayoutDestroy(c); cublasLtMatrixLayoutDestroy(d);
    cublasLtMatrixLayoutDestroy(e); cublasLtMatrixLayoutDestroy(g);
    cublasLtMatrixLayoutDestroy(r1); cublasLtMatrixLayoutDestroy(r2);
    cublasLtMatrixLayoutDestroy(r3); cublasLtMatrixLayoutDestroy(row);
  })",
                    /*Elements=*/true),
            (Strings{"5088", "5088", "61440", "-", "4*n", "-", "rejected",
                     "rejected", "m + 31*n", "-"}));
}

// The compute and scale types of the create; the transposes and the
// pointer mode set later (the call that set it kept); an attribute not
// read leaves the rest known.
TEST(LtDescriptors, MatmulDescriptors) {
  auto Descs = [](const std::string &Code) {
    return atCalls(Code, "cublasLtMatmulDescDestroy",
                   [](const CallExpr *Use, const ValueFacts &Facts) {
                     auto D = ltMatmulDescAt(Use, Use->getArg(0), Facts);
                     if (!D)
                       return std::string("unknown");
                     auto Num = [](std::optional<int64_t> V) {
                       return V ? std::to_string(*V) : std::string("?");
                     };
                     return D->ComputeType + "/" + D->ScaleType + " " +
                            Num(D->TransA) + Num(D->TransB) + " mode=" +
                            Num(D->PointerMode) +
                            (D->PointerModeSet ? " set" : "");
                   });
  };
  EXPECT_EQ(Descs(R"(void f(cublasOperation_t param) {
    cublasLtMatmulDesc_t a, b, c;
    cublasLtMatmulDescCreate(&a, CUBLAS_COMPUTE_32F, CUDA_R_32F);
    cublasLtMatmulDescCreate(&b, CUBLAS_COMPUTE_64F, CUDA_R_64F);
    cublasOperation_t t = CUBLAS_OP_T;
    DSET(b, CUBLASLT_MATMUL_DESC_TRANSA, t);
    cublasLtPointerMode_t dev = CUBLASLT_POINTER_MODE_DEVICE;
    DSET(b, CUBLASLT_MATMUL_DESC_POINTER_MODE, dev);
    cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_RELU;
    DSET(b, CUBLASLT_MATMUL_DESC_EPILOGUE, epi);
    cublasLtMatmulDescCreate(&c, CUBLAS_COMPUTE_32F, CUDA_R_32F);
    cublasOperation_t p = param; cudaDataType_t s = CUDA_R_16F;
    DSET(c, CUBLASLT_MATMUL_DESC_TRANSB, p);
    DSET(c, CUBLASLT_MATMUL_DESC_SCALE_TYPE, s);
    cublasComputeType_t ct = CUBLAS_COMPUTE_16F;
    DSET(c, CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, ct);
    cublasLtMatmulDescDestroy(a); cublasLtMatmulDescDestroy(b);
    cublasLtMatmulDescDestroy(c);
  })"),
            (Strings{"CUBLAS_COMPUTE_32F/CUDA_R_32F 00 mode=0",
                     "CUBLAS_COMPUTE_64F/CUDA_R_64F 10 mode=1 set",
                     "/CUDA_R_16F 0? mode=0"}));
}

// A, B, C and D of a cublasLtMatmul: their pointer and layout parameters,
// the layouts' facts, and op(X) under the descriptor's transposes.
TEST(LtDescriptors, MatmulOperandsAndShapes) {
  auto AST = test::buildAST(std::string(Prelude) + R"(
    void f(cublasLtHandle_t lt, const float *A, const float *B, float *C,
           cublasLtMatrixLayout_t given) {
      cublasLtMatmulDesc_t op;
      cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
      cublasOperation_t t = CUBLAS_OP_T;
      DSET(op, CUBLASLT_MATMUL_DESC_TRANSA, t);
      cublasLtMatrixLayout_t a, c;
      cublasLtMatrixLayoutCreate(&a, CUDA_R_32F, 32, 128, 32);
      cublasLtMatrixLayoutCreate(&c, CUDA_R_32F, 128, 64, 128);
      const float alpha = 1, beta = 0;
      cublasLtMatmul(lt, op, &alpha, A, a, B, given, &beta, C, c, C, c,
                     nullptr, nullptr, 0, 0);
    })");
  ASSERT_TRUE(AST);
  ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
  const FunctionDecl *F = test::functionNamed(*AST, "f");
  auto Calls = test::callsTo(*AST, F, "cublasLtMatmul");
  const FunctionInfo *Info = lookupFunction("cublasLtMatmul");
  ASSERT_TRUE(Info && Calls.size() == 1);
  ValueFacts Facts(F, AST->getASTContext());
  std::array<LtOperand, 4> Ops = ltMatmulOperands(Calls[0], *Info, Facts);
  const int Params[4][2] = {{3, 4}, {5, 6}, {8, 9}, {10, 11}};
  for (int I = 0; I < 4; ++I) {
    EXPECT_EQ(Ops[I].Pointer, Params[I][0]);
    EXPECT_EQ(Ops[I].Layout, Params[I][1]);
  }
  EXPECT_EQ(Ops[0].Op, Operand::A);
  EXPECT_EQ(Ops[3].Op, Operand::D);
  ASSERT_TRUE(Ops[0].Facts && Ops[2].Facts && Ops[3].Facts);
  EXPECT_FALSE(Ops[1].Facts); // a parameter: not followed
  EXPECT_EQ(Ops[0].Facts->Var->getName(), "a");
  EXPECT_EQ(Ops[3].Facts->Var, Ops[2].Facts->Var);

  std::optional<LtMatmulDescFacts> D = ltMatmulDescOf(Calls[0], *Info, Facts);
  ASSERT_TRUE(D);
  EXPECT_EQ(D->TransA, std::optional<int64_t>(1));
  // op(A) = A^T: the 32 x 128 layout is a 128 x 32 operand.
  LtOperandShape A = ltOperandShape(Ops[0], D->TransA);
  EXPECT_TRUE(A.Transposed);
  EXPECT_EQ(A.Layout, &*Ops[0].Facts);
  EXPECT_EQ(text(A.Rows) + "x" + text(A.Cols), "128x32");
  LtOperandShape C = ltOperandShape(Ops[2], 0);
  EXPECT_FALSE(C.Transposed);
  EXPECT_EQ(text(C.Rows) + "x" + text(C.Cols), "128x64");
  // An unknown or invalid transpose, or an unknown layout: no shape.
  EXPECT_EQ(ltOperandShape(Ops[0], std::nullopt).Layout, nullptr);
  EXPECT_FALSE(ltOperandShape(Ops[0], 3).Rows);
  EXPECT_EQ(ltOperandShape(Ops[1], 0).Layout, nullptr);
}

// The workspace a preference allows: 0 unless set; the set value and the
// call that set it; unknown when set to a value not known.
TEST(LtDescriptors, Preferences) {
  EXPECT_EQ(atCalls(R"(void f(size_t n) {
    cublasLtMatmulPreference_t p, q, r;
    cublasLtMatmulPreferenceCreate(&p);
    cublasLtMatmulPreferenceCreate(&q);
    size_t ws = 1 << 22;
    PSET(q, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, ws);
    uint32_t mode = 0;
    PSET(q, CUBLASLT_MATMUL_PREF_SEARCH_MODE, mode);
    cublasLtMatmulPreferenceCreate(&r);
    size_t other = n; other = n + 1;
    PSET(r, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, other);
    cublasLtMatmulPreferenceDestroy(p); cublasLtMatmulPreferenceDestroy(q);
    cublasLtMatmulPreferenceDestroy(r);
  })",
                    "cublasLtMatmulPreferenceDestroy",
                    [](const CallExpr *Use, const ValueFacts &Facts) {
                      auto P = ltPreferenceAt(Use, Use->getArg(0), Facts);
                      if (!P)
                        return std::string("unknown");
                      return text(P->MaxWorkspace) +
                             (P->MaxWorkspaceSet ? " set" : "");
                    }),
            (Strings{"0", "4194304 set", "? set"}));
}

// The order of the layouts a function creates: column-major unless it sets
// CUBLASLT_MATRIX_LAYOUT_ORDER to another order, sets an attribute it
// cannot tell, or sets any in a lambda.
bool orderMayChange(const std::string &Code) {
  auto AST = test::buildAST(std::string(Prelude) + Code);
  EXPECT_TRUE(AST && !AST->getDiagnostics().hasErrorOccurred()) << Code;
  if (!AST)
    return false;
  const FunctionDecl *F = test::functionNamed(*AST, "f");
  EXPECT_NE(F, nullptr);
  ValueFacts Facts(F, AST->getASTContext());
  return ltLayoutOrderMayChange(Facts);
}

TEST(LtDescriptors, LayoutOrderKeptWithoutAnOrderSet) {
  EXPECT_FALSE(orderMayChange(R"(void f() {
    cublasLtMatrixLayout_t l;
    cublasLtMatrixLayoutCreate(&l, CUDA_R_32F, 4, 4, 4);
    sink(l);
    cublasLtMatrixLayoutDestroy(l);
  })"));
  // Other attributes, and an explicit column order, keep it.
  EXPECT_FALSE(orderMayChange(R"(void f() {
    cublasLtMatrixLayout_t l;
    cublasLtMatrixLayoutCreate(&l, CUDA_R_32F, 4, 4, 4);
    int batches = 8;
    long long stride = 16;
    cublasLtOrder_t col = CUBLASLT_ORDER_COL;
    SET(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, batches);
    SET(l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, stride);
    SET(l, CUBLASLT_MATRIX_LAYOUT_ORDER, col);
  })"));
}

TEST(LtDescriptors, LayoutOrderMayChange) {
  EXPECT_TRUE(orderMayChange(R"(void f(bool rowMajor) {
    cublasLtMatrixLayout_t l;
    cublasLtMatrixLayoutCreate(&l, CUDA_R_32F, 4, 4, 4);
    if (rowMajor) {
      cublasLtOrder_t order = CUBLASLT_ORDER_ROW;
      SET(l, CUBLASLT_MATRIX_LAYOUT_ORDER, order);
    }
  })"));
  // An order the function cannot tell, an attribute id it cannot tell.
  EXPECT_TRUE(orderMayChange(R"(void f(cublasLtOrder_t order,
                                       cublasLtMatrixLayoutAttribute_t a) {
    cublasLtMatrixLayout_t l;
    cublasLtMatrixLayoutCreate(&l, CUDA_R_32F, 4, 4, 4);
    SET(l, CUBLASLT_MATRIX_LAYOUT_ORDER, order);
  })"));
  EXPECT_TRUE(orderMayChange(R"(void f(cublasLtMatrixLayoutAttribute_t a) {
    cublasLtMatrixLayout_t l;
    cublasLtMatrixLayoutCreate(&l, CUDA_R_32F, 4, 4, 4);
    int v = 1;
    SET(l, a, v);
  })"));
  EXPECT_TRUE(orderMayChange(R"(void f() {
    cublasLtMatrixLayout_t l;
    cublasLtMatrixLayoutCreate(&l, CUDA_R_32F, 4, 4, 4);
    auto reorder = [&] {
      int batches = 2;
      SET(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, batches);
    };
    reorder();
  })"));
  // A body too large to look through may.
  std::string Big = "void f() { int x = 0;\n";
  for (int I = 0; I < 5000; ++I)
    Big += "  x = x + 1;\n";
  Big += "}\n";
  EXPECT_TRUE(orderMayChange(Big));
}

} // namespace
