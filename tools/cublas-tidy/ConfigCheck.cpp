//===- ConfigCheck.cpp ----------------------------------------------------===//

#include "ConfigCheck.h"

#include "GlobList.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

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
    unsigned D = Wrong.edit_distance(N.getKey(), /*AllowReplacements=*/true,
                                     Limit);
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

} // namespace

ErrorOr<ClangTidyOptions> parseConfigText(StringRef Text, StringRef Source,
                                          std::vector<std::string> &Problems) {
  size_t Before = Problems.size();
  ErrorOr<ClangTidyOptions> Parsed = parseConfigurationWithDiags(
      MemoryBufferRef(Text, Source), [&](const SMDiagnostic &D) {
        if (D.getKind() != SourceMgr::DK_Error)
          return;
        std::string Line = Source.str();
        if (D.getLineNo() > 0)
          Line += ":" + std::to_string(D.getLineNo()) + ":" +
                  std::to_string(D.getColumnNo() + 1);
        Problems.push_back(Line + ": " + D.getMessage().str());
      });
  if (!Parsed && Problems.size() == Before)
    Problems.push_back(Source.str() + ": " + Parsed.getError().message());
  return Parsed;
}

std::vector<std::string> configFileProblems(ArrayRef<std::string> Files) {
  std::vector<std::string> Out;
  std::set<std::string> SeenDirs, SeenConfigs;
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
      if (!SeenConfigs.insert(Config.str().str()).second)
        break;
      ErrorOr<std::unique_ptr<MemoryBuffer>> Text =
          MemoryBuffer::getFile(Config);
      if (!Text) {
        Out.push_back(Config.str().str() + ": " + Text.getError().message());
        break;
      }
      size_t Before = Out.size();
      ErrorOr<ClangTidyOptions> Parsed =
          parseConfigText((*Text)->getBuffer(), Config, Out);
      if (Out.size() != Before || !Parsed ||
          !Parsed->InheritParentConfig.value_or(false))
        break;
    }
  }
  return Out;
}

std::vector<std::string> optionProblems(const ClangTidyOptions &Options,
                                        const ChecksAndOptions &All) {
  std::vector<std::string> Out;
  // Each glob that adds checks must add one.
  std::string ChecksText = Options.Checks.value_or("");
  SmallVector<StringRef, 16> Globs;
  StringRef(ChecksText).split(Globs, ',', -1, false);
  for (StringRef G : Globs) {
    G = G.trim();
    // clang-diagnostic-* names the compiler's warnings, not checks.
    if (G.empty() || G.starts_with("-") || G.starts_with("clang-diagnostic-"))
      continue;
    CachedGlobList One(G);
    if (llvm::any_of(All.Checks, [&](const auto &C) {
          return One.contains(C.getKey());
        }))
      continue;
    // A glob is nearest a module's: `cublass-*` is `cublas-*` mistyped.
    StringSet<> Modules;
    if (G.ends_with("*"))
      for (const auto &C : All.Checks)
        Modules.insert(C.getKey().take_front(C.getKey().find('-') + 1).str() +
                       "*");
    Out.push_back("'" + G.str() + "' in Checks enables no check" +
                  didYouMean(nearest(G, G.ends_with("*") ? Modules
                                                         : All.Checks)));
  }
  // Each key of a check must be one of its options.
  for (const auto &[Key, Value] : Options.CheckOptions) {
    StringRef K = Key;
    size_t Dot = K.rfind('.');
    if (Dot == StringRef::npos || All.Options.contains(K))
      continue;
    StringRef Check = K.take_front(Dot);
    if (!All.Checks.contains(Check) && !Check.starts_with("cublas-"))
      continue; // another tool's, or a module this build lacks
    Out.push_back("'" + K.str() + "' in CheckOptions is not an option of " +
                  (All.Checks.contains(Check) ? "'" + Check.str() + "'"
                                              : std::string("any check")) +
                  didYouMean(nearest(K, All.Options)));
  }
  return Out;
}

} // namespace cublas_tidy
