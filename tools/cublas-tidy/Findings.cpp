//===- Findings.cpp -------------------------------------------------------===//

#include "Findings.h"

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

Position SourceCache::position(llvm::StringRef File, unsigned Offset,
                               llvm::StringRef BuildDirectory) {
  Position P;
  if (File.empty())
    return P;
  P.File = absolutePath(File, BuildDirectory);
  FileData &F = Files[P.File];
  if (!F.Buffer) {
    auto Given = Texts ? Texts->find(P.File)
                       : llvm::StringMap<std::string>::const_iterator();
    if (Texts && Given != Texts->end()) {
      F.Buffer = llvm::MemoryBuffer::getMemBuffer(Given->second, P.File);
    } else {
      auto Read = llvm::MemoryBuffer::getFile(P.File);
      if (!Read)
        return P;
      F.Buffer = std::move(*Read);
    }
    llvm::StringRef Text = F.Buffer->getBuffer();
    F.LineStarts.push_back(0);
    for (size_t I = 0; I < Text.size(); ++I)
      if (Text[I] == '\n')
        F.LineStarts.push_back(I + 1);
  }
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
