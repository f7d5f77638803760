//===- MatrixExtentsCheck.cpp - cublas-matrix-extents ---------------------===//

#include "MatrixExtentsCheck.h"

#include "ast/Callables.h"

#include "ast/AstUtils.h"
#include "facts/Allocations.h"
#include "facts/BufferParams.h"
#include "facts/CallGeometry.h"
#include "facts/LibraryModel.h"
#include "facts/LtDescriptors.h"
#include "facts/StorageMatrices.h"
#include "facts/ValueBounds.h"
#include "facts/WorkspaceQueries.h"
#include "model/CublasApi.h"
#include "model/OperandShapes.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

#include <set>

using namespace clang::ast_matchers;
using namespace cublas_tidy;

namespace clang::tidy::cublas {

namespace {

constexpr unsigned MaxTextLength = 40;

/// The summary of the function `Call` calls, defined in another file, when
/// it gives a buffer of the caller's to cuBLAS with a known span.
const FunctionSummary *projectBufferSpans(const CallExpr *Call) {
  const FunctionSummary *S = projectSummaryOfCall(Call);
  return S && llvm::any_of(S->Buffers,
                           [](const FunctionSummary::BufferParam &B) {
                             return B.Spans.has_value() || !B.Cases.empty();
                           })
             ? S
             : nullptr;
}

/// The source text of `E` in the user's file, or empty.
std::string sourceText(const Expr *E, const ASTContext &Ctx) {
  return writtenText(E, Ctx, MaxTextLength);
}

using Value = ArgValue;

std::string parenthesize(const std::string &Text) {
  if (Text.find_first_of(" +-*/") == std::string::npos)
    return Text;
  return "(" + Text + ")";
}

/// `Bytes` as a count of `ElemBytes`-byte elements: `n`, or `(4 * n)/8`
/// where they do not divide exactly.
std::string elementsText(const SymExpr &Bytes, int64_t ElemBytes) {
  if (std::optional<SymExpr> D = bytesAsElements(Bytes, ElemBytes))
    return D->str();
  return parenthesize(Bytes.str()) + "/" + std::to_string(ElemBytes);
}

/// "cudaMalloc of 4 << 20 bytes", "std::vector of n float values".
std::string allocationMadeText(const Extent &X, const ASTContext &Ctx) {
  // A helper's size is written in its own parameters: the value, in the
  // caller's terms, says more.
  auto Printed = [&](const SymExpr &V, const Expr *Written) {
    if (std::optional<int64_t> C = V.getConstant())
      return std::to_string(*C);
    std::string T = X.Through ? "" : sourceText(Written, Ctx);
    return T.empty() ? V.str() : T;
  };
  StringRef Allocator = X.Allocator;
  std::optional<int64_t> TypeSize;
  if (!X.ElementType.isNull() && !X.ElementType->isIncompleteType() &&
      !X.ElementType->isDependentType())
    TypeSize = Ctx.getTypeSizeInChars(X.ElementType).getQuantity();
  if ((Allocator == "new[]" || Allocator == "array" ||
       Allocator.contains("vector")) &&
      TypeSize && *TypeSize > 0) {
    std::optional<SymExpr> Count = X.totalElements(*TypeSize);
    std::string Type = X.ElementType.getAsString(Ctx.getPrintingPolicy());
    if (Allocator == "array")
      return "array of " + (Count ? Count->str() : X.Bytes.str() + " bytes") +
             " " + Type + " values";
    return Allocator.str() + " of " +
           (Count ? (Count->isConstant() ? Count->str()
                                         : Printed(*Count, X.SizeExpr))
                  : X.Bytes.str() + " bytes") +
           " " + Type + " values";
  }
  if (libraryOfObjects(Allocator)) {
    // A library object "of size {m, n}": the count is in the message
    // already.
    std::string Sizes = sourceText(X.SizeExpr, Ctx);
    return Sizes.empty() ? "a " + Allocator.str()
                         : Allocator.str() + " of size " + Sizes;
  }
  if (X.PitchBytes) {
    std::string Height = sourceText(X.SizeExpr, Ctx);
    return Allocator.str() + " of pitch * " +
           (Height.empty() ? "height" : parenthesize(Height)) + " bytes";
  }
  return Allocator.str() + " of " + Printed(X.Bytes, X.SizeExpr) + " bytes";
}

/// The same, and ", by 'deviceFloats'" after it for the allocation a
/// helper returned.
std::string allocationTextOf(const Extent &X, const ASTContext &Ctx) {
  std::string Made = allocationMadeText(X, Ctx);
  const FunctionDecl *Helper = X.helper();
  return Helper ? Made + ", by '" + Helper->getNameAsString() + "'" : Made;
}

/// "allocated here" at the allocation, when it is known.
std::vector<std::pair<SourceLocation, std::string>>
allocationNoteOf(const Extent &X, const SourceManager &SM) {
  SourceLocation AllocLoc = X.Origin      ? X.Origin->getBeginLoc()
                            : X.OriginVar ? X.OriginVar->getLocation()
                                          : SourceLocation();
  if (AllocLoc.isInvalid())
    return {};
  std::vector<std::pair<SourceLocation, std::string>> Notes = {
      {userLocation(AllocLoc, SM),
       X.OriginVar ? "'" + X.OriginVar->getName().str() + "' is allocated here"
                   : "allocated here"}};
  if (const FunctionDecl *Helper = X.helper())
    Notes.push_back({userLocation(X.Through->getBeginLoc(), SM),
                     "'" + Helper->getNameAsString() + "' returns it here"});
  return Notes;
}

/// "'cusolverDnSgetrf_bufferSize' writes 'lwork' here" at a query.
std::pair<SourceLocation, std::string> queryNote(const CallExpr *Query,
                                                 const FunctionInfo &Row,
                                                 const VarDecl *Var,
                                                 const SourceManager &SM) {
  return {userLocation(Query->getBeginLoc(), SM),
          "'" + std::string(Row.Name) + "' writes '" + Var->getName().str() +
              "' here"};
}

/// Everything one analysis of one call needs.
class CallAnalysis {
public:
  CallAnalysis(const CallExpr *Call, const FunctionInfo &F,
               const ValueFacts &VF, ASTContext &Ctx)
      : Call(Call), F(F), VF(VF), Ctx(Ctx), SM(Ctx.getSourceManager()),
        Args(argumentsAt(Call, VF, Ctx, MaxTextLength)), Geometry(F, *Args),
        Bounds(Geometry.bounds()) {}

  std::vector<MatrixExtentsCheck::Finding> run();

private:
  const Expr *arg(int Index) const {
    if (Index < 0 || unsigned(Index) >= Call->getNumArgs())
      return nullptr;
    return Call->getArg(Index);
  }
  std::optional<Value> valueOf(int Index) const { return Args->value(Index); }
  StringRef paramName(int Index) const {
    if (Index < 0 || unsigned(Index) >= F.NumParams)
      return "?";
    return F.params()[Index].Name;
  }

  void checkLeadingDimension(const OperandAtCall &O);
  bool isColumnCountLd(const ArgValue &Ld, const ArgValue &Rows,
                       const ArgValue &Cols, const Expr *LdArg,
                       const Expr *RowsArg) const;
  void checkColumnCountLd(const OperandAtCall &O);
  static std::string named(StringRef Name, const ArgValue &V,
                           StringRef Same = "");
  void checkFootprint(const OperandAtCall &O);
  void checkPointerArray(int Param);
  void checkStorageLayout(const OperandAtCall &O);
  void checkView(const OperandAtCall &O, const StorageMatrix &M);
  void checkLayout();
  void checkWorkspace();
  bool checkGivenWorkspaceSize(int SizeParam, unsigned Unit,
                               const SymExpr &Given);
  void checkQueriedWorkspace();
  bool checkWorkspaceOfAnotherQuery(const Extent &X, const SymExpr &Held,
                                    const WorkspaceQuery &Q);
  void checkPreferenceWorkspace(const Extent &X, const SymExpr &Remaining);
  void checkLtMatmul();
  bool checkLtExtents(const std::array<LtOperand, 4> &Ops);
  void checkLtShapes(const std::array<LtOperand, 4> &Ops);
  std::pair<SourceLocation, std::string>
  layoutNote(const LtLayoutFacts &L) const;
  std::string remedy() const;
  bool outputColumnMajor() const;
  /// "cudaMalloc of 4 << 20 bytes", "std::vector of n float values".
  std::string allocationText(const Extent &X) const;
  /// "allocated here" at the allocation, when it is known.
  std::vector<std::pair<SourceLocation, std::string>>
  allocationNote(const Extent &X) const;

  void report(std::string Key, const Expr *At, std::string Message,
              std::vector<std::pair<SourceLocation, std::string>> Notes = {}) {
    SourceLocation Loc =
        userLocation(At ? At->getBeginLoc() : Call->getBeginLoc(), SM);
    for (auto &Note : Notes)
      Note.second = leadingNameQuoted(std::move(Note.second));
    Findings.push_back({std::move(Key), Loc,
                        leadingNameQuoted(std::move(Message)),
                        std::move(Notes)});
  }
  /// `Text` with its first word quoted when that is a name of the routine's
  /// (a parameter, an operand, a layout's ld): clangd capitalises the first
  /// letter of every message, and "lda (128) is smaller ..." would read
  /// "Lda (128) ...".
  std::string leadingNameQuoted(std::string Text) const {
    size_t End = 0;
    while (End < Text.size() && (llvm::isAlnum(Text[End]) || Text[End] == '_'))
      ++End;
    if (End == 0 || End == Text.size() || Text[End] == '\'')
      return Text;
    StringRef Word(Text.data(), End);
    bool Name = llvm::is_contained(
        ArrayRef<StringRef>{"ld", "A", "B", "C", "D", "x", "y"}, Word);
    for (unsigned I = 0; I < F.NumParams && !Name; ++I)
      Name = F.params()[I].Name == Word;
    return Name ? "'" + Word.str() + "'" + Text.substr(End) : Text;
  }

  const CallExpr *Call;
  const FunctionInfo &F;
  const ValueFacts &VF;
  ASTContext &Ctx;
  const SourceManager &SM;
  std::unique_ptr<CallArguments> Args;
  CallGeometry Geometry;
  const SymbolBounds &Bounds;
  bool LdError = false;
  bool RowMajorHint = false;
  std::vector<MatrixExtentsCheck::Finding> Findings;
};

/// Whether the written matrix is laid out as a column-major one of the
/// call's own rows (ldc is m): a call already column-major, or already the
/// transposed product of row-major data (`n, m, k, B, n, A, k, C, n`).
bool CallAnalysis::outputColumnMajor() const {
  for (const OperandAtCall &O : Geometry.operands())
    if (O.Params.Shape && O.Params.Shape->Written && O.Ld && O.Rows)
      return O.Ld->V == O.Rows->V;
  return false;
}

std::string CallAnalysis::remedy() const {
  StringRef R = F.Routine ? F.Routine : "";
  if ((R == "gemm" || R == "gemm3m") && outputColumnMajor())
    return "matrices are column-major in cuBLAS: each leading dimension is "
           "the row count of its matrix as stored (for row-major data given "
           "as the transposed product, C^T = B^T * A^T, the length of a "
           "row-major row)";
  if (R == "gemm" || R == "gemm3m")
    return "matrices are column-major in cuBLAS: for row-major data compute the "
           "transposed product instead, passing B before A and n before m "
           "(C^T = B^T * A^T), or store the matrices column-major";
  if (R == "setmatrix" || R == "getmatrix")
    return "matrices are column-major in cuBLAS: a row-major rows x cols array is the "
           "column-major cols x rows transpose; swap rows and cols or "
           "store it column-major";
  if (F.Creates == ResourceKind::LtMatrixLayout)
    return "for row-major data set CUBLASLT_MATRIX_LAYOUT_ORDER to "
           "CUBLASLT_ORDER_ROW, or describe the column-major transpose";
  return "matrices are column-major in cuBLAS: a row-major matrix is the column-major "
         "transpose; swap its rows and columns (and the transpose flag), or "
         "store it column-major";
}

void CallAnalysis::checkLeadingDimension(const OperandAtCall &O) {
  if (!O.Ld)
    return;
  int LdParam = O.Params.Ld;
  std::string LdName = paramName(LdParam).str();
  bool Copy = F.findParam(ParamRole::ElemSize) >= 0;
  std::string Consequence =
      Copy ? "; " + std::string(F.Name) + " requires " + LdName +
                 " >= rows and fails"
           : "; cuBLAS returns CUBLAS_STATUS_INVALID_VALUE";
  std::string Key = "ld:" + std::to_string(LdParam);
  if (provenLess(O.Ld->V, SymExpr::constant(1), Bounds)) {
    LdError = true;
    report(Key, arg(LdParam),
           LdName + " (" + O.Ld->describe(LdName) + ") must be at least 1" +
               Consequence);
    return;
  }
  if (!O.Rows || !provenLess(O.Ld->V, O.Rows->V, Bounds)) {
    checkColumnCountLd(O);
    return;
  }
  LdError = true;
  const OperandShape &S = *O.Params.Shape;
  std::string Op = toString(S.Op).str();
  std::string What = S.Kind == ShapeKind::Band
                         ? "the rows of the band storage of " + Op
                         : (Copy ? std::string("rows") : "the rows of " + Op);
  std::string Message = LdName + " (" + O.Ld->describe(LdName) +
                        ") is smaller than " + What + " (" +
                        O.Rows->describe() + ")" + O.SelectorText;
  // Row-major data: the leading dimension is the column count.
  if (O.Cols && O.Ld->V == O.Cols->V &&
      compare(O.Rows->V, O.Cols->V, Bounds) != Order::Equal) {
    Message += "; " + LdName + " is the column count, as for row-major data";
    RowMajorHint = true;
  }
  report(Key, arg(LdParam), Message + Consequence);
}

/// The row-major mistake where the sizes are symbols: `Ld` is the matrix's
/// column count `Cols`, a value other than its `Rows` that nothing orders
/// against it (their types and the call's bounds, a comparison in the
/// code). Sizes that are constants are decided by ld < rows alone; a
/// library's values (an object's sizes) by the storage layout rule.
bool CallAnalysis::isColumnCountLd(const ArgValue &Ld, const ArgValue &Rows,
                                   const ArgValue &Cols, const Expr *LdArg,
                                   const Expr *RowsArg) const {
  if (Ld.V != Cols.V || Rows.V == Cols.V || Ld.V.isConstant() ||
      Rows.V.isConstant() || compare(Ld.V, Rows.V, Bounds) != Order::Unknown)
    return false;
  if (!symbolVariables(Ld.V) || !symbolVariables(Rows.V))
    return false;
  return !sizesCompared(Ld.V, LdArg, Rows.V, RowsArg, VF.callable());
}

void CallAnalysis::checkColumnCountLd(const OperandAtCall &O) {
  const OperandShape &S = *O.Params.Shape;
  auto RoleOf = [](ShapeDim D) -> std::optional<ParamRole> {
    switch (D) {
    case ShapeDim::M:
      return ParamRole::DimM;
    case ShapeDim::N:
      return ParamRole::DimN;
    case ShapeDim::K:
      return ParamRole::DimK;
    default:
      return std::nullopt;
    }
  };
  std::optional<ParamRole> RowRole = RoleOf(O.RowDim),
                           ColRole = RoleOf(O.ColDim);
  if (S.Kind != ShapeKind::Matrix || !O.Ld || !O.Rows || !O.Cols ||
      !RowRole || !ColRole)
    return;
  int LdParam = O.Params.Ld, RowsParam = F.findParam(*RowRole),
      ColsParam = F.findParam(*ColRole);
  if (!isColumnCountLd(*O.Ld, *O.Rows, *O.Cols, arg(LdParam), arg(RowsParam)))
    return;
  // A square allocation: the matrix is square, whatever its sizes are called.
  if (O.Element.Bytes)
    if (std::optional<Extent> X = pointerExtent(arg(O.Params.Memory), VF);
        X && isSquare(*X, O.Element.Bytes))
      return;
  std::string LdName = paramName(LdParam).str();
  std::string Op = toString(S.Op).str();
  bool Copy = F.findParam(ParamRole::ElemSize) >= 0;
  std::string Of = Copy ? std::string() : " of " + Op;
  RowMajorHint = true;
  report("ld:" + std::to_string(LdParam), arg(LdParam),
         named(LdName, *O.Ld, paramName(ColsParam)) + " is " +
             paramName(ColsParam).str() +
             ", the column count" + Of + O.SelectorText +
             ", as for row-major data; column-major " +
             (Copy ? std::string(F.Name) : std::string("cuBLAS")) +
             " needs " + LdName + " >= " +
             named(paramName(RowsParam), *O.Rows) +
             (Copy ? std::string() : ", the rows" + Of) +
             ": correct only when the two happen to be equal (a smaller " +
             LdName + (Copy ? " fails" : " gives CUBLAS_STATUS_INVALID_VALUE") +
             ", a larger one reads the wrong elements)");
}

/// `lda (K)`: a parameter and its value as written; the value of its
/// symbols where the text is the parameter's own name (a helper's `lda`,
/// given K by its caller); the name alone where that is the value too, or
/// is `Same` (what the message says the value is).
std::string CallAnalysis::named(StringRef Name, const ArgValue &V,
                                StringRef Same) {
  std::string Text = V.brief();
  if (Text == Name)
    Text = V.V.str();
  if (Text == Name || Text == Same || Text.empty())
    return Name.str();
  return Name.str() + " (" + Text + ")";
}

/// The leading dimension of a matrix that is a library object's storage,
/// against the object's layout: a row-major {R, C} object is, for
/// column-major cuBLAS, C x R with leading dimension C (its last size),
/// whichever view (`.t()`) the pointer was taken from. A leading dimension
/// that is R, or any size but the last, describes another layout.
void CallAnalysis::checkStorageLayout(const OperandAtCall &O) {
  const OperandParams &P = O.Params;
  if (!O.Ld || P.Memory < 0 || P.Ld < 0)
    return;
  std::optional<StorageMatrix> M = storageMatrix(arg(P.Memory), VF);
  if (!M)
    return;
  if (M->Layout.Order == StorageOrder::View)
    return checkView(O, *M);
  const StorageLayout &L = M->Layout;
  std::vector<SymExpr> CallValues;
  for (unsigned I = 0; I < F.NumParams; ++I)
    if (std::optional<Value> A = valueOf(int(I)))
      CallValues.push_back(A->V);
  std::optional<SymExpr> Cols;
  if (O.Cols)
    Cols = O.Cols->V;
  std::optional<MisreadStorageLd> Misread =
      misreadStorageLd(*M, O.Ld->V, Cols, CallValues, Bounds);
  if (!Misread)
    return;
  int Named = Misread->Named;
  const std::optional<SymExpr> &Last = Misread->Last;

  std::string LdName = paramName(P.Ld).str();
  std::string Storage =
      L.StorageVar ? L.StorageVar->getName().str() : sourceText(L.Storage, Ctx);
  if (Storage.empty())
    return;
  // "b.size(0)": by the symbol where the size is an object's by name.
  const LibraryModel &Library = *M->Library;
  auto SizeText = [&](int Dim) {
    if (Dim >= 0 && unsigned(Dim) < M->Sizes.size() && M->Sizes[Dim])
      if (std::optional<Symbol> S = M->Sizes[Dim]->asSymbol();
          S && Library.sizeSymbolOf(*S))
        return S->name();
    // The object the sizes are named after.
    std::string Of = Storage;
    if (std::optional<Symbol> S = M->Sizes[Named]->asSymbol())
      if (auto Var = Library.sizeSymbolOf(*S))
        Of = Var->first->getName().str();
    return Library.sizeSpelling(Of, Dim);
  };
  std::string Leading = L.Dims ? SizeText(int(*L.Dims) - 1)
                                : SizeText(-1) + ", its last size";
  if (Last && Last->str() != Leading)
    Leading += " (" + Last->str() + ")";
  std::string LdText = O.Ld->describe(LdName);
  std::string Message = LdName + " (" + LdText + ")";
  if (LdText != SizeText(Named))
    Message += " is " + SizeText(Named);
  std::vector<std::pair<SourceLocation, std::string>> Notes;
  std::string View = sourceText(M->Object, Ctx);
  if (L.Order == StorageOrder::Transposed) {
    Message += ", but '" + View + "' is a transposed view of the row-major '" +
               Storage + "' and shares its storage, which, read column-major, "
               "has leading dimension " +
               Leading +
               "; a view swaps strides, not data: cuBLAS reads the wrong "
               "elements unless the two are equal";
    Notes.push_back({userLocation(L.View->getBeginLoc(), SM),
                     "the view is made here; .contiguous() on it makes a "
                     "row-major copy of the transpose"});
  } else {
    Message += ", a size of the row-major '" + Storage +
               "' other than its last: read column-major, its storage has "
               "leading dimension " +
               Leading + "; cuBLAS reads the wrong elements unless the two "
               "are equal";
  }
  if (L.Why && !(L.View && containsStmt(L.View, L.Why)))
    Notes.push_back({userLocation(L.Why->getBeginLoc(), SM),
                     "'" + Storage + "' is row-major (contiguous) here"});
  report("storage-ld:" + std::to_string(P.Ld), arg(P.Ld), Message,
         std::move(Notes));
}

/// What the view operations `Ops` (StorageMatrices.h's ViewOps) did to
/// the row-major object: "reorders the dimensions of", "narrows", ...
static std::string viewVerbs(unsigned Ops) {
  static const std::pair<unsigned, const char *> Verbs[] = {
      {ViewOps::Narrows, "narrows"},
      {ViewOps::Selects, "selects from"},
      {ViewOps::Expands, "expands"},
      {ViewOps::Strides, "gives strides of its own to"},
      {ViewOps::Reorders, "reorders the dimensions of"},
  };
  std::string Text;
  for (auto [Op, Verb] : Verbs)
    if (Ops & Op)
      Text += (Text.empty() ? "" : " and ") + std::string(Verb);
  return Text;
}

/// The leading dimension and batch stride of a matrix that is a view of a
/// row-major object (`q.transpose(1, 2)`, `x.narrow(1, 0, k)`,
/// `w.expand({b, m, k})`): read with the values of a packed object of the
/// view's sizes, while the storage it shares has other strides.
void CallAnalysis::checkView(const OperandAtCall &O, const StorageMatrix &M) {
  const OperandParams &P = O.Params;
  const StorageLayout &L = M.Layout;
  std::string View = sourceText(M.Object, Ctx);
  std::string Storage =
      L.StorageVar ? L.StorageVar->getName().str() : sourceText(L.Storage, Ctx);
  if (View.empty() || Storage.empty() || !L.View || !L.Ops)
    return;
  auto Notes = [&] {
    std::vector<std::pair<SourceLocation, std::string>> N{
        {userLocation(L.View->getBeginLoc(), SM),
         "the view is made here; .contiguous() on it makes a packed copy"}};
    if (L.Why && !containsStmt(L.View, L.Why))
      N.push_back({userLocation(L.Why->getBeginLoc(), SM),
                   "'" + Storage + "' is row-major (contiguous) here"});
    return N;
  };
  auto Given = [&](int Param, const ArgValue &V) {
    std::string Name = paramName(Param).str();
    return "'" + Name + "' (" + V.describe(Name) + ")";
  };
  // An expanded dimension repeats the same elements: a packed stride
  // reads past them.
  auto Unless = [](const MisreadViewStride &R) {
    return R.Actual.getConstant() == 0
               ? std::string("; expand() repeats the same elements without "
                             "copying them, and cuBLAS reads past them")
               : std::string(
                     "; cuBLAS reads the wrong elements unless the two are "
                     "equal");
  };
  std::string Verbs = viewVerbs(L.Ops);
  if (O.Ld)
    if (std::optional<MisreadViewStride> Ld = misreadViewLd(M, O.Ld->V))
      report("view-ld:" + std::to_string(P.Ld), arg(P.Ld),
             Given(P.Ld, *O.Ld) + " is the last size of the view '" + View +
                 "', as if the view were packed, but '" + View + "' " + Verbs +
                 " the row-major '" + Storage +
                 "' and shares its storage, where the view's rows are " +
                 Ld->Actual.str() + " elements apart" + Unless(*Ld),
             Notes());
  if (!F.StridedBatched || P.Stride < 0 || !O.Stride)
    return;
  if (std::optional<MisreadViewStride> Stride =
          misreadViewStride(M, O.Stride->V))
    report("view-stride:" + std::to_string(P.Stride), arg(P.Stride),
           Given(P.Stride, *O.Stride) +
               " is the size of one matrix of the view '" + View +
               "', as if the view were packed, but in the storage of the "
               "row-major '" +
               Storage + "' that it shares, its matrices are " +
               Stride->Actual.str() + " elements apart" + Unless(*Stride),
           Notes());
}

void CallAnalysis::checkFootprint(const OperandAtCall &O) {
  const OperandParams &P = O.Params;
  if (P.Memory < 0 ||
      F.params()[P.Memory].Role == ParamRole::DevicePointerArray ||
      !O.Element.Bytes || !O.Total)
    return;
  const int64_t ElemBytes = O.Element.Bytes;
  const OperandShape &S = *P.Shape;
  const SymExpr &Needed = *O.Member;
  const SymExpr &Total = *O.Total;
  std::string At;
  if (S.Kind == ShapeKind::Vector)
    At = " at " + paramName(P.Inc).str() + "=" + O.Inc->brief();
  else if (S.Kind == ShapeKind::Packed)
    At = " in packed storage";
  else
    At = " at " + paramName(P.Ld).str() + "=" + O.Ld->brief();

  // Strided batches: the last one ends stride*(batchCount-1) further.
  if (F.StridedBatched) {
    At += ", " + paramName(P.Stride).str() + "=" + O.Stride->brief() +
          " and " + paramName(P.Count).str() + "=" + O.Count->brief();

    // Output batches that overlap: closer than one member's footprint,
    // unless they lie side by side in the rows of one matrix.
    if (S.Written && provenLess(SymExpr::constant(1), O.Count->V, Bounds) &&
        provenLess(O.Stride->V, Needed, Bounds) &&
        !sideBySideInRows(O, Bounds)) {
      std::string Name = toString(S.Op).str();
      report("overlap:" + std::to_string(P.Memory), arg(P.Stride),
             paramName(P.Stride).str() + " (" +
                 O.Stride->describe(paramName(P.Stride)) +
                 ") is smaller than the " +
                 Needed.str() +
                 " elements of each " + Name + " at " +
                 paramName(P.Ld >= 0 ? P.Ld : P.Inc).str() + "=" +
                 (O.Ld    ? O.Ld->brief()
                  : O.Inc ? O.Inc->brief()
                          : "?") +
                 ", so the " + O.Count->brief() + " batches written to " +
                 Name + " overlap");
    }
  }

  std::optional<Extent> X = pointerExtent(arg(P.Memory), VF);
  if (!X)
    return;
  if (!X->provenShorterThan(Total, ElemBytes, Bounds))
    return;
  std::optional<SymExpr> Remaining = X->remainingBytes();

  auto Elements = [&](const SymExpr &Bytes) {
    return elementsText(Bytes, ElemBytes);
  };
  std::string Alloc = allocationText(*X);
  if (X->OffsetBytes != SymExpr::constant(0))
    Alloc += ", from element " + Elements(X->OffsetBytes);

  std::string Ptr = sourceText(arg(P.Memory), Ctx);
  std::string Name = toString(S.Op).str();
  std::string Message =
      Name + " needs " +
      Total.str() +
      " elements" + At + " but " +
      (Ptr.empty() ? "the pointer" : "'" + Ptr + "'") + " holds " +
      Elements(*Remaining) + " " + O.Plural + " (" + Alloc + ")";
  report("extent:" + std::to_string(P.Memory), arg(P.Memory), Message,
         allocationNote(*X));
}

/// A batched call reads batchCount device pointers from each pointer
/// array: one allocated with fewer, or filled by one copy of fewer, is read
/// past its end or past what the code wrote.
void CallAnalysis::checkPointerArray(int Param) {
  int CountParam = F.findParam(ParamRole::BatchCount);
  std::optional<Value> Count = valueOf(CountParam);
  const Expr *Array = arg(Param);
  if (!Count || !Array)
    return;
  const int64_t PtrBytes =
      Ctx.getTypeSizeInChars(Ctx.VoidPtrTy).getQuantity();
  std::optional<ShortPointerArray> Short =
      shortPointerArray(Array, Count->V, PtrBytes, VF, Bounds);
  if (!Short)
    return;
  // The message starts with the routine's name: clangd capitalises the
  // first letter of a diagnostic ("CuBLAS").
  const FunctionDecl *Callee = Call->getDirectCallee();
  std::string Reads = (Callee ? "'" + Callee->getName().str() + "'"
                              : std::string("the batched call")) +
                      " reads " + paramName(CountParam).str() + " = " +
                      Count->brief() + " device pointers from " +
                      toString(F.params()[Param].Op).str();
  std::string Ptr = sourceText(Array, Ctx);
  std::string Named = Ptr.empty() ? "the array" : "'" + Ptr + "'";
  std::string Key = "pointers:" + std::to_string(Param);
  // "4 pointers", or, where the bytes are not whole pointers (sized as
  // floats), "4*batch bytes".
  std::string What;
  // A pointer that starts at or past the allocation's end holds none.
  std::optional<int64_t> Bytes = Short->Bytes.getConstant();
  bool None = Bytes && *Bytes <= 0;
  if (None)
    What = "no pointers";
  else if (std::optional<SymExpr> N = bytesAsElements(Short->Bytes, PtrBytes))
    What = N->str() + (N->getConstant() == 1 ? " pointer" : " pointers");
  else
    What = Short->Bytes.str() + " bytes";
  if (Short->Allocation) {
    std::string Alloc = allocationText(*Short->Allocation);
    if (None && Short->Allocation->OffsetBytes != SymExpr::constant(0))
      Alloc += ", from byte " + Short->Allocation->OffsetBytes.str();
    report(Key, Array,
           Reads + ", but " + Named + " holds " + What + " (" + Alloc + "): " +
               (None ? "every one is read past its end"
                     : "the last ones are read past its end"),
           allocationNote(*Short->Allocation));
  } else
    report(Key, Array,
           Reads + ", but only " + What + " are copied into " + Named +
               ": the others are not pointers this code wrote",
           {{userLocation(Short->Copy->getBeginLoc(), SM),
             "only " + What + " are copied into it here"}});
}

std::string CallAnalysis::allocationText(const Extent &X) const {
  return allocationTextOf(X, Ctx);
}

std::vector<std::pair<SourceLocation, std::string>>
CallAnalysis::allocationNote(const Extent &X) const {
  return allocationNoteOf(X, SM);
}

void CallAnalysis::checkWorkspace() {
  int WsParam = F.findParam(ParamRole::DeviceWorkspace);
  int SizeParam = F.findParam(ParamRole::WorkspaceSize);
  // Legacy cuSOLVER routines take the size in elements of their type.
  unsigned Unit = 1;
  if (SizeParam < 0) {
    SizeParam = F.findParam(ParamRole::WorkspaceElements);
    Unit = elementSize(F.Elem);
  }
  std::optional<Value> Size = valueOf(SizeParam);
  if (WsParam < 0 || !Size || !Unit ||
      checkGivenWorkspaceSize(SizeParam, Unit, Size->V))
    return;
  SymbolBounds WithSize = Bounds;
  std::optional<SymExpr> Bytes = workspaceBytes(Size->V, Unit, WithSize);
  if (!Bytes)
    return;
  Size->V = *Bytes;
  std::optional<Extent> X = pointerExtent(arg(WsParam), VF);
  std::optional<SymExpr> Remaining = X ? X->remainingBytes() : std::nullopt;
  if (!Remaining)
    return;
  if (!provenLess(*Remaining, Size->V, WithSize)) {
    checkPreferenceWorkspace(*X, *Remaining);
    return;
  }
  std::string Ws = sourceText(arg(WsParam), Ctx);
  std::string Alloc = allocationText(*X);
  if (X->OffsetBytes != SymExpr::constant(0))
    Alloc += ", from byte " + X->OffsetBytes.str();
  std::string Name = paramName(SizeParam).str();
  std::string Given = Size->describe(Name);
  if (Unit > 1)
    Given = "'" + sourceText(arg(SizeParam), Ctx) + "' " +
            std::string(toString(F.Elem)) + " elements, " + Size->V.str() +
            " bytes";
  report("workspace:" + std::to_string(SizeParam), arg(SizeParam),
         Name + " (" + Given + ") is larger than the workspace " +
             (Ws.empty() ? std::string("the pointer") : "'" + Ws + "'") + " (" +
             Alloc + "); " + libraryOf(F.Family).str() +
             " may read and write past its end" +
             (Unit > 1
                  ? "; " + Name + " counts " + std::string(toString(F.Elem)) +
                        " elements, not bytes"
                  : ""),
         allocationNote(*X));
}

/// What a query sized, for messages: "'cusparseSpMV'" for
/// cusparseSpMV_bufferSize, "its own buffer" for a routine that sizes its
/// own (cuSPARSE's SpGEMM steps).
static std::string sizedFor(const FunctionInfo &Query) {
  StringRef Routine = routineSizedBy(Query);
  return Routine == Query.Name ? std::string("its own buffer")
                               : "'" + Routine.str() + "'";
}

/// The size a cuSOLVER routine is given against what its query wrote: less
/// than that, the host size of the 64-bit API given for the device
/// workspace, or the size another routine's query wrote. `Given` counts
/// `Unit`-byte units, as the query did.
bool CallAnalysis::checkGivenWorkspaceSize(int SizeParam, unsigned Unit,
                                           const SymExpr &Given) {
  const Decl *Callable = VF.callable();
  std::optional<WorkspaceQuery> Q = workspaceQueryFor(Call, F, Callable);
  std::string Name = paramName(SizeParam).str();
  std::string Text = sourceText(arg(SizeParam), Ctx);
  std::optional<Symbol> S = Given.asSymbol();
  std::optional<QueryOutput> Out =
      S ? queryOutputOf(*S, Callable) : std::nullopt;
  if (Out && Q && Out->Call == Q->Call && Out->Var != Q->Size &&
      Out->Query->params()[Out->Param].Role ==
          ParamRole::HostWorkspaceSizeOut) {
    report("workspace:" + std::to_string(SizeParam), arg(SizeParam),
           Name + " is '" + Text + "', the size '" + Q->Query->Name +
               "' wrote for the host workspace; the device workspace needs "
               "the size it wrote to '" +
               Q->Size->getName().str() + "'",
           {{userLocation(Q->Call->getBeginLoc(), SM),
             "'" + std::string(Q->Query->Name) + "' writes the sizes to '" +
                 Q->Size->getName().str() + "' and '" +
                 Out->Var->getName().str() + "' here"}});
    return true;
  }
  const FunctionInfo *OwnQuery = workspaceQueryOf(F);
  if (Out && OwnQuery && !sizesWorkspaceOf(*Out->Query, F)) {
    std::string Own = Q ? "the size '" + std::string(Q->Query->Name) +
                              "' wrote to '" + Q->Size->getName().str() + "'"
                        : "the size '" + std::string(OwnQuery->Name) +
                              "' returns, which this function does not ask";
    std::string Is = Text == Name ? " is" : " is '" + Text + "',";
    report("workspace:" + std::to_string(SizeParam), arg(SizeParam),
           Name + Is + " the size '" + Out->Query->Name + "' wrote for " +
               sizedFor(*Out->Query) + "; '" + F.Name + "' needs " + Own,
           {queryNote(Out->Call, *Out->Query, Out->Var, SM)});
    return true;
  }
  if (!Q)
    return false;
  SymbolBounds Positive = Bounds;
  std::optional<SymExpr> Needed = Q->neededBytes(Positive);
  std::optional<SymExpr> Bytes = workspaceBytes(Given, Unit, Positive);
  if (!Needed || !Bytes || !provenLess(*Bytes, *Needed, Positive))
    return false;
  std::string Var = Q->Size->getName().str();
  std::string Units =
      Unit > 1 ? " " + toString(Q->Query->Elem).str() + " elements" : " bytes";
  report("workspace:" + std::to_string(SizeParam), arg(SizeParam),
         Name + " is " + Given.str() + ", less than the " + Var + Units + " '" +
             Q->Query->Name + "' wrote to '" + Var + "'; " +
             libraryOf(F.Family).str() +
             " needs at least what the query returned",
         {queryNote(Q->Call, *Q->Query, Q->Size, SM)});
  return true;
}

/// A cuSOLVER or cuSPARSE routine without a size argument
/// (cusolverDnSgetrf) uses as much workspace as its _bufferSize query said:
/// a buffer allocated for fewer bytes, most often the query's element count
/// taken as bytes, is written past its end.
void CallAnalysis::checkQueriedWorkspace() {
  int WsParam = F.findParam(ParamRole::DeviceWorkspace);
  if (WsParam < 0 || F.findParam(ParamRole::WorkspaceSize) >= 0 ||
      F.findParam(ParamRole::WorkspaceElements) >= 0)
    return;
  std::optional<WorkspaceQuery> Q = workspaceQueryFor(Call, F, VF.callable());
  if (!Q)
    return;
  std::optional<Extent> X = pointerExtent(arg(WsParam), VF);
  std::optional<SymExpr> Remaining = X ? X->remainingBytes() : std::nullopt;
  SymbolBounds Positive = Bounds;
  std::optional<SymExpr> Needed = Q->neededBytes(Positive);
  if (!Remaining || !Needed)
    return;
  if (!provenLess(*Remaining, *Needed, Positive)) {
    checkWorkspaceOfAnotherQuery(*X, *Remaining, *Q);
    return;
  }
  std::string Ws = sourceText(arg(WsParam), Ctx);
  std::string Var = Q->Size->getName().str();
  std::string Elem = toString(Q->Query->Elem).str();
  std::string Message =
      (Ws.empty() ? std::string("the workspace") : "'" + Ws + "'") + " holds " +
      Remaining->str() + " bytes (" + allocationText(*X) + ") but '" + F.Name +
      "' uses ";
  if (Q->UnitBytes == 1)
    Message += Var + " bytes, as '" + Q->Query->Name + "' said; " +
               libraryOf(F.Family).str() + " writes past its end";
  else
    Message += Var + " " + Elem + " elements (" + Var + " * " +
               std::to_string(Q->UnitBytes) + " bytes): '" + Q->Query->Name +
               "' counts the workspace in elements, not bytes; " +
               libraryOf(F.Family).str() + " writes past its end; allocate " +
               Var + " * sizeof(" + Elem + ") bytes";
  std::vector<std::pair<SourceLocation, std::string>> Notes{
      {userLocation(Q->Call->getBeginLoc(), SM),
       "'" + std::string(Q->Query->Name) + "' writes the size to '" + Var +
           "' here"}};
  for (auto &N : allocationNote(*X))
    Notes.push_back(std::move(N));
  report("queried-workspace", arg(WsParam), Message, std::move(Notes));
}

/// A buffer allocated for what another routine's query wrote, given to a
/// routine whose own query `Q` wrote another size.
bool CallAnalysis::checkWorkspaceOfAnotherQuery(const Extent &X,
                                                const SymExpr &Held,
                                                const WorkspaceQuery &Q) {
  int WsParam = F.findParam(ParamRole::DeviceWorkspace);
  std::optional<Symbol> S = Held.asSymbol();
  std::optional<QueryOutput> Out =
      S ? queryOutputOf(*S, VF.callable()) : std::nullopt;
  if (!Out || sizesWorkspaceOf(*Out->Query, F) || Q.UnitBytes != 1)
    return false;
  std::string Ws = sourceText(arg(WsParam), Ctx);
  std::string Var = Out->Var->getName().str();
  std::string Own = Q.Size->getName().str();
  std::vector<std::pair<SourceLocation, std::string>> Notes{
      queryNote(Out->Call, *Out->Query, Out->Var, SM)};
  for (auto &N : allocationNote(X))
    Notes.push_back(std::move(N));
  report("queried-workspace", arg(WsParam),
         (Ws.empty() ? std::string("the workspace") : "'" + Ws + "'") +
             " holds " + Var + " bytes, the size '" + Out->Query->Name +
             "' wrote for " + sizedFor(*Out->Query) + ", but '" + F.Name +
             "' uses the " + Own + " bytes '" + Q.Query->Name + "' wrote to '" +
             Own + "'; " + libraryOf(F.Family).str() +
             " writes past its end when that is more",
         std::move(Notes));
  return true;
}

void CallAnalysis::checkLayout() {
  // cublasLtMatrixLayoutCreate(&layout, type, rows, cols, ld): column-major
  // unless an attribute changes the order, which this function may do.
  int RowsParam = F.findParam(ParamRole::DimM);
  int ColsParam = F.findParam(ParamRole::DimN);
  int LdParam = F.findParam(ParamRole::LeadingDim);
  std::optional<Value> Rows = valueOf(RowsParam), Cols = valueOf(ColsParam),
                       Ld = valueOf(LdParam);
  if (!Rows || !Ld)
    return;
  // Any attribute set in this function may switch the order to rows.
  if (!provenLess(Ld->V, Rows->V, Bounds)) {
    if (Cols &&
        isColumnCountLd(*Ld, *Rows, *Cols, arg(LdParam), arg(RowsParam)) &&
        !ltLayoutOrderMayChange(VF)) {
      RowMajorHint = true;
      report("ld:" + std::to_string(LdParam), arg(LdParam),
             named("ld", *Ld, paramName(ColsParam)) + " is " +
                 paramName(ColsParam).str() +
                 ", the column count of this column-major cublasLt layout, "
                 "as for row-major data; cuBLASLt needs ld >= " +
                 named(paramName(RowsParam), *Rows) +
                 ": correct only when the two happen to be equal (a smaller "
                 "ld is rejected, a larger one reads the wrong elements)");
    }
    return;
  }
  if (ltLayoutOrderMayChange(VF))
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

void CallAnalysis::checkPreferenceWorkspace(const Extent &X,
                                            const SymExpr &Remaining) {
  // The algorithm of a heuristic whose preference allowed a larger
  // workspace than the matmul gets.
  if (StringRef(F.Name) != "cublasLtMatmul")
    return;
  int AlgoParam = F.findParamNamed("algo");
  int WsParam = F.findParam(ParamRole::DeviceWorkspace);
  const CallExpr *Heuristic =
      ltHeuristicOf(Call, arg(AlgoParam), VF.callable());
  if (!Heuristic || Heuristic->getNumArgs() < 7)
    return;
  std::optional<LtPreferenceFacts> P =
      ltPreferenceAt(Heuristic, Heuristic->getArg(6), VF);
  if (!P || !P->MaxWorkspace || !P->MaxWorkspaceSet ||
      !provenLess(Remaining, *P->MaxWorkspace, Bounds))
    return;
  std::string Ws = sourceText(arg(WsParam), Ctx);
  std::vector<std::pair<SourceLocation, std::string>> Notes{
      {userLocation(P->MaxWorkspaceSet->getBeginLoc(), SM),
       "the limit is set here"},
      {userLocation(Heuristic->getBeginLoc(), SM),
       "the algorithm is chosen here"}};
  for (auto &N : allocationNote(X))
    Notes.push_back(std::move(N));
  report("pref-workspace", arg(WsParam),
         "the preference '" + P->Var->getName().str() +
             "' lets the heuristic choose an algorithm that needs up to " +
             P->MaxWorkspace->str() +
             " bytes of workspace (CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES) "
             "but " +
             (Ws.empty() ? std::string("the workspace") : "'" + Ws + "'") +
             " holds " + Remaining.str() + " bytes (" + allocationText(X) +
             "); cublasLtMatmul fails with that algorithm when it needs "
             "more; set the limit to the workspace's size",
         std::move(Notes));
}

std::pair<SourceLocation, std::string>
CallAnalysis::layoutNote(const LtLayoutFacts &L) const {
  return {userLocation(L.Create->getBeginLoc(), SM),
          "layout '" + L.Var->getName().str() + "' is created here"};
}

/// (a, b) Each operand's footprint, with its strided batches, against its
/// allocation. False when a layout is rejected (reported at its create).
bool CallAnalysis::checkLtExtents(const std::array<LtOperand, 4> &Ops) {
  bool Rejected = false;
  // D is often C (same pointer, same layout), B sometimes A: one finding.
  std::set<std::pair<std::string, const VarDecl *>> Seen;
  for (const LtOperand &K : Ops) {
    if (!K.Facts || !ltLayoutKnown(*K.Facts))
      continue;
    const LtLayoutFacts &L = *K.Facts;
    if (ltLayoutRejected(L, Bounds)) {
      Rejected = true;
      continue;
    }
    std::optional<SymExpr> Total = ltLayoutElements(L, Bounds);
    std::optional<Extent> X =
        Total ? pointerExtent(arg(K.Pointer), VF) : std::nullopt;
    if (!X || !X->provenShorterThan(*Total, L.Type->Bytes, Bounds))
      continue;
    bool Batched = L.BatchCount != SymExpr::constant(1);
    std::string Ptr = sourceText(arg(K.Pointer), Ctx);
    if (!Ptr.empty() && !Seen.insert({Ptr, L.Var}).second)
      continue;
    std::optional<SymExpr> Held = X->remainingElements(L.Type->Bytes);
    std::string Message =
        toString(K.Op).str() + " needs " + Total->str() +
        " elements (its layout '" + L.Var->getName().str() +
        "': " + L.Rows->brief() + " x " + L.Cols->brief() +
        ", ld=" + L.Ld->brief() +
        (Batched ? ", " + L.BatchCount->str() + " batches " +
                       L.BatchStride->str() + " elements apart"
                 : std::string()) +
        ") but " + (Ptr.empty() ? std::string("the pointer") : "'" + Ptr + "'") +
        " holds " +
        (Held ? Held->str() + " " + L.Type->Plural
              : X->remainingBytes()->str() + " bytes") +
        " (" + allocationText(*X) + ")";
    std::vector<std::pair<SourceLocation, std::string>> Notes{layoutNote(L)};
    for (auto &N : allocationNote(*X))
      Notes.push_back(std::move(N));
    report("lt-extent:" + std::to_string(K.Pointer), arg(K.Pointer), Message,
           std::move(Notes));
  }
  return !Rejected;
}

/// (c) Shapes: op(A) is m x k, op(B) k x n, C and D m x n.
void CallAnalysis::checkLtShapes(const std::array<LtOperand, 4> &Ops) {
  std::optional<LtMatmulDescFacts> D = ltMatmulDescOf(Call, F, VF);
  if (!D)
    return;
  LtOperandShape A = ltOperandShape(Ops[0], D->TransA),
                 B = ltOperandShape(Ops[1], D->TransB),
                 C = ltOperandShape(Ops[2], 0), Dd = ltOperandShape(Ops[3], 0);
  auto OpName = [&](const LtOperandShape &X, Operand Op) {
    std::string Name = toString(Op).str();
    return X.Transposed ? "op(" + Name + ") = " + Name + "^T" : Name;
  };
  auto Differ = [&](const std::optional<ArgValue> &X,
                    const std::optional<ArgValue> &Y) {
    return X && Y &&
           (provenLess(X->V, Y->V, Bounds) || provenLess(Y->V, X->V, Bounds));
  };
  auto Report = [&](const LtOperandShape &X, Operand XOp, StringRef XDim,
                    const std::optional<ArgValue> &XV, const LtOperandShape &Y,
                    Operand YOp, StringRef YDim,
                    const std::optional<ArgValue> &YV, StringRef Rule) {
    std::string Message =
        "the layouts contradict the operation: " + OpName(X, XOp) + " has " +
        XV->brief() + " " + XDim.str() + " (layout '" +
        X.Layout->Var->getName().str() + "') but " + OpName(Y, YOp) +
        " has " + YV->brief() + " " + YDim.str() + " (layout '" +
        Y.Layout->Var->getName().str() + "'); " + Rule.str() +
        "; cuBLASLt rejects the call";
    report("lt-shape", Call, Message,
           {layoutNote(*X.Layout), layoutNote(*Y.Layout)});
  };
  using O = Operand;
  if (A.Layout && C.Layout && Differ(A.Rows, C.Rows))
    Report(A, O::A, "rows", A.Rows, C, O::C, "rows", C.Rows,
           "op(A) is m x k and C m x n");
  else if (B.Layout && C.Layout && Differ(B.Cols, C.Cols))
    Report(B, O::B, "columns", B.Cols, C, O::C, "columns", C.Cols,
           "op(B) is k x n and C m x n");
  else if (A.Layout && B.Layout && Differ(A.Cols, B.Rows))
    Report(A, O::A, "columns", A.Cols, B, O::B, "rows", B.Rows,
           "op(A) is m x k and op(B) k x n");
  else if (C.Layout && Dd.Layout && Differ(C.Rows, Dd.Rows))
    Report(Dd, O::D, "rows", Dd.Rows, C, O::C, "rows", C.Rows,
           "C and D are both m x n");
  else if (C.Layout && Dd.Layout && Differ(C.Cols, Dd.Cols))
    Report(Dd, O::D, "columns", Dd.Cols, C, O::C, "columns", C.Cols,
           "C and D are both m x n");
}

void CallAnalysis::checkLtMatmul() {
  std::array<LtOperand, 4> Ops = ltMatmulOperands(Call, F, VF);
  if (checkLtExtents(Ops))
    checkLtShapes(Ops);
}

std::vector<MatrixExtentsCheck::Finding> CallAnalysis::run() {
  if (F.Creates == ResourceKind::LtMatrixLayout) {
    checkLayout();
  } else {
    for (const OperandAtCall &O : Geometry.operands())
      if (O.Params.Shape->Kind == ShapeKind::Matrix ||
          O.Params.Shape->Kind == ShapeKind::Band)
        checkLeadingDimension(O);
    if (!LdError)
      for (const OperandAtCall &O : Geometry.operands())
        if (O.Params.Shape->Kind == ShapeKind::Matrix)
          checkStorageLayout(O);
    // A call that cuBLAS rejects touches no memory.
    if (!LdError) {
      for (const OperandAtCall &O : Geometry.operands())
        checkFootprint(O);
      for (unsigned I = 0; I < F.NumParams; ++I)
        if (F.params()[I].Role == ParamRole::DevicePointerArray)
          checkPointerArray(static_cast<int>(I));
    }
    checkWorkspace();
    checkQueriedWorkspace();
    if (StringRef(F.Name) == "cublasLtMatmul")
      checkLtMatmul();
  }

  if (RowMajorHint && !Findings.empty())
    Findings.back().Notes.push_back(
        {userLocation(Call->getBeginLoc(), SM), remedy()});
  return Findings;
}

} // namespace

MatrixExtentsCheck::MatrixExtentsCheck(StringRef Name,
                                       ClangTidyContext *Context)
    : CublasCallCheck(Name, Context, AtUnitEnd | OtherCalls),
      MaxCallSites(Options.get("MaxCallSites", 8U)), Callers(MaxCallSites) {}

void MatrixExtentsCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "MaxCallSites", MaxCallSites);
}

void MatrixExtentsCheck::emit(const Finding &F) { Sink.emit(*this, F); }

bool MatrixExtentsCheck::wants(const FunctionInfo &F) const {
  return !operandShapes(F).empty() ||
         (F.Creates == ResourceKind::LtMatrixLayout &&
          F.findParam(ParamRole::LeadingDim) >= 0) ||
         (F.findParam(ParamRole::DeviceWorkspace) >= 0 &&
          (F.findParam(ParamRole::WorkspaceSize) >= 0 ||
           isNeighbour(F.Family)));
}

void MatrixExtentsCheck::beforeUnitCalls(ASTContext &Ctx) {
  Callers.collectCallSites(callables());
}

void MatrixExtentsCheck::checkOtherCall(const CallExpr *Call,
                                        const Decl *Callable,
                                        ASTContext &Ctx) {
  if (const FunctionSummary *S = projectBufferSpans(Call))
    checkProjectCall(Call, *S, Callable, Ctx);
}

void MatrixExtentsCheck::checkProjectCall(const CallExpr *Call,
                                          const FunctionSummary &S,
                                          const Decl *Callable,
                                          ASTContext &Ctx) {
  const ValueFacts &Facts = Callers.factsFor(Callable, Ctx);
  ArgumentValues ValueOf(Call, Facts);
  const SourceManager &SM = Ctx.getSourceManager();
  for (const FunctionSummary::BufferParam &B : S.Buffers) {
    const FunctionSummary::BufferParam::Span *Span =
        B.Index < Call->getNumArgs() ? spanAtCall(B, ValueOf) : nullptr;
    if (!Span)
      continue;
    const FunctionSummary::BufferParam::Span &P = *Span;
    // A dimension below 1 touches no memory (or is an error of its own).
    SymbolBounds Bounds;
    bool Touches = true;
    for (unsigned I : P.Positive) {
      std::optional<SymExpr> V = ValueOf(I);
      if (std::optional<int64_t> C = V ? V->getConstant() : std::nullopt)
        Touches = Touches && *C >= 1;
      else if (std::optional<Symbol> Sym = V ? V->asSymbol() : std::nullopt)
        Bounds.Positive.insert(*Sym);
    }
    std::optional<SymExpr> Total = P.Elements.bind(ValueOf);
    const Expr *Ptr = Call->getArg(B.Index);
    std::optional<Extent> X =
        Touches && Total ? pointerExtent(Ptr, Facts) : std::nullopt;
    if (!X || !X->provenShorterThan(*Total, P.ElementBytes, Bounds))
      continue;
    std::optional<SymExpr> Remaining = X->remainingBytes();
    if (!Remaining)
      continue;

    auto Printed = [](const SymExpr &V) {
      std::optional<int64_t> C = V.getConstant();
      return C ? std::to_string(*C) : V.str();
    };
    std::string Layout;
    for (const auto &[Name, V] : P.Layout)
      if (std::optional<SymExpr> Bound = V.bind(ValueOf))
        Layout += (Layout.empty() ? " at " : ", ") + Name + "=" +
                  Printed(*Bound);
    std::string Alloc = allocationTextOf(*X, Ctx);
    if (X->OffsetBytes != SymExpr::constant(0))
      Alloc += ", from element " + elementsText(X->OffsetBytes, P.ElementBytes);
    std::string Written = sourceText(Ptr, Ctx);
    std::string Named = Written.empty() ? "the pointer" : "'" + Written + "'";
    std::string Callee = spelledCalleeName(Call, SM, Ctx.getLangOpts());
    Finding F;
    F.Key = "project-extent";
    F.Loc = userLocation(Ptr->getBeginLoc(), SM);
    F.Message = "'" + Callee + "' gives " + Named + " to '" + B.Spelled +
                "' as " + P.Operand + ", which needs " + Printed(*Total) +
                " elements" + Layout + ", but " + Named + " holds " +
                elementsText(*Remaining, P.ElementBytes) + " " + P.Plural +
                " (" + Alloc + ")";
    F.Notes = allocationNoteOf(*X, SM);
    SourceLocation At = locationInFile(const_cast<SourceManager &>(SM),
                                       B.callFile(S.File), B.Line);
    if (At.isValid())
      F.Notes.push_back({At, "'" + Callee + "' gives its parameter" +
                                 throughText(B) + " to '" + B.Spelled +
                                 "' as " + P.Operand +
                                 " here, in another file"});
    emit(F);
  }
}

void MatrixExtentsCheck::checkCall(const CallExpr *Call,
                                   const FunctionInfo &InfoRef,
                                   const Decl *Callable, ASTContext &Ctx) {
  const FunctionInfo *Info = &InfoRef;

  const ValueFacts &Own = Callers.factsFor(Callable, Ctx);
  judgeInContexts(
      Callable, Call, Own, Callers, Ctx,
      [&](const ValueFacts &Facts) {
        return CallAnalysis(Call, *Info, Facts, Ctx).run();
      },
      [&](const Finding &F) { emit(F); });
}

} // namespace clang::tidy::cublas
