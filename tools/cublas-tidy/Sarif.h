//===- Sarif.h - SARIF 2.1.0 output ---------------------------------------===//

#ifndef CUBLAS_TIDY_TOOLS_SARIF_H
#define CUBLAS_TIDY_TOOLS_SARIF_H

#include "Findings.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace cublas_tidy {

/// The documentation page of a check, when the tool carries one.
llvm::StringRef checkDocumentation(llvm::StringRef Check);

/// Writes the findings as a SARIF 2.1.0 log with one run: rules (one per
/// check that reported, with its documentation as help), results with their
/// locations and the notes as related locations. Paths under `Root` are
/// written relative to it, with the uriBaseId %SRCROOT%.
void writeSarif(const std::vector<Finding> &Findings, llvm::StringRef Root,
                llvm::raw_ostream &OS);

/// Joins SARIF logs of this tool (the parts of a --shard run) into one log
/// with one run: the rules of all, each result once (a header's finding is
/// reported by every part that includes it), the first log's base URIs.
/// Written to `Out`.
llvm::Error mergeSarif(llvm::ArrayRef<std::string> Inputs, llvm::StringRef Out);

} // namespace cublas_tidy

#endif
