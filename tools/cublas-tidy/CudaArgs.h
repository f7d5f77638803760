//===- CudaArgs.h - Compiler arguments for CUDA sources -------------------===//
//
// clang parses the host side of a .cu file when given --cuda-host-only and
// the toolkit's path; the device-side pass fails inside the CUDA 13 headers.
// These helpers adjust compile commands so that .cu inputs parse.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_TOOLS_CUDAARGS_H
#define CUBLAS_TIDY_TOOLS_CUDAARGS_H

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"

#include <memory>
#include <optional>
#include <string>

namespace cublas_tidy {

/// The CUDA toolkit root: $CUDA_PATH, else $CUDA_HOME, else /usr/local/cuda,
/// when it holds include/cuda_runtime.h.
std::optional<std::string> findCudaToolkit();

/// True when the command compiles CUDA: a .cu input, or `-x cuda`.
bool isCudaCommand(const clang::tooling::CommandLineArguments &Args,
                   llvm::StringRef File);

/// Adds --cuda-host-only, -Wno-unknown-cuda-version and, when the command
/// names no toolkit, --cuda-path=<findCudaToolkit()> to CUDA commands.
/// Other commands pass unchanged.
clang::tooling::ArgumentsAdjuster cudaHostOnlyAdjuster();

/// Adds -resource-dir=`Dir` to commands that name no resource directory,
/// when `Dir` exists.
clang::tooling::ArgumentsAdjuster resourceDirAdjuster(std::string Dir);

/// True when `Compiler` (a command's argv[0]) is nvcc.
bool isNvcc(llvm::StringRef Compiler);

/// Rewrites an nvcc command line as the clang command that parses the same
/// source host-only: `nvcc` becomes `clang++`; `--options-file F` is read
/// (relative to `Directory`) and spliced in; `-Xcompiler=a,b` passes a and b
/// on; `-x cu` becomes `-x cuda`; nvcc's `-isystem=DIR`, `--include-path=DIR`
/// and the like become clang's spelling; device-only and nvcc-only flags
/// (`--generate-code`, `-gencode`, `-arch`, `-rdc`, `--expt-*`, `-lineinfo`,
/// `-Xptxas`, `-ccbin`, ...) are dropped. Other commands are returned as is.
std::vector<std::string>
translateNvccCommand(llvm::ArrayRef<std::string> Args,
                     llvm::StringRef Directory);

/// A CompilationDatabase that forwards to one it does not own.
class ForwardingCompilations : public clang::tooling::CompilationDatabase {
public:
  explicit ForwardingCompilations(
      const clang::tooling::CompilationDatabase &Inner)
      : Inner(Inner) {}
  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(llvm::StringRef FilePath) const override {
    return Inner.getCompileCommands(FilePath);
  }
  std::vector<std::string> getAllFiles() const override {
    return Inner.getAllFiles();
  }
  std::vector<clang::tooling::CompileCommand>
  getAllCompileCommands() const override {
    return Inner.getAllCompileCommands();
  }

private:
  const clang::tooling::CompilationDatabase &Inner;
};

/// A CompilationDatabase whose nvcc commands are translated for clang
/// (translateNvccCommand).
class NvccTranslatingCompilations : public clang::tooling::CompilationDatabase {
public:
  explicit NvccTranslatingCompilations(
      std::unique_ptr<clang::tooling::CompilationDatabase> Inner)
      : Inner(std::move(Inner)) {}
  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(llvm::StringRef FilePath) const override {
    return translate(Inner->getCompileCommands(FilePath));
  }
  std::vector<std::string> getAllFiles() const override {
    return Inner->getAllFiles();
  }
  std::vector<clang::tooling::CompileCommand>
  getAllCompileCommands() const override {
    return translate(Inner->getAllCompileCommands());
  }

private:
  static std::vector<clang::tooling::CompileCommand>
  translate(std::vector<clang::tooling::CompileCommand> Commands);
  std::unique_ptr<clang::tooling::CompilationDatabase> Inner;
};

} // namespace cublas_tidy

#endif
