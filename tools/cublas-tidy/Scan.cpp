//===- Scan.cpp -----------------------------------------------------------===//

#include "Scan.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/DependencyScanningTool.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

using namespace clang;
using namespace clang::dependencies;

namespace cublas_tidy {

FileContents::Facts FileContents::facts(llvm::StringRef Path) {
  {
    std::lock_guard<std::mutex> G(Lock);
    auto It = Known.find(Path);
    if (It != Known.end())
      return It->second;
  }
  Facts F;
  if (auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                               /*RequiresNullTerminator=*/false)) {
    llvm::StringRef Text = (*Buffer)->getBuffer();
    F.Readable = true;
    F.MentionsCublas = Text.contains("cublas");
    llvm::XXH128_hash_t H = llvm::xxh3_128bits(
        llvm::ArrayRef(Text.bytes_begin(), Text.size()));
    F.Hash = llvm::utohexstr(H.high64, false, 16) +
             llvm::utohexstr(H.low64, false, 16);
  }
  std::lock_guard<std::mutex> G(Lock);
  Known.try_emplace(Path, F);
  return F;
}

ScanService::ScanService()
    : Service(std::make_unique<DependencyScanningService>(
          ScanningMode::DependencyDirectivesScan, ScanningOutputFormat::Full,
          ScanningOptimizations::None)) {}
ScanService::~ScanService() = default;

struct Scanner::Impl {
  explicit Impl(ScanService &S) : Tool(S.service()) {}
  tooling::DependencyScanningTool Tool;
};

Scanner::Scanner(ScanService &S) : P(std::make_unique<Impl>(S)) {}
Scanner::~Scanner() = default;

namespace {
/// Keeps the first error the scan reports, as one line.
class FirstError : public DiagnosticConsumer {
public:
  std::string Message;
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < DiagnosticsEngine::Error || !Message.empty())
      return;
    llvm::SmallString<128> Text;
    Info.FormatDiagnostic(Text);
    Message = std::string(Text);
  }
};
} // namespace

UnitScan Scanner::scan(llvm::ArrayRef<tooling::CompileCommand> Commands,
                       FileContents &Contents) {
  UnitScan Result;
  if (Commands.empty()) {
    Result.Error = "no compile command";
    return Result;
  }
  llvm::StringSet<> Seen;
  for (const tooling::CompileCommand &C : Commands) {
    FirstError Diags;
    llvm::DenseSet<ModuleID> AlreadySeen;
    std::optional<TranslationUnitDeps> Deps =
        P->Tool.getTranslationUnitDependencies(
            C.CommandLine, C.Directory, Diags, AlreadySeen,
            [](const ModuleDeps &, ModuleOutputKind) { return std::string(); });
    if (!Deps || Diags.getNumErrors()) {
      Result.Error = Diags.Message.empty() ? "the scanner gave no reason"
                                           : Diags.Message;
      Result.Files.clear();
      return Result;
    }
    // The main file first, then the headers in the order they are read.
    llvm::SmallString<256> Main(C.Filename);
    llvm::sys::path::make_absolute(C.Directory, Main);
    llvm::sys::path::remove_dots(Main, /*remove_dot_dot=*/false);
    if (Seen.insert(Main).second)
      Result.Files.push_back(std::string(Main));
    for (const std::string &F : Deps->FileDeps) {
      llvm::SmallString<256> Abs(F);
      llvm::sys::path::make_absolute(C.Directory, Abs);
      llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/false);
      if (Seen.insert(Abs).second)
        Result.Files.push_back(std::string(Abs));
    }
  }
  Result.Scanned = true;
  for (const std::string &F : Result.Files) {
    FileContents::Facts Facts = Contents.facts(F);
    if (!Facts.Readable || Facts.MentionsCublas) {
      Result.Mention = F;
      Result.MentionUnreadable = !Facts.Readable;
      break;
    }
  }
  return Result;
}

} // namespace cublas_tidy
