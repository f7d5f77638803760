//===- Findings.cpp -------------------------------------------------------===//

#include "Findings.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>

namespace cublas_tidy {

std::string absolutePath(llvm::StringRef File,
                         llvm::StringRef BuildDirectory) {
  // A relative path is relative to the directory of the compile command
  // that reported it (a compile database's "directory").
  llvm::SmallString<256> Abs(File);
  if (!BuildDirectory.empty())
    llvm::sys::path::make_absolute(BuildDirectory, Abs);
  else
    llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

SourceCache::FileData *SourceCache::load(const std::string &Path) {
  FileData &F = Files[Path];
  if (!F.Buffer) {
    auto Given = Texts ? Texts->find(Path)
                       : llvm::StringMap<std::string>::const_iterator();
    if (Texts && Given != Texts->end()) {
      F.Buffer = llvm::MemoryBuffer::getMemBuffer(Given->second, Path);
    } else {
      auto Read = llvm::MemoryBuffer::getFile(Path);
      if (!Read)
        return nullptr;
      F.Buffer = std::move(*Read);
    }
    llvm::StringRef Text = F.Buffer->getBuffer();
    F.LineStarts.push_back(0);
    for (size_t I = 0; I < Text.size(); ++I)
      if (Text[I] == '\n')
        F.LineStarts.push_back(I + 1);
  }
  return &F;
}

Position SourceCache::position(llvm::StringRef File, unsigned Offset,
                               llvm::StringRef BuildDirectory) {
  Position P;
  if (File.empty())
    return P;
  P.File = absolutePath(File, BuildDirectory);
  FileData *Loaded = load(P.File);
  if (!Loaded)
    return P;
  FileData &F = *Loaded;
  llvm::StringRef Text = F.Buffer->getBuffer();
  if (Offset > Text.size())
    return P;
  // The last line start at or before Offset.
  auto It = std::upper_bound(F.LineStarts.begin(), F.LineStarts.end(), Offset);
  size_t Line = It - F.LineStarts.begin(); // 1-based
  size_t LineStart = F.LineStarts[Line - 1];
  P.Line = Line;
  P.Column = Offset - LineStart + 1;
  size_t LineEnd = Text.find('\n', LineStart);
  P.LineText = Text.slice(LineStart, LineEnd).rtrim("\r").str();
  return P;
}

std::string SourceCache::functionAt(llvm::StringRef File, unsigned Offset) {
  FileData *F = File.empty() ? nullptr : load(File.str());
  if (!F)
    return {};
  if (!F->Bodies)
    F->Bodies = functionBodies(F->Buffer->getBuffer());
  const FunctionBody *Innermost = nullptr;
  for (const FunctionBody &B : *F->Bodies)
    if (B.Open < Offset && Offset < B.Close &&
        (!Innermost || B.Open > Innermost->Open))
      Innermost = &B;
  return Innermost ? Innermost->Name : std::string();
}

namespace {

/// `Text` with comments, string and character literals and preprocessor
/// lines blanked (same offsets): only code is left to read braces from.
std::string codeOnly(llvm::StringRef Text) {
  std::string Code(Text);
  size_t N = Code.size();
  bool LineStart = true;
  for (size_t I = 0; I < N; ++I) {
    char C = Code[I];
    auto BlankTo = [&](size_t End) {
      for (size_t J = I; J < End && J < N; ++J)
        if (Code[J] != '\n')
          Code[J] = ' ';
      I = std::min(End, N) - 1;
    };
    if (C == '\n') {
      LineStart = true;
      continue;
    }
    if (LineStart && C == '#') { // to the end of the line, and its
      size_t End = I;              // continuations
      while (End < N && Code[End] != '\n')
        End = Code[End] == '\\' && End + 1 < N && Code[End + 1] == '\n'
                  ? End + 2
                  : End + 1;
      BlankTo(End);
      continue;
    }
    if (C != ' ' && C != '\t')
      LineStart = false;
    if (C == '/' && I + 1 < N && Code[I + 1] == '/') {
      BlankTo(std::min(Text.find('\n', I), N));
    } else if (C == '/' && I + 1 < N && Code[I + 1] == '*') {
      size_t End = Text.find("*/", I + 2);
      BlankTo(End == llvm::StringRef::npos ? N : End + 2);
    } else if (C == '"' || C == '\'') {
      // A digit separator (1'000) is not a character literal.
      if (C == '\'' && I > 0 && llvm::isAlnum(Code[I - 1]))
        continue;
      size_t End = I + 1;
      while (End < N && Text[End] != C && Text[End] != '\n')
        End += Text[End] == '\\' ? 2 : 1;
      BlankTo(End + 1);
    }
  }
  return Code;
}

bool isNameChar(char C) { return llvm::isAlnum(C) || C == '_'; }

/// Where the head of the `{` at `Open` starts: after the end of the
/// statement or body before it, but over the braces of member initializers
/// (`S() : h_{}, b{1} {`), which end nothing. At most 64 of them: a long
/// initializer list of `A{1}, A{2}, ...` is data, and each of its braces
/// would otherwise walk back over all the ones before it.
size_t headStart(llvm::StringRef Code, size_t Open) {
  size_t End = Open;
  for (int Initializers = 0;; ++Initializers) {
    size_t P = End ? Code.find_last_of(";{}", End - 1) : llvm::StringRef::npos;
    if (P == llvm::StringRef::npos)
      return 0;
    llvm::StringRef Between = Code.slice(P + 1, End).trim();
    if (Code[P] != '}' || !(Between.empty() || Between.front() == ',') ||
        Initializers == 64)
      return P + 1;
    // The `{` the `}` closes, which must follow a member's name.
    size_t Q = P;
    for (int Depth = 0; Q-- > 0;) {
      if (Code[Q] == '}')
        ++Depth;
      else if (Code[Q] == '{' && Depth-- == 0)
        break;
    }
    llvm::StringRef Before = Code.take_front(Q == llvm::StringRef::npos ? 0 : Q)
                                 .rtrim();
    if (Before.empty() || !(isNameChar(Before.back()) || Before.back() == '>'))
      return P + 1;
    End = Q;
  }
}

/// Whether `Head`, whose parameter list opens at `Paren`, is a
/// constructor's head with member initializers after the list (a single
/// `:` after its `)`) and ends with a member's name: its `{` initializes
/// that member.
bool initializesMember(llvm::StringRef Head, size_t Paren) {
  llvm::StringRef Trimmed = Head.rtrim();
  if (Trimmed.empty() || !(isNameChar(Trimmed.back()) || Trimmed.back() == '>'))
    return false;
  int Depth = 0;
  size_t Close = Paren;
  for (; Close < Head.size(); ++Close) {
    Depth += Head[Close] == '(' ? 1 : Head[Close] == ')' ? -1 : 0;
    if (Depth == 0)
      break;
  }
  for (size_t I = Close + 1; I < Head.size(); ++I)
    if (Head[I] == ':' && Head[I - 1] != ':' &&
        (I + 1 == Head.size() || Head[I + 1] != ':'))
      return true;
  return false;
}

/// The name a function body's `{` at `Open` follows, or empty.
std::string bodyName(llvm::StringRef Code, size_t Open) {
  size_t Start = headStart(Code, Open);
  llvm::StringRef Head = Code.slice(Start, Open);
  int Depth = 0;
  for (char C : Head) {
    Depth += C == '(' ? 1 : C == ')' ? -1 : 0;
    if (Depth < 0)
      return {};
  }
  size_t Paren = Head.find('(');
  if (Depth != 0 || Paren == llvm::StringRef::npos ||
      initializesMember(Head, Paren))
    return {};
  llvm::StringRef Before = Head.take_front(Paren).rtrim();
  size_t B = Before.size();
  while (B > 0 && (llvm::isAlnum(Before[B - 1]) || Before[B - 1] == '_' ||
                   Before[B - 1] == ':' || Before[B - 1] == '~'))
    --B;
  llvm::StringRef Name = Before.drop_front(B).ltrim(':');
  static const llvm::StringRef Keywords[] = {
      "if",       "for",          "while",        "switch",   "catch",
      "return",   "sizeof",       "alignof",      "decltype", "noexcept",
      "requires", "static_assert", "__attribute__", "alignas", "throw",
      "new",      "delete",       "co_return",    "co_await", "typeid"};
  if (Name.empty() || llvm::isDigit(Name.front()) ||
      llvm::is_contained(Keywords, Name))
    return {};
  return Name.str();
}

} // namespace

std::vector<FunctionBody> functionBodies(llvm::StringRef Text) {
  std::string Code = codeOnly(Text);
  std::vector<FunctionBody> Bodies;
  std::vector<FunctionBody> Open; // the braces not closed yet, any name
  for (size_t I = 0; I < Code.size(); ++I) {
    if (Code[I] == '{') {
      Open.push_back({I, 0, bodyName(Code, I)});
    } else if (Code[I] == '}' && !Open.empty()) {
      if (!Open.back().Name.empty())
        Bodies.push_back({Open.back().Open, I, std::move(Open.back().Name)});
      Open.pop_back();
    }
  }
  return Bodies;
}

std::vector<Finding>
toFindings(const std::vector<clang::tidy::ClangTidyError> &Errors,
           SourceCache &Sources) {
  std::vector<Finding> Result;
  for (size_t I = 0; I < Errors.size(); ++I) {
    const clang::tidy::ClangTidyError &E = Errors[I];
    Finding F;
    F.Check = E.DiagnosticName;
    F.IsWarningAsError = E.IsWarningAsError;
    switch (E.DiagLevel) {
    case clang::tooling::Diagnostic::Error:
      F.Level = "error";
      break;
    case clang::tooling::Diagnostic::Warning:
      F.Level = "warning";
      break;
    case clang::tooling::Diagnostic::Remark:
      F.Level = "remark";
      break;
    }
    if (E.IsWarningAsError)
      F.Level = "error";
    F.Message = E.Message.Message;
    F.Where = Sources.position(E.Message.FilePath, E.Message.FileOffset,
                               E.BuildDirectory);
    F.Function = Sources.functionAt(F.Where.File, E.Message.FileOffset);
    for (const clang::tooling::DiagnosticMessage &N : E.Notes)
      F.Notes.push_back(
          {Sources.position(N.FilePath, N.FileOffset, E.BuildDirectory),
           N.Message});
    F.ErrorIndex = I;
    Result.push_back(std::move(F));
  }
  return Result;
}

} // namespace cublas_tidy
