//===- CudaArgsTest.cpp ---------------------------------------------------===//

#include "CudaArgs.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace cublas_tidy;
using Args = clang::tooling::CommandLineArguments;

namespace {

bool has(const Args &A, llvm::StringRef Flag) {
  return llvm::any_of(A, [&](const std::string &S) { return S == Flag; });
}

TEST(CudaArgs, RecognisesCudaCommands) {
  EXPECT_TRUE(isCudaCommand({"clang++", "-c", "k.cu"}, "k.cu"));
  EXPECT_TRUE(isCudaCommand({"clang++", "-x", "cuda", "k.cpp"}, "k.cpp"));
  EXPECT_TRUE(isCudaCommand({"clang++", "-xcuda", "k.cpp"}, "k.cpp"));
  EXPECT_FALSE(isCudaCommand({"clang++", "-c", "k.cpp"}, "k.cpp"));
  EXPECT_FALSE(isCudaCommand({"clang++", "-x", "c++", "k.cpp"}, "k.cpp"));
}

TEST(CudaArgs, CudaFilesAreParsedHostOnly) {
  auto Adjust = cudaHostOnlyAdjuster();
  Args Out = Adjust({"clang++", "-I/x", "k.cu"}, "k.cu");
  EXPECT_EQ(Out.front(), "clang++");
  EXPECT_EQ(Out.back(), "k.cu");
  EXPECT_TRUE(has(Out, "--cuda-host-only"));
  EXPECT_TRUE(has(Out, "-Wno-unknown-cuda-version"));
  EXPECT_TRUE(has(Out, "-I/x"));
}

TEST(CudaArgs, RespectsTheUsersChoices) {
  auto Adjust = cudaHostOnlyAdjuster();
  Args Out = Adjust({"clang++", "--cuda-device-only", "--cuda-path=/opt/cuda",
                     "k.cu"},
                    "k.cu");
  EXPECT_FALSE(has(Out, "--cuda-host-only"));
  EXPECT_EQ(llvm::count_if(Out,
                           [](const std::string &S) {
                             return llvm::StringRef(S).starts_with(
                                 "--cuda-path");
                           }),
            1);
}

TEST(CudaArgs, TheToolkitsCcclHeadersAreSearched) {
  llvm::SmallString<128> Toolkit;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("cuda-kit", Toolkit));
  llvm::SmallString<128> Cccl(Toolkit);
  llvm::sys::path::append(Cccl, "include", "cccl");
  auto Adjust = cudaHostOnlyAdjuster();
  std::string Path = ("--cuda-path=" + Toolkit).str();
  // No include/cccl in this toolkit: nothing added.
  Args Without = Adjust({"clang++", Path, "k.cu"}, "k.cu");
  EXPECT_FALSE(has(Without, "-isystem"));
  ASSERT_FALSE(llvm::sys::fs::create_directories(Cccl));
  Args With = Adjust({"clang++", Path, "k.cu"}, "k.cu");
  auto It = llvm::find(With, "-isystem");
  ASSERT_NE(It, With.end());
  EXPECT_EQ(*std::next(It), std::string(Cccl));
  // Not twice when the command names it already.
  Args Named = {"clang++", Path, "-isystem", std::string(Cccl), "k.cu"};
  EXPECT_EQ(llvm::count(Adjust(Named, "k.cu"), std::string("-isystem")), 1);
  // Not for other files.
  Args Cpp = {"clang++", "a.cpp"};
  EXPECT_EQ(Adjust(Cpp, "a.cpp"), Cpp);
  llvm::sys::fs::remove_directories(Toolkit);
}

TEST(CudaArgs, OtherFilesPassUnchanged) {
  Args In = {"clang++", "-O2", "a.cpp"};
  EXPECT_EQ(cudaHostOnlyAdjuster()(In, "a.cpp"), In);
}

TEST(CudaArgs, ResourceDirIsAddedOnce) {
  auto Adjust = resourceDirAdjuster(CUBLAS_TIDY_CLANG_RESOURCE_DIR);
  Args Out = Adjust({"clang++", "a.cpp"}, "a.cpp");
  EXPECT_TRUE(has(Out, "-resource-dir=" CUBLAS_TIDY_CLANG_RESOURCE_DIR));
  Args Given = {"clang++", "-resource-dir=/r", "a.cpp"};
  EXPECT_EQ(Adjust(Given, "a.cpp"), Given);
  Args Plain = {"clang++", "a.cpp"};
  EXPECT_EQ(resourceDirAdjuster("/nonexistent/dir")(Plain, "a.cpp"), Plain);
}

} // namespace

namespace {

TEST(NvccCommands, BecomeClangCommands) {
  Args In = {"/usr/local/cuda/bin/nvcc",
             "-forward-unknown-to-host-compiler",
             "--generate-code=arch=compute_90,code=[compute_90,sm_90]",
             "-gencode", "arch=compute_80,code=sm_80",
             "-arch=sm_90", "-arch", "sm_80",
             "--expt-relaxed-constexpr", "--extended-lambda",
             "-Xcompiler=-Wall,-fno-strict-aliasing", "-Xcompiler", "-fPIC",
             "-lineinfo", "-rdc=true", "-Xptxas", "-v", "-ccbin", "g++",
             "-std=c++17", "--std", "c++17", "-isystem=/opt/inc",
             "--include-path", "/a", "-I/b", "-DX=1", "--define-macro=Y",
             "-x", "cu", "-c", "k.cu", "-o", "k.o"};
  Args Out = translateNvccCommand(In, "/build");
  Args Want = {"clang++", "-Wall", "-fno-strict-aliasing", "-fPIC",
               "-std=c++17", "-std=c++17", "-isystem", "/opt/inc", "-I/a",
               "-I/b", "-DX=1", "-DY", "-x", "cuda", "-c", "k.cu", "-o",
               "k.o"};
  EXPECT_EQ(Out, Want);
}

TEST(NvccCommands, OptionsFilesAreReadRelativeToTheDirectory) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("nvcc-test", Dir));
  llvm::SmallString<128> Rsp(Dir);
  llvm::sys::path::append(Rsp, "includes_CUDA.rsp");
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Rsp, EC);
    ASSERT_FALSE(EC);
    OS << "-I/src/include -isystem=/usr/local/cuda/include \"-DNAME=a b\"\n";
  }
  Args Out = translateNvccCommand(
      {"nvcc", "--options-file", "includes_CUDA.rsp", "-c", "k.cu"}, Dir);
  Args Want = {"clang++", "-I/src/include", "-isystem",
               "/usr/local/cuda/include", "-DNAME=a b", "-c", "k.cu"};
  EXPECT_EQ(Out, Want);
  llvm::sys::fs::remove_directories(Dir);
}

TEST(NvccCommands, OtherCompilersAreLeftAlone) {
  Args In = {"/usr/bin/c++", "-arch=sm_90", "-c", "a.cpp"};
  EXPECT_EQ(translateNvccCommand(In, "/"), In);
  EXPECT_TRUE(isNvcc("/usr/local/cuda/bin/nvcc"));
  EXPECT_TRUE(isNvcc("nvcc.exe"));
  EXPECT_FALSE(isNvcc("nvcc-wrapper"));
}

} // namespace
