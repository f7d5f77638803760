//===- MatrixExtentsCheck.cpp - cublas-matrix-extents ---------------------===//

#include "MatrixExtentsCheck.h"

#include "CallableMatchers.h"
#include "Callables.h"
#include "FunctionTimer.h"

#include "Allocations.h"
#include "AstUtils.h"
#include "CublasApi.h"
#include "OperandShapes.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang::ast_matchers;
using namespace cublas_tidy;

namespace clang::tidy::cublas {

namespace {

/// A call of a routine whose extents the check knows.
bool isCheckedCublasCall(const CallExpr *Call) {
  const FunctionInfo *F = calledCublasFunction(Call);
  return F && (!operandShapes(*F).empty() ||
               (F->Creates == ResourceKind::LtMatrixLayout &&
                F->findParam(ParamRole::LeadingDim) >= 0));
}

constexpr unsigned MaxTextLength = 40;

/// The source text of `E` in the user's file, or empty.
std::string sourceText(const Expr *E, const ASTContext &Ctx) {
  return writtenText(E, Ctx, MaxTextLength);
}

/// Text for a message, made only when a message needs it: most arguments
/// are never named in one, and looking up how they are written costs more
/// than evaluating them.
class LazyText {
public:
  LazyText() = default;
  LazyText(std::string Fixed) : Made(std::move(Fixed)) {}
  explicit LazyText(std::function<std::string()> Make)
      : Make(std::move(Make)) {}
  const std::string &get() const {
    if (!Made)
      Made = Make ? Make() : std::string();
    return *Made;
  }

private:
  std::function<std::string()> Make;
  mutable std::optional<std::string> Made;
};

/// An argument's value and how to print it.
struct Value {
  SymExpr V;
  LazyText Written; // as written (may be empty)

  /// `K = 128`, `128`, or `m - 1`; `Name` is what the message calls it
  /// (written text equal to it is not repeated).
  std::string describe(StringRef Name = "") const {
    const std::string &Text = Written.get();
    if (std::optional<int64_t> C = V.getConstant()) {
      std::string CS = std::to_string(*C);
      if (Text.empty() || Text == CS || Text == Name)
        return CS;
      return Text + " = " + CS;
    }
    return Text.empty() ? V.str() : Text;
  }
  /// The value alone: a number, or the expression as written.
  std::string brief() const {
    if (std::optional<int64_t> C = V.getConstant())
      return std::to_string(*C);
    const std::string &Text = Written.get();
    return Text.empty() ? V.str() : Text;
  }
};

std::string parenthesize(const std::string &Text) {
  if (Text.find_first_of(" +-*/") == std::string::npos)
    return Text;
  return "(" + Text + ")";
}

/// The name of the enumerator of `T` with value `V`, or the number.
std::string enumeratorName(QualType T, int64_t V) {
  if (!T.isNull())
    if (const auto *ET = T.getCanonicalType()->getAs<EnumType>())
      if (const EnumDecl *ED = ET->getDecl())
        if (const EnumDecl *Def = ED->getDefinition())
          for (const EnumConstantDecl *EC : Def->enumerators())
            if (EC->getInitVal().getSExtValue() == V)
              return EC->getName().str();
  return std::to_string(V);
}

struct ElementInfo {
  int64_t Size = 0;
  std::string Plural; // "floats"
};

ElementInfo fixedElement(ElemType E) {
  switch (E) {
  case ElemType::F16:
    return {2, "__half values"};
  case ElemType::F32:
    return {4, "floats"};
  case ElemType::F64:
    return {8, "doubles"};
  case ElemType::C32:
    return {8, "cuComplex values"};
  case ElemType::C64:
    return {16, "cuDoubleComplex values"};
  default:
    return {};
  }
}

/// Element sizes of the cudaDataType_t enumerators.
ElementInfo dataTypeElement(StringRef Name) {
  struct Row {
    const char *Name;
    int64_t Size;
    const char *Plural;
  };
  static const Row Rows[] = {
      {"CUDA_R_16F", 2, "__half values"},
      {"CUDA_C_16F", 4, "half2 values"},
      {"CUDA_R_16BF", 2, "__nv_bfloat16 values"},
      {"CUDA_C_16BF", 4, "complex bfloat16 values"},
      {"CUDA_R_32F", 4, "floats"},
      {"CUDA_C_32F", 8, "cuComplex values"},
      {"CUDA_R_64F", 8, "doubles"},
      {"CUDA_C_64F", 16, "cuDoubleComplex values"},
      {"CUDA_R_8I", 1, "int8 values"},
      {"CUDA_C_8I", 2, "complex int8 values"},
      {"CUDA_R_8U", 1, "uint8 values"},
      {"CUDA_C_8U", 2, "complex uint8 values"},
      {"CUDA_R_32I", 4, "int32 values"},
      {"CUDA_C_32I", 8, "complex int32 values"},
      {"CUDA_R_32U", 4, "uint32 values"},
      {"CUDA_C_32U", 8, "complex uint32 values"},
      {"CUDA_R_8F_E4M3", 1, "fp8 values"},
      {"CUDA_R_8F_E5M2", 1, "fp8 values"},
  };
  for (const Row &R : Rows)
    if (Name == R.Name)
      return {R.Size, R.Plural};
  return {};
}

/// Everything one analysis of one call needs.
class CallAnalysis {
public:
  CallAnalysis(const CallExpr *Call, const FunctionInfo &F,
               const ValueFacts &VF, ASTContext &Ctx)
      : Call(Call), F(F), VF(VF), Ctx(Ctx), SM(Ctx.getSourceManager()) {}

  std::vector<MatrixExtentsCheck::Finding> run();

private:
  struct Dim {
    SymExpr V;
    LazyText Text;
  };
  struct Plan {
    const OperandShape *Shape;
    std::optional<Dim> Rows, Cols;
    std::string SelectorText; // " for transa=CUBLAS_OP_N"
    int LdParam = -1, MemParam = -1, IncParam = -1;
    std::optional<Value> Ld, Inc;
  };

  const Expr *arg(int Index) const {
    if (Index < 0 || unsigned(Index) >= Call->getNumArgs())
      return nullptr;
    return Call->getArg(Index);
  }
  std::optional<Value> valueOf(int Index) const {
    const Expr *E = arg(Index);
    if (!E)
      return std::nullopt;
    std::optional<SymExpr> V = VF.evaluate(E);
    if (!V)
      return std::nullopt;
    return Value{*V, LazyText([E, &Ctx = Ctx] { return sourceText(E, Ctx); })};
  }
  StringRef paramName(int Index) const {
    if (Index < 0 || unsigned(Index) >= F.NumParams)
      return "?";
    return F.params()[Index].Name;
  }
  std::optional<Dim> dim(ShapeDim D) const;
  std::optional<int> selection(ShapeSelector S, std::string &Text) const;
  int memoryParam(Operand Op, bool Packed) const;
  std::optional<ElementInfo> element(Operand Op) const;
  std::string operandName(const Plan &P) const;

  void checkLeadingDimension(Plan &P);
  void checkFootprint(Plan &P);
  void checkLayout();
  std::string remedy() const;

  void report(std::string Key, const Expr *At, std::string Message,
              std::vector<std::pair<SourceLocation, std::string>> Notes = {}) {
    SourceLocation Loc =
        userLocation(At ? At->getBeginLoc() : Call->getBeginLoc(), SM);
    Findings.push_back(
        {std::move(Key), Loc, std::move(Message), std::move(Notes)});
  }

  const CallExpr *Call;
  const FunctionInfo &F;
  const ValueFacts &VF;
  ASTContext &Ctx;
  const SourceManager &SM;
  SymbolBounds Bounds;
  bool LdError = false;
  bool RowMajorHint = false;
  std::vector<MatrixExtentsCheck::Finding> Findings;
};

std::optional<CallAnalysis::Dim> CallAnalysis::dim(ShapeDim D) const {
  auto Param = [&](ParamRole Role) -> std::optional<Dim> {
    std::optional<Value> V = valueOf(F.findParam(Role));
    if (!V)
      return std::nullopt;
    return Dim{V->V, LazyText([V = *V] {
                 const std::string &Text = V.Written.get();
                 return Text.empty() ? V.V.str() : Text;
               })};
  };
  switch (D) {
  case ShapeDim::Unknown:
    return std::nullopt;
  case ShapeDim::One:
    return Dim{SymExpr::constant(1), std::string("1")};
  case ShapeDim::M:
    return Param(ParamRole::DimM);
  case ShapeDim::N:
    return Param(ParamRole::DimN);
  case ShapeDim::K:
    return Param(ParamRole::DimK);
  case ShapeDim::KPlus1: {
    std::optional<Dim> K = Param(ParamRole::DimK);
    std::optional<SymExpr> V =
        K ? K->V.add(SymExpr::constant(1)) : std::nullopt;
    if (!V)
      return std::nullopt;
    return Dim{*V, LazyText([K = *K] { return K.Text.get() + " + 1"; })};
  }
  case ShapeDim::KLPlusKUPlus1: {
    std::optional<Dim> KL = Param(ParamRole::DimKL);
    std::optional<Dim> KU = Param(ParamRole::DimKU);
    if (!KL || !KU)
      return std::nullopt;
    std::optional<SymExpr> V = KL->V.add(KU->V);
    V = V ? V->add(SymExpr::constant(1)) : std::nullopt;
    if (!V)
      return std::nullopt;
    return Dim{*V, LazyText([KL = *KL, KU = *KU] {
                 return KL.Text.get() + " + " + KU.Text.get() + " + 1";
               })};
  }
  case ShapeDim::MaxMN: {
    std::optional<Dim> M = Param(ParamRole::DimM);
    std::optional<Dim> N = Param(ParamRole::DimN);
    if (!M || !N)
      return std::nullopt;
    Order O = compare(M->V, N->V, Bounds);
    LazyText Text([M = *M, N = *N] {
      return "max(" + M.Text.get() + ", " + N.Text.get() + ")";
    });
    if (O == Order::Equal || O == Order::Greater || O == Order::GreaterOrEqual)
      return Dim{M->V, Text};
    if (O == Order::Less || O == Order::LessOrEqual)
      return Dim{N->V, Text};
    return std::nullopt;
  }
  }
  return std::nullopt;
}

std::optional<int> CallAnalysis::selection(ShapeSelector S,
                                           std::string &Text) const {
  int Index = -1;
  switch (S) {
  case ShapeSelector::None:
    return 0;
  case ShapeSelector::OperationA:
    Index = F.findParam(ParamRole::Operation, Operand::A);
    break;
  case ShapeSelector::OperationB:
    Index = F.findParam(ParamRole::Operation, Operand::B);
    break;
  case ShapeSelector::Side:
    Index = F.findParam(ParamRole::Side);
    break;
  }
  std::optional<Value> V = valueOf(Index);
  std::optional<int64_t> C = V ? V->V.getConstant() : std::nullopt;
  if (!C)
    return std::nullopt;
  QualType T;
  if (const FunctionDecl *FD = Call->getDirectCallee())
    if (unsigned(Index) < FD->getNumParams())
      T = FD->getParamDecl(Index)->getType();
  Text = " for " + paramName(Index).str() + "=" + enumeratorName(T, *C);
  if (S == ShapeSelector::Side)
    return *C == 0 ? 0 : 1;
  // CUBLAS_OP_N (0) and CUBLAS_OP_CONJG (3) keep the shape; T and C
  // transpose it.
  return (*C == 1 || *C == 2) ? 1 : 0;
}

int CallAnalysis::memoryParam(Operand Op, bool Packed) const {
  auto IsMemory = [](ParamRole R) {
    return R == ParamRole::DeviceMatrix || R == ParamRole::DeviceVector ||
           R == ParamRole::HostMatrix || R == ParamRole::HostVector ||
           R == ParamRole::AnyMemory || R == ParamRole::DevicePointerArray;
  };
  int Ld = F.findParam(ParamRole::LeadingDim, Op);
  llvm::ArrayRef<ParamInfo> Params = F.params();
  // A leading dimension follows its matrix: the full matrix is the last
  // operand before it; a packed operand of the same name is another one.
  int Full = -1;
  if (Ld >= 0)
    for (int I = 0; I < Ld; ++I)
      if (IsMemory(Params[I].Role) && Params[I].Op == Op)
        Full = I;
  if (!Packed && Ld >= 0)
    return Full;
  for (int I = 0, E = Params.size(); I < E; ++I)
    if (IsMemory(Params[I].Role) && Params[I].Op == Op && I != Full)
      return I;
  return -1;
}

std::optional<ElementInfo> CallAnalysis::element(Operand Op) const {
  ElementInfo E = fixedElement(F.Elem);
  if (E.Size)
    return E;
  int SizeParam = F.findParam(ParamRole::ElemSize);
  if (SizeParam >= 0) {
    std::optional<Value> V = valueOf(SizeParam);
    std::optional<int64_t> C = V ? V->V.getConstant() : std::nullopt;
    if (!C || *C <= 0 || *C > 64)
      return std::nullopt;
    return ElementInfo{*C, std::to_string(*C) + "-byte elements"};
  }
  int TypeParam = F.findParam(ParamRole::DataType, Op);
  std::optional<Value> V = valueOf(TypeParam);
  std::optional<int64_t> C = V ? V->V.getConstant() : std::nullopt;
  if (!C)
    return std::nullopt;
  QualType T;
  if (const FunctionDecl *FD = Call->getDirectCallee())
    if (unsigned(TypeParam) < FD->getNumParams())
      T = FD->getParamDecl(TypeParam)->getType();
  E = dataTypeElement(enumeratorName(T, *C));
  if (!E.Size)
    return std::nullopt;
  return E;
}

std::string CallAnalysis::operandName(const Plan &P) const {
  if (P.MemParam >= 0)
    return paramName(P.MemParam).str();
  return toString(P.Shape->Op).str();
}

std::string CallAnalysis::remedy() const {
  StringRef R = F.Routine ? F.Routine : "";
  if (R == "gemm" || R == "gemm3m")
    return "cuBLAS is column-major: for row-major data compute the "
           "transposed product instead, passing B before A and n before m "
           "(C^T = B^T * A^T), or store the matrices column-major";
  if (R == "setmatrix" || R == "getmatrix")
    return "cuBLAS is column-major: a row-major rows x cols array is the "
           "column-major cols x rows transpose; swap rows and cols or "
           "store it column-major";
  if (F.Creates == ResourceKind::LtMatrixLayout)
    return "for row-major data set CUBLASLT_MATRIX_LAYOUT_ORDER to "
           "CUBLASLT_ORDER_ROW, or describe the column-major transpose";
  return "cuBLAS is column-major: a row-major matrix is the column-major "
         "transpose; swap its rows and columns (and the transpose flag), or "
         "store it column-major";
}

void CallAnalysis::checkLeadingDimension(Plan &P) {
  if (!P.Ld)
    return;
  std::string LdName = paramName(P.LdParam).str();
  bool Copy = F.findParam(ParamRole::ElemSize) >= 0;
  std::string Consequence =
      Copy ? "; " + std::string(F.Name) + " requires " + LdName +
                 " >= rows and fails"
           : "; cuBLAS returns CUBLAS_STATUS_INVALID_VALUE";
  std::string Key = "ld:" + std::to_string(P.LdParam);
  if (provenLess(P.Ld->V, SymExpr::constant(1), Bounds)) {
    LdError = true;
    report(Key, arg(P.LdParam),
           LdName + " (" + P.Ld->describe(LdName) + ") must be at least 1" +
               Consequence);
    return;
  }
  if (!P.Rows || !provenLess(P.Ld->V, P.Rows->V, Bounds))
    return;
  LdError = true;
  std::string Op = toString(P.Shape->Op).str();
  std::string What = P.Shape->Kind == ShapeKind::Band
                         ? "the rows of the band storage of " + Op
                         : (Copy ? std::string("rows") : "the rows of " + Op);
  Value Rows{P.Rows->V, P.Rows->Text};
  std::string Message = LdName + " (" + P.Ld->describe(LdName) +
                        ") is smaller than " + What + " (" + Rows.describe() +
                        ")" + P.SelectorText;
  // Row-major data: the leading dimension is the column count.
  if (P.Cols && P.Ld->V == P.Cols->V &&
      compare(P.Rows->V, P.Cols->V, Bounds) != Order::Equal) {
    Message += "; " + LdName + " is the column count, as for row-major data";
    RowMajorHint = true;
  }
  report(Key, arg(P.LdParam), Message + Consequence);
}

void CallAnalysis::checkFootprint(Plan &P) {
  if (P.MemParam < 0 ||
      F.params()[P.MemParam].Role == ParamRole::DevicePointerArray)
    return;
  std::optional<ElementInfo> Elem = element(P.Shape->Op);
  if (!Elem)
    return;
  const OperandShape &S = *P.Shape;
  std::optional<SymExpr> Needed;
  std::string At;
  if (S.Kind == ShapeKind::Vector) {
    if (!P.Rows || !P.Inc)
      return;
    std::optional<int64_t> Inc = P.Inc->V.getConstant();
    if (!Inc || *Inc == INT64_MIN)
      return;
    if (std::optional<int64_t> Len = P.Rows->V.getConstant(); Len && *Len <= 0)
      return;
    std::optional<SymExpr> L = P.Rows->V.sub(SymExpr::constant(1));
    L = L ? L->mul(SymExpr::constant(*Inc < 0 ? -*Inc : *Inc)) : std::nullopt;
    Needed = L ? L->add(SymExpr::constant(1)) : std::nullopt;
    At = " at " + paramName(P.IncParam).str() + "=" + P.Inc->brief();
  } else if (S.Kind == ShapeKind::Packed) {
    std::optional<int64_t> N = P.Rows ? P.Rows->V.getConstant() : std::nullopt;
    if (!N || *N <= 0 || *N > (int64_t(1) << 30))
      return;
    Needed = SymExpr::constant(*N * (*N + 1) / 2);
    At = " in packed storage";
  } else {
    if (!P.Rows || !P.Cols || !P.Ld)
      return;
    for (const Dim *D : {&*P.Rows, &*P.Cols})
      if (std::optional<int64_t> C = D->V.getConstant(); C && *C <= 0)
        return;
    std::optional<SymExpr> ColsMinus1 = P.Cols->V.sub(SymExpr::constant(1));
    std::optional<SymExpr> V =
        ColsMinus1 ? P.Ld->V.mul(*ColsMinus1) : std::nullopt;
    Needed = V ? V->add(P.Rows->V) : std::nullopt;
    At = " at " + paramName(P.LdParam).str() + "=" + P.Ld->brief();
  }
  if (!Needed)
    return;

  // Strided batches: the last one ends stride*(batchCount-1) further.
  std::optional<SymExpr> Total = Needed;
  int StrideParam = -1, CountParam = -1;
  std::optional<Value> Stride, Count;
  if (F.StridedBatched) {
    StrideParam = F.findParam(ParamRole::BatchStride, S.Op);
    CountParam = F.findParam(ParamRole::BatchCount);
    Stride = valueOf(StrideParam);
    Count = valueOf(CountParam);
    if (!Stride || !Count)
      return;
    if (std::optional<int64_t> C = Count->V.getConstant(); C && *C <= 0)
      return;
    std::optional<SymExpr> Batches = Count->V.sub(SymExpr::constant(1));
    std::optional<SymExpr> Span =
        Batches ? Stride->V.mul(*Batches) : std::nullopt;
    Total = Span ? Span->add(*Needed) : std::nullopt;
    if (!Total)
      return;
    At += ", " + paramName(StrideParam).str() + "=" + Stride->brief() +
          " and " + paramName(CountParam).str() + "=" + Count->brief();

    // Output batches that overlap.
    if (S.Written && provenLess(SymExpr::constant(1), Count->V, Bounds) &&
        provenLess(Stride->V, *Needed, Bounds)) {
      std::string Name = toString(S.Op).str();
      report("overlap:" + std::to_string(P.MemParam), arg(StrideParam),
             paramName(StrideParam).str() + " (" +
                 Stride->describe(paramName(StrideParam)) +
                 ") is smaller than the " +
                 (Needed->isConstant() ? std::to_string(*Needed->getConstant())
                                       : Needed->str()) +
                 " elements of each " + Name + " at " +
                 paramName(P.LdParam >= 0 ? P.LdParam : P.IncParam).str() +
                 "=" +
                 (P.Ld    ? P.Ld->brief()
                  : P.Inc ? P.Inc->brief()
                          : "?") +
                 ", so the " + Count->brief() + " batches written to " + Name +
                 " overlap");
    }
  }

  std::optional<Extent> X = pointerExtent(arg(P.MemParam), VF);
  if (!X)
    return;
  std::optional<SymExpr> Remaining = X->remainingBytes();
  std::optional<SymExpr> NeededBytes =
      Total->mul(SymExpr::constant(Elem->Size));
  if (!Remaining || !NeededBytes ||
      !provenLess(*Remaining, *NeededBytes, Bounds))
    return;

  auto Elements = [&](const SymExpr &Bytes) -> std::string {
    if (std::optional<int64_t> C = Bytes.getConstant())
      return std::to_string(*C / Elem->Size);
    if (std::optional<SymExpr> D = Bytes.divExact(Elem->Size))
      return D->str();
    return parenthesize(Bytes.str()) + "/" + std::to_string(Elem->Size);
  };
  auto Printed = [](const SymExpr &V, const Expr *Written,
                    const ASTContext &Ctx) {
    if (std::optional<int64_t> C = V.getConstant())
      return std::to_string(*C);
    std::string T = sourceText(Written, Ctx);
    return T.empty() ? V.str() : T;
  };

  std::string Alloc;
  StringRef Allocator = X->Allocator;
  std::optional<int64_t> TypeSize;
  if (!X->ElementType.isNull() && !X->ElementType->isIncompleteType() &&
      !X->ElementType->isDependentType())
    TypeSize = Ctx.getTypeSizeInChars(X->ElementType).getQuantity();
  if ((Allocator == "new[]" || Allocator == "array" ||
       Allocator.contains("vector")) &&
      TypeSize && *TypeSize > 0) {
    std::optional<SymExpr> Count = X->Bytes.divExact(*TypeSize);
    std::string Type = X->ElementType.getAsString(Ctx.getPrintingPolicy());
    if (Allocator == "array")
      Alloc = "array of " + (Count ? Count->str() : X->Bytes.str() + " bytes") +
              " " + Type + " values";
    else
      Alloc = Allocator.str() + " of " +
              (Count ? (Count->isConstant() ? Count->str()
                                            : Printed(*Count, X->SizeExpr, Ctx))
                     : X->Bytes.str() + " bytes") +
              " " + Type + " values";
  } else if (X->PitchBytes) {
    std::string Height = sourceText(X->SizeExpr, Ctx);
    Alloc = Allocator.str() + " of pitch * " +
            (Height.empty() ? "height" : parenthesize(Height)) + " bytes";
  } else {
    Alloc = Allocator.str() + " of " + Printed(X->Bytes, X->SizeExpr, Ctx) +
            " bytes";
  }
  if (X->OffsetBytes != SymExpr::constant(0))
    Alloc += ", from element " + Elements(X->OffsetBytes);

  std::string Ptr = sourceText(arg(P.MemParam), Ctx);
  std::string Name = toString(S.Op).str();
  std::string Message =
      Name + " needs " +
      (Total->isConstant() ? std::to_string(*Total->getConstant())
                           : Total->str()) +
      " elements" + At + " but " +
      (Ptr.empty() ? "the pointer" : "'" + Ptr + "'") + " holds " +
      Elements(*Remaining) + " " + Elem->Plural + " (" + Alloc + ")";
  std::vector<std::pair<SourceLocation, std::string>> Notes;
  SourceLocation AllocLoc = X->Origin      ? X->Origin->getBeginLoc()
                            : X->OriginVar ? X->OriginVar->getLocation()
                                           : SourceLocation();
  if (AllocLoc.isValid())
    Notes.push_back({userLocation(AllocLoc, SM),
                     X->OriginVar ? "'" + X->OriginVar->getName().str() +
                                        "' is allocated here"
                                  : "allocated here"});
  report("extent:" + std::to_string(P.MemParam), arg(P.MemParam), Message,
         std::move(Notes));
}

void CallAnalysis::checkLayout() {
  // cublasLtMatrixLayoutCreate(&layout, type, rows, cols, ld): column-major
  // unless an attribute changes the order, which this function may do.
  int RowsParam = F.findParam(ParamRole::DimM);
  int ColsParam = F.findParam(ParamRole::DimN);
  int LdParam = F.findParam(ParamRole::LeadingDim);
  std::optional<Value> Rows = valueOf(RowsParam), Cols = valueOf(ColsParam),
                       Ld = valueOf(LdParam);
  if (!Rows || !Ld || !provenLess(Ld->V, Rows->V, Bounds))
    return;
  // Any attribute set in this function may switch the order to rows.
  bool SetsAttributes = false;
  llvm::SmallVector<const Stmt *, 64> Work{VF.callable()->getBody()};
  unsigned Budget = 20000;
  while (!Work.empty() && Budget-- && !SetsAttributes) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *C = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *FD = C->getDirectCallee())
        if (FD->getIdentifier() &&
            FD->getName() == "cublasLtMatrixLayoutSetAttribute")
          SetsAttributes = true;
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  if (SetsAttributes || Budget == 0)
    return;
  std::string Message = "ld (" + Ld->describe("ld") +
                        ") of this column-major cublasLt layout is smaller "
                        "than its rows (" +
                        Rows->describe() + ")";
  if (Cols && Ld->V == Cols->V &&
      compare(Rows->V, Cols->V, Bounds) != Order::Equal) {
    Message += "; ld is the column count, as for row-major data";
    RowMajorHint = true;
  }
  report("ld:" + std::to_string(LdParam), arg(LdParam),
         Message + "; cuBLASLt requires ld >= rows");
}

std::vector<MatrixExtentsCheck::Finding> CallAnalysis::run() {
  // At a call, memory is touched only when every dimension is at least 1
  // (cuBLAS returns at once for 0 and rejects negative values) and every
  // leading dimension is at least 1.
  for (unsigned I = 0; I < F.NumParams; ++I) {
    ParamRole R = F.params()[I].Role;
    if (R != ParamRole::DimM && R != ParamRole::DimN && R != ParamRole::DimK &&
        R != ParamRole::LeadingDim && R != ParamRole::BatchCount)
      continue;
    if (std::optional<Value> V = valueOf(I))
      if (std::optional<Symbol> S = V->V.asSymbol())
        Bounds.Positive.insert(*S);
  }

  if (F.Creates == ResourceKind::LtMatrixLayout) {
    checkLayout();
  } else {
    std::vector<Plan> Plans;
    for (const OperandShape &S : operandShapes(F)) {
      Plan P;
      P.Shape = &S;
      std::string Text;
      std::optional<int> Sel = selection(S.Selector, Text);
      if (Sel) {
        P.Rows = dim(S.Rows[*Sel]);
        P.Cols = dim(S.Cols[*Sel]);
        P.SelectorText = Text;
      } else {
        // Unknown flag: only a shape both choices agree on.
        std::optional<Dim> R0 = dim(S.Rows[0]), R1 = dim(S.Rows[1]);
        std::optional<Dim> C0 = dim(S.Cols[0]), C1 = dim(S.Cols[1]);
        if (R0 && R1 && R0->V == R1->V)
          P.Rows = R0;
        if (C0 && C1 && C0->V == C1->V)
          P.Cols = C0;
      }
      bool Packed = S.Kind == ShapeKind::Packed;
      if (S.Kind == ShapeKind::Vector) {
        P.IncParam = F.findParam(ParamRole::Increment, S.Op);
        P.Inc = valueOf(P.IncParam);
      } else if (!Packed) {
        P.LdParam = F.findParam(ParamRole::LeadingDim, S.Op);
        P.Ld = valueOf(P.LdParam);
      }
      P.MemParam = memoryParam(S.Op, Packed);
      Plans.push_back(std::move(P));
    }
    for (Plan &P : Plans)
      if (P.Shape->Kind == ShapeKind::Matrix ||
          P.Shape->Kind == ShapeKind::Band)
        checkLeadingDimension(P);
    // A call that cuBLAS rejects touches no memory.
    if (!LdError)
      for (Plan &P : Plans)
        checkFootprint(P);
  }

  if (RowMajorHint && !Findings.empty())
    Findings.back().Notes.push_back(
        {userLocation(Call->getBeginLoc(), SM), remedy()});
  return Findings;
}

} // namespace

MatrixExtentsCheck::MatrixExtentsCheck(StringRef Name,
                                       ClangTidyContext *Context)
    : CublasCheck(Name, Context),
      MaxCallSites(Options.get("MaxCallSites", 8U)) {}

void MatrixExtentsCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "MaxCallSites", MaxCallSites);
}

void MatrixExtentsCheck::registerMatchers(MatchFinder *Finder) {
  addCallableMatchers(Finder, this);
}

void MatrixExtentsCheck::onStartOfTranslationUnit() {
  Checked.clear();
  Facts.clear();
  Contexts.clear();
  CallSites.clear();
  Emitted.clear();
  Pending.clear();
  Context = nullptr;
}

const ValueFacts &MatrixExtentsCheck::factsFor(const Decl *Callable,
                                               ASTContext &Ctx) {
  std::unique_ptr<ValueFacts> &Slot = Facts[Callable];
  if (!Slot)
    Slot = std::make_unique<ValueFacts>(Callable, Ctx);
  return *Slot;
}

namespace {

/// True when the facts at a call in `Callable` may depend on its callers:
/// it is a function with parameters.
bool hasCallerFacts(const Decl *Callable) {
  const auto *FD = dyn_cast<FunctionDecl>(Callable);
  return FD && FD->getNumParams() > 0 && !isa<CXXMethodDecl>(FD);
}

} // namespace

void MatrixExtentsCheck::collectCallSites() {
  // Direct calls of plain functions defined in this translation unit, by
  // the analysable callables of user code that make them (template
  // patterns are read in their instantiations).
  for (const Decl *Caller : Pending) {
    if (!analysableBody(Caller))
      continue;
    for (const CallExpr *Call : callsIn(Caller)) {
      const FunctionDecl *FD = Call->getDirectCallee();
      if (!FD || isa<CXXMethodDecl>(FD))
        continue;
      const FunctionDecl *Def = FD->getDefinition();
      if (!Def || !Def->hasBody())
        continue;
      auto &Sites = CallSites[Def];
      if (Sites.size() < 64)
        Sites.push_back({Call, Caller});
    }
  }
}

void MatrixExtentsCheck::emit(const Finding &F) {
  if (!Emitted.insert({F.Loc, F.Message}).second)
    return;
  diag(F.Loc, F.Message);
  for (const auto &[Loc, Text] : F.Notes)
    diag(Loc, Text, DiagnosticIDs::Note);
}

void MatrixExtentsCheck::check(const MatchFinder::MatchResult &Result) {
  // The facts at a call may come from the callers of its function, which
  // the matchers may not have reached yet: every callable is analysed at
  // the end of the translation unit, when all of them are known.
  const Decl *Callable = callableOf(Result);
  if (!Callable || !Checked.insert(Callable).second)
    return;
  Pending.push_back(Callable);
  Context = Result.Context;
}

void MatrixExtentsCheck::onEndOfTranslationUnit() {
  if (!Context || Pending.empty())
    return;
  ASTContext &Ctx = *Context;
  if (MaxCallSites > 0)
    collectCallSites();
  const SourceManager &SM = Ctx.getSourceManager();
  for (const Decl *Callable : Pending) {
    if (!analysableBody(Callable))
      continue;
    FunctionTimer Timer(getID(), Callable);
    for (const CallExpr *Call : callsIn(Callable))
      if (isCheckedCublasCall(Call) &&
          !SM.isInSystemHeader(SM.getExpansionLoc(Call->getBeginLoc())))
        checkCall(Call, *calledCublasFunction(Call), Callable, Ctx);
  }
}

void MatrixExtentsCheck::checkCall(const CallExpr *Call,
                                   const FunctionInfo &InfoRef,
                                   const Decl *Callable, ASTContext &Ctx) {
  const FunctionInfo *Info = &InfoRef;

  const ValueFacts &Own = factsFor(Callable, Ctx);
  std::vector<Finding> Direct = CallAnalysis(Call, *Info, Own, Ctx).run();
  std::set<std::string> Keys;
  for (const Finding &F : Direct) {
    Keys.insert(F.Key);
    emit(F);
  }

  // Facts that flow in from the callers of this function: its direct
  // callers, and theirs (bounded by MaxCallSites at each level).
  const auto *FD = dyn_cast<FunctionDecl>(Callable);
  if (!FD || MaxCallSites == 0 || !hasCallerFacts(Callable))
    return;
  for (const CallerContext &C : contextsOf(FD, Ctx, 0)) {
    for (Finding F : CallAnalysis(Call, *Info, *C.Facts, Ctx).run()) {
      if (Keys.count(F.Key))
        continue;
      F.Notes.insert(F.Notes.end(), C.Notes.begin(), C.Notes.end());
      emit(F);
    }
  }
}

const std::vector<MatrixExtentsCheck::CallerContext> &
MatrixExtentsCheck::contextsOf(const FunctionDecl *Fn, ASTContext &Ctx,
                               unsigned Level) {
  auto Found = Contexts.find({Fn, Level});
  if (Found != Contexts.end())
    return Found->second;
  std::vector<CallerContext> &Out = Contexts[{Fn, Level}];
  auto It = CallSites.find(Fn->getDefinition());
  if (It == CallSites.end())
    return Out;
  const ValueFacts &Base = factsFor(Fn, Ctx);
  const SourceManager &SM = Ctx.getSourceManager();
  unsigned Taken = 0;
  for (const auto &[Site, Caller] : It->second) {
    if (Caller == Fn || Taken >= MaxCallSites)
      continue;
    ++Taken;
    std::string Name = "a lambda";
    if (const auto *CallerFD = dyn_cast<FunctionDecl>(Caller);
        CallerFD && CallerFD->getIdentifier())
      Name = "'" + CallerFD->getName().str() + "'";
    std::pair<SourceLocation, std::string> Note{
        userLocation(Site->getBeginLoc(), SM),
        "with the arguments of this call from " + Name};
    Out.push_back(
        {std::make_unique<ValueFacts>(Base, Site, factsFor(Caller, Ctx)),
         {Note}});
    const auto *CallerFD = dyn_cast<FunctionDecl>(Caller);
    if (Level + 1 >= 2 || !CallerFD || isa<CXXMethodDecl>(CallerFD) ||
        CallerFD->getNumParams() == 0)
      continue;
    for (const CallerContext &Up : contextsOf(CallerFD, Ctx, Level + 1)) {
      if (Out.size() >= 4 * MaxCallSites)
        break;
      std::vector<std::pair<SourceLocation, std::string>> Notes{Note};
      Notes.insert(Notes.end(), Up.Notes.begin(), Up.Notes.end());
      Out.push_back({std::make_unique<ValueFacts>(Base, Site, *Up.Facts),
                     std::move(Notes)});
    }
  }
  return Out;
}

} // namespace clang::tidy::cublas
