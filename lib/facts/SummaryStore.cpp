//===- SummaryStore.cpp ---------------------------------------------------===//

#include "facts/SummaryStore.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <mutex>

namespace json = llvm::json;

#ifndef CUBLAS_TIDY_PROJECT_VERSION
#define CUBLAS_TIDY_PROJECT_VERSION "unknown"
#endif

namespace cublas_tidy {

const FileSummary::ExceptionRoute *
FileSummary::routeOf(llvm::StringRef Callee) const {
  auto It = llvm::partition_point(
      Exceptions, [&](const ExceptionRoute &R) { return R.Callee < Callee; });
  return It != Exceptions.end() && It->Callee == Callee ? &*It : nullptr;
}

json::Value FileSummary::toJson() const {
  json::Array Routes;
  for (const ExceptionRoute &R : Exceptions) {
    json::Object O{{"callee", R.Callee}};
    if (!R.Through.empty()) {
      json::Array Through;
      for (const std::string &T : R.Through)
        Through.push_back(T);
      O["through"] = std::move(Through);
    }
    if (R.CaughtLine) {
      O["caught"] = json::Array{R.CaughtLine, R.CaughtCallee,
                                R.Binding ? "binding" : "try"};
    }
    Routes.push_back(std::move(O));
  }
  return json::Object{{"file", File},
                      {"fileHash", FileHash},
                      {"exceptions", std::move(Routes)}};
}

std::optional<FileSummary> FileSummary::fromJson(const json::Value &V) {
  const json::Object *O = V.getAsObject();
  const json::Array *Routes = O ? O->getArray("exceptions") : nullptr;
  auto File = O ? O->getString("file") : std::nullopt;
  if (!File || File->empty() || !Routes)
    return std::nullopt;
  FileSummary S;
  S.File = File->str();
  S.FileHash = O->getString("fileHash").value_or("").str();
  for (const json::Value &E : *Routes) {
    const json::Object *R = E.getAsObject();
    auto Callee = R ? R->getString("callee") : std::nullopt;
    if (!Callee || Callee->empty())
      return std::nullopt;
    ExceptionRoute Route;
    Route.Callee = Callee->str();
    if (const json::Array *Through = R->getArray("through"))
      for (const json::Value &T : *Through) {
        auto Key = T.getAsString();
        if (!Key || Key->empty())
          return std::nullopt;
        Route.Through.push_back(Key->str());
      }
    if (const json::Value *C = R->get("caught")) {
      const json::Array *A = C->getAsArray();
      auto Line = A && A->size() == 3 ? (*A)[0].getAsInteger() : std::nullopt;
      auto Callee = A && A->size() == 3 ? (*A)[1].getAsString() : std::nullopt;
      auto How = A && A->size() == 3 ? (*A)[2].getAsString() : std::nullopt;
      if (!Line || *Line <= 0 || !Callee || !How ||
          (*How != "try" && *How != "binding"))
        return std::nullopt;
      Route.CaughtLine = static_cast<unsigned>(*Line);
      Route.CaughtCallee = Callee->str();
      Route.Binding = *How == "binding";
    }
    S.Exceptions.push_back(std::move(Route));
  }
  llvm::sort(S.Exceptions,
             [](const ExceptionRoute &A, const ExceptionRoute &B) {
               return A.Callee < B.Callee;
             });
  return S;
}

void SummaryStore::add(FileSummary S) {
  if (S.File.empty())
    return;
  if (!S.informative()) {
    Files.erase(S.File);
    return;
  }
  for (const FileSummary::ExceptionRoute &R : S.Exceptions) {
    std::vector<std::string> &By = RoutesBy[R.Callee];
    if (!llvm::is_contained(By, S.File))
      By.push_back(S.File);
  }
  std::string Key = S.File;
  Files[Key] = std::move(S);
}

std::vector<const FileSummary *>
SummaryStore::routesOf(llvm::StringRef Callee) const {
  std::vector<const FileSummary *> Out;
  auto It = RoutesBy.find(Callee);
  if (It == RoutesBy.end())
    return Out;
  for (const std::string &File : It->second) {
    auto F = Files.find(File);
    if (F != Files.end() && F->second.routeOf(Callee))
      Out.push_back(&F->second);
  }
  llvm::sort(Out, [](const FileSummary *A, const FileSummary *B) {
    return A->File < B->File;
  });
  return Out;
}

void SummaryStore::add(FunctionSummary S) {
  if (S.Key.empty() || !S.informative())
    return;
  auto [It, New] = ByKey.try_emplace(S.Key, S);
  if (New || !It->second)
    return;
  // The same definition seen twice (a unit analysed again) is one.
  if (It->second->File != S.File || It->second->Line != S.Line)
    It->second.reset();
  else
    It->second = std::move(S);
}

const FunctionSummary *SummaryStore::find(llvm::StringRef Key) const {
  auto It = ByKey.find(Key);
  if (It == ByKey.end() || !It->second)
    return nullptr;
  return &*It->second;
}

std::vector<const FunctionSummary *>
SummaryStore::destroyersOf(llvm::StringRef GlobalKey) const {
  std::vector<const FunctionSummary *> Out;
  for (const auto &E : ByKey)
    if (E.second && llvm::is_contained(E.second->DestroyedGlobals, GlobalKey))
      Out.push_back(&*E.second);
  llvm::sort(Out, [](const FunctionSummary *A, const FunctionSummary *B) {
    return A->Key < B->Key;
  });
  return Out;
}

std::vector<const FunctionSummary *>
SummaryStore::perDeviceCreatorsOf(llvm::StringRef GlobalKey) const {
  std::vector<const FunctionSummary *> Out;
  for (const auto &E : ByKey)
    if (E.second &&
        llvm::any_of(E.second->PerDeviceGlobals,
                     [&](const FunctionSummary::PerDeviceGlobal &G) {
                       return G.Key == GlobalKey;
                     }))
      Out.push_back(&*E.second);
  llvm::sort(Out, [](const FunctionSummary *A, const FunctionSummary *B) {
    return A->Key < B->Key;
  });
  return Out;
}

std::string SummaryStore::digest(llvm::ArrayRef<std::string> Keys,
                                 llvm::StringRef OwnFile) const {
  std::vector<std::string> Sorted(Keys.begin(), Keys.end());
  llvm::sort(Sorted);
  Sorted.erase(std::unique(Sorted.begin(), Sorted.end()), Sorted.end());
  llvm::SHA256 Hash;
  for (const std::string &K : Sorted) {
    if (llvm::StringRef(K).starts_with("catch:")) {
      llvm::StringRef Callee = llvm::StringRef(K).drop_front(6);
      std::string Text = K + "=";
      llvm::raw_string_ostream OS(Text);
      for (const FileSummary *F : routesOf(Callee)) {
        if (F->File == OwnFile)
          continue;
        FileSummary One{F->File, F->FileHash, {*F->routeOf(Callee)}};
        OS << One.toJson() << ";";
      }
      OS << "\n";
      Hash.update(Text);
      continue;
    }
    llvm::StringRef Global = llvm::StringRef(K);
    bool Destroyers = Global.consume_front("global:");
    if (Destroyers || Global.consume_front("perdevice:")) {
      std::string Text = K + "=";
      for (const FunctionSummary *S :
           Destroyers ? destroyersOf(Global) : perDeviceCreatorsOf(Global))
        if (S->File != OwnFile)
          Text += S->Key + "@" + S->File + ":" + S->FileHash + ";";
      Hash.update(Text + "\n");
      continue;
    }
    auto It = ByKey.find(K);
    if (It == ByKey.end())
      continue;
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    OS << K << "=";
    if (It->second)
      OS << It->second->toJson();
    else
      OS << "ambiguous";
    OS << "\n";
    Hash.update(Text);
  }
  return llvm::toHex(Hash.final(), /*LowerCase=*/true);
}

std::string SummaryStore::toText(llvm::StringRef Tool) const {
  std::vector<llvm::StringRef> Sorted;
  for (const auto &E : ByKey)
    Sorted.push_back(E.getKey());
  llvm::sort(Sorted);
  json::Array Functions, Ambiguous;
  for (llvm::StringRef K : Sorted) {
    const std::optional<FunctionSummary> &S = ByKey.find(K)->second;
    if (S)
      Functions.push_back(S->toJson());
    else
      Ambiguous.push_back(K);
  }
  std::vector<llvm::StringRef> ByFile;
  for (const auto &E : Files)
    ByFile.push_back(E.getKey());
  llvm::sort(ByFile);
  json::Array FileSummaries;
  for (llvm::StringRef F : ByFile)
    FileSummaries.push_back(Files.find(F)->second.toJson());
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << llvm::formatv("{0:1}", json::Value(json::Object{
                                   {"tool", Tool},
                                   {"functions", std::move(Functions)},
                                   {"ambiguous", std::move(Ambiguous)},
                                   {"files", std::move(FileSummaries)}}));
  OS << "\n";
  return Text;
}

llvm::Expected<SummaryStore> SummaryStore::fromText(llvm::StringRef Text,
                                                    llvm::StringRef Tool) {
  llvm::Expected<json::Value> Parsed = json::parse(Text);
  if (!Parsed)
    return Parsed.takeError();
  const json::Object *O = Parsed->getAsObject();
  const json::Array *Functions = O ? O->getArray("functions") : nullptr;
  auto Written = O ? O->getString("tool") : std::nullopt;
  if (!Functions || !Written)
    return llvm::createStringError("not a store of function summaries");
  if (*Written != Tool)
    return llvm::createStringError("written by another build of the tool (" +
                                   *Written + ")");
  SummaryStore Store;
  Store.Read = true;
  for (const json::Value &F : *Functions) {
    std::optional<FunctionSummary> S = FunctionSummary::fromJson(F);
    if (!S)
      return llvm::createStringError("a function summary does not parse");
    Store.add(std::move(*S));
  }
  if (const json::Array *FileSummaries = O->getArray("files"))
    for (const json::Value &F : *FileSummaries) {
      std::optional<FileSummary> S = FileSummary::fromJson(F);
      if (!S)
        return llvm::createStringError("a file summary does not parse");
      Store.add(std::move(*S));
    }
  if (const json::Array *Ambiguous = O->getArray("ambiguous"))
    for (const json::Value &K : *Ambiguous)
      if (auto Key = K.getAsString())
        Store.ByKey[*Key].reset();
  return Store;
}

llvm::Expected<SummaryStore> SummaryStore::readFile(llvm::StringRef Path,
                                                    llvm::StringRef Tool) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
      llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(),
                                   "cannot read it: " +
                                       Buffer.getError().message());
  return fromText((*Buffer)->getBuffer(), Tool);
}

std::string contentsHash(llvm::StringRef Contents) {
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(Contents)),
                     /*LowerCase=*/true)
      .substr(0, 32);
}

bool fileHasHash(llvm::StringRef Path, llvm::StringRef Hash) {
  struct Entry {
    llvm::sys::TimePoint<> Modified;
    uint64_t Size = 0;
    std::string Hash;
  };
  static std::mutex Lock;
  static llvm::StringMap<Entry> Files;
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Path, Status))
    return false;
  std::lock_guard<std::mutex> Guard(Lock);
  Entry &E = Files[Path];
  if (E.Hash.empty() || E.Modified != Status.getLastModificationTime() ||
      E.Size != Status.getSize()) {
    auto Buffer = llvm::MemoryBuffer::getFile(Path);
    if (!Buffer)
      return false;
    E = {Status.getLastModificationTime(), Status.getSize(),
         contentsHash((*Buffer)->getBuffer())};
  }
  return E.Hash == Hash;
}

llvm::StringRef summaryFormat() {
  return "cublas-tidy " CUBLAS_TIDY_PROJECT_VERSION " summaries 7";
}

std::string findStoreFor(llvm::StringRef File) {
  llvm::SmallString<256> Dir(File);
  llvm::sys::fs::make_absolute(Dir);
  for (llvm::StringRef D = llvm::sys::path::parent_path(Dir); !D.empty();
       D = llvm::sys::path::parent_path(D)) {
    for (llvm::StringRef Sub : {"", "build"}) {
      llvm::SmallString<256> Db(D);
      llvm::sys::path::append(Db, Sub, "compile_commands.json");
      if (!llvm::sys::fs::exists(Db))
        continue;
      llvm::sys::path::remove_filename(Db);
      llvm::sys::path::append(Db, DefaultStoreName);
      // The database that serves the file decides: no store beside it is
      // no store.
      return llvm::sys::fs::exists(Db) ? std::string(Db) : std::string();
    }
  }
  return "";
}

std::shared_ptr<const SummaryStore> sharedStore(llvm::StringRef Path,
                                                std::string &Problem) {
  struct Entry {
    llvm::sys::TimePoint<> Modified;
    std::shared_ptr<const SummaryStore> Store;
    std::string Problem;
  };
  static std::mutex Lock;
  static llvm::StringMap<Entry> Stores;
  llvm::sys::fs::file_status Status;
  std::error_code EC = llvm::sys::fs::status(Path, Status);
  llvm::sys::TimePoint<> Modified =
      EC ? llvm::sys::TimePoint<>() : Status.getLastModificationTime();
  std::lock_guard<std::mutex> Guard(Lock);
  auto [It, New] = Stores.try_emplace(Path);
  Entry &E = It->second;
  if (!New && E.Modified == Modified)
    return E.Store;
  E.Modified = Modified;
  E.Store.reset();
  std::string Was = E.Problem;
  E.Problem.clear();
  if (EC) {
    E.Problem = "cannot read it: " + EC.message();
  } else {
    llvm::Expected<SummaryStore> S =
        SummaryStore::readFile(Path, summaryFormat());
    if (S)
      E.Store = std::make_shared<const SummaryStore>(std::move(*S));
    else
      E.Problem = llvm::toString(S.takeError());
  }
  if (!E.Problem.empty() && E.Problem != Was)
    Problem = E.Problem;
  return E.Store;
}

} // namespace cublas_tidy
