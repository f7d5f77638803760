//===- FuzzChecks.cpp - libFuzzer target for every cublas-* check ---------===//
//
// The input bytes drive a generator of C++ functions that mix cuBLAS calls,
// handles, allocations, pointer arithmetic, branches, loops, gotos, lambdas
// and early exits. Each generated translation unit is analysed in-process by
// every cublas-* check through clang-tidy's library. A crash, an assertion
// or a sanitizer report is a finding; diagnostics are not.
//
//===----------------------------------------------------------------------===//

#include "ClangTidy.h"
#include "ClangTidyDiagnosticConsumer.h"
#include "ClangTidyOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace clang::tidy::cublas {
extern volatile int CublasTidyModuleAnchorSource;
[[maybe_unused]] static int CublasTidyModuleAnchorDestination =
    CublasTidyModuleAnchorSource;
} // namespace clang::tidy::cublas

namespace {

class Generator {
public:
  Generator(const uint8_t *Data, size_t Size) : Data(Data), Size(Size) {}

  std::string program() {
    // One input in four is code that does not compile, as an editor sees it
    // while the user types: statements corrupted, a macro cut.
    Broken = next() % 4 == 0;
    std::string Body;
    unsigned Ops = 1 + next() % 24;
    for (unsigned I = 0; I < Ops && !exhausted(); ++I) {
      std::string S = statement(0);
      Body += Broken && next() % 3 == 0 ? corrupt(S) : S;
    }
    std::string Check = "#define CUBLAS_CHECK(x) \\\n"
                        "  do { \\\n"
                        "    cublasStatus_t s_ = (x); \\\n"
                        "    if (s_ != CUBLAS_STATUS_SUCCESS) abort(); \\\n"
                        "  } while (0)\n";
    if (Broken && next() % 4 == 0) {
      // A line of the multi-line macro lost.
      size_t Line = next() % 5, Begin = 0;
      for (size_t I = 0; I < Line; ++I)
        Begin = Check.find('\n', Begin) + 1;
      size_t End = Check.find('\n', Begin);
      Check.erase(Begin, End == std::string::npos ? std::string::npos
                                                  : End - Begin + 1);
    }
    std::string Out = R"(#include <cublas_v2.h>
#include <cublasLt.h>
#include <cuda_runtime.h>
#include <stdlib.h>
)";
    Out += Check;
    if (Broken) // a declaration whose types need a header nobody included
      Out += "std::pair<int, int> find_best(cublasHandle_t, "
             "const std::vector<int> &, cublasHandle_t);\n";
    Out += R"(#define CUBLAS_TRY(x) do { if ((x) != CUBLAS_STATUS_SUCCESS) return -1; } while (0)
int use(cublasHandle_t);
static void release(cublasHandle_t h) { cublasDestroy(h); }
static cublasHandle_t make() { cublasHandle_t h; cublasCreate(&h); return h; }
int f(int n, bool flag, float *param, cublasHandle_t given) {
  cublasHandle_t h0 = 0, h1 = 0;
  cublasLtHandle_t lt = 0;
  cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
  int m = 8, k = 4, ld = 8, inc = 1;
  float alpha = 1.0f, beta = 0.0f;
  float host[64];
  float *d0 = 0, *d1 = 0;
  float *p = param;
)";
    Out += Body;
    Out += "out:\n  return (int)st;\n}\n";
    return Out;
  }

private:
  /// The statement as the user may have left it: cut short, missing its
  /// ';' or a brace, with an undeclared name or an unknown type, or with
  /// code that needs a header nobody included.
  std::string corrupt(const std::string &S) {
    switch (next() % 9) {
    case 0: { // cut anywhere: a call half written
      size_t At = S.empty() ? 0 : next() * S.size() / 256;
      return S.substr(0, At) + "\n";
    }
    case 1: { // a ';' lost
      std::string T = S;
      size_t Semi = T.rfind(';');
      if (Semi != std::string::npos)
        T.erase(Semi, 1);
      return T;
    }
    case 2: { // a brace lost
      std::string T = S;
      size_t Brace = T.find_last_of(next() % 2 ? "}" : "{");
      if (Brace != std::string::npos)
        T.erase(Brace, 1);
      return T;
    }
    case 3: { // a name nobody declared
      std::string T = S;
      for (const char *Name : {"h0", "h1", "d0", "n", "alpha", "st"}) {
        size_t At = T.find(Name);
        if (At != std::string::npos) {
          T.replace(At, std::string(Name).size(), "undeclared_name");
          break;
        }
      }
      return T;
    }
    case 4:
      return std::string("  int32 ret = ") + pick({"cublasCreate(&h0)", "0", "st"}) +
             ";\n  if ((ret = cublasCreate(&h1)) != 0) { }\n" + S;
    case 5:
      return "  auto r = find_best(" + var() + ", {20}, " + var() + ");\n" +
             "  if (r.first == 0) return r.first;\n" + S;
    case 6:
      return "  ns::release<3>(" + var() + ");\n" + S;
    case 7:
      return "  std::vector<float> v(n);\n" + S;
    default:
      return "  undeclared_call(" + var() + ", " + pointer() + ");\n" + S;
    }
  }

  uint8_t next() { return Pos < Size ? Data[Pos++] : 0; }
  bool exhausted() const { return Pos >= Size; }
  const char *pick(std::initializer_list<const char *> Options) {
    return Options.begin()[next() % Options.size()];
  }
  std::string handle() { return pick({"h0", "h1", "given", "make()"}); }
  std::string var() { return pick({"h0", "h1"}); }
  std::string pointer() {
    return pick({"d0", "d1", "host", "param", "d0 + ld", "&host[4]", "p",
                 "(float *)0", "flag ? d0 : host"});
  }
  std::string size() {
    return pick({"n", "m", "k", "ld", "1", "0", "-1", "64", "n * m",
                 "2147483647", "ld - 1"});
  }

  std::string statement(unsigned Depth) {
    if (Depth > 6 || exhausted())
      return "  ;\n";
    std::string Ind(2 + 2 * Depth, ' ');
    switch (next() % 26) {
    case 0:
      return Ind + "cublasCreate(&" + var() + ");\n";
    case 1:
      return Ind + "if (cublasCreate(&" + var() +
             ") != CUBLAS_STATUS_SUCCESS) return -1;\n";
    case 2:
      return Ind + "CUBLAS_CHECK(cublasCreate(&" + var() + "));\n";
    case 3:
      return Ind + "cublasDestroy(" + var() + ");\n";
    case 4:
      return Ind + "st = cublasSgemm(" + handle() + ", " +
             pick({"CUBLAS_OP_N", "CUBLAS_OP_T"}) + ", " +
             pick({"CUBLAS_OP_N", "CUBLAS_OP_T"}) + ", " + size() + ", " +
             size() + ", " + size() + ", &alpha, " + pointer() + ", " +
             size() + ", " + pointer() + ", " + size() + ", &beta, " +
             pointer() + ", " + size() + ");\n";
    case 5:
      return Ind + "cublasSaxpy(" + handle() + ", " + size() + ", " +
             pick({"&alpha", "d0", "host"}) + ", " + pointer() + ", " +
             pick({"inc", "1", "-1", "0"}) + ", " + pointer() + ", 1);\n";
    case 6:
      return Ind + "if (flag) {\n" + statement(Depth + 1) + statement(Depth + 1) +
             Ind + "} else {\n" + statement(Depth + 1) + Ind + "}\n";
    case 7:
      return Ind + "for (int i = 0; i < n; ++i) {\n" + statement(Depth + 1) +
             statement(Depth + 1) + Ind + "}\n";
    case 8:
      return Ind + pick({"return -2;\n", "return (int)st;\n", "goto out;\n",
                         "if (n > 3) return 1;\n"});
    case 9:
      return Ind + "cudaMalloc((void **)&" + pick({"d0", "d1"}) + ", " +
             size() + " * sizeof(float));\n";
    case 10:
      return Ind + pick({"d0", "d1", "p"}) + " = " + pointer() + ";\n";
    case 11:
      return Ind + "cublasSetPointerMode(" + handle() + ", " +
             pick({"CUBLAS_POINTER_MODE_HOST", "CUBLAS_POINTER_MODE_DEVICE"}) +
             ");\n";
    case 12:
      return Ind + pick({"m", "n", "k", "ld", "inc"}) + " = " + size() + ";\n";
    case 13:
      return Ind + "cublasSetMatrix(" + size() + ", " + size() +
             ", sizeof(float), " + pointer() + ", " + size() + ", " +
             pointer() + ", " + size() + ");\n";
    case 14:
      return Ind + "CUBLAS_TRY(cublasSetStream(" + handle() + ", 0));\n";
    case 15:
      return Ind + "{ auto l = [&] { return cublasDestroy(" + var() +
             "); }; st = l(); }\n";
    case 16:
      return Ind + "switch (cublasSetStream(" + handle() +
             ", 0)) { case CUBLAS_STATUS_SUCCESS: break; default: return 3; }\n";
    case 17:
      return Ind + "if (cublasLtCreate(&lt) == CUBLAS_STATUS_SUCCESS) " +
             pick({"cublasLtDestroy(lt);\n", "use(0);\n"});
    case 18:
      return Ind + "st = cublasSgemmStridedBatched(" + handle() +
             ", CUBLAS_OP_N, CUBLAS_OP_N, " + size() + ", " + size() + ", " +
             size() + ", &alpha, " + pointer() + ", " + size() + ", " +
             size() + ", " + pointer() + ", " + size() + ", " + size() +
             ", &beta, " + pointer() + ", " + size() + ", " + size() + ", " +
             size() + ");\n";
    case 19:
      return Ind + pick({"release(", "use("}) + var() + ");\n";
    case 20:
      return Ind + var() + " = " + pick({"0", "make()", "given", "h0"}) + ";\n";
    case 21:
      return Ind + "if (!" + var() + ") return 4;\n";
    case 22:
      return Ind + "cublasGetMatrix(" + size() + ", " + size() +
             ", sizeof(float), " + pointer() + ", " + size() + ", " +
             pointer() + ", " + size() + ");\n";
    case 23:
      return Ind + "while (flag) {\n" + statement(Depth + 1) + Ind +
             "  if (n) break;\n" + Ind + "}\n";
    case 24:
      return Ind + "cublasSdot(" + handle() + ", " + size() + ", " +
             pointer() + ", 1, " + pointer() + ", 1, " +
             pick({"&alpha", "d0", "host"}) + ");\n";
    default:
      return Ind + "(void)cublasDestroy(" + var() + ");\n";
    }
  }

  const uint8_t *Data;
  size_t Size;
  size_t Pos = 0;
  bool Broken = false;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  using namespace clang;
  using namespace clang::tidy;
  std::string Code = Generator(Data, Size).program();
  // CUBLAS_TIDY_FUZZ_PRINT=1 shows the program an input makes (run the
  // fuzzer on that one input to see what crashed).
  static const bool Print = std::getenv("CUBLAS_TIDY_FUZZ_PRINT") != nullptr;
  if (Print)
    llvm::errs() << Code << "\n";

  auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  Memory->addFile("/cublas-tidy-fuzz-input.cpp", 0,
                  llvm::MemoryBuffer::getMemBufferCopy(Code));
  auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::createPhysicalFileSystem());
  FS->pushOverlay(Memory);

  ClangTidyOptions Options = ClangTidyOptions::getDefaults();
  Options.Checks = "-*,cublas-*";
  ClangTidyContext Context(std::make_unique<DefaultOptionsProvider>(
      ClangTidyGlobalOptions(), Options));
  tooling::FixedCompilationDatabase Compilations(
      "/", {"-std=c++17", "-isystem", CUBLAS_TIDY_FUZZ_INCLUDE,
                "-resource-dir=" CUBLAS_TIDY_CLANG_RESOURCE_DIR,
                "-Wno-everything"});
  std::vector<ClangTidyError> Errors = runClangTidy(
      Context, Compilations, {"/cublas-tidy-fuzz-input.cpp"}, FS,
      /*ApplyAnyFix=*/false, /*EnableCheckProfile=*/false, "",
      /*Quiet=*/true);
  // CUBLAS_TIDY_FUZZ_PRINT=1 shows each program and what was reported, to
  // review what the generator makes.
  if (std::getenv("CUBLAS_TIDY_FUZZ_PRINT")) {
    llvm::errs() << Code << "--\n";
    for (const ClangTidyError &E : Errors)
      llvm::errs() << E.DiagnosticName << ": " << E.Message.Message << "\n";
  }
  return 0;
}
