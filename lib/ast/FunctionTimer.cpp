//===- FunctionTimer.cpp --------------------------------------------------===//

#include "ast/FunctionTimer.h"

#include "clang/AST/DeclCXX.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace cublas_tidy {

static bool timingEnabled() {
  static const bool Enabled = std::getenv("CUBLAS_TIDY_TIME_FUNCTIONS");
  return Enabled;
}

FunctionTimer::FunctionTimer(llvm::StringRef Check,
                             const clang::Decl *Callable)
    : Check(Check), Callable(Callable), Enabled(timingEnabled()) {
  if (Enabled)
    Start = std::chrono::steady_clock::now();
}

FunctionTimer::~FunctionTimer() {
  if (!Enabled)
    return;
  double Ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - Start)
                  .count();
  std::string Name = "<callable>";
  if (const auto *ND = llvm::dyn_cast_or_null<clang::NamedDecl>(Callable))
    Name = ND->getQualifiedNameAsString();
  llvm::errs() << "cublas-tidy-time: " << Check << " " << Name << " "
               << llvm::format("%.3f", Ms) << " ms\n";
}

} // namespace cublas_tidy
