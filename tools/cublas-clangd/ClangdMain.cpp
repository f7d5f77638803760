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
//===----------------------------------------------------------------------===//

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/PrettyStackTrace.h"

#include "Version.h"

#include <cstdlib>
#include <string>

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

int main(int argc, char **argv) {
  // A crash is ours to report: clangd's stack dump carries our banner.
  llvm::setBugReportMsg(CUBLAS_TIDY_BUG_REPORT_MSG);
  static std::string ResourceDirArg =
      "--resource-dir=" CUBLAS_TIDY_CLANG_RESOURCE_DIR;
  if (argc < 1 || userGaveResourceDir(argc, argv) ||
      !llvm::sys::fs::is_directory(CUBLAS_TIDY_CLANG_RESOURCE_DIR))
    return clang::clangd::clangdMain(argc, argv);

  // The default goes first so that everything the user wrote, including a
  // "--" that ends the options, keeps its place.
  llvm::SmallVector<char *> Args;
  Args.push_back(argv[0]);
  Args.push_back(ResourceDirArg.data());
  for (int I = 1; I < argc; ++I)
    Args.push_back(argv[I]);
  Args.push_back(nullptr);
  return clang::clangd::clangdMain(static_cast<int>(Args.size() - 1),
                                   Args.data());
}
