//===- Inputs.cpp ---------------------------------------------------------===//

#include "Inputs.h"

#include "Cache.h"
#include "CudaArgs.h"
#include "Findings.h"
#include "TorchArgs.h"

#include "clang/Driver/Types.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <algorithm>

using namespace clang;
using namespace llvm;
using namespace cublas_tidy::cli;

namespace cublas_tidy {

std::optional<std::string> buildPathArgument(int Argc, const char **Argv) {
  std::optional<std::string> Found;
  for (int I = 1; I < Argc; ++I) {
    StringRef A = Argv[I];
    if (A == "--")
      break;
    if ((A == "-p" || A == "--p") && I + 1 < Argc)
      Found = Argv[++I];
    else if (A.consume_front("-p=") || A.consume_front("--p="))
      Found = A.str();
  }
  return Found;
}

std::vector<std::string> fileArguments(int Argc, const char **Argv) {
  std::vector<std::string> Files;
  for (int I = 1; I < Argc; ++I) {
    StringRef A = Argv[I];
    if (A == "--")
      break;
    if (!A.starts_with("-") && sys::fs::is_regular_file(A))
      Files.push_back(A.str());
  }
  return Files;
}

std::string databaseIn(StringRef D) {
  auto Has = [](StringRef D) {
    SmallString<256> P(D);
    sys::path::append(P, "compile_commands.json");
    return sys::fs::is_regular_file(P);
  };
  if (Has(D))
    return D.str();
  SmallString<256> Build(D);
  sys::path::append(Build, "build");
  if (Has(Build))
    return Build.str().str();
  std::vector<std::string> Others;
  std::error_code EC;
  for (sys::fs::directory_iterator It(D, EC), End; !EC && It != End;
       It.increment(EC)) {
    StringRef Name = sys::path::filename(It->path());
    if (Name.starts_with("build") && Has(It->path()))
      Others.push_back(It->path());
  }
  return Others.empty() ? "" : *std::min_element(Others.begin(), Others.end());
}

std::string findDatabaseFor(StringRef File) {
  SmallString<256> Dir(File);
  if (sys::fs::make_absolute(Dir))
    return "";
  sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
  for (StringRef D = sys::path::parent_path(Dir); !D.empty();
       D = sys::path::parent_path(D))
    if (std::string Found = databaseIn(D); !Found.empty())
      return Found;
  return "";
}

std::string databaseProblem(StringRef BuildPath) {
  SmallString<256> File(BuildPath);
  if (!sys::fs::is_directory(File))
    return "";
  sys::path::append(File, "compile_commands.json");
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = MemoryBuffer::getFile(File);
  if (!Buffer)
    return sys::fs::exists(File)
               ? "cannot read '" + File.str().str() +
                     "': " + Buffer.getError().message()
               : "";
  Expected<json::Value> V = json::parse((*Buffer)->getBuffer());
  if (!V) {
    // "[3:14, byte=80]: Expected ..." as "line 3, column 14: Expected ...".
    std::string Why = toString(V.takeError());
    SmallVector<StringRef, 4> M;
    if (Regex("^\\[([0-9]+):([0-9]+), byte=[0-9]+\\]: (.*)$").match(Why, &M))
      Why = "line " + M[1].str() + ", column " + M[2].str() + ": " + M[3].str();
    return "'" + File.str().str() + "' is not valid JSON: " + Why;
  }
  const json::Array *Entries = V->getAsArray();
  if (!Entries)
    return "'" + File.str().str() +
           "' is not a compile database: it should be an array of entries";
  for (size_t I = 0; I < Entries->size(); ++I) {
    const json::Object *E = (*Entries)[I].getAsObject();
    if (!E || !E->getString("file") || !E->getString("directory") ||
        (!E->getString("command") && !E->getArray("arguments")))
      return "'" + File.str().str() + "' is not a compile database: entry " +
             std::to_string(I + 1) +
             " needs \"directory\", \"file\" and \"command\" or \"arguments\"";
  }
  return "";
}

std::string sourceProblem(StringRef Path) {
  sys::fs::file_status Status;
  if (sys::fs::status(Path, Status))
    return "no such file: '" + Path.str() + "'";
  if (sys::fs::is_directory(Status))
    return "'" + Path.str() + "' is a folder, not a source file";
  Expected<sys::fs::file_t> F = sys::fs::openNativeFileForRead(Path);
  if (!F)
    return "cannot read '" + Path.str() + "': " + toString(F.takeError());
  char Head[4096];
  Expected<size_t> N =
      sys::fs::readNativeFile(*F, MutableArrayRef<char>(Head, sizeof(Head)));
  sys::fs::closeFile(*F);
  if (!N)
    return "cannot read '" + Path.str() + "': " + toString(N.takeError());
  // Source text holds no NUL byte (UTF-16 text, which does, is not C++
  // that clang reads either).
  if (StringRef(Head, *N).contains('\0'))
    return "'" + Path.str() + "' is not a source file: it holds binary data";
  return "";
}

std::string cacheProblem(StringRef Dir) {
  if (std::error_code EC = sys::fs::create_directories(Dir))
    return "cannot make the results cache '" + Dir.str() +
           "': " + EC.message();
  SmallString<256> Probe;
  int FD = -1;
  SmallString<256> Model(Dir);
  sys::path::append(Model, ".write-test-%%%%%%");
  if (std::error_code EC = sys::fs::createUniqueFile(Model, FD, Probe))
    return "cannot write the results cache in '" + Dir.str() +
           "': " + EC.message();
  sys::fs::closeFile(FD);
  sys::fs::remove(Probe);
  return "";
}

/// The C, C++ and CUDA sources of a compilation database.
std::vector<std::string>
sourcesOfDatabase(const tooling::CompilationDatabase &DB) {
  std::vector<std::string> Files;
  for (const std::string &F : DB.getAllFiles()) {
    std::string Ext = sys::path::extension(F).lower();
    if (Ext == ".c" || Ext == ".cc" || Ext == ".cpp" || Ext == ".cxx" ||
        Ext == ".c++" || Ext == ".cu")
      Files.push_back(F);
  }
  llvm::sort(Files);
  Files.erase(std::unique(Files.begin(), Files.end()), Files.end());
  return Files;
}

/// Splits the units into N parts of about equal size (the largest first,
/// each to the part with the least so far; ties by name) and returns part
/// K, in input order. The same inputs give the same parts on any machine.
static std::vector<std::string> shardOf(ArrayRef<std::string> Paths,
                                        unsigned K, unsigned N) {
  std::vector<std::pair<uint64_t, size_t>> BySize;
  for (size_t I = 0; I < Paths.size(); ++I) {
    uint64_t Size = 0;
    (void)sys::fs::file_size(Paths[I], Size);
    BySize.push_back({Size, I});
  }
  llvm::sort(BySize, [&](const auto &A, const auto &B) {
    if (A.first != B.first)
      return A.first > B.first;
    return Paths[A.second] < Paths[B.second];
  });
  std::vector<uint64_t> Load(N, 0);
  std::vector<bool> Mine(Paths.size(), false);
  for (const auto &[Size, I] : BySize) {
    unsigned Least = 0;
    for (unsigned S = 1; S < N; ++S)
      if (Load[S] < Load[Least])
        Least = S;
    // Every unit weighs at least one byte, so that empty files spread too.
    Load[Least] += std::max<uint64_t>(Size, 1);
    Mine[I] = Least == K - 1;
  }
  std::vector<std::string> Part;
  for (size_t I = 0; I < Paths.size(); ++I)
    if (Mine[I])
      Part.push_back(Paths[I]);
  return Part;
}

/// --whole-database: the sources of `DB` that are not units yet, added to
/// the units (those that no longer exist, which an out-of-date database
/// lists, left out).
static void addDatabaseUnits(const tooling::CompilationDatabase &DB,
                             Invocation &Inv) {
  std::set<std::string> Named;
  for (const std::string &P : Inv.Paths)
    Named.insert(cublas_tidy::absolutePath(P, ""));
  unsigned Missing = 0;
  for (const std::string &F : sourcesOfDatabase(DB)) {
    if (Named.count(cublas_tidy::absolutePath(F, "")))
      continue;
    if (!sys::fs::exists(F)) {
      ++Missing;
      continue;
    }
    Inv.Paths.push_back(F);
    Inv.FromDatabase.insert(F);
  }
  if (Verbose && Missing)
    errs() << "cublas-tidy: --whole-database: " << Missing << " source"
           << (Missing == 1 ? "" : "s") << " of the database no longer exist"
           << (Missing == 1 ? "s" : "") << "; left out\n";
}

/// Stage "plan", the units: the files given, or every source file of the
/// compilation database named by -p (CommonOptionsParser loads a database
/// only for given files), with --whole-database both; then this run's shard
/// of them.
std::optional<int> selectUnits(tooling::CommonOptionsParser &Parser,
                               Invocation &Inv) {
  if (WholeDatabase && (Inv.FixedCommandLine || buildPath().empty())) {
    WithColor::error() << "--whole-database needs a compilation database: "
                          "-p DIR, or one found above the first file (not a "
                          "command line after --)\n";
    return 1;
  }
  bool Given = !Inv.Paths.empty();
  std::string Dir = buildPath();
  if (!Given) {
    if (Dir.empty()) {
      WithColor::error() << "no input files specified, and no -p to take "
                            "them from a compilation database\n";
      return 1;
    }
    std::string Message;
    if (!Inv.OwnDatabase)
      Inv.OwnDatabase = tooling::CompilationDatabase::autoDetectFromDirectory(
          Dir, Message);
    if (!Inv.OwnDatabase) {
      WithColor::error() << Message << "\n";
      return 1;
    }
  }
  const tooling::CompilationDatabase &DB =
      Inv.OwnDatabase ? *Inv.OwnDatabase : Parser.getCompilations();
  if (WholeDatabase)
    addDatabaseUnits(DB, Inv);
  else if (!Given)
    Inv.Paths = sourcesOfDatabase(DB);
  if (Inv.Paths.empty()) {
    WithColor::error() << "the compilation database in '" << Dir
                       << "' lists no C, C++ or CUDA source"
                       << (WholeDatabase ? " that exists" : "") << "\n";
    return 1;
  }
  Inv.Database = &DB;
  if (!Shard.getNumOccurrences())
    return std::nullopt;
  unsigned K = 0, N = 0;
  auto [KText, NText] = StringRef(Shard).split('/');
  if (KText.getAsInteger(10, K) || NText.getAsInteger(10, N) || K < 1 ||
      K > N) {
    WithColor::error() << "--shard wants K/N with 1 <= K <= N, not '" << Shard
                       << "'\n";
    return 1;
  }
  size_t Total = Inv.Paths.size();
  Inv.Paths = shardOf(Inv.Paths, K, N);
  if (Verbose)
    errs() << "cublas-tidy: shard " << K << "/" << N << ": "
           << Inv.Paths.size() << " of " << Total << " unit"
           << (Total == 1 ? "" : "s") << "\n";
  return std::nullopt;
}

/// Stage "plan", the cache: where the results cache is and how big it may
/// grow.
std::optional<int> readCacheOptions(Invocation &Inv) {
  Inv.CacheDirectory = CacheDir;
  if (CacheDir.getNumOccurrences() == 0)
    if (std::optional<std::string> Env =
            sys::Process::GetEnv("CUBLAS_TIDY_CACHE_DIR"))
      Inv.CacheDirectory = *Env;
  std::optional<uint64_t> CacheLimit = cublas_tidy::parseSize(CacheMaxSize);
  if (!CacheLimit) {
    WithColor::error() << "--cache-max-size wants bytes, or a number with K, "
                          "M or G, not '"
                       << CacheMaxSize << "'\n";
    return 1;
  }
  Inv.CacheLimit = *CacheLimit;
  // Profiles describe a real analysis: no cache then.
  if (EnableCheckProfile || !StoreCheckProfile.empty())
    Inv.CacheDirectory.clear();
  // A cache that cannot be written is said once; the run goes on.
  if (!Inv.CacheDirectory.empty())
    if (std::string Problem = cublas_tidy::cacheProblem(Inv.CacheDirectory);
        !Problem.empty()) {
      WithColor::warning() << Problem << "; going on without it\n";
      Inv.CacheDirectory.clear();
    }
  return std::nullopt;
}

/// Stage "plan", the compile commands: nvcc commands of CMake databases
/// become clang commands; .cu inputs are parsed host-only against the CUDA
/// toolkit; clang's builtin headers are found wherever this binary lives;
/// --torch adds PyTorch's include folders.
std::optional<int>
adjustCompilations(tooling::ArgumentsAdjustingCompilations &Compilations) {
  if (!RemovedArgs.empty())
    Compilations.appendArgumentsAdjuster(
        [](const tooling::CommandLineArguments &Args, StringRef) {
          tooling::CommandLineArguments Kept;
          for (const std::string &A : Args)
            if (!llvm::is_contained(RemovedArgs, A))
              Kept.push_back(A);
          return Kept;
        });
  Compilations.appendArgumentsAdjuster(cublas_tidy::cudaHostOnlyAdjuster());
  Compilations.appendArgumentsAdjuster(
      cublas_tidy::resourceDirAdjuster(CUBLAS_TIDY_CLANG_RESOURCE_DIR));
  std::string Torch = TorchDir;
  if (Torch.empty())
    if (std::optional<std::string> Env =
            llvm::sys::Process::GetEnv("TORCH_DIR"))
      Torch = *Env;
  if (Torch.empty())
    return std::nullopt;
  // The stand-in headers for a CPU build of libtorch: installed beside the
  // pages (share/cublas-tidy/torch-include), else the source tree's.
  SmallString<256> StandIns(CUBLAS_TIDY_DOCS_DIR);
  sys::path::remove_filename(StandIns);
  sys::path::append(StandIns, "test", "torch-include");
  {
    std::string Exe = sys::fs::getMainExecutable(
        nullptr, reinterpret_cast<void *>(&cublas_tidy::docsLocation));
    SmallString<256> Installed(
        sys::path::parent_path(sys::path::parent_path(Exe)));
    sys::path::append(Installed, "share", "cublas-tidy", "torch-include");
    if (!Exe.empty() && sys::fs::is_directory(Installed))
      StandIns = Installed;
  }
  llvm::Expected<std::vector<std::string>> Dirs =
      cublas_tidy::torchIncludeDirs(Torch, StandIns);
  if (!Dirs) {
    WithColor::error() << llvm::toString(Dirs.takeError()) << "\n";
    return 1;
  }
  Compilations.appendArgumentsAdjuster(
      cublas_tidy::includeDirsAdjuster(std::move(*Dirs)));
  return std::nullopt;
}

/// Stage "parse", the compile database, settled before the parser, whose
/// own fallback prints pages: without -p and `--`, the one that serves the
/// first file, found as clangd finds it (build/ and build*/ folders too),
/// is given to the parser as -p; when there is none, the files are parsed
/// with no flags (a `--` added, said in one line). A folder named by -p
/// without a database is looked into as discovery does (`-p .` finds
/// build/); a missing folder, or one without a database, is one error. The
/// arguments are changed in `Args`, which `Argc` and `Argv` then name;
/// `Found` holds the database's folder. A database that does not read is
/// its error.
std::optional<int> findDatabase(Invocation &Inv,
                                std::vector<const char *> &Args,
                                std::string &Found, int &Argc,
                                const char **&Argv) {
  auto Renamed = [&] {
    Argc = static_cast<int>(Args.size());
    Argv = Args.data();
  };
  std::optional<std::string> Given = cublas_tidy::buildPathArgument(Argc, Argv);
  if (!Inv.FixedCommandLine && !Given) {
    std::vector<std::string> Files = cublas_tidy::fileArguments(Argc, Argv);
    if (!Files.empty())
      Found = cublas_tidy::findDatabaseFor(Files.front());
    if (!Found.empty()) {
      Args.insert(Args.begin() + 1, {"-p", Found.c_str()});
    } else {
      if (!Files.empty())
        WithColor::warning()
            << "no compile database serves '" << Files.front()
            << "' (none in its folder, the folders above or their build*/ "
               "folders): analysing with no compile flags; give them after "
               "--, or -p BUILD_DIR\n";
      Args.push_back("--");
      Inv.FixedCommandLine = true;
    }
    Renamed();
  } else if (Given && !Inv.FixedCommandLine) {
    if (!sys::fs::is_directory(*Given)) {
      WithColor::error() << "-p: no such folder: '" << *Given << "'\n";
      return 1;
    }
    Found = cublas_tidy::databaseIn(*Given);
    SmallString<256> Flags(*Given);
    sys::path::append(Flags, "compile_flags.txt");
    if (Found.empty() && !sys::fs::is_regular_file(Flags)) {
      WithColor::error() << "-p: no compile_commands.json in '" << *Given
                         << "' or its build*/ folders\n";
      return 1;
    }
    if (!Found.empty() && Found != *Given) {
      // The folder found replaces the one given.
      Args.insert(Args.begin() + 1, {"-p", Found.c_str()});
      for (size_t I = 3; I < Args.size(); ++I) {
        StringRef A = Args[I];
        if (A == "--")
          break;
        if ((A == "-p" || A == "--p") && I + 1 < Args.size())
          Args.erase(Args.begin() + I, Args.begin() + I + 2);
        else if (A.starts_with("-p=") || A.starts_with("--p="))
          Args.erase(Args.begin() + I);
        else
          continue;
        break;
      }
      Renamed();
    }
  }
  if (std::optional<std::string> Dir =
          cublas_tidy::buildPathArgument(Argc, Argv))
    if (std::string Problem = cublas_tidy::databaseProblem(*Dir);
        !Problem.empty()) {
      WithColor::error() << Problem << "\n";
      return 1;
    }
  return std::nullopt;
}

/// A file whose name says no language clang reads (`CMakeLists.txt`), and
/// whose language no command says either (`-x` after `--`, or an entry of
/// the database for it): parsed as C++, it would print pages of errors.
static std::string languageProblem(const Invocation &Inv, StringRef Path) {
  StringRef Ext = sys::path::extension(Path);
  if (Ext.consume_front(".") &&
      clang::driver::types::lookupTypeForExtension(Ext) !=
          clang::driver::types::TY_INVALID)
    return "";
  if (Inv.FixedCommandLine) {
    for (const tooling::CompileCommand &C :
         Inv.Database->getCompileCommands(Path))
      for (const std::string &A : C.CommandLine)
        if (StringRef(A).starts_with("-x") || StringRef(A) == "--language")
          return "";
  } else {
    std::string Abs = cublas_tidy::absolutePath(Path, "");
    for (const std::string &F : Inv.Database->getAllFiles())
      if (F == Abs)
        return "";
  }
  return "'" + Path.str() +
         "' is not a C, C++ or CUDA source file (give its language with -x "
         "after --)";
}

/// Stage "plan", the files named on the command line: one line for each
/// that cannot be analysed, which is skipped; `BadInput` then fails the
/// run, and a run left with none ends now.
std::optional<int> dropBadInputs(Invocation &Inv, bool &BadInput) {
  if (Inv.OwnDatabase)
    return std::nullopt;
  llvm::erase_if(Inv.Paths, [&](const std::string &Path) {
    if (Inv.FromDatabase.count(Path))
      return false; // not named: what it does not compile is its unit's
    std::string Problem = cublas_tidy::sourceProblem(Path);
    if (Problem.empty())
      Problem = languageProblem(Inv, Path);
    if (!Problem.empty())
      WithColor::error() << Problem << "\n";
    BadInput |= !Problem.empty();
    return !Problem.empty();
  });
  return Inv.Paths.empty() ? std::optional<int>(1) : std::nullopt;
}

} // namespace cublas_tidy
