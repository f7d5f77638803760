//===- CudaArgs.cpp -------------------------------------------------------===//

#include "CudaArgs.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/ADT/StringSet.h"

using namespace clang::tooling;
using llvm::ArrayRef;
using llvm::SmallString;
using llvm::SmallVector;
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
    bool HasHostOnly = false, HasPath = false, HasDeviceOnly = false,
         HasCccl = false;
    std::optional<std::string> Toolkit;
    for (StringRef A : Args) {
      HasHostOnly |= A == "--cuda-host-only";
      HasDeviceOnly |= A == "--cuda-device-only";
      if (A.consume_front("--cuda-path=")) {
        HasPath = true;
        Toolkit = A.str();
      }
      HasCccl |= A.contains("include/cccl");
    }
    if (!HasPath)
      Toolkit = findCudaToolkit();
    CommandLineArguments Result = Args;
    std::vector<std::string> Extra;
    if (!HasHostOnly && !HasDeviceOnly)
      Extra.push_back("--cuda-host-only");
    Extra.push_back("-Wno-unknown-cuda-version");
    if (!HasPath && Toolkit)
      Extra.push_back("--cuda-path=" + *Toolkit);
    // CUDA 13 keeps thrust, cub and libcu++ in include/cccl, which nvcc
    // searches by itself and clang does not.
    llvm::SmallString<128> Cccl;
    if (Toolkit && !HasCccl) {
      Cccl = *Toolkit;
      llvm::sys::path::append(Cccl, "include", "cccl");
      if (llvm::sys::fs::is_directory(Cccl)) {
        Extra.push_back("-isystem");
        Extra.push_back(std::string(Cccl));
      }
    }
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

bool isNvcc(StringRef Compiler) {
  StringRef Name = llvm::sys::path::filename(Compiler);
  Name.consume_back_insensitive(".exe");
  return Name == "nvcc";
}

namespace {

/// nvcc flags that have no meaning for a host-only parse, and whether they
/// take the next argument when not written with '='.
struct DroppedFlag {
  const char *Name;
  bool TakesValue;
};
constexpr DroppedFlag Dropped[] = {
    {"--generate-code", true},   {"-gencode", true},
    {"--gpu-architecture", true}, {"-arch", true},
    {"--gpu-code", true},        {"-code", true},
    {"-forward-unknown-to-host-compiler", false},
    {"--forward-unknown-to-host-compiler", false},
    {"-forward-unknown-to-host-linker", false},
    {"--forward-unknown-to-host-linker", false},
    {"--expt-relaxed-constexpr", false}, {"-expt-relaxed-constexpr", false},
    {"--expt-extended-lambda", false},   {"-expt-extended-lambda", false},
    {"--extended-lambda", false},        {"-extended-lambda", false},
    {"--relocatable-device-code", true}, {"-rdc", true},
    {"--device-c", false},       {"-dc", false},
    {"--device-w", false},       {"-dw", false},
    {"--device-link", false},    {"-dlink", false},
    {"--generate-line-info", false}, {"-lineinfo", false},
    {"--device-debug", false},   {"-G", false},
    {"--use_fast_math", false},  {"-use_fast_math", false},
    {"--ftz", true},             {"-ftz", true},
    {"--prec-div", true},        {"-prec-div", true},
    {"--prec-sqrt", true},       {"-prec-sqrt", true},
    {"--fmad", true},            {"-fmad", true},
    {"--keep", false},           {"-keep", false},
    {"--keep-dir", true},        {"-keep-dir", true},
    {"--ptxas-options", true},   {"-Xptxas", true},
    {"--nvlink-options", true},  {"-Xnvlink", true},
    {"-Xcudafe", true},          {"-Xarchive", true},
    {"--archive-options", true},
    {"--maxrregcount", true},    {"-maxrregcount", true},
    {"--default-stream", true},  {"-default-stream", true},
    {"--diag-suppress", true},   {"-diag-suppress", true},
    {"--diag-warn", true},       {"-diag-warn", true},
    {"--diag-error", true},      {"-diag-error", true},
    {"--display-error-number", false}, {"-err-no", false},
    {"--Werror", true},          {"-Werror", true},
    {"--compiler-bindir", true}, {"-ccbin", true},
    {"--threads", true},         {"-t", true},
    {"--split-compile", true},   {"-split-compile", true},
    {"--cudart", true},          {"-cudart", true},
    {"--cudadevrt", true},       {"-cudadevrt", true},
    {"--resource-usage", false}, {"-res-usage", false},
    {"--static-global-template-stub", true},
    {"-static-global-template-stub", true},
    {"--allow-unsupported-compiler", false},
    {"-allow-unsupported-compiler", false},
    {"--Wno-deprecated-gpu-targets", false},
    {"-Wno-deprecated-gpu-targets", false},
    {"--restrict", false},       {"-restrict", false},
    {"--source-in-ptx", false},  {"-src-in-ptx", false},
    {"--extensible-whole-program", false}, {"-ewp", false},
    {"--no-host-device-initializer-list", false},
    {"--no-host-device-move-forward", false},
    {"--optimize", true},        {"-O", false},
};

/// nvcc's spellings of include and macro flags, as clang's.
struct Renamed {
  const char *Nvcc;
  const char *Clang;
};
constexpr Renamed Renames[] = {
    {"-isystem", "-isystem"},         {"--system-include", "-isystem"},
    {"--include-path", "-I"},         {"-I", "-I"},
    {"--define-macro", "-D"},         {"-D", "-D"},
    {"--undefine-macro", "-U"},       {"-U", "-U"},
    {"--pre-include", "-include"},    {"-include", "-include"},
    {"--std", "-std="},               {"-std", "-std="},
};

/// Splits `-Xcompiler`'s comma-separated list.
void appendHostFlags(StringRef List, std::vector<std::string> &Out) {
  SmallVector<StringRef, 4> Parts;
  List.split(Parts, ',', -1, /*KeepEmpty=*/false);
  for (StringRef P : Parts)
    Out.push_back(P.str());
}

void translate(ArrayRef<std::string> In, StringRef Directory,
               std::vector<std::string> &Out, unsigned Depth);

/// nvcc's `--options-file FILE`: the flags the file holds (relative to
/// `Directory`), translated in its place. Files nested deeper than four
/// are left out, as are files that cannot be read.
void appendOptionsFile(StringRef File, StringRef Directory,
                       std::vector<std::string> &Out, unsigned Depth) {
  SmallString<256> Path(File);
  if (!llvm::sys::path::is_absolute(Path))
    llvm::sys::path::make_absolute(Directory, Path);
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return;
  llvm::BumpPtrAllocator Alloc;
  llvm::StringSaver Saver(Alloc);
  SmallVector<const char *, 32> Tokens;
  llvm::cl::TokenizeGNUCommandLine((*Buffer)->getBuffer(), Saver, Tokens);
  std::vector<std::string> Nested(Tokens.begin(), Tokens.end());
  translate(Nested, Directory, Out, Depth + 1);
}

/// The entry of `Dropped` for `Flag`, or null when clang keeps it.
const DroppedFlag *droppedFlag(StringRef Flag) {
  for (const DroppedFlag &D : Dropped)
    if (Flag == D.Name)
      return &D;
  return nullptr;
}

/// nvcc's spelling `Flag` of an include or macro flag (its value after
/// `=`, or from `Next`) appended as clang's. False when clang reads the
/// flag as it is (`-I DIR`), or when it is no such flag.
bool appendRenamed(StringRef Flag, StringRef Value, bool HasEq,
                   llvm::function_ref<std::optional<StringRef>()> Next,
                   std::vector<std::string> &Out) {
  for (const Renamed &R : Renames) {
    StringRef Clang = R.Clang;
    if (Flag != R.Nvcc)
      continue;
    std::optional<StringRef> V;
    if (HasEq)
      V = Value; // nvcc's -isystem=DIR, --std=c++17
    else if (StringRef(R.Nvcc).starts_with("--") ||
             StringRef(R.Nvcc) == "-std")
      V = Next(); // --include-path DIR, -std c++17
    else
      return false; // -I DIR, -isystem DIR: clang reads these as they are
    if (!V)
      return false;
    if (Clang.ends_with("="))
      Out.push_back((Clang + *V).str());
    else if (Clang == "-isystem" || Clang == "-include") {
      Out.push_back(Clang.str());
      Out.push_back(V->str());
    } else {
      Out.push_back((Clang + *V).str());
    }
    return true;
  }
  return false;
}

void translate(ArrayRef<std::string> In, StringRef Directory,
               std::vector<std::string> &Out, unsigned Depth) {
  for (size_t I = 0; I < In.size(); ++I) {
    StringRef A = In[I];
    auto Next = [&]() -> std::optional<StringRef> {
      if (I + 1 < In.size())
        return StringRef(In[++I]);
      return std::nullopt;
    };
    auto [Flag, Value] = A.split('=');
    bool HasEq = A.contains('=');

    if (Flag == "--options-file" || Flag == "-optf") {
      std::optional<StringRef> File = HasEq ? Value : Next();
      if (File && Depth <= 4)
        appendOptionsFile(*File, Directory, Out, Depth);
      continue;
    }
    if (Flag == "-Xcompiler" || Flag == "--compiler-options") {
      if (std::optional<StringRef> List = HasEq ? Value : Next())
        appendHostFlags(*List, Out);
      continue;
    }
    if (A == "-x" || A == "--x") {
      std::optional<StringRef> Lang = Next();
      Out.push_back("-x");
      Out.push_back(Lang && (*Lang == "cu" || *Lang == "cuda")
                        ? "cuda"
                        : Lang ? Lang->str() : "c++");
      continue;
    }
    if (Flag == "--x") {
      Out.push_back("-x");
      Out.push_back(Value == "cu" ? "cuda" : Value.str());
      continue;
    }
    if (const DroppedFlag *D = droppedFlag(Flag)) {
      if (D->TakesValue && !HasEq)
        (void)Next();
      continue;
    }
    // -O3 and the like are clang's too; nvcc's -O with a separate level is
    // handled above.
    if (!appendRenamed(Flag, Value, HasEq, Next, Out))
      Out.push_back(A.str());
  }
}

} // namespace

std::vector<std::string> translateNvccCommand(ArrayRef<std::string> Args,
                                              StringRef Directory) {
  if (Args.empty() || !isNvcc(Args.front()))
    return Args.vec();
  std::vector<std::string> Out;
  Out.push_back("clang++");
  translate(Args.drop_front(), Directory, Out, 0);
  return Out;
}

std::vector<CompileCommand> NvccTranslatingCompilations::translate(
    std::vector<CompileCommand> Commands) {
  for (CompileCommand &C : Commands)
    C.CommandLine = translateNvccCommand(C.CommandLine, C.Directory);
  return Commands;
}

} // namespace cublas_tidy
