//===- Inputs.cpp ---------------------------------------------------------===//

#include "Inputs.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <algorithm>

using namespace llvm;

namespace cublas_tidy {

std::optional<std::string> buildPathArgument(int Argc, const char **Argv) {
  std::optional<std::string> Found;
  for (int I = 1; I < Argc; ++I) {
    StringRef A = Argv[I];
    if (A == "--")
      break;
    if ((A == "-p" || A == "--p") && I + 1 < Argc)
      Found = Argv[++I];
    else if (A.consume_front("-p=") || A.consume_front("--p="))
      Found = A.str();
  }
  return Found;
}

std::vector<std::string> fileArguments(int Argc, const char **Argv) {
  std::vector<std::string> Files;
  for (int I = 1; I < Argc; ++I) {
    StringRef A = Argv[I];
    if (A == "--")
      break;
    if (!A.starts_with("-") && sys::fs::is_regular_file(A))
      Files.push_back(A.str());
  }
  return Files;
}

std::string databaseIn(StringRef D) {
  auto Has = [](StringRef D) {
    SmallString<256> P(D);
    sys::path::append(P, "compile_commands.json");
    return sys::fs::is_regular_file(P);
  };
  if (Has(D))
    return D.str();
  SmallString<256> Build(D);
  sys::path::append(Build, "build");
  if (Has(Build))
    return Build.str().str();
  std::vector<std::string> Others;
  std::error_code EC;
  for (sys::fs::directory_iterator It(D, EC), End; !EC && It != End;
       It.increment(EC)) {
    StringRef Name = sys::path::filename(It->path());
    if (Name.starts_with("build") && Has(It->path()))
      Others.push_back(It->path());
  }
  return Others.empty() ? "" : *std::min_element(Others.begin(), Others.end());
}

std::string findDatabaseFor(StringRef File) {
  SmallString<256> Dir(File);
  if (sys::fs::make_absolute(Dir))
    return "";
  sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
  for (StringRef D = sys::path::parent_path(Dir); !D.empty();
       D = sys::path::parent_path(D))
    if (std::string Found = databaseIn(D); !Found.empty())
      return Found;
  return "";
}

std::string databaseProblem(StringRef BuildPath) {
  SmallString<256> File(BuildPath);
  if (!sys::fs::is_directory(File))
    return "";
  sys::path::append(File, "compile_commands.json");
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = MemoryBuffer::getFile(File);
  if (!Buffer)
    return sys::fs::exists(File)
               ? "cannot read '" + File.str().str() +
                     "': " + Buffer.getError().message()
               : "";
  Expected<json::Value> V = json::parse((*Buffer)->getBuffer());
  if (!V) {
    // "[3:14, byte=80]: Expected ..." as "line 3, column 14: Expected ...".
    std::string Why = toString(V.takeError());
    SmallVector<StringRef, 4> M;
    if (Regex("^\\[([0-9]+):([0-9]+), byte=[0-9]+\\]: (.*)$").match(Why, &M))
      Why = "line " + M[1].str() + ", column " + M[2].str() + ": " + M[3].str();
    return "'" + File.str().str() + "' is not valid JSON: " + Why;
  }
  const json::Array *Entries = V->getAsArray();
  if (!Entries)
    return "'" + File.str().str() +
           "' is not a compile database: it should be an array of entries";
  for (size_t I = 0; I < Entries->size(); ++I) {
    const json::Object *E = (*Entries)[I].getAsObject();
    if (!E || !E->getString("file") || !E->getString("directory") ||
        (!E->getString("command") && !E->getArray("arguments")))
      return "'" + File.str().str() + "' is not a compile database: entry " +
             std::to_string(I + 1) +
             " needs \"directory\", \"file\" and \"command\" or \"arguments\"";
  }
  return "";
}

std::string sourceProblem(StringRef Path) {
  sys::fs::file_status Status;
  if (sys::fs::status(Path, Status))
    return "no such file: '" + Path.str() + "'";
  if (sys::fs::is_directory(Status))
    return "'" + Path.str() + "' is a folder, not a source file";
  Expected<sys::fs::file_t> F = sys::fs::openNativeFileForRead(Path);
  if (!F)
    return "cannot read '" + Path.str() + "': " + toString(F.takeError());
  char Head[4096];
  Expected<size_t> N =
      sys::fs::readNativeFile(*F, MutableArrayRef<char>(Head, sizeof(Head)));
  sys::fs::closeFile(*F);
  if (!N)
    return "cannot read '" + Path.str() + "': " + toString(N.takeError());
  // Source text holds no NUL byte (UTF-16 text, which does, is not C++
  // that clang reads either).
  if (StringRef(Head, *N).contains('\0'))
    return "'" + Path.str() + "' is not a source file: it holds binary data";
  return "";
}

std::string cacheProblem(StringRef Dir) {
  if (std::error_code EC = sys::fs::create_directories(Dir))
    return "cannot make the results cache '" + Dir.str() +
           "': " + EC.message();
  SmallString<256> Probe;
  int FD = -1;
  SmallString<256> Model(Dir);
  sys::path::append(Model, ".write-test-%%%%%%");
  if (std::error_code EC = sys::fs::createUniqueFile(Model, FD, Probe))
    return "cannot write the results cache in '" + Dir.str() +
           "': " + EC.message();
  sys::fs::closeFile(FD);
  sys::fs::remove(Probe);
  return "";
}

} // namespace cublas_tidy
