//===- BufferParams.h - The pointers a function gives to cuBLAS -----------===//
//
// A function of the project that takes a pointer and gives it, unchanged,
// as a memory operand to a cuBLAS call: a GEMM wrapper, a helper that
// fills a vector. What the call needs of that memory (its memory space,
// the elements it spans, the cudaDataType_t the function states for it) is
// what the function's callers must give it. Made here from the body of a
// function of this unit, and kept in its summary (facts/Summaries.h) for
// the callers in other units.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_BUFFERPARAMS_H
#define CUBLAS_TIDY_LIB_FACTS_BUFFERPARAMS_H

#include "facts/Summaries.h"
#include "facts/ValueFacts.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cublas_tidy {

/// The pointer parameters of `FD` (defined in this unit) that it passes,
/// unchanged, as memory operands of its cuBLAS calls, with the type it
/// declares for each, and, `WithSpans`, the memory each call spans.
std::vector<FunctionSummary::BufferParam>
bufferParams(const clang::FunctionDecl *FD, clang::ASTContext &Ctx,
             bool WithSpans);

/// The values of the arguments of a call to a function of another file, as
/// the caller's facts know them, each evaluated once when first asked:
/// what a summary's polynomials of that function's parameters are bound
/// to.
class ArgumentValues {
public:
  ArgumentValues(const clang::CallExpr *Call, const ValueFacts &Facts)
      : Call(Call), Facts(Facts) {}
  std::optional<SymExpr> operator()(unsigned I);

private:
  const clang::CallExpr *Call;
  const ValueFacts &Facts;
  std::map<unsigned, std::optional<SymExpr>> Values;
};

/// The span of `B` at a call whose argument values `ValueOf` gives: its
/// span, or the span of the case its flags' values pick; null when unknown
/// (a flag whose value is not a constant there).
const FunctionSummary::BufferParam::Span *
spanAtCall(const FunctionSummary::BufferParam &B,
           llvm::function_ref<std::optional<SymExpr>(unsigned)> ValueOf);

/// ", through 'gemmRaw'" for a buffer that the function gives on to the
/// function of a third file that calls cuBLAS; empty otherwise.
std::string throughText(const FunctionSummary::BufferParam &B);

/// The pointer parameters of a callee that it gives to cuBLAS with a
/// cudaDataType_t of its own, and where it is defined.
struct TypedBuffers {
  llvm::ArrayRef<FunctionSummary::BufferParam> Buffers;
  /// The file of its definition, when in another unit; empty otherwise.
  std::string File;
};

/// The typed buffers of the function `Call` calls: from its body when this
/// unit defines it (a function of user code with parameters), else from
/// the project's summary (projectSummaryOfCall). Nothing when it has none.
std::optional<TypedBuffers> typedBuffersOfCallee(const clang::CallExpr *Call,
                                                 clang::ASTContext &Ctx);

} // namespace cublas_tidy

#endif
