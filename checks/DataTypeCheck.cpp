//===- DataTypeCheck.cpp - cublas-data-type -------------------------------===//

#include "DataTypeCheck.h"

#include "ast/AstUtils.h"
#include "ast/Callables.h"
#include "ast/CompileErrors.h"
#include "facts/CallGeometry.h"
#include "facts/LibraryModel.h"
#include "facts/LtDescriptors.h"
#include "facts/OperandTypes.h"
#include "facts/BufferParams.h"
#include "model/ComputeTypes.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang::ast_matchers;
using namespace cublas_tidy;

namespace clang::tidy::cublas {

namespace {

/// "floats", "__half values": the plural of a data type's elements.
std::string elements(const DataTypeInfo &T) {
  return std::to_string(T.Bytes) + "-byte " + T.Plural;
}

/// The first character that is not a blank on line `Line` of `FID`.
SourceLocation lineStart(FileID FID, unsigned Line, const SourceManager &SM) {
  SourceLocation Loc = SM.translateLineCol(FID, Line, 1);
  bool Invalid = false;
  const char *C = SM.getCharacterData(Loc, &Invalid);
  unsigned Skip = 0;
  while (!Invalid && (C[Skip] == ' ' || C[Skip] == '\t'))
    ++Skip;
  return Loc.getLocWithOffset(Skip);
}

/// The compute capabilities (x10) named in `Text`: "sm_90,sm_100",
/// "90;100a", "compute_89", separated by commas, semicolons or blanks.
/// Words without a number are left out.
std::vector<unsigned> parseCudaArchitectures(StringRef Text) {
  std::vector<unsigned> Out;
  SmallVector<StringRef, 4> Words;
  llvm::SplitString(Text, Words, ",; \t");
  for (StringRef Word : Words) {
    StringRef Digits = Word.drop_until(llvm::isDigit).take_while(llvm::isDigit);
    unsigned Sm = 0;
    if (!Digits.empty() && !Digits.getAsInteger(10, Sm))
      Out.push_back(Sm);
  }
  return Out;
}

/// True when C of a cublasLtMatmul (`Call`) is given D's pointer while its
/// layout is not known to have D's type: the idiom for a product without C
/// (beta 0; the FP8 rows need a 16-bit C type even then). C is not read.
/// The same layout type for both is an accumulation in place: C is read.
bool cIsUnreadD(const CallExpr *Call, const std::array<LtOperand, 4> &Ops) {
  const Expr *C = argumentAt(Call, Ops[2].Pointer);
  const Expr *D = argumentAt(Call, Ops[3].Pointer);
  const VarDecl *Var = C ? referencedVar(C) : nullptr;
  bool SameType = Ops[2].Facts && Ops[3].Facts && Ops[2].Facts->Type &&
                  Ops[2].Facts->Type == Ops[3].Facts->Type;
  return Var && D && referencedVar(D) == Var && !SameType;
}

} // namespace

bool DataTypeCheck::wants(const FunctionInfo &F) const {
  return F.findParam(ParamRole::DataType) >= 0 ||
         StringRef(F.Name) == "cublasLtMatmul";
}

void DataTypeCheck::checkOtherCall(const CallExpr *Call, const Decl *Callable,
                                   ASTContext &Ctx) {
  if (const FunctionDecl *Callee = Call->getDirectCallee())
    if (std::optional<TypedBuffers> Typed = typedBuffersOfCallee(Call, Ctx))
      checkWrapperCall(Call, Callee, Typed->Buffers, Typed->File, Ctx);
}

void DataTypeCheck::checkWrapperCall(
    const CallExpr *Call, const FunctionDecl *Wrapper,
    llvm::ArrayRef<FunctionSummary::BufferParam> Buffers, StringRef File,
    ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Callee = spelledCalleeName(Call, SM, Ctx.getLangOpts());
  for (const FunctionSummary::BufferParam &B : Buffers) {
    const FunctionInfo *F = lookupFunction(B.Callee);
    const DataTypeInfo *D = dataTypeByName(B.DataType);
    if (!F || !D || B.Index >= Call->getNumArgs() ||
        B.Index >= Wrapper->getNumParams())
      continue;
    for (const TypedPointer &P : typedPointers(*F)) {
      if (P.Pointer != static_cast<int>(B.Arg))
        continue;
      const Expr *Arg = Call->getArg(B.Index);
      std::optional<HeldType> H = heldType(Arg, P.Levels, Ctx);
      if (!H || holdsDeclaredType(*H->Type, *D))
        continue;
      reportPointer(Arg, Wrapper->getParamDecl(B.Index)->getName(), *H, *D,
                    "'" + Callee + "' gives it to '" + B.Spelled + "' with " +
                        F->params()[P.Type].Name + " " + D->Name,
                    nullptr, Ctx);
      SourceLocation At = File.empty()
                              ? SourceLocation()
                              : locationInFile(const_cast<SourceManager &>(SM),
                                               B.callFile(File), B.Line);
      if (File.empty())
        if (const FunctionDecl *Def = Wrapper->getDefinition())
          At = lineStart(SM.getFileID(SM.getExpansionLoc(Def->getLocation())),
                         B.Line, SM);
      if (At.isValid())
        diag(At,
             "'%0' gives its parameter%1 to '%2' here%select{|, in another "
             "file}3",
             DiagnosticIDs::Note)
            << Callee << throughText(B) << B.Spelled << !File.empty();
    }
  }
}

void DataTypeCheck::reportPointer(const Expr *Arg, StringRef Param,
                                  const HeldType &H, const DataTypeInfo &D,
                                  const std::string &Declared,
                                  const CallExpr *DeclaredAt, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Consequence;
  if (D.Bytes && H.Bytes && D.Bytes == 2 * H.Bytes)
    Consequence = ", twice the bytes it holds,";
  else if (D.Bytes && H.Bytes && D.Bytes > H.Bytes)
    Consequence = ", more bytes than it holds,";
  LibraryTerms Terms = H.Library ? H.Library->terms() : LibraryTerms();
  if (!H.LibraryType.empty())
    diag(userLocation(Arg->getBeginLoc(), SM),
         "%0 points to a %1 %2 ('%3', %4 bytes) but %5 (%6): cuBLAS reads "
         "the data as %7%8 and computes garbage")
        << operandText(Param, Arg, Ctx) << H.LibraryType << Terms.Object
        << H.Spelled << H.Bytes << Declared << elements(D) << D.Plural
        << Consequence;
  else
    diag(userLocation(Arg->getBeginLoc(), SM),
         "%0 points to '%1' (%2 bytes) but %3 (%4): cuBLAS reads the data as "
         "%5%6 and computes garbage")
        << operandText(Param, Arg, Ctx) << H.Spelled << H.Bytes << Declared
        << elements(D) << D.Plural << Consequence;
  if (H.LibraryTypeFrom && !containsStmt(Arg, H.LibraryTypeFrom))
    diag(userLocation(H.LibraryTypeFrom->getBeginLoc(), SM),
         "the %0's %1 is %2 from here", DiagnosticIDs::Note)
        << Terms.Object << Terms.ElementType << H.LibraryType;
  if (DeclaredAt)
    diag(userLocation(DeclaredAt->getBeginLoc(), SM),
         "the layout is created here", DiagnosticIDs::Note);
}

void DataTypeCheck::reportScalar(const Expr *Arg, StringRef Param,
                                 const HeldType &H, const DataTypeInfo &Scale,
                                 const std::string &Reader,
                                 const CallExpr *ReaderAt, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Past;
  if (Scale.Bytes > H.Bytes)
    if (const VarDecl *V = addressedVar(Arg))
      Past = ", read past the end of '" + V->getName().str() + "'";
  diag(userLocation(Arg->getBeginLoc(), SM),
       "%0 points to '%1' (%2 bytes) but %3 (%4): cuBLAS scales by a garbage "
       "value%5")
      << operandText(Param, Arg, Ctx) << H.Spelled << H.Bytes << Reader
      << elements(Scale) << Past;
  if (ReaderAt)
    diag(userLocation(ReaderAt->getBeginLoc(), SM),
         "the matmul descriptor is created here", DiagnosticIDs::Note);
}

DataTypeCheck::DataTypeCheck(StringRef Name, ClangTidyContext *Context)
    : CublasCallCheck(Name, Context, OtherCalls),
      CudaArchitecturesText(Options.get("CudaArchitectures", "")),
      CudaArchitectures(parseCudaArchitectures(CudaArchitecturesText)) {}

void DataTypeCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "CudaArchitectures", CudaArchitecturesText);
}

void DataTypeCheck::checkFp8Layout(const CallExpr *Call, const DataTypeInfo *A,
                                   const DataTypeInfo *B,
                                   const LtMatmulDescFacts &D,
                                   ASTContext &Ctx) {
  if (!A || !B || (!isFp8Operand(*A) && !isFp8Operand(*B)) || !D.TransA ||
      !D.TransB || (*D.TransA == 1 && *D.TransB == 0))
    return;
  const char *TransA = operationName(*D.TransA);
  const char *TransB = operationName(*D.TransB);
  if (!TransA || !TransB)
    return;
  // The targets that refuse: all of them when none is named.
  std::string Refusing;
  for (unsigned Sm : CudaArchitectures)
    if (Sm < Fp8AnyLayoutFromSm)
      Refusing += (Refusing.empty() ? "sm_" : ", sm_") + std::to_string(Sm);
  if (!CudaArchitectures.empty() && Refusing.empty())
    return;
  if (Refusing.empty())
    Refusing = "Ada and Hopper GPUs (sm_89, sm_90)";
  const SourceManager &SM = Ctx.getSourceManager();
  diag(userLocation(Call->getBeginLoc(), SM),
       "FP8 A and B (%0, %1) with transa %2 and transb %3: on %4 "
       "cublasLtMatmul runs FP8 only with A transposed and B not (transa "
       "CUBLAS_OP_T, transb CUBLAS_OP_N) and returns "
       "CUBLAS_STATUS_NOT_SUPPORTED; Blackwell (sm_%5 and later) accepts the "
       "other layouts")
      << A->Name << B->Name << TransA << TransB << Refusing
      << Fp8AnyLayoutFromSm;
  diag(userLocation(D.Create->getBeginLoc(), SM),
       "the matmul descriptor is created here", DiagnosticIDs::Note);
}

void DataTypeCheck::checkLtMatmul(const CallExpr *Call, const FunctionInfo &F,
                                  const ValueFacts &Facts, ASTContext &Ctx) {
  llvm::ArrayRef<ParamInfo> Params = F.params();
  auto Arg = [&](int I) { return argumentAt(Call, I); };
  // A, B, C, D against the types of their layouts.
  std::array<LtOperand, 4> Ops = ltMatmulOperands(Call, F, Facts);
  const DataTypeInfo *Types[4] = {};
  bool Mismatch = false;
  for (unsigned At = 0; At < 4; ++At) {
    const std::optional<LtLayoutFacts> &L = Ops[At].Facts;
    if (!L)
      continue;
    Types[At] = L->Type;
    std::optional<HeldType> H = heldType(Arg(Ops[At].Pointer), 1, Ctx);
    if (!L->Type || !H || holdsDeclaredType(*H->Type, *L->Type) ||
        (At == 2 && cIsUnreadD(Call, Ops)))
      continue;
    Mismatch = true;
    reportPointer(
        Arg(Ops[At].Pointer), Params[Ops[At].Pointer].Name, *H, *L->Type,
        "its layout '" + L->Var->getName().str() + "' is " + L->Type->Name,
        L->Create, Ctx);
  }
  std::optional<LtMatmulDescFacts> D = ltMatmulDescOf(Call, F, Facts);
  if (D)
    checkFp8Layout(Call, Types[0], Types[1], *D, Ctx);
  // alpha and beta against the descriptor's scale type.
  const DataTypeInfo *Scale = D ? dataTypeByName(D->ScaleType) : nullptr;
  if (!Scale)
    return;
  // The combination of types, when every one is known and no pointer
  // contradicts its layout: the regular table, or FP8's own.
  bool AllKnown = llvm::all_of(Types, [](const DataTypeInfo *T) { return T; });
  bool Fp8 = AllKnown && isFp8Operand(*Types[0]) && isFp8Operand(*Types[1]);
  bool Regular = AllKnown && llvm::none_of(Types, [](const DataTypeInfo *T) {
                   return StringRef(T->Name).starts_with("CUDA_R_8F");
                 });
  bool Unsupported =
      (Regular && ltMatmulTableCovers(D->ComputeType) &&
       !ltMatmulSupports(D->ComputeType, Scale->Name, Types[0]->Name,
                         Types[1]->Name, Types[2]->Name, Types[3]->Name)) ||
      (Fp8 && ltFp8TableCovers(D->ComputeType, Scale->Name) &&
       !ltFp8MatmulSupports(Types[0]->Name, Types[1]->Name, Types[2]->Name,
                            Types[3]->Name));
  if (!Mismatch && Unsupported) {
    const SourceManager &SM = Ctx.getSourceManager();
    diag(userLocation(Call->getBeginLoc(), SM),
         "A/B %0/%1, C %2, D %3 with %4 and scale type %5 is not a "
         "combination cublasLtMatmul supports: it returns "
         "CUBLAS_STATUS_NOT_SUPPORTED")
        << Types[0]->Name << Types[1]->Name << Types[2]->Name << Types[3]->Name
        << D->ComputeType << Scale->Name;
    diag(userLocation(D->Create->getBeginLoc(), SM),
         "the matmul descriptor is created here", DiagnosticIDs::Note);
  }
  for (int S : untypedScalars(F)) {
    std::optional<HeldType> H = heldType(Arg(S), 1, Ctx);
    if (!H || holdsDeclaredType(*H->Type, *Scale))
      continue;
    reportScalar(Arg(S), Params[S].Name, *H, *Scale,
                 "the scale type of '" + D->Var->getName().str() + "' is " +
                     Scale->Name,
                 D->Create, Ctx);
  }
}

void DataTypeCheck::checkCall(const CallExpr *Call, const FunctionInfo &F,
                              const Decl *Callable, ASTContext &Ctx) {
  const ValueFacts &Facts = Callers.factsFor(Callable, Ctx);
  if (StringRef(F.Name) == "cublasLtMatmul")
    return checkLtMatmul(Call, F, Facts, Ctx);
  const SourceManager &SM = Ctx.getSourceManager();
  std::unique_ptr<CallArguments> Args = argumentsAt(Call, Facts, Ctx);
  llvm::ArrayRef<ParamInfo> Params = F.params();
  auto Arg = [&](int I) { return argumentAt(Call, I); };
  auto Declared = [&](int I) {
    return dataTypeByName(Args->knownEnumerator(I));
  };

  // (a) A pointer whose elements are not of the type declared for them.
  bool Mismatch = false;
  for (const TypedPointer &P : typedPointers(F)) {
    const DataTypeInfo *D = Declared(P.Type);
    std::optional<HeldType> H = heldType(Arg(P.Pointer), P.Levels, Ctx);
    if (!D || !H || holdsDeclaredType(*H->Type, *D))
      continue;
    Mismatch = true;
    reportPointer(Arg(P.Pointer), Params[P.Pointer].Name, *H, *D,
                  std::string(Params[P.Type].Name) + " is " + D->Name, nullptr,
                  Ctx);
  }

  // (b) alpha and beta of another type than the compute type's scale type.
  int Compute = F.findParam(ParamRole::ComputeType);
  std::string ComputeName = Args->knownEnumerator(Compute);
  const DataTypeInfo *CType =
      Declared(F.findParam(ParamRole::DataType, Operand::C));
  if (const DataTypeInfo *Scale =
          ComputeName.empty() ? nullptr : scaleTypeOf(ComputeName, CType)) {
    for (int S : untypedScalars(F)) {
      std::optional<HeldType> H = heldType(Arg(S), 1, Ctx);
      if (!H || holdsDeclaredType(*H->Type, *Scale))
        continue;
      reportScalar(Arg(S), Params[S].Name, *H, *Scale,
                   ComputeName + " reads alpha and beta as " + Scale->Name,
                   nullptr, Ctx);
    }
  }

  // (c) Type combinations the cublasGemmEx table does not list (not when a
  // type above is wrong: that is the mistake to fix first).
  if (!Mismatch && judgedByGemmExTable(F.Name) && gemmExTableCovers(ComputeName)) {
    const DataTypeInfo *A =
        Declared(F.findParam(ParamRole::DataType, Operand::A));
    const DataTypeInfo *B =
        Declared(F.findParam(ParamRole::DataType, Operand::B));
    if (A && B && CType &&
        !gemmExSupports(ComputeName, A->Name, B->Name, CType->Name)) {
      int AType = F.findParam(ParamRole::DataType, Operand::A);
      diag(userLocation(Arg(AType)->getBeginLoc(), SM),
           "A/B %0/%1, C %2 with %3 is not a combination %4 supports: it "
           "returns CUBLAS_STATUS_NOT_SUPPORTED")
          << A->Name << B->Name << CType->Name << ComputeName
          << StringRef(F.Name).drop_back(
                 StringRef(F.Name).ends_with("_64") ? 3 : 0);
    }
  }
}

} // namespace clang::tidy::cublas
