//===- CudaArgs.cpp -------------------------------------------------------===//

#include "CudaArgs.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

using namespace clang::tooling;
using llvm::StringRef;

namespace cublas_tidy {

std::optional<std::string> findCudaToolkit() {
  for (const char *Var : {"CUDA_PATH", "CUDA_HOME"})
    if (std::optional<std::string> Dir = llvm::sys::Process::GetEnv(Var))
      if (!Dir->empty())
        return *Dir;
  llvm::SmallString<64> Probe("/usr/local/cuda");
  llvm::sys::path::append(Probe, "include", "cuda_runtime.h");
  if (llvm::sys::fs::exists(Probe))
    return std::string("/usr/local/cuda");
  return std::nullopt;
}

bool isCudaCommand(const CommandLineArguments &Args, StringRef File) {
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if ((A == "-x" && I + 1 < Args.size() && StringRef(Args[I + 1]) == "cuda") ||
        A == "-xcuda")
      return true;
  }
  return llvm::sys::path::extension(File).equals_insensitive(".cu");
}

ArgumentsAdjuster cudaHostOnlyAdjuster() {
  return [](const CommandLineArguments &Args, StringRef File) {
    if (!isCudaCommand(Args, File))
      return Args;
    bool HasHostOnly = false, HasPath = false, HasDeviceOnly = false;
    for (StringRef A : Args) {
      HasHostOnly |= A == "--cuda-host-only";
      HasDeviceOnly |= A == "--cuda-device-only";
      HasPath |= A.starts_with("--cuda-path");
    }
    CommandLineArguments Result = Args;
    std::vector<std::string> Extra;
    if (!HasHostOnly && !HasDeviceOnly)
      Extra.push_back("--cuda-host-only");
    Extra.push_back("-Wno-unknown-cuda-version");
    if (!HasPath)
      if (std::optional<std::string> Toolkit = findCudaToolkit())
        Extra.push_back("--cuda-path=" + *Toolkit);
    // Insert after the compiler name so that a trailing `-- file` stays last.
    Result.insert(Result.begin() + (Result.empty() ? 0 : 1), Extra.begin(),
                  Extra.end());
    return Result;
  };
}

ArgumentsAdjuster resourceDirAdjuster(std::string Dir) {
  bool Exists = llvm::sys::fs::is_directory(Dir);
  return [Dir = std::move(Dir), Exists](const CommandLineArguments &Args,
                                        StringRef) {
    if (!Exists)
      return Args;
    for (StringRef A : Args)
      if (A.starts_with("-resource-dir"))
        return Args;
    CommandLineArguments Result = Args;
    Result.insert(Result.begin() + (Result.empty() ? 0 : 1),
                  "-resource-dir=" + Dir);
    return Result;
  };
}

} // namespace cublas_tidy
