//===- ConfigCheck.cpp ----------------------------------------------------===//

#include "ConfigCheck.h"

#include "ClangTidyCheck.h"
#include "ClangTidyDiagnosticConsumer.h"
#include "ClangTidyModule.h"
#include "GlobList.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticIDs.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/YAMLParser.h"

#include <algorithm>
#include <optional>
#include <set>

using namespace llvm;
using namespace clang::tidy;

namespace cublas_tidy {

namespace {

/// The name of `Names` nearest to `Wrong`, when it is near enough to be a
/// typing mistake; empty otherwise.
std::string nearest(StringRef Wrong, const StringSet<> &Names) {
  unsigned Limit = std::max<unsigned>(2, Wrong.size() / 4);
  unsigned Best = Limit + 1;
  std::string Found;
  for (const auto &N : Names) {
    unsigned D =
        Wrong.edit_distance(N.getKey(), /*AllowReplacements=*/true, Limit);
    if (D < Best || (D == Best && N.getKey() < Found)) {
      Best = D;
      Found = N.getKey().str();
    }
  }
  return Best <= Limit ? Found : "";
}

std::string didYouMean(const std::string &Near) {
  return Near.empty() ? "" : "; did you mean '" + Near + "'?";
}

/// Whether `Name`, a check glob or an option key that this build does not
/// know, is about a cublas-* check: it says so, or the name nearest to it
/// (`Near`) is one of ours.
bool aboutCublas(StringRef Name, StringRef Near) {
  return Name.starts_with_insensitive("cublas") || Near.starts_with("cublas-");
}

/// `Items` as "what 'a', 'b'" (plural when more than one).
std::string listOf(StringRef What, ArrayRef<std::string> Items) {
  std::string Out = What.str() + (Items.size() > 1 ? "s" : "");
  for (size_t I = 0; I < Items.size(); ++I)
    Out += (I ? ", '" : " '") + Items[I] + "'";
  return Out;
}

/// The offset in `Text` of line `Line` (from 1), column `Column` (from 0).
std::optional<size_t> offsetOf(StringRef Text, unsigned Line, unsigned Column) {
  size_t Pos = 0;
  for (unsigned L = 1; L < Line; ++L) {
    Pos = Text.find('\n', Pos);
    if (Pos == StringRef::npos)
      return std::nullopt;
    ++Pos;
  }
  if (Pos + Column > Text.size())
    return std::nullopt;
  return Pos + Column;
}

/// Where the last pair of a block mapping, its key at `Begin`, ends: after
/// the lines below it that are blank, comments, or indented deeper than the
/// key (or as deep, for a sequence written under its key).
size_t blockPairEnd(StringRef Text, size_t Begin) {
  size_t LineStart = Text.rfind('\n', Begin);
  LineStart = LineStart == StringRef::npos ? 0 : LineStart + 1;
  size_t Indent = Begin - LineStart;
  size_t End = Text.find('\n', Begin);
  while (End != StringRef::npos && End < Text.size()) {
    size_t Next = End + 1;
    size_t NextEnd = std::min(Text.find('\n', Next), Text.size());
    StringRef Line = Text.slice(Next, NextEnd);
    StringRef Body = Line.ltrim(" \t").rtrim("\r");
    size_t Depth = Line.size() - Line.ltrim(" \t").size();
    bool Belongs = Body.empty() || Body.starts_with("#") || Depth > Indent ||
                   (Depth == Indent && (Body == "-" || Body.starts_with("- ")));
    if (!Belongs)
      break;
    End = NextEnd;
  }
  return End == StringRef::npos ? Text.size() : End;
}

/// Where the last pair of a flow mapping, its key at `Begin`, ends: at the
/// bracket that closes the mapping (a comma before it may stay).
std::optional<size_t> flowPairEnd(StringRef Text, size_t Begin) {
  int Depth = 0;
  char Before = ',';
  for (size_t I = Begin; I < Text.size(); ++I) {
    char C = Text[I];
    bool Quote = (C == '\'' || C == '"') && StringRef("{[,:").contains(Before);
    if (!isSpace(C))
      Before = C;
    if (Quote) {
      // Up to the closing quote: '' in single quotes, \" in double ones.
      for (++I; I < Text.size(); ++I) {
        if (C == '"' && Text[I] == '\\') {
          ++I;
          continue;
        }
        if (Text[I] != C)
          continue;
        if (C == '\'' && I + 1 < Text.size() && Text[I + 1] == '\'') {
          ++I;
          continue;
        }
        break;
      }
      Before = C;
    } else if (C == '{' || C == '[') {
      ++Depth;
    } else if (C == '}' || C == ']') {
      if (Depth-- == 0)
        return I;
    } else if (C == ',' && Depth == 0) {
      return I + 1;
    }
  }
  return std::nullopt;
}

/// The text to blank, below `N`, to leave out the pair whose key starts at
/// `Key`: up to the next key of its mapping, or to the mapping's end.
std::optional<std::pair<size_t, size_t>>
pairSpan(yaml::Node *N, const char *Key, StringRef Text) {
  auto OffsetOf = [&](yaml::Node *K) {
    return static_cast<size_t>(K->getSourceRange().Start.getPointer() -
                               Text.data());
  };
  if (auto *Seq = dyn_cast_or_null<yaml::SequenceNode>(N)) {
    for (yaml::Node &Item : *Seq)
      if (auto Span = pairSpan(&Item, Key, Text))
        return Span;
    return std::nullopt;
  }
  auto *Map = dyn_cast_or_null<yaml::MappingNode>(N);
  if (!Map)
    return std::nullopt;
  std::optional<size_t> First, Begin;
  for (yaml::KeyValueNode &KV : *Map) {
    yaml::Node *K = KV.getKey();
    if (!K)
      return std::nullopt;
    if (Begin)
      return std::make_pair(*Begin, OffsetOf(K));
    if (!First)
      First = OffsetOf(K);
    if (K->getSourceRange().Start.getPointer() == Key) {
      Begin = OffsetOf(K);
      continue;
    }
    if (auto Span = pairSpan(KV.getValue(), Key, Text))
      return Span;
  }
  if (!Begin)
    return std::nullopt;
  // The last pair: a flow mapping's first key follows its '{', a pair in a
  // flow sequence (`[a: b]`) a '[' or a ','.
  StringRef Opening = Text.take_front(*First).rtrim();
  if (Opening.empty() || !StringRef("{[,").contains(Opening.back()))
    return std::make_pair(*Begin, blockPairEnd(Text, *Begin));
  if (std::optional<size_t> End = flowPairEnd(Text, *Begin))
    return std::make_pair(*Begin, *End);
  return std::nullopt;
}

} // namespace

ErrorOr<ClangTidyOptions>
parseConfigText(StringRef Text, StringRef Source,
                std::vector<std::string> &Problems,
                std::vector<std::string> *UnknownKeys) {
  std::string Work = Text.str();
  std::vector<std::pair<size_t, std::string>> Unknown;
  // The parser stops at the first key it does not know: each round leaves
  // one out, blanked so that lines and columns stay where they were.
  for (;;) {
    struct Diag {
      unsigned Line, Column;
      std::string Message;
    };
    std::vector<Diag> Errors;
    ErrorOr<ClangTidyOptions> Parsed = parseConfigurationWithDiags(
        MemoryBufferRef(Work, Source), [&](const SMDiagnostic &D) {
          if (D.getKind() == SourceMgr::DK_Error)
            Errors.push_back(
                {static_cast<unsigned>(std::max(D.getLineNo(), 0)),
                 static_cast<unsigned>(std::max(D.getColumnNo(), 0)),
                 D.getMessage().str()});
        });
    if (Parsed) {
      llvm::sort(Unknown);
      if (UnknownKeys)
        for (auto &[At, Name] : Unknown)
          UnknownKeys->push_back(Name);
      return Parsed;
    }
    std::optional<std::pair<size_t, size_t>> Span;
    StringRef Name = Errors.empty() ? "" : StringRef(Errors.front().Message);
    if (Name.consume_front("unknown key '") && Name.consume_back("'") &&
        Errors.front().Line > 0 && Unknown.size() < 1000)
      if (std::optional<size_t> At =
              offsetOf(Work, Errors.front().Line, Errors.front().Column)) {
        SourceMgr SM;
        SM.setDiagHandler([](const SMDiagnostic &, void *) {});
        yaml::Stream Stream(StringRef(Work), SM);
        yaml::document_iterator Doc = Stream.begin();
        if (Doc != Stream.end())
          Span = pairSpan(Doc->getRoot(), Work.data() + *At, Work);
        if (Span && Span->second <= Span->first)
          Span.reset();
      }
    if (!Span) {
      for (const Diag &E : Errors) {
        std::string Line = Source.str();
        if (E.Line > 0)
          Line +=
              ":" + std::to_string(E.Line) + ":" + std::to_string(E.Column + 1);
        Problems.push_back(Line + ": " + E.Message);
      }
      if (Errors.empty())
        Problems.push_back(Source.str() + ": " + Parsed.getError().message());
      return Parsed;
    }
    Unknown.emplace_back(Span->first, Name.str());
    for (size_t I = Span->first; I < Span->second; ++I)
      if (Work[I] != '\n' && Work[I] != '\r')
        Work[I] = ' ';
  }
}

ErrorOr<ClangTidyOptions> parseConfigQuietly(MemoryBufferRef Config) {
  std::vector<std::string> Ignored;
  return parseConfigText(Config.getBuffer(), Config.getBufferIdentifier(),
                         Ignored);
}

namespace {

/// The verdict on each glob of `Options.Checks`: a mistake about a cublas-*
/// check goes to `Out.Errors`, a glob that enables nothing of this build
/// (another tool's check) to `IgnoredChecks`.
void judgeChecks(const ClangTidyOptions &Options, const ChecksAndOptions &All,
                 Verdict &Out, std::vector<std::string> &IgnoredChecks) {
  // Each glob that adds checks must add one.
  // Globs are separated by commas or line breaks, as in clang-tidy.
  std::string ChecksText = Options.Checks.value_or("");
  std::replace(ChecksText.begin(), ChecksText.end(), '\n', ',');
  SmallVector<StringRef, 16> Globs;
  StringRef(ChecksText).split(Globs, ',', -1, false);
  for (StringRef G : Globs) {
    G = G.trim();
    // A glob that disables checks must disable one of ours when it is about
    // ours (`-cublas-unchecked-statuss` leaves the check on); other
    // projects' checks are disabled freely.
    bool Disabling = G.consume_front("-");
    G = G.trim();
    // clang-diagnostic-* names the compiler's warnings, not checks.
    if (G.empty() || G.starts_with("clang-diagnostic-"))
      continue;
    CachedGlobList One(G);
    if (llvm::any_of(All.Checks,
                     [&](const auto &C) { return One.contains(C.getKey()); }))
      continue;
    // A glob is nearest a module's: `cublass-*` is `cublas-*` mistyped.
    StringSet<> Modules;
    if (G.ends_with("*"))
      for (const auto &C : All.Checks)
        Modules.insert(C.getKey().take_front(C.getKey().find('-') + 1).str() +
                       "*");
    std::string Near = nearest(G, G.ends_with("*") ? Modules : All.Checks);
    if (!aboutCublas(G, Near)) {
      if (!Disabling)
        IgnoredChecks.push_back(G.str());
      continue;
    }
    Out.Errors.push_back("'" + std::string(Disabling ? "-" : "") + G.str() +
                         "' in Checks " +
                         (Disabling ? "disables" : "enables") + " no check" +
                         didYouMean(Disabling && !Near.empty() ? "-" + Near
                                                               : Near));
  }
}

} // namespace

namespace {

/// The text of each diagnostic, in order.
class MessageCollector : public clang::DiagnosticConsumer {
public:
  std::vector<std::string> Messages;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    SmallString<128> Text;
    Info.FormatDiagnostic(Text);
    StringRef Message = Text.str();
    Message.consume_back(" [clang-tidy-config]");
    Messages.push_back(Message.str());
  }
};

} // namespace

std::vector<std::string> judgeOptionValues(const ClangTidyOptions &Options,
                                           const ChecksAndOptions &All) {
  // The checks that have a key here; nothing is made when none has.
  std::set<std::string> Checks;
  for (const auto &Entry : Options.CheckOptions) {
    StringRef Key = Entry.getKey();
    size_t Dot = Key.rfind('.');
    if (Dot == StringRef::npos || !All.Options.contains(Key))
      continue;
    StringRef Check = Key.take_front(Dot);
    if (Check.starts_with("cublas-"))
      Checks.insert(Check.str());
  }
  if (Checks.empty())
    return {};
  // Each check says what it cannot use when it is made (its constructor's
  // configurationDiag, and OptionsView's own words for a number or a bool
  // that is not one): made here with these options alone.
  ClangTidyOptions Made = ClangTidyOptions::getDefaults();
  Made.CheckOptions = Options.CheckOptions;
  std::string Enabled = "-*";
  for (const std::string &C : Checks)
    Enabled += "," + C;
  Made.Checks = Enabled;
  ClangTidyContext Context(std::make_unique<DefaultOptionsProvider>(
                               ClangTidyGlobalOptions(), Made),
                           /*AllowEnablingAnalyzerAlphaCheckers=*/false,
                           /*EnableModuleHeadersParsing=*/false,
                           /*ExperimentalCustomChecks=*/false);
  MessageCollector Collector;
  clang::DiagnosticOptions DiagOpts;
  clang::DiagnosticsEngine Engine(clang::DiagnosticIDs::create(), DiagOpts,
                                  &Collector, /*ShouldOwnClient=*/false);
  Context.setDiagnosticsEngine(nullptr, &Engine);
  Context.setCurrentFile("cublas-tidy-options.cpp");
  ClangTidyCheckFactories Factories;
  for (const ClangTidyModuleRegistry::entry &E :
       ClangTidyModuleRegistry::entries())
    if (E.getName() == "cublas-module")
      E.instantiate()->addCheckFactories(Factories);
  // Made and dropped: only what they said is wanted.
  (void)Factories.createChecks(&Context);
  // A value read by more than one check is said once.
  std::vector<std::string> Out;
  for (std::string &M : Collector.Messages)
    if (!llvm::is_contained(Out, M))
      Out.push_back(std::move(M));
  return Out;
}

Verdict judgeOptions(StringRef Source, const ClangTidyOptions &Options,
                     ArrayRef<std::string> UnknownKeys,
                     const ChecksAndOptions &All) {
  Verdict Out;
  std::vector<std::string> IgnoredChecks, IgnoredOptions;
  judgeChecks(Options, All, Out, IgnoredChecks);
  // Each key of a cublas-* check must be one of its options.
  std::vector<StringRef> Keys;
  for (const auto &Entry : Options.CheckOptions)
    Keys.push_back(Entry.getKey());
  llvm::sort(Keys);
  for (StringRef K : Keys) {
    size_t Dot = K.rfind('.');
    if (Dot == StringRef::npos || All.Options.contains(K))
      continue; // a global option, or a known one
    StringRef Check = K.take_front(Dot);
    std::string Near = nearest(K, All.Options);
    // A mistyped check name: the option's own name may be right.
    std::string NearCheck =
        Near.empty() && !All.Checks.contains(Check) ? nearest(Check, All.Checks)
                                                    : "";
    if (!aboutCublas(Check, Near.empty() ? NearCheck : Near)) {
      IgnoredOptions.push_back(K.str());
      continue;
    }
    if (!NearCheck.empty()) {
      std::string Guess = NearCheck + K.substr(Dot).str();
      Out.Errors.push_back("'" + K.str() + "' in CheckOptions names no check" +
                           didYouMean(All.Options.contains(Guess) ? Guess
                                                                  : NearCheck));
      continue;
    }
    Out.Errors.push_back(
        "'" + K.str() + "' in CheckOptions is not an option of " +
        (All.Checks.contains(Check) ? "'" + Check.str() + "'"
                                    : std::string("any check")) +
        didYouMean(Near));
  }
  for (const std::string &Problem : judgeOptionValues(Options, All))
    Out.Errors.push_back(Source.str() + ": " + Problem);
  std::vector<std::string> Parts;
  if (!IgnoredChecks.empty())
    Parts.push_back(listOf("check", IgnoredChecks));
  if (!IgnoredOptions.empty())
    Parts.push_back(listOf("option", IgnoredOptions));
  if (!UnknownKeys.empty())
    Parts.push_back(listOf("key", UnknownKeys));
  if (!Parts.empty())
    Out.Warning = Source.str() + ": ignoring what cublas-tidy does not know: " +
                  llvm::join(Parts, "; ");
  return Out;
}

std::optional<ClangTidyOptions> configFileVerdict(StringRef Path,
                                                  const ChecksAndOptions &All,
                                                  ConfigFilesVerdict &Out) {
  Out.Judged.insert(Path.str());
  ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(Path);
  if (!Text) {
    Out.ParseErrors.push_back(Path.str() + ": " + Text.getError().message());
    return std::nullopt;
  }
  size_t Before = Out.ParseErrors.size();
  std::vector<std::string> UnknownKeys;
  ErrorOr<ClangTidyOptions> Parsed = parseConfigText(
      (*Text)->getBuffer(), Path, Out.ParseErrors, &UnknownKeys);
  if (Out.ParseErrors.size() != Before || !Parsed)
    return std::nullopt;
  Verdict One = judgeOptions(Path, *Parsed, UnknownKeys, All);
  llvm::append_range(Out.Errors, One.Errors);
  if (!One.Warning.empty())
    Out.Warnings.push_back(One.Warning);
  return std::move(*Parsed);
}

ConfigFilesVerdict configFilesVerdict(ArrayRef<std::string> Files,
                                      const ChecksAndOptions &All) {
  ConfigFilesVerdict Out;
  std::set<std::string> SeenDirs;
  for (const std::string &F : Files) {
    SmallString<256> Dir(F);
    if (sys::fs::make_absolute(Dir))
      continue;
    sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
    sys::path::remove_filename(Dir);
    // The nearest configuration above, and the ones it inherits from.
    for (StringRef D = Dir; !D.empty(); D = sys::path::parent_path(D)) {
      if (!SeenDirs.insert(D.str()).second)
        break;
      SmallString<256> Config(D);
      sys::path::append(Config, ".clang-tidy");
      if (!sys::fs::is_regular_file(Config))
        continue;
      if (Out.Judged.count(Config.str().str()))
        break;
      std::optional<ClangTidyOptions> Parsed =
          configFileVerdict(Config, All, Out);
      if (!Parsed || !Parsed->InheritParentConfig.value_or(false))
        break;
    }
  }
  return Out;
}

std::optional<int> reportConfigFiles(const ConfigFilesVerdict &Verdict,
                                     std::set<std::string> &Judged) {
  for (const std::string &W : Verdict.Warnings)
    WithColor::warning() << W << "\n";
  for (const std::string &P : Verdict.ParseErrors)
    WithColor::error() << "invalid configuration: " << P << "\n";
  for (const std::string &E : Verdict.Errors)
    WithColor::error() << E << "\n";
  Judged.insert(Verdict.Judged.begin(), Verdict.Judged.end());
  if (Verdict.ParseErrors.empty() && Verdict.Errors.empty())
    return std::nullopt;
  return 1;
}

bool judgeConfiguration(
    ArrayRef<ClangTidyOptionsProvider::OptionsSource> Sources,
    StringRef ConfigName, ArrayRef<std::string> UnknownKeys,
    function_ref<const ChecksAndOptions &()> All,
    std::set<std::string> &Judged) {
  bool Failed = false;
  for (const auto &[Options, Source] : Sources) {
    std::string Name;
    ArrayRef<std::string> Keys;
    if (Source == ClangTidyOptionsProvider::OptionsSourceTypeDefaultBinary)
      continue;
    if (Source ==
        ClangTidyOptionsProvider::OptionsSourceTypeCheckCommandLineOption) {
      Name = "-checks";
    } else if (Source == ClangTidyOptionsProvider::
                             OptionsSourceTypeConfigCommandLineOption) {
      Name = ConfigName.str();
      Keys = UnknownKeys;
    } else {
      if (!Judged.count(Source)) {
        ConfigFilesVerdict Verdict;
        configFileVerdict(Source, All(), Verdict);
        Failed |= reportConfigFiles(Verdict, Judged).has_value();
      }
      continue;
    }
    cublas_tidy::Verdict Verdict = judgeOptions(Name, Options, Keys, All());
    if (!Verdict.Warning.empty())
      WithColor::warning() << Verdict.Warning << "\n";
    for (const std::string &E : Verdict.Errors)
      WithColor::error() << E << "\n";
    Failed |= !Verdict.Errors.empty();
  }
  return Failed;
}

} // namespace cublas_tidy
