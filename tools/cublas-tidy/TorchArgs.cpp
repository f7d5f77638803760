//===- TorchArgs.cpp ------------------------------------------------------===//

#include "TorchArgs.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace cublas_tidy {

namespace {

/// The path of `Parts` appended one by one to `Base`.
std::string join(llvm::StringRef Base,
                 std::initializer_list<llvm::StringRef> Parts) {
  llvm::SmallString<256> P(Base);
  for (llvm::StringRef Part : Parts)
    llvm::sys::path::append(P, Part);
  return std::string(P);
}

bool hasExtensionHeader(const std::string &Include) {
  return llvm::sys::fs::exists(join(Include, {"torch", "extension.h"}));
}

/// The include folder of the installation `Given` names, or empty.
std::string includeFolder(llvm::StringRef Given) {
  llvm::SmallString<256> Abs(Given);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  std::string Dir(Abs);
  for (const std::string &Candidate :
       {Dir,                                   // an include folder
        join(Dir, {"include"}),                  // the torch package
        join(Dir, {"torch", "include"}),         // site-packages
        join(Dir, {"..", "..", "..", "include"}) // <torch>/share/cmake/Torch
       }) {
    llvm::SmallString<256> C(Candidate);
    llvm::sys::path::remove_dots(C, /*remove_dot_dot=*/true);
    if (hasExtensionHeader(std::string(C)))
      return std::string(C);
  }
  return {};
}

/// <prefix>/include/pythonX.Y for an include folder inside
/// <prefix>/lib/pythonX.Y/site-packages/torch/include.
std::string pythonHeaders(llvm::StringRef TorchInclude) {
  llvm::StringRef Package = llvm::sys::path::parent_path(TorchInclude);
  llvm::StringRef Site = llvm::sys::path::parent_path(Package);
  llvm::StringRef Version = llvm::sys::path::parent_path(Site);
  llvm::StringRef Lib = llvm::sys::path::parent_path(Version);
  llvm::StringRef Prefix = llvm::sys::path::parent_path(Lib);
  llvm::StringRef SiteName = llvm::sys::path::filename(Site);
  llvm::StringRef VersionName = llvm::sys::path::filename(Version);
  if ((SiteName != "site-packages" && SiteName != "dist-packages") ||
      !VersionName.starts_with("python") || Prefix.empty()) {
    // A distribution's libtorch (/usr/include/torch): the Python headers
    // beside it, /usr/include/python3.N, the newest when there are several.
    std::string Best;
    unsigned BestMinor = 0;
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(TorchInclude, EC), End;
         !EC && It != End; It.increment(EC)) {
      llvm::StringRef Name = llvm::sys::path::filename(It->path());
      unsigned Minor = 0;
      if (!Name.consume_front("python3.") || Name.getAsInteger(10, Minor) ||
          !llvm::sys::fs::exists(join(It->path(), {"Python.h"})))
        continue;
      if (Best.empty() || Minor > BestMinor) {
        Best = It->path();
        BestMinor = Minor;
      }
    }
    return Best;
  }
  std::string Headers = join(Prefix, {"include", VersionName});
  return llvm::sys::fs::exists(join(Headers, {"Python.h"})) ? Headers
                                                          : std::string();
}

} // namespace

llvm::Expected<std::vector<std::string>>
torchIncludeDirs(llvm::StringRef Given, llvm::StringRef StandIns) {
  std::string Include = includeFolder(Given);
  if (Include.empty())
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "--torch=" + Given.str() +
            ": no torch/extension.h there; give the torch package "
            "(site-packages/torch), site-packages, Torch_DIR "
            "(<torch>/share/cmake/Torch) or an include folder");
  std::vector<std::string> Dirs;
  // The compiler's own system folders are searched already, after the C++
  // library's headers (whose <cmath> includes <math.h> with #include_next):
  // named again with -isystem, they would come first.
  if (Include != "/usr/include" && Include != "/usr/local/include")
    Dirs.push_back(Include);
  Dirs.push_back(join(Include, {"torch", "csrc", "api", "include"}));
  if (std::string Python = pythonHeaders(Include); !Python.empty())
    Dirs.push_back(Python);
  // A CPU build: c10/cuda/CUDAMacros.h includes a header only a CUDA build
  // generates.
  if (!StandIns.empty() &&
      llvm::sys::fs::exists(join(Include, {"c10", "cuda", "CUDAMacros.h"})) &&
      !llvm::sys::fs::exists(
          join(Include, {"c10", "cuda", "impl", "cuda_cmake_macros.h"})) &&
      llvm::sys::fs::exists(
          join(StandIns, {"c10", "cuda", "impl", "cuda_cmake_macros.h"})))
    Dirs.push_back(StandIns.str());
  return Dirs;
}

clang::tooling::ArgumentsAdjuster
includeDirsAdjuster(std::vector<std::string> Dirs) {
  return [Dirs = std::move(Dirs)](const clang::tooling::CommandLineArguments &Args,
                                  llvm::StringRef) {
    clang::tooling::CommandLineArguments Result = Args;
    std::vector<std::string> Extra;
    for (const std::string &D : Dirs) {
      Extra.push_back("-isystem");
      Extra.push_back(D);
    }
    Result.insert(Result.begin() + (Result.empty() ? 0 : 1), Extra.begin(),
                  Extra.end());
    return Result;
  };
}

} // namespace cublas_tidy
