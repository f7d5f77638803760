//===- SummaryParts.h - A function's summary, part by part, as JSON -------===//
//
// A function's summary (facts/SummaryStore.h) is where and what the
// function is, and parts, each said by one fact. The fact that makes a
// part also writes and reads it, in its own file, as a SummaryPart:
// whether a summary has something of it, its JSON, and reading it back.
// SummaryParts.cpp lists every part once and gives FunctionSummary its
// JSON and informative(). A new part is its field in FunctionSummary, its
// SummaryPart in the fact's file, and its line here and in the list.
//
// The readers share the small pieces of JSON below (summary_json).
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_SUMMARYPARTS_H
#define CUBLAS_TIDY_LIB_FACTS_SUMMARYPARTS_H

#include "facts/SummaryStore.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace cublas_tidy {

/// One part of a function's summary.
struct SummaryPart {
  /// Whether `S` says something of this part.
  bool (*Has)(const FunctionSummary &S);
  /// Writes it into `O` (only when Has()).
  void (*Write)(const FunctionSummary &S, llvm::json::Object &O);
  /// Reads it from `O` into `S`; false when it is there but does not parse.
  bool (*Read)(const llvm::json::Object &O, FunctionSummary &S);
};

// The parts, each defined in the file of the fact that makes it.
extern const SummaryPart StatusSummaryPart;         // facts/StatusFunctions.cpp
extern const SummaryPart HandlesSummaryPart;        // facts/HandleStates.cpp
extern const SummaryPart BuffersSummaryPart;        // facts/BufferParams.cpp
extern const SummaryPart PerCallSummaryPart;        // facts/RepeatedHandles.cpp
extern const SummaryPart CreatedGlobalsSummaryPart; // facts/RepeatedHandles.cpp
extern const SummaryPart DestroyedGlobalsSummaryPart; // DestroyedGlobals.cpp
extern const SummaryPart TouchedMembersSummaryPart;   // MemberHandles.cpp
extern const SummaryPart ReleasedGlobalsSummaryPart;  // HandleStates.cpp
extern const SummaryPart PerDeviceGlobalsSummaryPart; // HandleDevices.cpp

namespace summary_json {

/// The enumerator whose name (by position in `Names`) is `Name`.
template <typename EnumT, size_t N>
std::optional<EnumT> enumNamed(const llvm::StringLiteral (&Names)[N],
                               std::optional<llvm::StringRef> Name) {
  for (size_t I = 0; Name && I < N; ++I)
    if (*Name == Names[I])
      return static_cast<EnumT>(I);
  return std::nullopt;
}

/// A line number, an index: an integer that is not negative.
std::optional<unsigned> natural(const llvm::json::Value &V);

/// Reads each element of the array `Name` of `O` (when there) with `One`;
/// false when one does not parse.
template <typename OneT>
bool readEach(const llvm::json::Object &O, llvm::StringRef Name, OneT One) {
  if (const llvm::json::Array *A = O.getArray(Name))
    for (const llvm::json::Value &V : *A)
      if (!One(V))
        return false;
  return true;
}

llvm::json::Array stringsToJson(llvm::ArrayRef<std::string> Strings);

/// Appends the non-empty string `V` to `Out`; false for anything else.
bool readName(const llvm::json::Value &V, std::vector<std::string> &Out);

} // namespace summary_json

} // namespace cublas_tidy

#endif // CUBLAS_TIDY_LIB_FACTS_SUMMARYPARTS_H
