//===- CudaArgsTest.cpp ---------------------------------------------------===//

#include "CudaArgs.h"

#include "llvm/ADT/STLExtras.h"
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
