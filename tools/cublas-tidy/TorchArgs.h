//===- TorchArgs.h - PyTorch's include folders for extension sources ------===//
//
// A PyTorch C++/CUDA extension built by torch.utils.cpp_extension has no
// compile database, and its headers live inside the installed torch
// package. `cublas-tidy --torch=DIR` adds them to every command: DIR is the
// torch package (site-packages/torch), the site-packages folder that holds
// it, Torch_DIR (<torch>/share/cmake/Torch, what CMake's find_package(Torch)
// takes), or an include folder with torch/extension.h in it (/usr/include
// for Debian's libtorch-dev).
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_TOOLS_TORCHARGS_H
#define CUBLAS_TIDY_TOOLS_TORCHARGS_H

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace cublas_tidy {

/// The folders to add for the PyTorch installation `Given`: its include
/// folder (not a folder the compiler searches already, /usr/include, which
/// would come before the C++ library's own headers), include/torch/csrc/
/// api/include (torch/torch.h), the Python headers of the installation the
/// package is in (<prefix>/include/pythonX.Y for <prefix>/lib/pythonX.Y/
/// site-packages/torch), when they are there; and `StandIns` (a folder
/// with c10/cuda/impl/cuda_cmake_macros.h) for a CPU build of libtorch,
/// which lacks that header of a CUDA build (Debian's libtorch-dev).
llvm::Expected<std::vector<std::string>>
torchIncludeDirs(llvm::StringRef Given, llvm::StringRef StandIns = "");

/// Adds `-isystem D` for each of `Dirs` to every command, after the
/// compiler's name.
clang::tooling::ArgumentsAdjuster
includeDirsAdjuster(std::vector<std::string> Dirs);

} // namespace cublas_tidy

#endif
