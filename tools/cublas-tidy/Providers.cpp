//===- Providers.cpp ------------------------------------------------------===//

#include "Providers.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"

namespace cublas_tidy {

namespace {

bool isIdentStart(char C) { return llvm::isAlpha(C) || C == '_'; }
bool isIdent(char C) { return llvm::isAlnum(C) || C == '_'; }

bool isStatementKeyword(llvm::StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases({"if", "for", "while", "switch", "catch", "return", "sizeof"},
             true)
      .Cases({"decltype", "alignof", "static_assert", "defined"}, true)
      .Default(false);
}

/// Skips spaces, comments and string or character literals from `I`.
size_t skipSpace(llvm::StringRef T, size_t I) {
  while (I < T.size()) {
    if (llvm::isSpace(T[I])) {
      ++I;
    } else if (T.substr(I).starts_with("//")) {
      I = T.find('\n', I);
      if (I == llvm::StringRef::npos)
        return T.size();
    } else if (T.substr(I).starts_with("/*")) {
      I = T.find("*/", I + 2);
      if (I == llvm::StringRef::npos)
        return T.size();
      I += 2;
    } else {
      break;
    }
  }
  return I;
}

/// The index after the ')' that closes the '(' at `I`, or npos.
size_t closeParen(llvm::StringRef T, size_t I) {
  int Depth = 0;
  for (; I < T.size(); ++I) {
    if (T[I] == '(')
      ++Depth;
    else if (T[I] == ')' && --Depth == 0)
      return I + 1;
    else if (T[I] == ';' || T[I] == '{' || T[I] == '}')
      return llvm::StringRef::npos;
  }
  return llvm::StringRef::npos;
}

/// True when a function body follows the parameter list ending at `I`
/// (after qualifiers such as const, noexcept, override).
bool bodyFollows(llvm::StringRef T, size_t I) {
  for (;;) {
    I = skipSpace(T, I);
    if (I >= T.size())
      return false;
    if (T[I] == '{')
      return true;
    if (!isIdentStart(T[I]))
      return false;
    size_t End = I;
    while (End < T.size() && isIdent(T[End]))
      ++End;
    llvm::StringRef Word = T.slice(I, End);
    if (Word != "const" && Word != "noexcept" && Word != "override" &&
        Word != "final" && Word != "volatile")
      return false;
    I = End;
  }
}

} // namespace

NamesInText namesIn(llvm::StringRef T) {
  NamesInText Out;
  size_t I = 0;
  while ((I = skipSpace(T, I)) < T.size()) {
    char C = T[I];
    if (C == '"' || C == '\'') { // a literal: to its closing quote
      for (++I; I < T.size() && T[I] != C; ++I)
        if (T[I] == '\\')
          ++I;
      ++I;
      continue;
    }
    if (!isIdentStart(C)) {
      ++I;
      continue;
    }
    size_t End = I;
    while (End < T.size() && isIdent(T[End]))
      ++End;
    std::string Name = T.slice(I, End).str();
    I = End;
    size_t Next = skipSpace(T, End);
    if (Next < T.size() && T[Next] == '(' && !isStatementKeyword(Name)) {
      size_t After = closeParen(T, Next);
      if (After != llvm::StringRef::npos && bodyFollows(T, After)) {
        Out.Defined.insert(Name);
        continue;
      }
    }
    Out.Mentioned.insert(std::move(Name));
  }
  for (const std::string &D : Out.Defined)
    Out.Mentioned.erase(D);
  return Out;
}

std::vector<bool> providers(llvm::ArrayRef<NamesInText> Texts) {
  llvm::StringMap<unsigned> MentionedBy; // units that mention a name
  for (const NamesInText &N : Texts)
    for (const std::string &M : N.Mentioned)
      ++MentionedBy[M];
  std::vector<bool> Out;
  for (const NamesInText &N : Texts)
    Out.push_back(llvm::any_of(N.Defined, [&](const std::string &D) {
      return MentionedBy.lookup(D) > 0;
    }));
  return Out;
}

} // namespace cublas_tidy
