//===- Sarif.h - SARIF 2.1.0 output ---------------------------------------===//

#ifndef CUBLAS_TIDY_TOOLS_SARIF_H
#define CUBLAS_TIDY_TOOLS_SARIF_H

#include "Findings.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace cublas_tidy {

/// The documentation page of a check, when the tool carries one.
llvm::StringRef checkDocumentation(llvm::StringRef Check);

/// Who wrote a log: the tool's version, and where its pages are (a base
/// URI and the pages' suffix, DocsLocation.h); empty: not said.
struct SarifTool {
  std::string Version;
  std::string InformationUri;
  std::string ChecksUri;
  std::string Suffix;
};

/// Writes the findings as a SARIF 2.1.0 log with one run: the tool and its
/// version, rules (one per check that reported: its summary, the first
/// paragraph of its "Why", its documentation as help and the URI of its
/// page), results with their locations and the notes as related locations.
/// Paths under `Root` are written relative to it, with the uriBaseId
/// %SRCROOT%.
void writeSarif(const std::vector<Finding> &Findings, llvm::StringRef Root,
                llvm::raw_ostream &OS, const SarifTool &Tool = {});

/// Joins SARIF logs of this tool (the parts of a --shard run) into one log
/// with one run: the rules of all, each result once (a header's finding is
/// reported by every part that includes it), the first log's base URIs.
/// Written to `Out`.
llvm::Error mergeSarif(llvm::ArrayRef<std::string> Inputs, llvm::StringRef Out);

} // namespace cublas_tidy

#endif
