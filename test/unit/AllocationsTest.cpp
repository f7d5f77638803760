//===- AllocationsTest.cpp - How much memory a pointer reaches ------------===//

#include "facts/Allocations.h"
#include "TestAST.h"

#include "clang/ASTMatchers/ASTMatchers.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace cublas_tidy;

namespace {

const char Prelude[] = R"(
#include <cuda_runtime.h>
#include <cstdlib>
#include <vector>
void at(const void *);
void escape(float **);
)";

/// For every `at(p)` in function `Fn`: "<allocator> <bytes> @<offset>" or
/// "?".
std::vector<std::string> extentsIn(const std::string &Code,
                                   const std::string &Fn = "f") {
  return test::printArguments(
      std::string(Prelude) + Code, Fn, "at",
      [](const FunctionDecl *F, ASTContext &Ctx) {
        auto Facts = std::make_shared<ValueFacts>(F, Ctx);
        return [Facts](const Expr *Arg) -> std::string {
          std::optional<Extent> X = pointerExtent(Arg, *Facts);
          return X ? X->Allocator.str() + " " + X->Bytes.str() + " @" +
                         X->OffsetBytes.str()
                   : "?";
        };
      });
}

using Extents = std::vector<std::string>;

TEST(Allocations, CudaMallocAndOffsets) {
  EXPECT_EQ(extentsIn(R"(void f(int n) {
    float *d; cudaMalloc(&d, 1024 * sizeof(float));
    at(d); at(d + 16); at(&d[32]); at((char *)d + 3);
    float *e = d + 10; at(e); e += 6; at(e);
    float *s; cudaMalloc((void **)&s, n * sizeof(float)); at(s + n / 2);
    double *m; cudaMallocManaged(&m, 80, cudaMemAttachGlobal); at(m + 1);
  })"),
            (Extents{"cudaMalloc 4096 @0", "cudaMalloc 4096 @64",
                     "cudaMalloc 4096 @128", "cudaMalloc 4096 @3",
                     "cudaMalloc 4096 @40", "cudaMalloc 4096 @64", "?",
                     "cudaMallocManaged 80 @8"}));
}

TEST(Allocations, HostAllocations) {
  EXPECT_EQ(extentsIn(R"(void f(int n) {
    float *h = new float[n]; at(h + 1);
    float *m = (float *)malloc(400); at(m);
    std::vector<double> v(10); at(v.data()); at(&v[2]);
    float a[16]; at(a); at(a + 4);
  })"),
            (Extents{"new[] 4*n @4", "malloc 400 @0", "std::vector 80 @0",
                     "std::vector 80 @16", "array 64 @0", "array 64 @16"}));
}

TEST(Allocations, PitchedAllocations) {
  EXPECT_EQ(extentsIn(R"(void f() {
    float *p; size_t pitch;
    cudaMallocPitch((void **)&p, &pitch, 100 * sizeof(float), 64);
    at(p);
  })"),
            Extents{"cudaMallocPitch 64*pitch @0"});
}

TEST(Allocations, UnknownWhenNotTheSameOnEveryPath) {
  EXPECT_EQ(extentsIn(R"(void f(bool c, float *param) {
    float *d; cudaMalloc(&d, 64);
    if (c) cudaMalloc(&d, 128);
    at(d);
    float *e = nullptr; if (c) cudaMalloc(&e, 64); at(e);
    float *g; cudaMalloc(&g, 64); escape(&g); at(g);
    at(param);
    float *l; cudaMalloc(&l, 64); for (int i = 0; i < 4; ++i) { at(l); l++; }
  })"),
            (Extents{"?", "?", "?", "?", "?"}));
}

TEST(Allocations, FollowsArgumentsIntoHelpers) {
  auto AST = test::buildAST(std::string(Prelude) + R"(
    void helper(const float *p, int off) { at(p + off); }
    void caller() { float *d; cudaMalloc(&d, 256); helper(d, 4); }
  )");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const FunctionDecl *Helper = test::functionNamed(*AST, "helper");
  const FunctionDecl *Caller = test::functionNamed(*AST, "caller");
  auto Sites = test::callsTo(*AST, Caller, "helper");
  auto Uses = test::callsTo(*AST, Helper, "at");
  ASSERT_TRUE(Helper && Caller && Sites.size() == 1 && Uses.size() == 1);
  ValueFacts HelperFacts(Helper, Ctx), CallerFacts(Caller, Ctx);
  EXPECT_FALSE(pointerExtent(Uses[0]->getArg(0), HelperFacts));
  ValueFacts InContext(HelperFacts, Sites[0], CallerFacts);
  std::optional<Extent> X = pointerExtent(Uses[0]->getArg(0), InContext);
  ASSERT_TRUE(X);
  EXPECT_EQ(X->Bytes.str(), "256");
  EXPECT_EQ(X->OffsetBytes.str(), "16");
  EXPECT_EQ(X->remainingBytes()->str(), "240");
}

// A square allocation is n * n elements of one size; n * m, 2 * n * n and
// n * n + 1 are not, nor are n * n bytes counted in 4-byte elements.
TEST(Allocations, SquareAllocations) {
  EXPECT_EQ(test::printArguments(
                std::string(Prelude) + R"(void f(int n, int m) {
    float *a; cudaMalloc(&a, n * n * sizeof(float)); at(a);
    float *b; cudaMalloc(&b, n * m * sizeof(float)); at(b);
    float *c; cudaMalloc(&c, 2 * n * n * sizeof(float)); at(c);
    float *d; cudaMalloc(&d, (n * n + 1) * sizeof(float)); at(d);
    char *e; cudaMalloc(&e, n * n); at(e);
  })",
                "f", "at",
                [](const FunctionDecl *F, ASTContext &Ctx) {
                  auto Facts = std::make_shared<ValueFacts>(F, Ctx);
                  return [Facts](const Expr *Arg) -> std::string {
                    std::optional<Extent> X = pointerExtent(Arg, *Facts);
                    if (!X)
                      return "?";
                    return std::string(isSquare(*X, 4) ? "square4" : "-") +
                           (isSquare(*X, 1) ? " square1" : "");
                  };
                }),
            (Extents{"square4", "-", "-", "-", "- square1"}));
}

} // namespace
