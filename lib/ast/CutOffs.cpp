//===- CutOffs.cpp --------------------------------------------------------===//

#include "ast/CutOffs.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <cstdlib>
#include <mutex>

namespace cublas_tidy {

namespace {
std::atomic<bool> &shown() {
  static std::atomic<bool> Shown{std::getenv("CUBLAS_TIDY_VERBOSE") != nullptr};
  return Shown;
}
} // namespace

void showCutOffs(bool Show) { shown() = Show; }

bool cutOffsShown() { return shown(); }

std::string reportCutOff(llvm::StringRef Analysis, const clang::Decl *Callable,
                         const llvm::Twine &Why) {
  std::string Where = "a function";
  if (Callable) {
    if (const auto *ND = llvm::dyn_cast<clang::NamedDecl>(Callable);
        ND && ND->getDeclName())
      Where = "'" + ND->getQualifiedNameAsString() + "'";
    const clang::SourceManager &SM =
        Callable->getASTContext().getSourceManager();
    clang::PresumedLoc P =
        SM.getPresumedLoc(SM.getExpansionLoc(Callable->getLocation()));
    if (P.isValid())
      Where += " (" + std::string(P.getFilename()) + ":" +
               std::to_string(P.getLine()) + ")";
  }
  std::string Text = Analysis.str() + " stopped early in " + Where + ": " +
                     Why.str();
  if (shown()) {
    static std::mutex Lock;
    std::lock_guard<std::mutex> Guard(Lock);
    llvm::errs() << "cublas-tidy: note: " << Text << "\n";
  }
  return Text;
}

} // namespace cublas_tidy
