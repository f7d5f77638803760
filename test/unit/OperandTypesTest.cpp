//===- OperandTypesTest.cpp - The element types a call's pointers hold ----===//

#include "facts/OperandTypes.h"
#include "TestAST.h"
#include "TorchStandIn.h"

#include "clang/ASTMatchers/ASTMatchers.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace cublas_tidy;

namespace {

const char Prelude[] = R"(
#include <complex>
#include <cstddef>
#include <cstdint>
void use(const void *);
void use2(const void *const *);
struct Mine { float x; };
)";

using Strings = std::vector<std::string>;

/// "<spelled> <bytes> <cudaDataType>[ dtype <dtype>]" of what the argument
/// of each `use(p)` (one level) and `use2(p)` (two levels) in `f` holds;
/// "?" when unknown.
Strings held(const std::string &Code, const std::string &Before = "") {
  auto AST = test::buildAST(Before + Prelude + Code);
  if (!AST || AST->getDiagnostics().hasErrorOccurred())
    return {"does not compile"};
  const FunctionDecl *F = test::functionNamed(*AST, "f");
  std::vector<std::pair<unsigned, const CallExpr *>> Calls;
  for (const CallExpr *C : test::callsTo(*AST, F, "use"))
    Calls.push_back({1, C});
  for (const CallExpr *C : test::callsTo(*AST, F, "use2"))
    Calls.push_back({2, C});
  std::sort(Calls.begin(), Calls.end(), [](const auto &L, const auto &R) {
    return L.second->getBeginLoc() < R.second->getBeginLoc();
  });
  Strings Out;
  for (auto [Levels, Call] : Calls) {
    std::optional<HeldType> H =
        heldType(Call->getArg(0), Levels, AST->getASTContext());
    if (!H) {
      Out.push_back("?");
      continue;
    }
    std::string S =
        H->Spelled + " " + std::to_string(H->Bytes) + " " + H->Type->Name;
    if (!H->LibraryType.empty())
      S += " dtype " + H->LibraryType.str();
    Out.push_back(S);
  }
  return Out;
}

// The static type of the pointer, through casts to `void *`; an array of
// pointers is read two levels down.
TEST(OperandTypes, StaticTypes) {
  EXPECT_EQ(held(R"(void f(float *d, const _Float16 *h,
                         std::complex<double> *z,
                         std::complex<float> *c, float **batch,
                         const float *const arr[]) {
    use(d);
    use(h);
    use(z);
    use(c);
    use((const void *)d);
    use(reinterpret_cast<const void *>(h));
    use2((const void *const *)batch);
    use2((const void *const *)arr);
    float local[16];
    use(local);
  })"),
            (Strings{"float 4 CUDA_R_32F", "_Float16 2 CUDA_R_16F",
                     "std::complex<double> 16 CUDA_C_64F",
                     "std::complex<float> 8 CUDA_C_32F", "float 4 CUDA_R_32F",
                     "_Float16 2 CUDA_R_16F", "float 4 CUDA_R_32F",
                     "float 4 CUDA_R_32F", "float 4 CUDA_R_32F"}));
}

// Unknown: a `void *`, raw bytes, a type the model does not name, a pointer
// read at the wrong depth, a cast to another element type.
TEST(OperandTypes, UnknownTypes) {
  EXPECT_EQ(held(R"(void f(const void *v, char *c, unsigned char *u,
                         int8_t *i8, std::byte *b, Mine *m, float **batch,
                         double *d) {
    use(v);
    use(c);
    use(u);
    use(i8);
    use(b);
    use(m);
    use(batch);
    use2((const void *const *)d);
  })"),
            (Strings{"?", "?", "?", "?", "?", "?", "?", "?"}));
}

// A template parameter's type is not known in the template.
TEST(OperandTypes, TemplateParameters) {
  auto AST = test::buildAST(std::string(Prelude) + R"(
    template <typename T> void g(T *p) { use(p); }
    void f(float *d) { g(d); }
  )");
  ASSERT_TRUE(AST && !AST->getDiagnostics().hasErrorOccurred());
  const FunctionDecl *G = test::selectFirst<FunctionDecl>(
      *AST, functionDecl(hasName("g"), isDefinition(),
                         unless(isTemplateInstantiation()))
                .bind("x"));
  ASSERT_NE(G, nullptr);
  const auto *Ref = test::selectFirst<DeclRefExpr>(
      *AST, declRefExpr(to(parmVarDecl(hasName("p"))),
                        hasAncestor(functionDecl(equalsNode(G))))
                .bind("x"));
  ASSERT_NE(Ref, nullptr);
  EXPECT_FALSE(heldType(Ref, 1, AST->getASTContext()));
}

// `t.data_ptr()` holds the elements of the tensor's dtype where the source
// states it; a typed data pointer is its static type.
TEST(OperandTypes, TensorDataPointers) {
  EXPECT_EQ(held(R"(void f(at::Tensor x, at::Tensor y) {
    auto h = torch::empty({4}, torch::dtype(torch::kHalf));
    use(h.data_ptr());
    use(h.to(at::kFloat).data_ptr());
    TORCH_CHECK(x.scalar_type() == at::kDouble, "x");
    use(x.data_ptr());
    use(y.data_ptr());
    use(y.data_ptr<float>());
    auto bytes = torch::empty({4}, torch::dtype(at::ScalarType::Byte));
    use(bytes.data_ptr());
  })",
                 test::TorchStandIn),
            (Strings{"c10::Half 2 CUDA_R_16F dtype Half",
                     "float 4 CUDA_R_32F dtype Float",
                     "double 8 CUDA_R_64F dtype Double", "?",
                     "float 4 CUDA_R_32F", "?"}));
}

/// "<pointer>:<type>[/<levels>]" for each typed pointer of `Name`.
Strings typed(const char *Name) {
  const FunctionInfo *F = lookupFunction(Name);
  if (!F)
    return {"no such function"};
  Strings Out;
  for (const TypedPointer &P : typedPointers(*F))
    Out.push_back(std::string(F->params()[P.Pointer].Name) + ":" +
                  F->params()[P.Type].Name +
                  (P.Levels == 1 ? "" : "/" + std::to_string(P.Levels)));
  return Out;
}

/// The names of untypedScalars(`Name`).
Strings untyped(const char *Name) {
  const FunctionInfo *F = lookupFunction(Name);
  if (!F)
    return {"no such function"};
  Strings Out;
  for (int P : untypedScalars(*F))
    Out.push_back(F->params()[P].Name);
  return Out;
}

TEST(OperandTypes, TypedPointersOfTheModel) {
  EXPECT_EQ(typed("cublasGemmEx"), (Strings{"A:Atype", "B:Btype", "C:Ctype"}));
  EXPECT_EQ(typed("cublasGemmBatchedEx"),
            (Strings{"Aarray:Atype/2", "Barray:Btype/2", "Carray:Ctype/2"}));
  EXPECT_EQ(typed("cublasDotEx"),
            (Strings{"x:xType", "y:yType", "result:resultType"}));
  EXPECT_EQ(typed("cublasAxpyEx"),
            (Strings{"alpha:alphaType", "x:xType", "y:yType"}));
  EXPECT_EQ(typed("cublasSgemm_v2"), Strings{});
}

// alpha and beta of the GEMMs take the compute type; cublasAxpyEx's alpha
// has a type of its own, and cublasRotEx's c and s are not alpha or beta.
TEST(OperandTypes, UntypedScalarsOfTheModel) {
  EXPECT_EQ(untyped("cublasGemmEx"), (Strings{"alpha", "beta"}));
  EXPECT_EQ(untyped("cublasAxpyEx"), Strings{});
  EXPECT_EQ(untyped("cublasRotEx"), Strings{});
  EXPECT_EQ(untyped("cublasSgemm_v2"), (Strings{"alpha", "beta"}));
}

} // namespace
