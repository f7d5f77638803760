//===- DroppedArguments.cpp -----------------------------------------------===//

#include "ast/DroppedArguments.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace cublas_tidy {

namespace {

/// How deep the arguments are followed into the macros they are given to.
constexpr int MaxDepth = 4;

/// The macro `Name` is defined as at `Loc` (function-like or not); null
/// when it is not defined there.
const MacroInfo *macroAt(Preprocessor &PP, StringRef Name, SourceLocation Loc) {
  if (Name.empty())
    return nullptr;
  const IdentifierInfo *II = PP.getIdentifierInfo(Name);
  if (!II->hadMacroDefinition())
    return nullptr;
  return PP.getMacroDefinitionAtLoc(II, Loc).getMacroInfo();
}

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

/// The conditional blocks (`#if` ... `#endif`) met while the text is read
/// from a place that the build compiles, and whether each branch is kept,
/// as far as its directive tells on its own: `#ifdef X`, `#ifndef X`, and
/// an `#if` or `#elif` of `defined`, `!`, a literal or a macro that is
/// undefined or a number. Any other test leaves its block unknown.
class Blocks {
public:
  enum class Kept { Yes, No, Unknown };
  struct Block {
    Kept Branch;
    /// A branch before this one was kept (Yes) or may have been (Unknown).
    Kept Before;
    /// The directive that opened the block, as written (`#ifndef NDEBUG`).
    std::string Opening;
    /// The branch is the block's `#else`.
    bool InElse = false;
  };

  explicit Blocks(Preprocessor &PP) : PP(PP) {}

  /// Takes the directive whose `#` is `Toks[Hash]`; returns the index of
  /// the first token after its line.
  size_t directive(llvm::ArrayRef<Token> Toks, size_t Hash) {
    size_t End = Hash + 1;
    while (End < Toks.size() && !Toks[End].isAtStartOfLine())
      ++End;
    StringRef Kind = Hash + 1 < End ? nameOf(Toks[Hash + 1]) : StringRef();
    llvm::ArrayRef<Token> Test = Hash + 2 <= End
                                     ? Toks.slice(Hash + 2, End - Hash - 2)
                                     : llvm::ArrayRef<Token>();
    SourceLocation At = Toks[Hash].getLocation();
    if (Kind == "if" || Kind == "ifdef" || Kind == "ifndef") {
      Kept K = Kind == "if" ? test(Test, At)
                            : defined(Test, At, /*Negate=*/Kind == "ifndef");
      Stack.push_back({K, Kept::No, text(Toks[Hash], Toks[End - 1])});
    } else if (Kind == "elif" || Kind == "else") {
      if (Stack.empty()) {
        // The text began inside this block, in a branch that was kept:
        // the rest of it is not, but which test skips it is not known.
        Stack.push_back({Kept::Unknown, Kept::Unknown, std::string()});
        return End;
      }
      Block &B = Stack.back();
      B.Before = join(B.Before, B.Branch);
      Kept K = Kind == "else" ? Kept::Yes : test(Test, At);
      B.Branch = B.Before == Kept::Yes  ? Kept::No
                 : B.Before == Kept::No ? K
                                        : Kept::Unknown;
      B.InElse = Kind == "else";
      if (Kind == "elif")
        B.Opening = text(Toks[Hash], Toks[End - 1]);
    } else if (Kind == "endif" && !Stack.empty()) {
      Stack.pop_back();
    }
    return End;
  }

  /// Some block around the current place may or may not be kept.
  bool unknown() const {
    return llvm::any_of(
        Stack, [](const Block &B) { return B.Branch == Kept::Unknown; });
  }

  /// The innermost block around the current place that is skipped.
  const Block *skipped() const {
    for (const Block &B : llvm::reverse(Stack))
      if (B.Branch == Kept::No)
        return &B;
    return nullptr;
  }

private:
  static Kept join(Kept A, Kept B) {
    if (A == Kept::Yes || B == Kept::Yes)
      return Kept::Yes;
    return A == Kept::Unknown || B == Kept::Unknown ? Kept::Unknown : Kept::No;
  }
  static Kept of(bool B) { return B ? Kept::Yes : Kept::No; }

  std::string text(const Token &First, const Token &Last) const {
    return Lexer::getSourceText(CharSourceRange::getCharRange(
                                    First.getLocation(), Last.getEndLoc()),
                                PP.getSourceManager(), PP.getLangOpts())
        .str();
  }

  /// `X` of `#ifdef X`, or `X` and `( X )` after `defined`.
  Kept defined(llvm::ArrayRef<Token> Test, SourceLocation At,
               bool Negate) const {
    if (Test.size() == 3 && Test[0].is(tok::l_paren) &&
        Test[2].is(tok::r_paren))
      Test = Test.slice(1, 1);
    if (Test.size() != 1 || nameOf(Test[0]).empty())
      return Kept::Unknown;
    return of((macroAt(PP, nameOf(Test[0]), At) != nullptr) != Negate);
  }

  /// An integer literal's value, or a macro's whose body is one.
  std::optional<uint64_t> number(const Token &T, SourceLocation At,
                                 int Depth = 0) const {
    if (T.is(tok::numeric_constant)) {
      uint64_t V;
      if (StringRef(PP.getSpelling(T)).rtrim("uUlL").getAsInteger(0, V))
        return std::nullopt;
      return V;
    }
    StringRef Name = nameOf(T);
    if (Name.empty() || Name == "defined" || Depth > MaxDepth)
      return std::nullopt;
    // C++'s #if reads `true` and `false` as the literals they are.
    if (PP.getLangOpts().CPlusPlus && (Name == "true" || Name == "false"))
      return Name == "true" ? 1 : 0;
    const MacroInfo *MI = macroAt(PP, Name, At);
    if (!MI)
      return 0; // An undefined identifier is 0 in an #if.
    if (MI->isFunctionLike() || MI->getNumTokens() != 1)
      return std::nullopt;
    return number(MI->getReplacementToken(0), At, Depth + 1);
  }

  /// The test of an `#if` or `#elif`.
  Kept test(llvm::ArrayRef<Token> Test, SourceLocation At) const {
    bool Negate = false;
    while (!Test.empty() && Test[0].is(tok::exclaim)) {
      Negate = !Negate;
      Test = Test.drop_front();
    }
    while (Test.size() >= 2 && Test.front().is(tok::l_paren) &&
           Test.back().is(tok::r_paren))
      Test = Test.drop_front().drop_back();
    if (!Test.empty() && nameOf(Test[0]) == "defined") {
      Kept K = defined(Test.drop_front(), At, false);
      return K == Kept::Unknown ? K : of((K == Kept::Yes) != Negate);
    }
    if (Test.size() != 1)
      return Kept::Unknown;
    std::optional<uint64_t> V = number(Test[0], At);
    return V ? of((*V != 0) != Negate) : Kept::Unknown;
  }

  Preprocessor &PP;
  llvm::SmallVector<Block, 4> Stack;
};

/// The dropped argument of the macro invocation that `Toks[I]` begins, if
/// it names `Name`.
std::optional<DroppedArgument> droppedBy(llvm::ArrayRef<Token> Toks, size_t I,
                                         StringRef Name, Preprocessor &PP) {
  if (I + 1 >= Toks.size() || !Toks[I].is(tok::raw_identifier) ||
      !Toks[I + 1].is(tok::l_paren))
    return std::nullopt;
  SourceLocation Loc = Toks[I].getLocation();
  Finder F(PP, Loc);
  const MacroInfo *MI = F.macro(Toks[I]);
  if (!MI)
    return std::nullopt;
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
    DroppedArgument D;
    D.Loc = Loc;
    D.Written = nameOf(Toks[I]).str();
    D.Macro = By;
    D.UnderNDEBUG = macroAt(PP, "NDEBUG", Loc) != nullptr;
    return D;
  }
  return std::nullopt;
}

} // namespace

const MacroInfo *functionLikeMacroAt(Preprocessor &PP, StringRef Name,
                                     SourceLocation Loc) {
  const MacroInfo *MI = macroAt(PP, Name, Loc);
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
  Blocks Open(PP);
  for (size_t I = 0; I < Toks.size(); ++I) {
    if (Toks[I].is(tok::hash) && Toks[I].isAtStartOfLine()) {
      I = Open.directive(Toks, I) - 1;
      continue;
    }
    if (Open.unknown())
      continue;
    if (const Blocks::Block *Skipped = Open.skipped()) {
      // A name the skipped text assigns to (`st = ...;`) is not read there.
      if (nameOf(Toks[I]) != Name ||
          (I + 1 < Toks.size() && Toks[I + 1].is(tok::equal)))
        continue;
      DroppedArgument D;
      D.Loc = Toks[I].getLocation();
      D.Block = Skipped->Opening;
      D.InElse = Skipped->InElse;
      return D;
    }
    if (std::optional<DroppedArgument> D = droppedBy(Toks, I, Name, PP))
      return D;
  }
  return std::nullopt;
}

} // namespace cublas_tidy
