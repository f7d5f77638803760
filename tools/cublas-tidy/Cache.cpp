//===- Cache.cpp ----------------------------------------------------------===//

#include "Cache.h"
#include "Version.h"

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>

using namespace clang;
using namespace clang::tidy;
namespace json = llvm::json;

namespace cublas_tidy {

namespace {

/// Bumped whenever an entry's layout changes.
constexpr int64_t EntryFormat = 3;

std::string hexHash(llvm::StringRef Text) {
  llvm::XXH128_hash_t H =
      llvm::xxh3_128bits(llvm::ArrayRef(Text.bytes_begin(), Text.size()));
  return llvm::utohexstr(H.high64, false, 16) +
         llvm::utohexstr(H.low64, false, 16);
}

/// A byte range of a file (a fix's or a highlighted range), as stored.
json::Object spanJson(llvm::StringRef File, unsigned Offset, unsigned Length) {
  return json::Object{{"file", File}, {"offset", Offset}, {"length", Length}};
}

struct Span {
  const json::Object *Object; // for the fields besides the span
  llvm::StringRef File;
  unsigned Offset, Length;
};

std::optional<Span> spanFromJson(const json::Value &V) {
  const json::Object *O = V.getAsObject();
  if (!O)
    return std::nullopt;
  auto File = O->getString("file");
  auto Offset = O->getInteger("offset");
  auto Length = O->getInteger("length");
  if (!File || !Offset || !Length || *Offset < 0 || *Length < 0)
    return std::nullopt;
  return Span{O, *File, static_cast<unsigned>(*Offset),
              static_cast<unsigned>(*Length)};
}

json::Value toJson(const tooling::DiagnosticMessage &M) {
  json::Array Fixes;
  for (const auto &[File, Replacements] : M.Fix)
    for (const tooling::Replacement &R : Replacements) {
      json::Object Fix =
          spanJson(R.getFilePath(), R.getOffset(), R.getLength());
      Fix["text"] = R.getReplacementText();
      Fixes.push_back(std::move(Fix));
    }
  json::Array Ranges;
  for (const tooling::FileByteRange &R : M.Ranges)
    Ranges.push_back(spanJson(R.FilePath, R.FileOffset, R.Length));
  return json::Object{{"message", M.Message},
                      {"file", M.FilePath},
                      {"offset", M.FileOffset},
                      {"fixes", std::move(Fixes)},
                      {"ranges", std::move(Ranges)}};
}

bool fromJson(const json::Value &V, tooling::DiagnosticMessage &M) {
  const json::Object *O = V.getAsObject();
  if (!O)
    return false;
  auto Message = O->getString("message");
  auto File = O->getString("file");
  auto Offset = O->getInteger("offset");
  const json::Array *Fixes = O->getArray("fixes");
  const json::Array *Ranges = O->getArray("ranges");
  if (!Message || !File || !Offset || !Fixes || !Ranges)
    return false;
  M.Message = Message->str();
  M.FilePath = File->str();
  M.FileOffset = static_cast<unsigned>(*Offset);
  for (const json::Value &F : *Fixes) {
    std::optional<Span> S = spanFromJson(F);
    std::optional<llvm::StringRef> Text =
        S ? S->Object->getString("text") : std::nullopt;
    if (!Text)
      return false;
    tooling::Replacement R(S->File, S->Offset, S->Length, *Text);
    if (llvm::Error E = M.Fix[R.getFilePath()].add(R)) {
      llvm::consumeError(std::move(E));
      return false;
    }
  }
  for (const json::Value &R : *Ranges) {
    std::optional<Span> S = spanFromJson(R);
    if (!S)
      return false;
    tooling::FileByteRange B;
    B.FilePath = S->File.str();
    B.FileOffset = S->Offset;
    B.Length = S->Length;
    M.Ranges.push_back(std::move(B));
  }
  return true;
}

json::Value toJson(const ClangTidyError &E) {
  json::Array Notes;
  for (const tooling::DiagnosticMessage &N : E.Notes)
    Notes.push_back(toJson(N));
  json::Array Aliases;
  for (const std::string &A : E.EnabledDiagnosticAliases)
    Aliases.push_back(A);
  return json::Object{{"name", E.DiagnosticName},
                      {"level", static_cast<int64_t>(E.DiagLevel)},
                      {"buildDirectory", E.BuildDirectory},
                      {"warningAsError", E.IsWarningAsError},
                      {"aliases", std::move(Aliases)},
                      {"message", toJson(E.Message)},
                      {"notes", std::move(Notes)}};
}

std::optional<ClangTidyError> errorFromJson(const json::Value &V) {
  const json::Object *O = V.getAsObject();
  if (!O)
    return std::nullopt;
  auto Name = O->getString("name");
  auto Level = O->getInteger("level");
  auto BuildDirectory = O->getString("buildDirectory");
  auto WarningAsError = O->getBoolean("warningAsError");
  const json::Array *Aliases = O->getArray("aliases");
  const json::Value *Message = O->get("message");
  const json::Array *Notes = O->getArray("notes");
  if (!Name || !Level || !BuildDirectory || !WarningAsError || !Aliases ||
      !Message || !Notes)
    return std::nullopt;
  if (*Level != ClangTidyError::Remark && *Level != ClangTidyError::Warning &&
      *Level != ClangTidyError::Error)
    return std::nullopt;
  ClangTidyError E(*Name, static_cast<ClangTidyError::Level>(*Level),
                   *BuildDirectory, *WarningAsError);
  for (const json::Value &A : *Aliases) {
    auto S = A.getAsString();
    if (!S)
      return std::nullopt;
    E.EnabledDiagnosticAliases.push_back(S->str());
  }
  if (!fromJson(*Message, E.Message))
    return std::nullopt;
  for (const json::Value &N : *Notes) {
    tooling::DiagnosticMessage M;
    if (!fromJson(N, M))
      return std::nullopt;
    E.Notes.push_back(std::move(M));
  }
  return E;
}

json::Value toJson(const ClangTidyStats &S) {
  return json::Array{S.ErrorsDisplayed, S.ErrorsIgnoredCheckFilter,
                     S.ErrorsIgnoredNOLINT, S.ErrorsIgnoredNonUserCode,
                     S.ErrorsIgnoredLineFilter};
}

bool fromJson(const json::Array *A, ClangTidyStats &S) {
  unsigned *Fields[] = {&S.ErrorsDisplayed, &S.ErrorsIgnoredCheckFilter,
                        &S.ErrorsIgnoredNOLINT, &S.ErrorsIgnoredNonUserCode,
                        &S.ErrorsIgnoredLineFilter};
  if (!A || A->size() != std::size(Fields))
    return false;
  for (size_t I = 0; I < A->size(); ++I) {
    auto N = (*A)[I].getAsInteger();
    if (!N || *N < 0)
      return false;
    *Fields[I] = static_cast<unsigned>(*N);
  }
  return true;
}

} // namespace

std::string ResultCache::key(llvm::StringRef File,
                             llvm::ArrayRef<tooling::CompileCommand> Commands,
                             llvm::StringRef Config) const {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << "format " << EntryFormat << '\0' << ToolKey << '\0' << File << '\0'
     << Config << '\0';
  for (const tooling::CompileCommand &C : Commands) {
    OS << C.Directory << '\0' << C.Filename << '\0';
    for (const std::string &Arg : C.CommandLine)
      OS << Arg << '\0';
    OS << '\1';
  }
  return hexHash(Text);
}

std::string ResultCache::pathOf(llvm::StringRef Key) const {
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, Key.take_front(2), Key.drop_front(2) + ".json");
  return std::string(P);
}

/// Whether every file of `Files` (pairs of a name and the hash of its
/// contents) is as it was; their names go to `Read`.
static bool filesUnchanged(const json::Array &Files, FileContents &Contents,
                           std::vector<std::string> &Read) {
  for (const json::Value &F : Files) {
    const json::Array *Pair = F.getAsArray();
    if (!Pair || Pair->size() != 2)
      return false;
    auto Name = (*Pair)[0].getAsString();
    auto Hash = (*Pair)[1].getAsString();
    if (!Name || !Hash)
      return false;
    FileContents::Facts Now = Contents.facts(*Name);
    if (!Now.Readable || Now.Hash != *Hash)
      return false;
    Read.push_back(Name->str());
  }
  return true;
}

/// The project facts of an entry `O` into `R`: the summaries of the unit's
/// functions, the keys it asked about, what it saw of them, and its file's
/// summary. False when a part does not read.
static bool factsFromJson(const json::Object &O, UnitResult &R) {
  const json::Array *Summaries = O.getArray("summaries");
  const json::Array *Asked = O.getArray("asked");
  auto Seen = O.getString("seen");
  if (!Summaries || !Asked || !Seen)
    return false;
  R.SeenDigest = Seen->str();
  for (const json::Value &S : *Summaries) {
    std::optional<FunctionSummary> Summary = FunctionSummary::fromJson(S);
    if (!Summary)
      return false;
    R.Summaries.push_back(std::move(*Summary));
  }
  for (const json::Value &A : *Asked) {
    auto Key = A.getAsString();
    if (!Key)
      return false;
    R.Asked.push_back(Key->str());
  }
  if (const json::Array *FileSummaries = O.getArray("fileSummaries"))
    for (const json::Value &F : *FileSummaries) {
      std::optional<FileSummary> Summary = FileSummary::fromJson(F);
      if (!Summary)
        return false;
      R.FileSummaries.push_back(std::move(*Summary));
    }
  return true;
}

/// Marks the entry at `Path` recently used: the last to be removed by
/// trim().
static void markUsed(const std::string &Path) {
  if (auto FD = llvm::sys::fs::openNativeFileForWrite(
          Path, llvm::sys::fs::CD_OpenExisting, llvm::sys::fs::OF_Append)) {
    (void)llvm::sys::fs::setLastAccessAndModificationTime(
        *FD, std::chrono::system_clock::now());
    llvm::sys::fs::closeFile(*FD);
  } else {
    llvm::consumeError(FD.takeError());
  }
}

std::optional<UnitResult> ResultCache::lookup(llvm::StringRef Key,
                                              FileContents &Contents) {
  std::string Path = pathOf(Key);
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return std::nullopt;
  llvm::Expected<json::Value> Parsed = json::parse((*Buffer)->getBuffer());
  if (!Parsed) {
    llvm::consumeError(Parsed.takeError());
    return std::nullopt;
  }
  const json::Object *O = Parsed->getAsObject();
  if (!O || O->getInteger("format") != EntryFormat ||
      O->getString("key") != Key)
    return std::nullopt;
  const json::Array *Files = O->getArray("files");
  const json::Array *Errors = O->getArray("errors");
  auto Skipped = O->getBoolean("skipped");
  if (!Files || !Errors || !Skipped || Files->empty())
    return std::nullopt;
  // Every file the result was computed from must be as it was.
  std::vector<std::string> Read;
  if (!filesUnchanged(*Files, Contents, Read))
    return std::nullopt;
  UnitResult R;
  R.Files = std::move(Read);
  R.Skipped = *Skipped;
  if (!fromJson(O->getArray("stats"), R.Stats))
    return std::nullopt;
  for (const json::Value &E : *Errors) {
    std::optional<ClangTidyError> Error = errorFromJson(E);
    if (!Error)
      return std::nullopt;
    R.Errors.push_back(std::move(*Error));
  }
  if (!factsFromJson(*O, R))
    return std::nullopt;
  markUsed(Path);
  return R;
}

bool ResultCache::store(llvm::StringRef Key, const UnitResult &Result,
                        llvm::ArrayRef<std::string> Files,
                        FileContents &Contents) {
  json::Array FileList;
  for (const std::string &F : Files) {
    FileContents::Facts Facts = Contents.facts(F);
    if (!Facts.Readable)
      return false; // cannot tell later whether it changed
    FileList.push_back(json::Array{F, Facts.Hash});
  }
  if (FileList.empty())
    return false;
  json::Array Errors;
  for (const ClangTidyError &E : Result.Errors)
    Errors.push_back(toJson(E));
  json::Array Summaries, Asked;
  for (const FunctionSummary &S : Result.Summaries)
    Summaries.push_back(S.toJson());
  for (const std::string &K : Result.Asked)
    Asked.push_back(K);
  json::Array FileSummaries;
  for (const FileSummary &F : Result.FileSummaries)
    FileSummaries.push_back(F.toJson());
  json::Object Entry{{"format", EntryFormat},
                     {"summaries", std::move(Summaries)},
                     {"asked", std::move(Asked)},
                     {"fileSummaries", std::move(FileSummaries)},
                     {"seen", Result.SeenDigest},
                     {"key", Key},
                     {"skipped", Result.Skipped},
                     {"stats", toJson(Result.Stats)},
                     {"files", std::move(FileList)},
                     {"errors", std::move(Errors)}};

  std::string Path = pathOf(Key);
  llvm::StringRef Parent = llvm::sys::path::parent_path(Path);
  if (llvm::sys::fs::create_directories(Parent))
    return false;
  // A temporary file of its own in the same directory, renamed into place:
  // readers see the old entry or the whole new one.
  int FD;
  llvm::SmallString<256> Temp;
  if (llvm::sys::fs::createUniqueFile(Parent + "/.tmp-%%%%%%%%%%%%", FD, Temp))
    return false;
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << json::Value(std::move(Entry));
    OS.close();
    if (OS.has_error()) {
      OS.clear_error();
      llvm::sys::fs::remove(Temp);
      return false;
    }
  }
  if (llvm::sys::fs::rename(Temp, Path)) {
    llvm::sys::fs::remove(Temp);
    return false;
  }
  return true;
}

unsigned ResultCache::trim() {
  struct Entry {
    std::string Path;
    uint64_t Size;
    llvm::sys::TimePoint<> Time;
  };
  std::vector<Entry> Entries;
  uint64_t Total = 0;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Dir, EC), End;
       It != End && !EC; It.increment(EC)) {
    llvm::sys::fs::file_status Status;
    if (llvm::sys::fs::status(It->path(), Status) ||
        Status.type() != llvm::sys::fs::file_type::regular_file)
      continue;
    Entries.push_back({It->path(), Status.getSize(),
                       Status.getLastModificationTime()});
    Total += Status.getSize();
  }
  if (Total <= MaxBytes)
    return 0;
  llvm::sort(Entries, [](const Entry &A, const Entry &B) {
    return std::tie(A.Time, A.Path) < std::tie(B.Time, B.Path);
  });
  unsigned Removed = 0;
  for (const Entry &E : Entries) {
    if (Total <= MaxBytes)
      break;
    if (!llvm::sys::fs::remove(E.Path)) {
      Total -= E.Size;
      ++Removed;
    }
  }
  return Removed;
}

std::string toolKey(const char *Argv0, void *MainAddr) {
  std::string Key = "cublas-tidy " CUBLAS_TIDY_VERSION
                    " LLVM " CUBLAS_TIDY_LLVM_VERSION;
  std::string Exe = llvm::sys::fs::getMainExecutable(Argv0, MainAddr);
  auto Buffer = llvm::MemoryBuffer::getFile(Exe, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  // Without its own contents the tool is known by version only.
  if (Buffer)
    Key += " " + hexHash((*Buffer)->getBuffer());
  return Key;
}

std::optional<uint64_t> parseSize(llvm::StringRef Text) {
  Text = Text.trim();
  uint64_t Scale = 1;
  if (!Text.empty()) {
    switch (llvm::toUpper(Text.back())) {
    case 'K':
      Scale = 1ull << 10;
      break;
    case 'M':
      Scale = 1ull << 20;
      break;
    case 'G':
      Scale = 1ull << 30;
      break;
    default:
      break;
    }
    if (Scale != 1)
      Text = Text.drop_back();
  }
  uint64_t N;
  if (Text.empty() || Text.getAsInteger(10, N) || N > UINT64_MAX / Scale)
    return std::nullopt;
  return N * Scale;
}

} // namespace cublas_tidy
