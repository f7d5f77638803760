//===- OperandShapes.cpp - The shape table --------------------------------===//

#include "model/OperandShapes.h"
#include "model/Rows.h"

#include "llvm/ADT/StringRef.h"

namespace cublas_tidy {

namespace {

using D = ShapeDim;
using S = ShapeSelector;
using K = ShapeKind;

constexpr OperandShape mat(Operand Op, D R, D C, bool W = false) {
  return {Op, K::Matrix, S::None, {R, R}, {C, C}, W};
}
constexpr OperandShape matSel(Operand Op, S Sel, D R0, D C0, D R1, D C1,
                              bool W = false) {
  return {Op, K::Matrix, Sel, {R0, R1}, {C0, C1}, W};
}
constexpr OperandShape band(Operand Op, D R, D C, bool W = false) {
  return {Op, K::Band, S::None, {R, R}, {C, C}, W};
}
constexpr OperandShape packed(Operand Op, D Order, bool W = false) {
  return {Op, K::Packed, S::None, {Order, Order}, {Order, Order}, W};
}
constexpr OperandShape packedSide(Operand Op, bool W = false) {
  return {Op, K::Packed, S::Side, {D::M, D::N}, {D::M, D::N}, W};
}
constexpr OperandShape vec(Operand Op, D Len, bool W = false) {
  return {Op, K::Vector, S::None, {Len, Len}, {D::One, D::One}, W};
}
constexpr OperandShape vecSel(Operand Op, S Sel, D L0, D L1, bool W = false) {
  return {Op, K::Vector, Sel, {L0, L1}, {D::One, D::One}, W};
}

constexpr Operand A = Operand::A, B = Operand::B, C = Operand::C,
                  X = Operand::X, Y = Operand::Y;

// Level 1.
const OperandShape XOnly[] = {vec(X, D::N)};
const OperandShape XWritten[] = {vec(X, D::N, true)};
const OperandShape XReadYWritten[] = {vec(X, D::N), vec(Y, D::N, true)};
const OperandShape XYRead[] = {vec(X, D::N), vec(Y, D::N)};
const OperandShape XYWritten[] = {vec(X, D::N, true), vec(Y, D::N, true)};

// Level 2.
const OperandShape Gemv[] = {mat(A, D::M, D::N),
                             vecSel(X, S::OperationA, D::N, D::M),
                             vecSel(Y, S::OperationA, D::M, D::N, true)};
const OperandShape Gbmv[] = {band(A, D::KLPlusKUPlus1, D::N),
                             vecSel(X, S::OperationA, D::N, D::M),
                             vecSel(Y, S::OperationA, D::M, D::N, true)};
const OperandShape Trmv[] = {mat(A, D::N, D::N), vec(X, D::N, true)};
const OperandShape Tbmv[] = {band(A, D::KPlus1, D::N), vec(X, D::N, true)};
const OperandShape Tpmv[] = {packed(A, D::N), vec(X, D::N, true)};
const OperandShape Symv[] = {mat(A, D::N, D::N), vec(X, D::N),
                             vec(Y, D::N, true)};
const OperandShape Sbmv[] = {band(A, D::KPlus1, D::N), vec(X, D::N),
                             vec(Y, D::N, true)};
const OperandShape Spmv[] = {packed(A, D::N), vec(X, D::N), vec(Y, D::N, true)};
const OperandShape Ger[] = {vec(X, D::M), vec(Y, D::N),
                            mat(A, D::M, D::N, true)};
const OperandShape Syr[] = {vec(X, D::N), mat(A, D::N, D::N, true)};
const OperandShape Syr2[] = {vec(X, D::N), vec(Y, D::N),
                             mat(A, D::N, D::N, true)};
const OperandShape Spr[] = {vec(X, D::N), packed(A, D::N, true)};
const OperandShape Spr2[] = {vec(X, D::N), vec(Y, D::N), packed(A, D::N, true)};

// Level 3.
const OperandShape Gemm[] = {matSel(A, S::OperationA, D::M, D::K, D::K, D::M),
                             matSel(B, S::OperationB, D::K, D::N, D::N, D::K),
                             mat(C, D::M, D::N, true)};
const OperandShape Geam[] = {matSel(A, S::OperationA, D::M, D::N, D::N, D::M),
                             matSel(B, S::OperationB, D::M, D::N, D::N, D::M),
                             mat(C, D::M, D::N, true)};
const OperandShape Symm[] = {matSel(A, S::Side, D::M, D::M, D::N, D::N),
                             mat(B, D::M, D::N), mat(C, D::M, D::N, true)};
const OperandShape Syrk[] = {matSel(A, S::OperationA, D::N, D::K, D::K, D::N),
                             mat(C, D::N, D::N, true)};
const OperandShape Syr2k[] = {matSel(A, S::OperationA, D::N, D::K, D::K, D::N),
                              matSel(B, S::OperationA, D::N, D::K, D::K, D::N),
                              mat(C, D::N, D::N, true)};
const OperandShape Trmm[] = {matSel(A, S::Side, D::M, D::M, D::N, D::N),
                             mat(B, D::M, D::N), mat(C, D::M, D::N, true)};
const OperandShape Trsm[] = {matSel(A, S::Side, D::M, D::M, D::N, D::N),
                             mat(B, D::M, D::N, true)};
const OperandShape Dgmm[] = {mat(A, D::M, D::N), vecSel(X, S::Side, D::M, D::N),
                             mat(C, D::M, D::N, true)};
const OperandShape Spmm[] = {packedSide(A), mat(B, D::M, D::N),
                             mat(C, D::M, D::N, true)};

// Extensions.
const OperandShape Tpttr[] = {packed(A, D::N), mat(A, D::N, D::N, true)};
const OperandShape Trttp[] = {mat(A, D::N, D::N), packed(A, D::N, true)};
const OperandShape Getrf[] = {mat(A, D::N, D::N, true)};
const OperandShape Matinv[] = {mat(A, D::N, D::N)};
const OperandShape Getri[] = {mat(A, D::N, D::N), mat(C, D::N, D::N, true)};
const OperandShape Getrs[] = {mat(A, D::N, D::N),
                              mat(B, D::N, D::Unknown, true)};
const OperandShape Geqrf[] = {mat(A, D::M, D::N, true)};
const OperandShape Gels[] = {mat(A, D::M, D::N, true),
                             mat(C, D::MaxMN, D::Unknown, true)};

// Set/Get copies: rows x cols on both sides.
const OperandShape CopyMatrix[] = {mat(A, D::M, D::N),
                                   mat(B, D::M, D::N, true)};
const OperandShape CopyVector[] = {vec(X, D::N), vec(Y, D::N, true)};

struct Entry {
  const char *Routine;
  llvm::ArrayRef<OperandShape> Shapes;
};

const Entry Table[] = {
    // Level 1
    {"axpy", XReadYWritten},
    {"copy", XReadYWritten},
    {"dot", XYRead},
    {"dotu", XYRead},
    {"dotc", XYRead},
    {"nrm2", XOnly},
    {"asum", XOnly},
    {"amax", XOnly},
    {"amin", XOnly},
    {"scal", XWritten},
    {"swap", XYWritten},
    {"rot", XYWritten},
    {"rotm", XYWritten},
    // Level 2
    {"gemv", Gemv},
    {"gbmv", Gbmv},
    {"trmv", Trmv},
    {"trsv", Trmv},
    {"tbmv", Tbmv},
    {"tbsv", Tbmv},
    {"tpmv", Tpmv},
    {"tpsv", Tpmv},
    {"symv", Symv},
    {"hemv", Symv},
    {"sbmv", Sbmv},
    {"hbmv", Sbmv},
    {"spmv", Spmv},
    {"hpmv", Spmv},
    {"ger", Ger},
    {"geru", Ger},
    {"gerc", Ger},
    {"syr", Syr},
    {"her", Syr},
    {"syr2", Syr2},
    {"her2", Syr2},
    {"spr", Spr},
    {"hpr", Spr},
    {"spr2", Spr2},
    {"hpr2", Spr2},
    // Level 3
    {"gemm", Gemm},
    {"gemm3m", Gemm},
    {"gemmbias", Gemm},
    {"geam", Geam},
    {"symm", Symm},
    {"hemm", Symm},
    {"syrk", Syrk},
    {"herk", Syrk},
    {"syrk3m", Syrk},
    {"herk3m", Syrk},
    {"syr2k", Syr2k},
    {"her2k", Syr2k},
    {"syrkx", Syr2k},
    {"herkx", Syr2k},
    {"trmm", Trmm},
    {"trsm", Trsm},
    {"dgmm", Dgmm},
    {"spmm", Spmm},
    // Extensions
    {"tpttr", Tpttr},
    {"trttp", Trttp},
    {"getrf", Getrf},
    {"getri", Getri},
    {"matinv", Matinv},
    {"getrs", Getrs},
    {"geqrf", Geqrf},
    {"gels", Gels},
    {"setmatrix", CopyMatrix},
    {"getmatrix", CopyMatrix},
    {"setvector", CopyVector},
    {"getvector", CopyVector},
};

} // namespace

llvm::ArrayRef<OperandShape> operandShapes(const FunctionInfo &F) {
  if (!F.Routine || !*F.Routine)
    return {};
  const Entry *E = rowNamed(Table, F.Routine, &Entry::Routine);
  return E ? E->Shapes : llvm::ArrayRef<OperandShape>();
}

llvm::StringRef toString(ShapeDim Dim) {
  switch (Dim) {
  case ShapeDim::Unknown:
    return "?";
  case ShapeDim::One:
    return "1";
  case ShapeDim::M:
    return "m";
  case ShapeDim::N:
    return "n";
  case ShapeDim::K:
    return "k";
  case ShapeDim::KPlus1:
    return "k+1";
  case ShapeDim::KLPlusKUPlus1:
    return "kl+ku+1";
  case ShapeDim::MaxMN:
    return "max(m,n)";
  }
  return "?";
}

} // namespace cublas_tidy
