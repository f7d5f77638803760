//===- FunctionTimer.h - How long a check spends on one function ----------===//
//
// With CUBLAS_TIDY_TIME_FUNCTIONS set in the environment, each check prints
// the time it spent on each function it analysed:
//
//   cublas-tidy-time: <check> <function> <milliseconds> ms
//
// bench/run reads these lines to find the slowest function. Without the
// variable a timer costs one cached getenv.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_AST_FUNCTIONTIMER_H
#define CUBLAS_TIDY_LIB_AST_FUNCTIONTIMER_H

#include "clang/AST/Decl.h"
#include "llvm/ADT/StringRef.h"

#include <chrono>

namespace cublas_tidy {

class FunctionTimer {
public:
  FunctionTimer(llvm::StringRef Check, const clang::Decl *Callable);
  ~FunctionTimer();
  FunctionTimer(const FunctionTimer &) = delete;
  FunctionTimer &operator=(const FunctionTimer &) = delete;

private:
  llvm::StringRef Check;
  const clang::Decl *Callable;
  bool Enabled;
  std::chrono::steady_clock::time_point Start;
};

} // namespace cublas_tidy

#endif
