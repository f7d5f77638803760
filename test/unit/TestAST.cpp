//===- TestAST.cpp - The unit tests' parses, their preambles precompiled --===//

#include "TestAST.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <map>

namespace cublas_tidy::test {

std::string includePreamble(const std::string &Code) {
  llvm::StringRef Rest(Code);
  size_t End = 0;
  bool Includes = false;
  while (!Rest.empty()) {
    auto [Line, Next] = Rest.split('\n');
    llvm::StringRef Text = Line.trim();
    if (Text.starts_with("#include <") && Text.ends_with(">"))
      Includes = true;
    else if (!Text.empty() && !Text.starts_with("//"))
      break;
    End += Line.size() + (Rest.size() > Line.size() ? 1 : 0);
    Rest = Next;
  }
  return Includes ? Code.substr(0, End) : std::string();
}

namespace {

/// The folder of this process's precompiled preambles, removed at exit.
struct PreambleDir {
  llvm::SmallString<128> Path;
  PreambleDir() {
    if (llvm::sys::fs::createUniqueDirectory("cublas-tidy-unit-pch", Path))
      Path.clear();
  }
  ~PreambleDir() {
    if (!Path.empty())
      llvm::sys::fs::remove_directories(Path);
  }
};

} // namespace

std::optional<std::string> preamblePCH(const std::string &Preamble,
                                       const std::vector<std::string> &Args) {
  if (Preamble.empty() || std::getenv("CUBLAS_TIDY_UNIT_NO_PCH"))
    return std::nullopt;
  // A language or CUDA mode of the test's own is parsed as it is written.
  for (const std::string &A : Args)
    if (llvm::StringRef(A).starts_with("-x") || llvm::StringRef(A).starts_with("--cuda"))
      return std::nullopt;
  static PreambleDir Dir;
  static std::map<std::string, std::optional<std::string>> Made;
  std::string Key = Preamble;
  for (const std::string &A : Args)
    Key += '\0' + A;
  auto [It, New] = Made.try_emplace(Key);
  if (!New)
    return It->second;
  std::string Clang = clangCompiler();
  if (Dir.Path.empty() || !llvm::sys::fs::can_execute(Clang))
    return std::nullopt;
  llvm::SmallString<128> Header(Dir.Path);
  llvm::sys::path::append(Header, "preamble-" + std::to_string(Made.size()) + ".h");
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Header, EC);
    if (EC)
      return std::nullopt;
    OS << Preamble;
  }
  std::string PCH = std::string(Header) + ".pch";
  // The headers' pending instantiations are made once, in the PCH, not at
  // the end of every parse that reads it.
  std::vector<llvm::StringRef> Cmd = {Clang, "-x", "c++-header",
                                      "-fpch-instantiate-templates"};
  Cmd.insert(Cmd.end(), Args.begin(), Args.end());
  Cmd.insert(Cmd.end(), {Header.str(), "-o", PCH});
  std::optional<llvm::StringRef> Quiet[] = {llvm::StringRef(""), llvm::StringRef(""),
                                            llvm::StringRef("")};
  if (llvm::sys::ExecuteAndWait(Clang, Cmd, std::nullopt, Quiet) == 0)
    It->second = PCH;
  return It->second;
}

} // namespace cublas_tidy::test
