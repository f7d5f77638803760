//===- MemoryObjectsTest.cpp - The allocator and container tables ---------===//

#include "facts/Allocations.h"
#include "facts/LibraryModel.h"
#include "facts/MemoryObjects.h"
#include "model/Allocators.h"
#include "model/Containers.h"
#include "TestAST.h"

#include "clang/ASTMatchers/ASTMatchers.h"
#include "gtest/gtest.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace cublas_tidy;
using memory_api::MemorySpace;

namespace {

TEST(AllocatorTable, EveryRowIsConsistent) {
  for (const memory_api::Allocator &A : memory_api::allocators()) {
    SCOPED_TRACE(A.Name);
    EXPECT_EQ(memory_api::lookupAllocator(A.Name), &A);
    // The size comes from one argument or from the pitch and height.
    if (A.PitchArg >= 0)
      EXPECT_GE(A.HeightArg, 0);
    if (A.CountArg >= 0)
      EXPECT_GE(A.SizeArg, 0);
    // An out-parameter is never also the size.
    if (A.outParameter())
      EXPECT_NE(A.PointerArg, A.SizeArg);
  }
}

TEST(AllocatorTable, NamesAsDocumented) {
  // The per-thread default stream's variant is the same function.
  const memory_api::Allocator *A =
      memory_api::lookupAllocator("cudaMallocAsync_ptsz");
  ASSERT_NE(A, nullptr);
  EXPECT_STREQ(A->Name, "cudaMallocAsync");
  EXPECT_EQ(A->Space, MemorySpace::Device);
  EXPECT_TRUE(A->writes(0));
  EXPECT_FALSE(A->writes(1));
  const memory_api::Allocator *Pitch =
      memory_api::lookupAllocator("cudaMallocPitch");
  ASSERT_NE(Pitch, nullptr);
  EXPECT_TRUE(Pitch->writes(0));
  EXPECT_TRUE(Pitch->writes(1)); // the pitch
  EXPECT_EQ(memory_api::lookupAllocator("cudaFree"), nullptr);
  EXPECT_EQ(memory_api::lookupAllocator("malloc")->Space,
            MemorySpace::PageableHost);
  EXPECT_FALSE(memory_api::lookupAllocator("malloc")->outParameter());
}

/// What containerType() says of variable `v` in `Code`: "Display Space" or
/// "Display inline" or "Display ?" (unknown memory) or "-" (no container).
std::string containerOf(const std::string &Code) {
  auto AST = test::buildAST(Code);
  if (!AST)
    return "no AST";
  const auto *V =
      test::selectFirst<VarDecl>(*AST, varDecl(hasName("v")).bind("x"));
  if (!V)
    return "no v";
  std::optional<ContainerType> C = containerType(V->getType());
  if (!C)
    return "-";
  std::string Out = C->Row->Display;
  if (C->Row->Where == memory_api::Storage::Inline)
    return Out + " inline";
  if (!C->Space)
    return Out + " ?";
  switch (*C->Space) {
  case MemorySpace::Device:
    return Out + " device";
  case MemorySpace::Managed:
    return Out + " managed";
  case MemorySpace::PinnedHost:
    return Out + " pinned";
  case MemorySpace::PageableHost:
    return Out + " host";
  }
  return Out;
}

TEST(ContainerTable, StandardContainers) {
  EXPECT_EQ(containerOf("#include <vector>\nstd::vector<float> v;"),
            "std::vector host");
  EXPECT_EQ(containerOf("#include <string>\nstd::string v;"),
            "std::string host");
  EXPECT_EQ(containerOf("#include <array>\nstd::array<float, 4> v;"),
            "std::array inline");
  // Another allocator may be pinned or managed: the memory is unknown.
  EXPECT_EQ(containerOf(R"(#include <vector>
template <class T> struct Pinned { using value_type = T;
  T *allocate(unsigned long); void deallocate(T *, unsigned long); };
std::vector<float, Pinned<float>> v;)"),
            "std::vector ?");
  EXPECT_EQ(containerOf("#include <list>\nstd::list<float> v;"), "-");
  EXPECT_EQ(containerOf("float v[4];"), "-");
}

TEST(ContainerTable, SizedContainers) {
  auto AST = test::buildAST(R"(#include <string>
#include <vector>
std::vector<double> a; std::string b; const std::vector<double> &c = a;)");
  ASSERT_TRUE(AST);
  auto TypeOf = [&](const char *Name) {
    return test::selectFirst<VarDecl>(*AST, varDecl(hasName(Name)).bind("x"))
        ->getType();
  };
  QualType Elem;
  EXPECT_TRUE(isSizedContainer(TypeOf("a"), &Elem));
  EXPECT_EQ(Elem.getAsString(), "double");
  EXPECT_FALSE(isSizedContainer(TypeOf("b")));
  EXPECT_TRUE(isSizedContainer(TypeOf("c"))); // through the reference
}

TEST(ContainerMethods, EveryRowIsConsistent) {
  for (const memory_api::ContainerMethod &M : memory_api::containerMethods()) {
    SCOPED_TRACE(M.Name);
    EXPECT_EQ(memory_api::containerMethod(M.Name), &M);
    // Only inserts say where they insert, and only they take a value.
    EXPECT_EQ(M.inserts(), M.At != memory_api::InsertAt::None);
    EXPECT_EQ(M.insertArgs() != 0, M.inserts());
    // A method changes the count or keeps it, never both.
    EXPECT_FALSE(M.preservesSize() &&
                 (M.inserts() || M.Kind == memory_api::MethodKind::Resize));
  }
}

TEST(ContainerMethods, WhatEachDoes) {
  using memory_api::containerMethod;
  using memory_api::MethodKind;
  EXPECT_EQ(containerMethod("data")->Kind, MethodKind::StoragePointer);
  EXPECT_EQ(containerMethod("c_str")->Kind, MethodKind::StoragePointer);
  EXPECT_EQ(containerMethod("at")->Kind, MethodKind::ElementAccess);
  EXPECT_EQ(containerMethod("size")->Kind, MethodKind::Size);
  EXPECT_TRUE(containerMethod("capacity")->preservesSize());
  EXPECT_FALSE(containerMethod("resize")->preservesSize());
  EXPECT_EQ(containerMethod("push_back")->insertArgs(), 1u);
  EXPECT_EQ(containerMethod("emplace_front")->insertArgs(), 1u);
  EXPECT_EQ(containerMethod("insert")->insertArgs(), 2u); // position, value
  EXPECT_EQ(containerMethod("emplace")->Kind, MethodKind::Emplace);
  EXPECT_EQ(containerMethod("reserve"), nullptr);
  EXPECT_EQ(containerMethod("Data"), nullptr);
}

TEST(ContainerMethods, CalledInAProgram) {
  auto AST = test::buildAST(R"(#include <string>
#include <vector>
struct Own { float *data(); };
void f(std::vector<float> &v, std::string &s, Own &o) {
  v.data(); v.push_back(1.f); s.c_str(); o.data(); v.reserve(4);
})");
  ASSERT_TRUE(AST);
  std::vector<std::string> Kinds;
  for (const auto &N :
       match(cxxMemberCallExpr(isExpansionInMainFile()).bind("x"),
             AST->getASTContext())) {
    const auto *MC = N.getNodeAs<CXXMemberCallExpr>("x");
    const memory_api::ContainerMethod *M = calledContainerMethod(MC);
    Kinds.push_back(M ? M->Name : "-");
  }
  // By the name: a method of the program named like a container's counts.
  llvm::sort(Kinds);
  EXPECT_EQ(Kinds, (std::vector<std::string>{"-", "c_str", "data", "data",
                                             "push_back"}));
}

// A SpGEMM step writes the size with a null buffer (an out argument: the
// variable is defined there) and reads it with a buffer (the variable is
// read there, not escaped); a _bufferSize query always writes.
TEST(OutArguments, SizesOfStepsThatSizeTheirOwnBuffer) {
  auto AST = test::buildAST(R"(#include <cusparse.h>
void f(cusparseHandle_t h, cusparseSpMatDescr_t A, cusparseSpGEMMDescr_t d,
       void *buffer, cusparseDnVecDescr_t x) {
  float one = 1.0f;
  size_t size = 0, spmv = 0;
  cusparseSpGEMM_compute(h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                         CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, A, &one,
                         A, CUDA_R_32F, CUSPARSE_SPGEMM_DEFAULT, d, &size,
                         nullptr);
  cusparseSpGEMM_compute(h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                         CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, A, &one,
                         A, CUDA_R_32F, CUSPARSE_SPGEMM_DEFAULT, d, &size,
                         buffer);
  cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, x,
                          &one, x, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT,
                          &spmv);
})");
  ASSERT_TRUE(AST);
  std::vector<const CallExpr *> Calls;
  for (const auto &N : match(callExpr(isExpansionInMainFile()).bind("c"),
                             AST->getASTContext()))
    Calls.push_back(N.getNodeAs<CallExpr>("c"));
  ASSERT_EQ(Calls.size(), 3u);
  EXPECT_TRUE(isOutArgument(Calls[0], 11));
  EXPECT_FALSE(isReadThroughArgument(Calls[0], 11));
  EXPECT_FALSE(isOutArgument(Calls[1], 11));
  EXPECT_TRUE(isReadThroughArgument(Calls[1], 11));
  EXPECT_FALSE(isOutArgument(Calls[1], 12)); // the buffer
  EXPECT_TRUE(isOutArgument(Calls[2], 9));
  EXPECT_FALSE(isReadThroughArgument(Calls[2], 9));
}

TEST(LibraryModels, RegisteredInOrder) {
  std::vector<std::string> Names;
  for (const LibraryModel *M : libraryModels())
    Names.push_back(M->name().str());
  EXPECT_EQ(Names, (std::vector<std::string>{"PyTorch", "thrust", "RMM"}));
}

/// For every `at(p)` in `f`: "<allocator> <bytes>" or "?".
std::vector<std::string> extentsIn(const std::string &Code) {
  return test::printArguments(
      "#include <cstdlib>\n#include <cuda_runtime.h>\n"
      "void at(const void *);\n" +
          Code,
      "f", "at", [](const FunctionDecl *F, ASTContext &Ctx) {
        auto Facts = std::make_shared<ValueFacts>(F, Ctx);
        return [Facts](const Expr *Arg) -> std::string {
          std::optional<Extent> X = pointerExtent(Arg, *Facts);
          return X ? X->Allocator.str() + " " + X->Bytes.str() : "?";
        };
      });
}

// Every allocator of the table with a size argument gives an extent.
TEST(AllocatorTable, ExtentsFromTheTable) {
  EXPECT_EQ(extentsIn(R"(void f(int n) {
    void *a = aligned_alloc(64, 4096); at(a);
    float *c = (float *)calloc(n, 4); at(c);
    void *p; posix_memalign(&p, 64, 1024); at(p);
    float *r = (float *)realloc(c, 512); at(r);
    float *h; cudaMallocHost(&h, 256); at(h);
  })"),
            (std::vector<std::string>{"aligned_alloc 4096", "calloc 4*n",
                                      "posix_memalign 1024", "realloc 512",
                                      "cudaMallocHost 256"}));
}

} // namespace
