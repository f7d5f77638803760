//===- UnitSummaries.h - The summaries a translation unit defines ---------===//
//
// Makes the summaries (facts/Summaries.h) of the functions a translation
// unit defines, from the facts that decide them within one unit:
// the status roles of facts/StatusFunctions.h and the parameter effects of
// facts/HandleStates.h; and the summary of its main file: the routes of
// exceptions of facts/Exceptions.h.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_UNITSUMMARIES_H
#define CUBLAS_TIDY_LIB_FACTS_UNITSUMMARIES_H

#include "facts/Summaries.h"

#include "clang/AST/ASTContext.h"

#include <optional>
#include <vector>

namespace cublas_tidy {

/// The informative summaries of the functions among `Callables` (the
/// definitions of user code) that the main file defines and other units
/// can call.
std::vector<FunctionSummary>
summarizeFunctions(llvm::ArrayRef<const clang::Decl *> Callables,
                   clang::ASTContext &Ctx);

/// The summary of the main file: the routes of the exceptions of the
/// project's functions that `Callables` (every callable of user code in
/// the unit) call or register (facts/Exceptions.h). Nothing when it has
/// none.
std::optional<FileSummary>
summarizeFile(llvm::ArrayRef<const clang::Decl *> Callables,
              clang::ASTContext &Ctx);

} // namespace cublas_tidy

#endif
