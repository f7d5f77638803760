//===- Sarif.cpp ----------------------------------------------------------===//

#include "Sarif.h"

#include "Baseline.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
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

/// The first paragraph of the section `Heading` ("## Why"), on one line.
std::string section(llvm::StringRef Markdown, llvm::StringRef Heading) {
  size_t At = Markdown.find("\n" + Heading.str() + "\n");
  if (At == llvm::StringRef::npos)
    return {};
  return summary(Markdown.drop_front(At + 1));
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

/// A rule's name in SARIF: an identifier of its own, as the format asks
/// ("UnusedVariable"), from the check's name: cublas-handle-leak is
/// HandleLeak.
std::string ruleName(llvm::StringRef Check) {
  Check.consume_front("cublas-");
  llvm::SmallVector<llvm::StringRef, 4> Words;
  Check.split(Words, '-', -1, /*KeepEmpty=*/false);
  std::string Name;
  for (llvm::StringRef W : Words)
    Name += llvm::toUpper(W.front()) + W.drop_front().str();
  return Name;
}

/// A SARIF 2.1.0 log of one run, indented.
void printLog(llvm::json::Object Run, llvm::raw_ostream &OS) {
  llvm::json::Object Log{
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", llvm::json::Array{std::move(Run)}}};
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Log))) << "\n";
}

} // namespace

llvm::StringRef checkDocumentation(llvm::StringRef Check) {
  for (const CheckDoc &D : CheckDocs)
    if (Check == D.Name)
      return D.Markdown;
  return {};
}

void writeSarif(const std::vector<Finding> &Findings, llvm::StringRef Root,
                llvm::raw_ostream &OS, const SarifTool &Tool) {
  llvm::json::Array Rules;
  llvm::StringMap<int64_t> RuleIndex;
  llvm::json::Array Results;
  for (const Finding &F : Findings) {
    auto [It, New] = RuleIndex.try_emplace(F.Check, Rules.size());
    if (New) {
      llvm::StringRef Doc = checkDocumentation(F.Check);
      std::string Short = Doc.empty() ? F.Check : summary(Doc);
      llvm::json::Object Rule{{"id", F.Check},
                              {"name", ruleName(F.Check)},
                              {"shortDescription",
                               llvm::json::Object{{"text", Short}}}};
      if (!Doc.empty()) {
        Rule["help"] = llvm::json::Object{{"text", Short},
                                          {"markdown", Doc.str()}};
        std::string Why = section(Doc, "## Why");
        Rule["fullDescription"] =
            llvm::json::Object{{"text", Why.empty() ? Short : Short + " " + Why}};
        if (!Tool.ChecksUri.empty())
          Rule["helpUri"] = Tool.ChecksUri + "/" + F.Check + Tool.Suffix;
      }
      Rules.push_back(std::move(Rule));
    }
    llvm::json::Object Result{
        {"ruleId", F.Check},
        {"ruleIndex", It->second},
        {"level", F.Level == "remark" ? "note" : F.Level},
        {"message", llvm::json::Object{{"text", F.Message}}}};
    if (!F.Where.File.empty())
      Result["locations"] = llvm::json::Array{location(F.Where, Root)};
    // The same finding in later runs, whatever its line, file or the
    // names the program gave: what code-scanning services track alerts by.
    Result["partialFingerprints"] = llvm::json::Object{
        {"cublasTidyFinding/v1", Baseline::fingerprint(F)}};
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
      {"informationUri", Tool.InformationUri.empty()
                             ? "https://clang.llvm.org/extra/clang-tidy/"
                             : Tool.InformationUri},
      {"rules", std::move(Rules)}};
  if (!Tool.Version.empty()) {
    Driver["version"] = Tool.Version;
    Driver["semanticVersion"] = Tool.Version;
  }
  llvm::json::Object Run{
      {"tool", llvm::json::Object{{"driver", std::move(Driver)}}},
      {"results", std::move(Results)}};
  if (!Root.empty())
    Run["originalUriBaseIds"] = llvm::json::Object{
        {"%SRCROOT%",
         llvm::json::Object{{"uri", ("file://" + Root + "/").str()}}}};
  printLog(std::move(Run), OS);
}

namespace {

llvm::Error fail(const llvm::Twine &Why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Why);
}

/// The one run that SARIF logs are joined into: the first log's driver and
/// base URIs, the rules of all by id, each result once.
class MergedRun {
public:
  /// Adds a run of the log `In`.
  llvm::Error add(const llvm::json::Object &Run, llvm::StringRef In) {
    const llvm::json::Object *Tool = Run.getObject("tool");
    const llvm::json::Object *D = Tool ? Tool->getObject("driver") : nullptr;
    if (!D)
      return fail("'" + In + "' has a run without tool.driver");
    if (Driver.empty())
      for (const auto &[K, V] : *D)
        if (K != "rules")
          Driver[K] = V;
    if (!BaseIds)
      if (const llvm::json::Value *B = Run.get("originalUriBaseIds"))
        BaseIds = *B;
    std::vector<int64_t> Renumber;
    if (llvm::Error E = addRules(*D, In, Renumber))
      return E;
    return addResults(Run, In, Renumber);
  }

  /// The joined run.
  llvm::json::Object take() {
    if (Driver.empty())
      Driver = llvm::json::Object{{"name", "cublas-tidy"}};
    Driver["rules"] = std::move(Rules);
    llvm::json::Object Run{
        {"tool", llvm::json::Object{{"driver", std::move(Driver)}}},
        {"results", std::move(Results)}};
    if (BaseIds)
      Run["originalUriBaseIds"] = std::move(*BaseIds);
    return Run;
  }

private:
  /// Rules by id: the results' ruleIndex is renumbered into the merged
  /// list (`Renumber`: the merged index of each rule of the run).
  llvm::Error addRules(const llvm::json::Object &D, llvm::StringRef In,
                       std::vector<int64_t> &Renumber) {
    if (const llvm::json::Array *RunRules = D.getArray("rules"))
      for (const llvm::json::Value &Rule : *RunRules) {
        const llvm::json::Object *R = Rule.getAsObject();
        std::optional<llvm::StringRef> Id =
            R ? R->getString("id") : std::nullopt;
        if (!Id)
          return fail("'" + In + "' has a rule without an id");
        auto [It, New] = RuleIndex.try_emplace(*Id, Rules.size());
        if (New)
          Rules.push_back(Rule);
        Renumber.push_back(It->second);
      }
    return llvm::Error::success();
  }

  /// The results of the run, renumbered; those already added left out.
  llvm::Error addResults(const llvm::json::Object &Run, llvm::StringRef In,
                         llvm::ArrayRef<int64_t> Renumber) {
    if (const llvm::json::Array *RunResults = Run.getArray("results"))
      for (const llvm::json::Value &ResultValue : *RunResults) {
        const llvm::json::Object *R = ResultValue.getAsObject();
        if (!R)
          return fail("'" + In + "' has a result that is not an object");
        llvm::json::Object Result = *R;
        std::optional<int64_t> Index = R->getInteger("ruleIndex");
        if (Index && *Index >= 0 &&
            static_cast<size_t>(*Index) < Renumber.size())
          Result["ruleIndex"] = Renumber[*Index];
        else if (std::optional<llvm::StringRef> Id = R->getString("ruleId")) {
          auto It = RuleIndex.find(*Id);
          if (It != RuleIndex.end())
            Result["ruleIndex"] = It->second;
        }
        std::string Text;
        llvm::raw_string_ostream(Text)
            << llvm::json::Value(llvm::json::Object(Result));
        if (SeenResults.insert(Text).second)
          Results.push_back(std::move(Result));
      }
    return llvm::Error::success();
  }

  llvm::json::Array Rules;
  llvm::StringMap<int64_t> RuleIndex;
  llvm::json::Array Results;
  llvm::StringSet<> SeenResults;
  std::optional<llvm::json::Value> BaseIds;
  llvm::json::Object Driver;
};

} // namespace

llvm::Error mergeSarif(llvm::ArrayRef<std::string> Inputs,
                       llvm::StringRef Out) {
  MergedRun Merged;
  for (const std::string &In : Inputs) {
    auto Buffer = llvm::MemoryBuffer::getFile(In);
    if (!Buffer)
      return fail("cannot read '" + In + "': " + Buffer.getError().message());
    llvm::Expected<llvm::json::Value> Log =
        llvm::json::parse((*Buffer)->getBuffer());
    if (!Log)
      return fail("'" + In + "' is not JSON: " + toString(Log.takeError()));
    const llvm::json::Object *LogObject = Log->getAsObject();
    const llvm::json::Array *Runs =
        LogObject ? LogObject->getArray("runs") : nullptr;
    if (!Runs || LogObject->getString("version") != "2.1.0")
      return fail("'" + In + "' is not a SARIF 2.1.0 log");
    for (const llvm::json::Value &RunValue : *Runs) {
      const llvm::json::Object *Run = RunValue.getAsObject();
      if (!Run)
        return fail("'" + In + "' has a run that is not an object");
      if (llvm::Error E = Merged.add(*Run, In))
        return E;
    }
  }
  std::error_code EC;
  llvm::raw_fd_ostream OS(Out, EC, llvm::sys::fs::OF_Text);
  if (EC)
    return fail("cannot write '" + Out + "': " + EC.message());
  printLog(Merged.take(), OS);
  return llvm::Error::success();
}

} // namespace cublas_tidy
