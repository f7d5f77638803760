//===- GeometryAgreementTest.cpp - The check and the tracer agree ---------===//
//
// cublas-matrix-extents predicts, from the source, how many bytes a call
// spans through each operand (lib/facts/CallGeometry.h, symbolic values);
// the tracer measures the same at run time from the integers the call
// passed (Footprint.cpp). Both instantiate the model's one geometry; this
// test holds them to the same answer for every function of the API model
// that has a shape, under every value of its flags and several sets of
// arguments, including those for which cuBLAS touches no memory.
//
//===----------------------------------------------------------------------===//

#include "Footprint.h"

#include "facts/CallGeometry.h"
#include "model/ElementTypes.h"

#include "gtest/gtest.h"

#include <map>

namespace cublas_trace {
namespace {

using cublas_tidy::ArgValue;
using cublas_tidy::CallGeometry;
using cublas_tidy::OperandAtCall;
using cublas_tidy::ParamRole;
using cublas_tidy::SymExpr;

/// Known integer arguments, for the static side as constants.
class GivenArguments : public cublas_tidy::CallArguments {
public:
  GivenArguments(const FunctionInfo &F, const std::vector<Arg> &Args)
      : F(F), Args(Args) {}
  std::optional<ArgValue> value(int I) const override {
    if (I < 0 || static_cast<unsigned>(I) >= Args.size() ||
        Args[I].K != Arg::Integer)
      return std::nullopt;
    return ArgValue{SymExpr::constant(Args[I].Int), std::string()};
  }
  std::string enumerator(int I, int64_t V) const override {
    if (F.params()[I].Role == ParamRole::DataType)
      if (const auto *T = cublas_tidy::dataTypeByValue(V))
        return T->Name;
    return std::to_string(V);
  }

private:
  const FunctionInfo &F;
  const std::vector<Arg> &Args;
};

/// One set of integer arguments by role.
struct ArgumentSet {
  const char *What;
  std::map<ParamRole, std::int64_t> Values;
};

const ArgumentSet Sets[] = {
    {"every leading dimension large enough",
     {{ParamRole::DimM, 5},
      {ParamRole::DimN, 7},
      {ParamRole::DimK, 3},
      {ParamRole::DimKL, 1},
      {ParamRole::DimKU, 2},
      {ParamRole::LeadingDim, 16},
      {ParamRole::Increment, 2},
      {ParamRole::BatchStride, 200},
      {ParamRole::BatchCount, 3},
      {ParamRole::ElemSize, 8},
      {ParamRole::DataType, 2}}}, // CUDA_R_16F
    {"negative increments, complex double elements, stride 0",
     {{ParamRole::DimM, 9},
      {ParamRole::DimN, 4},
      {ParamRole::DimK, 6},
      {ParamRole::DimKL, 0},
      {ParamRole::DimKU, 0},
      {ParamRole::LeadingDim, 11},
      {ParamRole::Increment, -3},
      {ParamRole::BatchStride, 0},
      {ParamRole::BatchCount, 2},
      {ParamRole::ElemSize, 16},
      {ParamRole::DataType, 5}}}, // CUDA_C_64F
    {"leading dimensions below the rows (cuBLAS touches nothing)",
     {{ParamRole::DimM, 8},
      {ParamRole::DimN, 8},
      {ParamRole::DimK, 8},
      {ParamRole::DimKL, 2},
      {ParamRole::DimKU, 2},
      {ParamRole::LeadingDim, 4},
      {ParamRole::Increment, 1},
      {ParamRole::BatchStride, 64},
      {ParamRole::BatchCount, 2},
      {ParamRole::ElemSize, 4},
      {ParamRole::DataType, 0}}},
    {"a zero dimension, increment and batch count",
     {{ParamRole::DimM, 0},
      {ParamRole::DimN, 6},
      {ParamRole::DimK, 0},
      {ParamRole::DimKL, 1},
      {ParamRole::DimKU, 1},
      {ParamRole::LeadingDim, 6},
      {ParamRole::Increment, 0},
      {ParamRole::BatchStride, 36},
      {ParamRole::BatchCount, 0},
      {ParamRole::ElemSize, 0},
      {ParamRole::DataType, 33}}}, // fp4: below a byte
};

bool isFlag(ParamRole R) {
  return R == ParamRole::Operation || R == ParamRole::Side;
}

TEST(GeometryAgreement, CheckAndTracerSpanTheSameBytes) {
  unsigned Functions = 0, Compared = 0, Spans = 0;
  for (const FunctionInfo &F : cublas_tidy::allFunctions()) {
    if (cublas_tidy::operandShapes(F).empty())
      continue;
    ++Functions;
    std::vector<unsigned> Flags;
    for (unsigned I = 0; I < F.NumParams; ++I)
      if (isFlag(F.params()[I].Role))
        Flags.push_back(I);
    for (const ArgumentSet &Set : Sets) {
      // Every flag takes N (or left) and T (or right); one set also CONJG.
      for (unsigned Mask = 0; Mask < (1u << Flags.size()) * 2; ++Mask) {
        std::vector<Arg> Args(F.NumParams);
        for (unsigned I = 0; I < F.NumParams; ++I) {
          auto It = Set.Values.find(F.params()[I].Role);
          if (It != Set.Values.end())
            Args[I] = {Arg::Integer, It->second, nullptr};
        }
        for (unsigned J = 0; J < Flags.size(); ++J) {
          bool Second = Mask & (1u << J);
          bool Conj = (Mask >> Flags.size()) & 1;
          ParamRole R = F.params()[Flags[J]].Role;
          std::int64_t V = Second ? (R == ParamRole::Side ? 1 : 2)
                                  : (Conj && R == ParamRole::Operation ? 3 : 0);
          Args[Flags[J]] = {Arg::Integer, V, nullptr};
        }
        GivenArguments Given(F, Args);
        CallGeometry G(F, Given);
        for (const OperandAtCall &O : G.operands()) {
          int Mem = O.Params.Memory;
          if (Mem < 0)
            continue;
          ParamRole Role = F.params()[Mem].Role;
          if (Role != ParamRole::DeviceMatrix &&
              Role != ParamRole::DeviceVector)
            continue;
          ++Compared;
          std::optional<Footprint> Traced = operandFootprint(F, Args.data(), Mem);
          std::optional<std::int64_t> Static;
          if (O.Total && O.Element.Bytes)
            if (std::optional<std::int64_t> E = O.Total->getConstant())
              Static = *E * O.Element.Bytes;
          SCOPED_TRACE(std::string(F.Name) + " " + F.params()[Mem].Name +
                       ", " + Set.What + ", flags " + std::to_string(Mask));
          ASSERT_EQ(Static.has_value(), Traced.has_value())
              << (Traced ? Traced->Formula : std::string("tracer: none"));
          if (Static) {
            ++Spans;
            EXPECT_EQ(static_cast<std::uint64_t>(*Static), Traced->Bytes)
                << Traced->Formula;
          }
        }
      }
    }
  }
  // The table covers the BLAS: hundreds of functions, and most operands
  // have a span under the first argument sets.
  EXPECT_GT(Functions, 300u);
  EXPECT_GT(Spans, Compared / 3);
  RecordProperty("functions", Functions);
  RecordProperty("compared", Compared);
  RecordProperty("spans", Spans);
}

} // namespace
} // namespace cublas_trace
