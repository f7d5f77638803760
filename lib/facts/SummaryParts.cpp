//===- SummaryParts.cpp - A function's summary, part by part, as JSON -----===//
//
// The list of a function's summary's parts, each defined in the file of
// the fact that makes it (facts/SummaryParts.h), and the JSON of a whole
// summary: where and what the function is, then each part that has
// something.
//
//===----------------------------------------------------------------------===//

#include "facts/SummaryParts.h"

#include "llvm/ADT/STLExtras.h"

namespace json = llvm::json;

namespace cublas_tidy {

namespace summary_json {

std::optional<unsigned> natural(const json::Value &V) {
  std::optional<int64_t> N = V.getAsInteger();
  if (!N || *N < 0)
    return std::nullopt;
  return static_cast<unsigned>(*N);
}

json::Array stringsToJson(llvm::ArrayRef<std::string> Strings) {
  json::Array A;
  for (const std::string &S : Strings)
    A.push_back(S);
  return A;
}

bool readName(const json::Value &V, std::vector<std::string> &Out) {
  std::optional<llvm::StringRef> Name = V.getAsString();
  if (!Name || Name->empty())
    return false;
  Out.push_back(Name->str());
  return true;
}

} // namespace summary_json

namespace {

/// Every part of a function's summary, once.
const SummaryPart *const Parts[] = {
    &StatusSummaryPart,           &HandlesSummaryPart,
    &BuffersSummaryPart,          &PerCallSummaryPart,
    &DestroyedGlobalsSummaryPart, &CreatedGlobalsSummaryPart,
    &TouchedMembersSummaryPart,   &ReleasedGlobalsSummaryPart,
    &PerDeviceGlobalsSummaryPart,
};

} // namespace

bool FunctionSummary::informative() const {
  return llvm::any_of(Parts,
                      [&](const SummaryPart *P) { return P->Has(*this); });
}

std::optional<FunctionSummary::HandleEffect>
FunctionSummary::handleEffect(unsigned Index) const {
  for (const HandleParam &H : Handles)
    if (H.Index == Index)
      return H.Effect;
  return std::nullopt;
}

bool FunctionSummary::operator==(const FunctionSummary &O) const {
  return Key == O.Key && Name == O.Name && File == O.File && Line == O.Line &&
         FileHash == O.FileHash && Status == O.Status && Wrapped == O.Wrapped &&
         WrappedLine == O.WrappedLine && WrappedFile == O.WrappedFile &&
         Predicate == O.Predicate && Handles == O.Handles &&
         Buffers == O.Buffers && PerCall == O.PerCall &&
         DestroyedGlobals == O.DestroyedGlobals &&
         ReleasedGlobals == O.ReleasedGlobals &&
         CreatedGlobals == O.CreatedGlobals &&
         PerDeviceGlobals == O.PerDeviceGlobals &&
         TouchedMembers == O.TouchedMembers;
}

json::Value FunctionSummary::toJson() const {
  json::Object O{{"key", Key},   {"name", Name},         {"file", File},
                 {"line", Line}, {"fileHash", FileHash}};
  for (const SummaryPart *P : Parts)
    if (P->Has(*this))
      P->Write(*this, O);
  return O;
}

std::optional<FunctionSummary>
FunctionSummary::fromJson(const json::Value &V) {
  const json::Object *O = V.getAsObject();
  if (!O)
    return std::nullopt;
  FunctionSummary S;
  auto Key = O->getString("key"), Name = O->getString("name"),
       File = O->getString("file");
  auto Line = O->getInteger("line");
  if (!Key || Key->empty() || !Name || !File || !Line || *Line < 0)
    return std::nullopt;
  S.Key = Key->str();
  S.Name = Name->str();
  S.File = File->str();
  S.Line = static_cast<unsigned>(*Line);
  S.FileHash = O->getString("fileHash").value_or("").str();
  for (const SummaryPart *P : Parts)
    if (!P->Read(*O, S))
      return std::nullopt;
  return S;
}

} // namespace cublas_tidy
