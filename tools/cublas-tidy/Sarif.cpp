//===- Sarif.cpp ----------------------------------------------------------===//

#include "Sarif.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

namespace cublas_tidy {

namespace {

struct CheckDoc {
  const char *Name;
  const char *Markdown;
};
const CheckDoc CheckDocs[] = {
#include "CheckDocs.inc"
};

/// The first paragraph of a page that is not a heading.
std::string summary(llvm::StringRef Markdown) {
  llvm::SmallVector<llvm::StringRef, 16> Paragraphs;
  Markdown.split(Paragraphs, "\n\n", -1, false);
  for (llvm::StringRef P : Paragraphs) {
    P = P.trim();
    if (P.empty() || P.starts_with("#"))
      continue;
    std::string Text;
    llvm::SmallVector<llvm::StringRef, 8> Lines;
    P.split(Lines, '\n');
    for (llvm::StringRef L : Lines)
      Text += (Text.empty() ? "" : " ") + L.trim().str();
    return Text;
  }
  return {};
}

std::string uriFor(llvm::StringRef File, llvm::StringRef Root,
                   bool &Relative) {
  llvm::StringRef Rel = File;
  if (!Root.empty() && Rel.consume_front(Root) &&
      (Rel.empty() || Rel.front() == '/')) {
    Relative = true;
    return Rel.ltrim('/').str();
  }
  Relative = false;
  return ("file://" + File).str();
}

llvm::json::Object location(const Position &P, llvm::StringRef Root) {
  bool Relative = false;
  llvm::json::Object Artifact{{"uri", uriFor(P.File, Root, Relative)}};
  if (Relative)
    Artifact["uriBaseId"] = "%SRCROOT%";
  llvm::json::Object Physical{{"artifactLocation", std::move(Artifact)}};
  if (P.Line) {
    llvm::json::Object Region{{"startLine", static_cast<int64_t>(P.Line)}};
    if (P.Column)
      Region["startColumn"] = static_cast<int64_t>(P.Column);
    Physical["region"] = std::move(Region);
  }
  return llvm::json::Object{{"physicalLocation", std::move(Physical)}};
}

} // namespace

llvm::StringRef checkDocumentation(llvm::StringRef Check) {
  for (const CheckDoc &D : CheckDocs)
    if (Check == D.Name)
      return D.Markdown;
  return {};
}

void writeSarif(const std::vector<Finding> &Findings, llvm::StringRef Root,
                llvm::raw_ostream &OS) {
  llvm::json::Array Rules;
  llvm::StringMap<int64_t> RuleIndex;
  llvm::json::Array Results;
  for (const Finding &F : Findings) {
    auto [It, New] = RuleIndex.try_emplace(F.Check, Rules.size());
    if (New) {
      llvm::StringRef Doc = checkDocumentation(F.Check);
      std::string Short = Doc.empty() ? F.Check : summary(Doc);
      llvm::json::Object Rule{{"id", F.Check},
                              {"name", F.Check},
                              {"shortDescription",
                               llvm::json::Object{{"text", Short}}}};
      if (!Doc.empty())
        Rule["help"] = llvm::json::Object{{"text", Short},
                                          {"markdown", Doc.str()}};
      Rules.push_back(std::move(Rule));
    }
    llvm::json::Object Result{
        {"ruleId", F.Check},
        {"ruleIndex", It->second},
        {"level", F.Level == "remark" ? "note" : F.Level},
        {"message", llvm::json::Object{{"text", F.Message}}}};
    if (!F.Where.File.empty())
      Result["locations"] = llvm::json::Array{location(F.Where, Root)};
    llvm::json::Array Related;
    int64_t Id = 0;
    for (const FindingNote &N : F.Notes) {
      if (N.Where.File.empty())
        continue;
      llvm::json::Object L = location(N.Where, Root);
      L["id"] = Id++;
      L["message"] = llvm::json::Object{{"text", N.Message}};
      Related.push_back(std::move(L));
    }
    if (!Related.empty())
      Result["relatedLocations"] = std::move(Related);
    Results.push_back(std::move(Result));
  }

  llvm::json::Object Driver{
      {"name", "cublas-tidy"},
      {"informationUri", "https://clang.llvm.org/extra/clang-tidy/"},
      {"rules", std::move(Rules)}};
  llvm::json::Object Run{
      {"tool", llvm::json::Object{{"driver", std::move(Driver)}}},
      {"results", std::move(Results)}};
  if (!Root.empty())
    Run["originalUriBaseIds"] = llvm::json::Object{
        {"%SRCROOT%",
         llvm::json::Object{{"uri", ("file://" + Root + "/").str()}}}};
  llvm::json::Object Log{
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", llvm::json::Array{std::move(Run)}}};
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Log))) << "\n";
}

} // namespace cublas_tidy
