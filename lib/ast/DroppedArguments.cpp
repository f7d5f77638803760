//===- DroppedArguments.cpp -----------------------------------------------===//

#include "ast/DroppedArguments.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace cublas_tidy {

namespace {

/// How deep the arguments are followed into the macros they are given to.
constexpr int MaxDepth = 4;

/// The spelling of an identifier token, raw (lexed from the text) or not
/// (a macro's body).
StringRef nameOf(const Token &T) {
  if (T.is(tok::raw_identifier))
    return T.getRawIdentifier();
  if (const IdentifierInfo *II = T.getIdentifierInfo())
    return II->getName();
  return {};
}

/// The arguments of the invocation whose `(` is `Toks[Open]`: for each, the
/// range of its tokens [first, last). Empty when the `)` is missing.
llvm::SmallVector<std::pair<size_t, size_t>, 4>
splitArguments(llvm::ArrayRef<Token> Toks, size_t Open) {
  llvm::SmallVector<std::pair<size_t, size_t>, 4> Args;
  int Depth = 0;
  size_t Start = Open + 1;
  for (size_t I = Open + 1; I < Toks.size(); ++I) {
    if (Toks[I].isOneOf(tok::l_paren, tok::l_square, tok::l_brace))
      ++Depth;
    else if (Toks[I].isOneOf(tok::r_square, tok::r_brace))
      --Depth;
    else if (Toks[I].is(tok::r_paren) && Depth-- == 0) {
      Args.push_back({Start, I});
      return Args;
    } else if (Toks[I].is(tok::comma) && Depth == 0) {
      Args.push_back({Start, I});
      Start = I + 1;
    }
  }
  Args.clear();
  return Args;
}

class Finder {
public:
  Finder(Preprocessor &PP, SourceLocation At) : PP(PP), At(At) {}

  /// The function-like macro `T` names where the user wrote the code.
  const MacroInfo *macro(const Token &T) const {
    return functionLikeMacroAt(PP, nameOf(T), At);
  }

  /// The macro that drops argument `Index` of an invocation of `MI`
  /// (`MI`'s own name, or one it passes the argument to); empty when the
  /// argument is kept.
  std::string drops(const MacroInfo &MI, StringRef Self, size_t Index,
                    int Depth) const {
    if (Depth > MaxDepth || MI.getNumParams() == 0)
      return {};
    if (Index >= MI.getNumParams()) {
      if (!MI.isVariadic())
        return {};
      Index = MI.getNumParams() - 1;
    }
    const IdentifierInfo *Param = MI.params()[Index];
    llvm::ArrayRef<Token> Body = MI.tokens();
    // Each place the body names the parameter must be inside an argument
    // that a macro invoked in the body drops.
    llvm::SmallVector<bool, 16> Dropped(Body.size(), false);
    std::string Dropper;
    for (size_t I = 0; I + 1 < Body.size(); ++I) {
      const MacroInfo *Inner =
          Body[I + 1].is(tok::l_paren) && Body[I].getIdentifierInfo() != Param
              ? macro(Body[I])
              : nullptr;
      if (!Inner || Inner == &MI)
        continue;
      auto Args = splitArguments(Body, I + 1);
      for (size_t A = 0; A < Args.size(); ++A) {
        std::string By = drops(*Inner, nameOf(Body[I]), A, Depth + 1);
        if (By.empty())
          continue;
        for (size_t K = Args[A].first; K < Args[A].second; ++K)
          Dropped[K] = true;
        Dropper = By;
      }
    }
    for (size_t I = 0; I < Body.size(); ++I)
      if (Body[I].getIdentifierInfo() == Param && !Dropped[I])
        return {};
    return Dropper.empty() ? Self.str() : Dropper;
  }

private:
  Preprocessor &PP;
  SourceLocation At;
};

} // namespace

const MacroInfo *functionLikeMacroAt(Preprocessor &PP, StringRef Name,
                                     SourceLocation Loc) {
  if (Name.empty())
    return nullptr;
  const IdentifierInfo *II = PP.getIdentifierInfo(Name);
  if (!II->hadMacroDefinition())
    return nullptr;
  const MacroInfo *MI = PP.getMacroDefinitionAtLoc(II, Loc).getMacroInfo();
  return MI && MI->isFunctionLike() ? MI : nullptr;
}

std::optional<DroppedArgument> firstDroppedArgument(StringRef Name,
                                                    SourceLocation After,
                                                    SourceLocation Before,
                                                    Preprocessor &PP) {
  const SourceManager &SM = PP.getSourceManager();
  if (Name.empty() || After.isInvalid() || Before.isInvalid() ||
      !After.isFileID() || !Before.isFileID())
    return std::nullopt;
  auto [File, Begin] = SM.getDecomposedLoc(After);
  auto [EndFile, End] = SM.getDecomposedLoc(Before);
  if (File != EndFile || End <= Begin)
    return std::nullopt;
  StringRef Buffer = SM.getBufferData(File);
  if (End > Buffer.size())
    return std::nullopt;
  // The lexer needs the buffer's own end (a null character follows it).
  Lexer Raw(SM.getLocForStartOfFile(File), PP.getLangOpts(), Buffer.begin(),
            Buffer.begin() + Begin, Buffer.end());
  llvm::SmallVector<Token, 64> Toks;
  Token T;
  for (Raw.LexFromRawLexer(T);
       T.isNot(tok::eof) && SM.getFileOffset(T.getLocation()) < End;
       Raw.LexFromRawLexer(T))
    Toks.push_back(T);
  for (size_t I = 0; I + 1 < Toks.size(); ++I) {
    if (!Toks[I].is(tok::raw_identifier) || !Toks[I + 1].is(tok::l_paren))
      continue;
    SourceLocation Loc = Toks[I].getLocation();
    Finder F(PP, Loc);
    const MacroInfo *MI = F.macro(Toks[I]);
    if (!MI)
      continue;
    auto Args = splitArguments(Toks, I + 1);
    for (size_t A = 0; A < Args.size(); ++A) {
      bool Names = false;
      for (size_t K = Args[A].first; K < Args[A].second && !Names; ++K)
        Names = nameOf(Toks[K]) == Name;
      if (!Names)
        continue;
      std::string By = F.drops(*MI, nameOf(Toks[I]), A, 0);
      if (By.empty())
        continue;
      IdentifierInfo *NDebug = PP.getIdentifierInfo("NDEBUG");
      return DroppedArgument{
          Loc, nameOf(Toks[I]).str(), By,
          PP.getMacroDefinitionAtLoc(NDebug, Loc).getMacroInfo() != nullptr};
    }
  }
  return std::nullopt;
}

} // namespace cublas_tidy
