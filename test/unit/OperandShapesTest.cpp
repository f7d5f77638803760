//===- OperandShapesTest.cpp - The shape table against the API model ------===//

#include "model/OperandShapes.h"

#include "llvm/ADT/StringSet.h"
#include "gtest/gtest.h"

using namespace cublas_tidy;

namespace {

ParamRole roleOf(ShapeDim D) {
  switch (D) {
  case ShapeDim::M:
    return ParamRole::DimM;
  case ShapeDim::N:
    return ParamRole::DimN;
  case ShapeDim::K:
  case ShapeDim::KPlus1:
    return ParamRole::DimK;
  case ShapeDim::KLPlusKUPlus1:
    return ParamRole::DimKL;
  default:
    return ParamRole::Other;
  }
}

// Every shape names parameters the model has: a leading dimension for each
// stored matrix, an increment for each vector, the sizes it is written in,
// and the flag that selects it.
TEST(OperandShapes, RulesUseParametersTheModelHas) {
  unsigned Checked = 0;
  for (const FunctionInfo &F : allFunctions()) {
    for (const OperandShape &S : operandShapes(F)) {
      ++Checked;
      std::string Where =
          std::string(F.Name) + " operand " + toString(S.Op).str();
      if (S.Kind == ShapeKind::Matrix || S.Kind == ShapeKind::Band)
        EXPECT_GE(F.findParam(ParamRole::LeadingDim, S.Op), 0) << Where;
      if (S.Kind == ShapeKind::Vector)
        EXPECT_GE(F.findParam(ParamRole::Increment, S.Op), 0) << Where;
      for (ShapeDim D : {S.Rows[0], S.Rows[1], S.Cols[0], S.Cols[1]}) {
        ParamRole R = roleOf(D);
        if (R != ParamRole::Other)
          EXPECT_GE(F.findParam(R), 0) << Where << " dim " << toString(D).str();
        if (D == ShapeDim::MaxMN) {
          EXPECT_GE(F.findParam(ParamRole::DimM), 0) << Where;
          EXPECT_GE(F.findParam(ParamRole::DimN), 0) << Where;
        }
      }
      switch (S.Selector) {
      case ShapeSelector::OperationA:
        EXPECT_GE(F.findParam(ParamRole::Operation, Operand::A), 0) << Where;
        break;
      case ShapeSelector::OperationB:
        EXPECT_GE(F.findParam(ParamRole::Operation, Operand::B), 0) << Where;
        break;
      case ShapeSelector::Side:
        EXPECT_GE(F.findParam(ParamRole::Side), 0) << Where;
        break;
      case ShapeSelector::None:
        break;
      }
    }
  }
  EXPECT_GT(Checked, 500u);
}

// Every routine with matrix or vector operands has a shape rule, except
// the ones whose shapes live elsewhere (cublasLt layouts, grouped arrays)
// or that have no extents (rotg/rotmg scalars). cuSOLVER's and cuSPARSE's
// operands are modelled for their memory space only (the arrays of a
// sparse descriptor), not their shapes.
TEST(OperandShapes, EveryRoutineWithOperandsHasARule) {
  llvm::StringSet<> Without = {"matmul", "matrixtransform", "gemmgrouped"};
  for (const FunctionInfo &F : allFunctions()) {
    bool HasOperands = false;
    for (const ParamInfo &P : F.params())
      if ((P.Role == ParamRole::DeviceMatrix ||
           P.Role == ParamRole::DeviceVector ||
           P.Role == ParamRole::AnyMemory || P.Role == ParamRole::HostMatrix) &&
          P.Op != Operand::Info && P.Op != Operand::Pivot)
        HasOperands = true;
    if (!HasOperands || Without.contains(F.Routine) || isNeighbour(F.Family))
      continue;
    EXPECT_FALSE(operandShapes(F).empty()) << F.Name;
  }
}

TEST(OperandShapes, GemmFollowsTheTransposeFlags) {
  const FunctionInfo *F = lookupFunction("cublasSgemm_v2");
  ASSERT_TRUE(F);
  auto Shapes = operandShapes(*F);
  ASSERT_EQ(Shapes.size(), 3u);
  EXPECT_EQ(Shapes[0].Op, Operand::A);
  EXPECT_EQ(Shapes[0].Selector, ShapeSelector::OperationA);
  EXPECT_EQ(Shapes[0].Rows[0], ShapeDim::M); // transa = N: m x k
  EXPECT_EQ(Shapes[0].Rows[1], ShapeDim::K); // transa = T: k x m
  EXPECT_EQ(Shapes[2].Op, Operand::C);
  EXPECT_TRUE(Shapes[2].Written);
}

} // namespace
