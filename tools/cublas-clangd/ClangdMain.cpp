//===- ClangdMain.cpp - cublas-clangd -------------------------------------===//
//
// clangd 22 with the cublas-* checks linked in: Debian's clangdMain archive
// is the whole language server, and clangd runs every clang-tidy module that
// is linked into it. Referencing the anchor keeps ours in the link.
//
// clangd finds clang's builtin headers (stddef.h, the CUDA wrappers, ...)
// relative to its own executable, and this one does not live next to clang:
// unless told otherwise (--resource-dir, on the command line or in
// $CLANGD_FLAGS), it is given the directory of the clang it was built with.
//
// clangd links each clang-tidy diagnostic to a page of clang-tidy's site
// (LSP codeDescription.href), which has none for our checks: as a language
// server, the messages clangd writes pass through a pump that points the
// links of cublas-* checks at our pages instead (--cublas-docs=URL, or
// $CUBLAS_TIDY_DOCS_URL; by default the check pages of the source tree it
// was built from).
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/raw_ostream.h"

#include "Version.h"
#include "common/DocsLocation.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <thread>
#include <unistd.h>

namespace clang::clangd {
int clangdMain(int argc, char *argv[]);
} // namespace clang::clangd

namespace clang::tidy::cublas {
extern volatile int CublasTidyModuleAnchorSource;
[[maybe_unused]] static int CublasTidyModuleAnchorDestination =
    CublasTidyModuleAnchorSource;
} // namespace clang::tidy::cublas

/// True when `Arg` sets clangd's --resource-dir option (any spelling that
/// llvm::cl accepts: -resource-dir, --resource-dir, with '=' or a separate
/// value).
static bool setsResourceDir(llvm::StringRef Arg) {
  Arg = Arg.ltrim('-');
  return Arg == "resource-dir" || Arg.starts_with("resource-dir=");
}

static bool userGaveResourceDir(int Argc, char **Argv) {
  for (int I = 1; I < Argc; ++I) {
    if (llvm::StringRef(Argv[I]) == "--")
      break;
    if (setsResourceDir(Argv[I]))
      return true;
  }
  // clangd also reads options from $CLANGD_FLAGS; a second --resource-dir
  // would be an error there.
  if (const char *Env = std::getenv("CLANGD_FLAGS")) {
    llvm::SmallVector<llvm::StringRef> Words;
    llvm::StringRef(Env).split(Words, ' ', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef Word : Words)
      if (setsResourceDir(Word.trim("\"'\t\n")))
        return true;
  }
  return false;
}

/// The page clangd links a clang-tidy check to: its site's, by module.
static constexpr llvm::StringLiteral TidyPages =
    "https://clang.llvm.org/extra/clang-tidy/checks/cublas/";

/// Where the links point: `Base`/<check>`Suffix` (`Base` escaped for JSON).
struct Pages {
  std::string Base;
  std::string Suffix;
};

/// `Body` (a JSON message) with the links to clang-tidy's pages for cublas-*
/// checks pointed at `To`.
static std::string relink(llvm::StringRef Body, const Pages &To) {
  std::string Out;
  Out.reserve(Body.size());
  while (true) {
    size_t At = Body.find(TidyPages);
    if (At == llvm::StringRef::npos)
      break;
    llvm::StringRef Rest = Body.substr(At + TidyPages.size());
    size_t End = Rest.find(".html");
    llvm::StringRef Name = End == llvm::StringRef::npos ? "" : Rest.take_front(End);
    if (Name.empty() || Name.find_first_of("\"/\\") != llvm::StringRef::npos) {
      Out += Body.take_front(At + TidyPages.size());
      Body = Rest;
      continue;
    }
    Out += Body.take_front(At);
    Out += To.Base;
    Out += "/cublas-";
    Out += Name;
    Out += To.Suffix;
    Body = Rest.drop_front(End + 5);
  }
  Out += Body;
  return Out;
}

static bool writeAll(int FD, llvm::StringRef Data) {
  while (!Data.empty()) {
    ssize_t N = ::write(FD, Data.data(), Data.size());
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Data = Data.drop_front(N);
  }
  return true;
}

/// Copies the LSP messages read from `In` to `Out`, relinked; what is not a
/// message (no Content-Length header) passes unchanged.
static void pump(int In, int Out, Pages To) {
  std::string Buf;
  char Chunk[1 << 16];
  auto Drain = [&] {
    while (true) {
      size_t HeaderEnd = Buf.find("\r\n\r\n");
      if (HeaderEnd == std::string::npos)
        return;
      llvm::StringRef Header(Buf.data(), HeaderEnd);
      std::optional<size_t> Length;
      llvm::SmallVector<llvm::StringRef> Lines;
      Header.split(Lines, "\r\n");
      for (llvm::StringRef Line : Lines) {
        auto [Key, Value] = Line.split(':');
        size_t N;
        if (Key.trim().equals_insensitive("Content-Length") &&
            !Value.trim().getAsInteger(10, N))
          Length = N;
      }
      if (!Length) {
        writeAll(Out, llvm::StringRef(Buf).take_front(HeaderEnd + 4));
        Buf.erase(0, HeaderEnd + 4);
        continue;
      }
      if (Buf.size() < HeaderEnd + 4 + *Length)
        return;
      std::string Body = relink(
          llvm::StringRef(Buf).substr(HeaderEnd + 4, *Length), To);
      writeAll(Out, "Content-Length: " + std::to_string(Body.size()) +
                        "\r\n\r\n" + Body);
      Buf.erase(0, HeaderEnd + 4 + *Length);
    }
  };
  while (true) {
    ssize_t N = ::read(In, Chunk, sizeof Chunk);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      break;
    Buf.append(Chunk, N);
    Drain();
  }
  writeAll(Out, Buf);
  ::close(In);
}

/// `Path` as a file URI, as clangd writes them.
/// JSON string content for `S`.
static std::string jsonEscaped(llvm::StringRef S) {
  std::string Out;
  for (char C : S) {
    if (C == '"' || C == '\\')
      Out += '\\';
    if (static_cast<unsigned char>(C) >= 0x20)
      Out += C;
  }
  return Out;
}

/// True when `Arg` asks clangd for something other than a language server
/// on stdio (a check run, help, the version).
static bool notAServer(llvm::StringRef Arg) {
  Arg = Arg.ltrim('-');
  return Arg.starts_with("check") || Arg.starts_with("help") ||
         Arg == "version" || Arg.starts_with("print");
}

/// clangd's command line, and what cublas-clangd takes out of it.
struct ClangdCommand {
  /// clangd's arguments, null-terminated, and their number.
  llvm::SmallVector<char *> Args;
  int N = 0;
  /// Where the link of a cublas-* finding points: <Docs>/<check><Suffix>.
  std::string Docs, Suffix;
  /// False when clangd answers and exits (--version, --help, --check, ...).
  bool Server = true;
};

/// Our options come out of the command line, and clang's resource
/// directory goes in. The pages: installed next to the executable
/// (share/doc/cublas-tidy/html), else those of the source tree it was
/// built from.
static ClangdCommand readCommandLine(int argc, char **argv, void *MainAddr) {
  ClangdCommand Cmd;
  cublas_tidy::DocsLocation Where = cublas_tidy::docsLocation(
      argc > 0 ? argv[0] : "", MainAddr, CUBLAS_TIDY_DOCS_DIR);
  Cmd.Docs = Where.Checks;
  Cmd.Suffix = Where.Suffix;
  if (argc > 0)
    Cmd.Args.push_back(argv[0]);
  static std::string ResourceDirArg =
      "--resource-dir=" CUBLAS_TIDY_CLANG_RESOURCE_DIR;
  // The default resource directory goes first so that everything the user
  // wrote, including a "--" that ends the options, keeps its place.
  if (argc >= 1 && !userGaveResourceDir(argc, argv) &&
      llvm::sys::fs::is_directory(CUBLAS_TIDY_CLANG_RESOURCE_DIR))
    Cmd.Args.push_back(ResourceDirArg.data());
  bool Options = true;
  for (int I = 1; I < argc; ++I) {
    llvm::StringRef Arg = argv[I];
    if (Arg == "--")
      Options = false;
    if (Options && Arg.consume_front("--cublas-docs=")) {
      Cmd.Docs = Arg.str();
      Cmd.Suffix = ".md";
      continue;
    }
    if (Options && notAServer(Arg))
      Cmd.Server = false;
    Cmd.Args.push_back(argv[I]);
  }
  while (llvm::StringRef(Cmd.Docs).ends_with("/"))
    Cmd.Docs.pop_back();
  Cmd.N = static_cast<int>(Cmd.Args.size());
  Cmd.Args.push_back(nullptr);
  return Cmd;
}

/// Ours first, before clangd's answer: what this clangd is (--version), and
/// the option it adds (--help).
static void printOurs(int argc, char **argv, const ClangdCommand &Cmd) {
  for (int I = 1; I < argc; ++I) {
    if (llvm::StringRef(argv[I]) == "--")
      break;
    llvm::StringRef Arg = llvm::StringRef(argv[I]).ltrim('-');
    if (Arg == "version")
      llvm::outs() << "cublas-clangd: clangd with the cublas-* checks of "
                      "cublas-tidy " CUBLAS_TIDY_VERSION
                      " (API model: " CUBLAS_TIDY_MODEL_VERSION ")\n";
    if (Arg.starts_with("help"))
      llvm::outs()
          << "cublas-clangd: clangd with the cublas-* checks of cublas-tidy "
             CUBLAS_TIDY_VERSION " built in; enable them in the "
             "project's .clangd (Diagnostics: ClangTidy: Add: [cublas-*] "
             "and FastCheckFilter: Loose, without which clangd runs none "
             "of them).\n\n"
             "Its own option (all of clangd's follow):\n"
             "  --cublas-docs=<url>  where the link of a cublas-* finding "
             "points: <url>/<check>.md\n"
             "                       (also CUBLAS_TIDY_DOCS_URL; default: "
          << Cmd.Docs << "/<check>" << Cmd.Suffix << ")\n\n";
  }
  llvm::outs().flush();
}

/// The language server, writing to a pipe; the pump relinks and forwards.
static int serveRelinked(ClangdCommand &Cmd) {
  int Pipe[2];
  int RealOut = ::dup(STDOUT_FILENO);
  if (RealOut < 0 || ::pipe(Pipe) != 0)
    return clang::clangd::clangdMain(Cmd.N, Cmd.Args.data());
  ::dup2(Pipe[1], STDOUT_FILENO);
  ::close(Pipe[1]);
  std::thread Pump(pump, Pipe[0], RealOut,
                   Pages{jsonEscaped(Cmd.Docs), jsonEscaped(Cmd.Suffix)});
  int Code = clang::clangd::clangdMain(Cmd.N, Cmd.Args.data());
  llvm::outs().flush();
  std::fflush(stdout);
  // The real stdout back in place: the pipe's last writer closes, the pump
  // sees its end.
  ::dup2(RealOut, STDOUT_FILENO);
  Pump.join();
  ::close(RealOut);
  return Code;
}

int main(int argc, char **argv) {
  // A crash is ours to report: clangd's stack dump carries our banner.
  llvm::setBugReportMsg(CUBLAS_TIDY_BUG_REPORT_MSG);
  ClangdCommand Cmd =
      readCommandLine(argc, argv, reinterpret_cast<void *>(&main));
  if (!Cmd.Server) {
    printOurs(argc, argv, Cmd);
    return clang::clangd::clangdMain(Cmd.N, Cmd.Args.data());
  }
  return serveRelinked(Cmd);
}
