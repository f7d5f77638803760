//===- AstUtils.cpp -------------------------------------------------------===//

#include "ast/AstUtils.h"
#include "llvm/Support/Path.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Type.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace cublas_tidy {

llvm::StringRef enumTypeName(QualType T) {
  if (T.isNull())
    return {};
  // The typedef name as written, when there is one: `cublasStatus_t`.
  for (QualType Cur = T; !Cur.isNull();) {
    if (const auto *TT = Cur->getAs<TypedefType>()) {
      if (TT->getDecl()->getUnderlyingType()->isEnumeralType() &&
          TT->getDecl()->getUnderlyingType().getCanonicalType() ==
              T.getCanonicalType()) {
        StringRef Name = TT->getDecl()->getName();
        if (Name.ends_with("_t"))
          return Name;
      }
      Cur = TT->getDecl()->getUnderlyingType();
      continue;
    }
    break;
  }
  const auto *ET = T.getCanonicalType()->getAs<EnumType>();
  if (!ET)
    return {};
  return enumDeclName(ET->getDecl());
}

llvm::StringRef enumDeclName(const EnumDecl *ED) {
  if (!ED->getName().empty())
    return ED->getName();
  if (const TypedefNameDecl *TD = ED->getTypedefNameForAnonDecl())
    return TD->getName();
  return {};
}

bool isLibraryStatusName(llvm::StringRef EnumName) {
  return !statusLibrary(EnumName).empty();
}

namespace {
/// The status enumerations of cuBLAS and its neighbours, by the names the
/// declarations show (cuBLAS's tag is cublasStatus).
struct StatusType {
  llvm::StringLiteral Name, Library, Success;
};
constexpr StatusType StatusTypes[] = {
    {"cublasStatus_t", "cuBLAS", "CUBLAS_STATUS_SUCCESS"},
    {"cublasStatus", "cuBLAS", "CUBLAS_STATUS_SUCCESS"},
    {"cusolverStatus_t", "cuSOLVER", "CUSOLVER_STATUS_SUCCESS"},
    {"cusparseStatus_t", "cuSPARSE", "CUSPARSE_STATUS_SUCCESS"},
};
const StatusType *statusType(llvm::StringRef EnumName) {
  for (const StatusType &T : StatusTypes)
    if (T.Name == EnumName)
      return &T;
  return nullptr;
}
} // namespace

llvm::StringRef statusLibrary(llvm::StringRef EnumName) {
  const StatusType *T = statusType(EnumName);
  return T ? llvm::StringRef(T->Library) : llvm::StringRef();
}

llvm::StringRef statusSuccess(llvm::StringRef EnumName) {
  const StatusType *T = statusType(EnumName);
  return T ? llvm::StringRef(T->Success) : llvm::StringRef();
}

bool writtenWithMacro(const Expr *E, llvm::StringRef Name,
                      const SourceManager &SM, const LangOptions &LangOpts) {
  SourceLocation Loc = E->IgnoreParenImpCasts()->getBeginLoc();
  for (unsigned Depth = 0; Loc.isMacroID() && Depth < 16; ++Depth) {
    if (Lexer::getImmediateMacroName(Loc, SM, LangOpts) == Name)
      return true;
    Loc = SM.getImmediateMacroCallerLoc(Loc);
  }
  return false;
}

bool isCudaErrorName(llvm::StringRef EnumName) {
  return EnumName == "cudaError_t" || EnumName == "cudaError";
}

bool isLibraryStatusType(QualType T) {
  return !T.isNull() && T->isEnumeralType() &&
         isLibraryStatusName(enumTypeName(T));
}

bool isCudaErrorType(QualType T) {
  return !T.isNull() && T->isEnumeralType() &&
         isCudaErrorName(enumTypeName(T));
}

namespace {
/// The name of the record `T` points to ("cublasContext"), or "".
StringRef pointeeRecordName(QualType T) {
  if (T.isNull())
    return "";
  const auto *PT = T.getCanonicalType()->getAs<PointerType>();
  const auto *RD = PT ? PT->getPointeeType()->getAsRecordDecl() : nullptr;
  return RD && RD->getIdentifier() ? RD->getName() : "";
}
} // namespace

bool isCublasHandleType(QualType T) {
  return pointeeRecordName(T) == "cublasContext";
}

bool isPointerModeHandleType(QualType T) {
  StringRef Name = pointeeRecordName(T);
  return Name == "cublasContext" || Name == "cusparseContext";
}

bool isCublasResourceType(QualType T) {
  if (T.isNull())
    return false;
  const auto *PT = T.getCanonicalType()->getAs<PointerType>();
  const RecordDecl *RD =
      PT ? PT->getPointeeType()->getAsRecordDecl() : nullptr;
  if (!RD)
    return false;
  StringRef Name;
  if (RD->getIdentifier())
    Name = RD->getName();
  else if (const TypedefNameDecl *TD = RD->getTypedefNameForAnonDecl())
    Name = TD->getName();
  return Name == "cublasContext" || Name == "cublasLtContext" ||
         Name == "cublasXtContext" ||
         (Name.starts_with("cublasLt") && Name.ends_with("Opaque_t"));
}

std::string recordName(const RecordDecl *RD) {
  if (!RD)
    return "";
  if (!RD->getIdentifier())
    if (const TypedefNameDecl *TD = RD->getTypedefNameForAnonDecl())
      return TD->getName().str();
  return RD->getName().str();
}

std::string absolutePathOf(const SourceManager &SM, FileID FID) {
  OptionalFileEntryRef F = SM.getFileEntryRefForID(FID);
  if (!F)
    return "";
  llvm::SmallString<256> Path(F->getName());
  SM.getFileManager().makeAbsolutePath(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return std::string(Path);
}

SourceLocation locationInFile(SourceManager &SM, StringRef Path,
                              unsigned Line) {
  if (Path.empty() || Line == 0)
    return {};
  OptionalFileEntryRef File = SM.getFileManager().getOptionalFileRef(Path);
  if (!File)
    return {};
  FileID FID = SM.translateFile(*File);
  if (FID.isInvalid())
    FID = SM.createFileID(*File, SourceLocation(), SrcMgr::C_User);
  if (FID.isInvalid())
    return {};
  return SM.translateLineCol(FID, Line, 1);
}

const FunctionInfo *calledCublasFunction(const CallExpr *Call) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier())
    return nullptr;
  return lookupFunction(FD->getName());
}

std::string spelledCalleeName(const CallExpr *Call, const SourceManager &SM,
                              const LangOptions &LangOpts) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier())
    return {};
  SourceLocation Loc = Call->getCallee()->IgnoreParenImpCasts()->getExprLoc();
  // `cublasSgemm(...)` is the object-like macro `cublasSgemm` expanding to
  // the identifier `cublasSgemm_v2`: report the macro's name.
  while (Loc.isMacroID()) {
    if (SM.isMacroArgExpansion(Loc)) {
      Loc = SM.getImmediateSpellingLoc(Loc);
      continue;
    }
    StringRef Macro = Lexer::getImmediateMacroName(Loc, SM, LangOpts);
    if (Macro.starts_with("cublas") &&
        FD->getName().starts_with(Macro))
      return Macro.str();
    Loc = SM.getImmediateMacroCallerLoc(Loc);
  }
  return FD->getName().str();
}

bool expandedInSystemHeader(SourceLocation Loc, const SourceManager &SM) {
  if (Loc.isInvalid())
    return false;
  SourceLocation At = SM.getExpansionLoc(Loc);
  FileID Main = SM.getMainFileID();
  bool Invalid = false;
  const SrcMgr::SLocEntry &Entry = SM.getSLocEntry(Main, &Invalid);
  // Line markers (`# 1 "x.h" 3` in preprocessed input) can make part of
  // the main file a system header: such a file takes the long way.
  if (!Invalid && Entry.isFile() && !Entry.getFile().hasLineDirectives()) {
    // A file location's raw encoding is its offset.
    SourceLocation::UIntTy Start = Entry.getOffset(), Offset = At.getRawEncoding();
    if (At.isFileID() && Offset >= Start &&
        Offset - Start < SM.getFileIDSize(Main))
      return false;
  }
  return SM.isInSystemHeader(At);
}

SourceLocation userLocation(SourceLocation Loc, const SourceManager &SM) {
  if (Loc.isInvalid() || Loc.isFileID())
    return Loc;
  SourceLocation File = SM.getFileLoc(Loc);
  if (!SM.isInSystemHeader(File))
    return File;
  return SM.getExpansionLoc(Loc);
}

std::string writtenText(const Expr *E, const ASTContext &Ctx,
                        unsigned MaxLength) {
  if (!E)
    return {};
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(E->getSourceRange()), SM,
      Ctx.getLangOpts());
  if (Range.isInvalid()) {
    // A macro argument: its spelling.
    SourceLocation B = SM.getSpellingLoc(E->getBeginLoc());
    SourceLocation End = SM.getSpellingLoc(E->getEndLoc());
    if (B.isInvalid() || End.isInvalid() ||
        SM.getFileID(B) != SM.getFileID(End))
      return {};
    Range = CharSourceRange::getTokenRange(B, End);
  }
  bool Invalid = false;
  StringRef Text = Lexer::getSourceText(Range, SM, Ctx.getLangOpts(), &Invalid);
  if (Invalid || Text.empty() || Text.size() > MaxLength || Text.contains('\n'))
    return {};
  return Text.str();
}

const clang::VarDecl *referencedVar(const clang::Expr *E) {
  const auto *DRE =
      E ? llvm::dyn_cast<clang::DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr;
  return DRE ? llvm::dyn_cast<clang::VarDecl>(DRE->getDecl()) : nullptr;
}

const clang::Expr *ignoreCopies(const clang::Expr *E) {
  using namespace clang;
  for (int Step = 0; E && Step < 32; ++Step) {
    E = E->IgnoreParenImpCasts();
    if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E))
      E = MTE->getSubExpr();
    else if (const auto *BTE = dyn_cast<CXXBindTemporaryExpr>(E))
      E = BTE->getSubExpr();
    else if (const auto *FE = dyn_cast<FullExpr>(E))
      E = FE->getSubExpr();
    else if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
             CE && CE->getNumArgs() == 1 && CE->getConstructor() &&
             CE->getConstructor()->isCopyOrMoveConstructor())
      E = CE->getArg(0);
    else
      return E;
  }
  return E;
}

bool containsStmt(const clang::Stmt *Whole, const clang::Stmt *Part) {
  return anyStmt(
      Whole, [&](const clang::Stmt *S) { return S == Part; }, 512);
}

const clang::VarDecl *addressedVar(const clang::Expr *E) {
  const auto *U =
      E ? llvm::dyn_cast<clang::UnaryOperator>(E->IgnoreParenImpCasts())
        : nullptr;
  return U && U->getOpcode() == clang::UO_AddrOf ? referencedVar(U->getSubExpr())
                                                 : nullptr;
}

bool endsProcess(const clang::CallExpr *Call) {
  const clang::FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD)
    return false;
  if (FD->isNoReturn())
    return true;
  if (!FD->getIdentifier())
    return false;
  llvm::StringRef Name = FD->getName();
  return Name == "exit" || Name == "abort" || Name == "_Exit" ||
         Name == "quick_exit";
}

bool isStdMaxOrMin(const clang::CallExpr *Call) {
  const clang::FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  return FD && FD->getIdentifier() && FD->isInStdNamespace() &&
         (FD->getName() == "max" || FD->getName() == "min") &&
         Call->getNumArgs() == 2;
}

std::optional<bool> literalTruth(const clang::Expr *E) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (const auto *I = llvm::dyn_cast_or_null<clang::IntegerLiteral>(E))
    return !I->getValue().isZero();
  if (const auto *B = llvm::dyn_cast_or_null<clang::CXXBoolLiteralExpr>(E))
    return B->getValue();
  return std::nullopt;
}

bool isLoopStmt(const clang::Stmt *S) {
  return llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt,
                   clang::CXXForRangeStmt>(S);
}

bool alwaysRuns(const clang::Stmt *Parent, const clang::Stmt *Child,
                const clang::ASTContext &Ctx) {
  using namespace clang;
  if (isa<ParenExpr, ImplicitCastExpr, ExplicitCastExpr, ExprWithCleanups,
          CompoundStmt, DeclStmt, CallExpr, UnaryOperator,
          MaterializeTemporaryExpr>(Parent))
    return true;
  if (const auto *BO = dyn_cast<BinaryOperator>(Parent))
    return !BO->isLogicalOp() || Child == BO->getLHS();
  if (const auto *If = dyn_cast<IfStmt>(Parent))
    return Child == If->getCond();
  if (const auto *Switch = dyn_cast<SwitchStmt>(Parent))
    return Child == Switch->getCond();
  if (const auto *Do = dyn_cast<DoStmt>(Parent)) {
    // The `do { ... } while (0)` of a macro runs its body once.
    const Expr *Cond = Do->getCond();
    Expr::EvalResult R;
    return Child == Do->getBody() && Cond && !Cond->isValueDependent() &&
           Cond->EvaluateAsInt(R, Ctx) && R.Val.getInt() == 0;
  }
  return false;
}

} // namespace cublas_tidy
