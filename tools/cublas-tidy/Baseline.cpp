//===- Baseline.cpp -------------------------------------------------------===//

#include "Baseline.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace cublas_tidy {

static std::string directoryOf(llvm::StringRef Path) {
  llvm::SmallString<256> Abs(Path);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_filename(Abs);
  llvm::sys::path::remove_dots(Abs, true);
  return std::string(Abs);
}

static std::string collapseSpaces(llvm::StringRef Text) {
  std::string Out;
  bool Space = false;
  for (char C : Text.trim()) {
    if (C == ' ' || C == '\t') {
      Space = true;
      continue;
    }
    if (Space && !Out.empty())
      Out += ' ';
    Space = false;
    Out += C;
  }
  return Out;
}

/// Names the program chose, as opposed to those of CUDA and cuBLAS, which a
/// rename does not touch.
static bool programName(llvm::StringRef Id) {
  return !Id.starts_with("cu") && !Id.starts_with("CU");
}

/// `Text` with every name the program chose replaced by `_`.
static std::string withoutNames(llvm::StringRef Text) {
  std::string Out;
  for (size_t I = 0; I < Text.size();) {
    char C = Text[I];
    if (!llvm::isAlpha(C) && C != '_') {
      // A number stays whole: 1e5 is not a name.
      size_t J = I + 1;
      if (llvm::isDigit(C))
        while (J < Text.size() && (llvm::isAlnum(Text[J]) || Text[J] == '_'))
          ++J;
      Out += Text.slice(I, J);
      I = J;
      continue;
    }
    size_t J = I;
    while (J < Text.size() && (llvm::isAlnum(Text[J]) || Text[J] == '_'))
      ++J;
    llvm::StringRef Id = Text.slice(I, J);
    Out += programName(Id) ? llvm::StringRef("_") : Id;
    I = J;
  }
  return Out;
}

/// `Message` with the program's names inside its quotes replaced.
static std::string messageWithoutNames(llvm::StringRef Message) {
  std::string Out;
  bool Quoted = false;
  size_t Start = 0;
  for (size_t I = 0; I <= Message.size(); ++I) {
    if (I < Message.size() && Message[I] != '\'')
      continue;
    llvm::StringRef Part = Message.slice(Start, I);
    Out += Quoted ? withoutNames(Part) : Part.str();
    if (I < Message.size())
      Out += '\'';
    Quoted = !Quoted;
    Start = I + 1;
  }
  return Out;
}

std::string Baseline::currentWording(llvm::StringRef Check,
                                     llvm::StringRef Message) {
  // cublas-tidy 0.5 began some messages with a name that clangd's
  // capitalisation changed ("cublasStatus_t returned by ...", "lda (128)
  // is ..."); they now begin with a word or a quote. A baseline written
  // then says the same findings in the old words.
  static const std::pair<llvm::Regex, const char *> Rules[] = {
      {llvm::Regex("^([A-Za-z_]+_t|status) returned by "), "the \\1 returned by "},
      {llvm::Regex("^cublasStatus_t compared with cudaError_t;"),
       "a cublasStatus_t compared with a cudaError_t;"},
      {llvm::Regex("^(cudaError_t|cublasStatus_t) compared with "
                   "(cudaError_t|cublasStatus_t) value "),
       "a \\1 compared with the \\2 value "},
      {llvm::Regex("^(cuBLAS|cuBLASLt) handle '"), "the \\1 handle '"},
  };
  for (const auto &[Old, New] : Rules)
    if (Old.match(Message))
      return Old.sub(New, Message);
  if (Check == "cublas-data-type") {
    // "alpha '&alpha' points to" is now "'&alpha' (alpha) points to".
    static const llvm::Regex Operand("^([A-Za-z_][A-Za-z0-9_]*) '([^']*)' "
                                     "points to ");
    if (Operand.match(Message))
      return Operand.sub("'\\2' (\\1) points to ", Message);
  }
  if (Check == "cublas-matrix-extents") {
    // "lda (128) is ...", "x needs ...": the routine's name now quoted.
    static const llvm::Regex Name("^([A-Za-z_][A-Za-z0-9_]*)( \\(| needs | is )");
    llvm::SmallVector<llvm::StringRef, 3> Parts;
    if (Name.match(Message, &Parts) && Parts[1] != "the" && Parts[1] != "a")
      return Name.sub("'\\1'\\2", Message);
  }
  return Message.str();
}

Baseline::Key Baseline::looseKey(const Key &K) {
  return {K.Check, K.File, messageWithoutNames(K.Message),
          withoutNames(K.Line), K.Function};
}

std::string Baseline::fingerprint(const Finding &F) {
  Key K = looseKey({F.Check, "", F.Message, collapseSpaces(F.Where.LineText),
                    F.Function});
  uint64_t Hash = llvm::xxh3_64bits(K.Check + '\0' + K.Function + '\0' +
                                    K.Message + '\0' + K.Line);
  return llvm::utohexstr(Hash, /*LowerCase=*/true, /*Width=*/16);
}

Baseline::Key Baseline::keyOf(const Finding &F, llvm::StringRef BaseDir) {
  std::string File = F.Where.File;
  llvm::StringRef Rel(File);
  if (!BaseDir.empty() && Rel.consume_front(BaseDir)) {
    Rel = Rel.ltrim("/");
    File = Rel.str();
  }
  return {F.Check, File, F.Message, collapseSpaces(F.Where.LineText),
          F.Function};
}

Baseline Baseline::of(llvm::ArrayRef<Finding> Findings, llvm::StringRef Path) {
  Baseline B;
  B.BaseDir = directoryOf(Path);
  for (const Finding &F : Findings)
    ++B.Counts[keyOf(F, B.BaseDir)];
  return B;
}

size_t Baseline::size() const {
  size_t N = 0;
  for (const auto &[K, C] : Counts)
    N += C;
  return N;
}

llvm::Error Baseline::write(llvm::StringRef Path) const {
  llvm::json::Array Entries;
  for (const auto &[K, C] : Counts) {
    llvm::json::Object Entry{{"check", K.Check},
                             {"file", K.File},
                             {"message", K.Message},
                             {"line", K.Line},
                             {"count", static_cast<int64_t>(C)}};
    if (!K.Function.empty())
      Entry["function"] = K.Function;
    Entries.push_back(std::move(Entry));
  }
  llvm::json::Object Root{{"version", 1},
                          {"tool", "cublas-tidy"},
                          {"findings", std::move(Entries)}};
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_Text);
  if (EC)
    return llvm::createStringError(EC, "cannot write baseline '%s': %s",
                                   Path.str().c_str(), EC.message().c_str());
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Root))) << "\n";
  return llvm::Error::success();
}

llvm::Expected<Baseline> Baseline::read(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(),
                                   "cannot read baseline '%s': %s",
                                   Path.str().c_str(),
                                   Buffer.getError().message().c_str());
  llvm::Expected<llvm::json::Value> Parsed =
      llvm::json::parse((*Buffer)->getBuffer());
  if (!Parsed)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "baseline '%s' is not JSON: %s",
                                   Path.str().c_str(),
                                   llvm::toString(Parsed.takeError()).c_str());
  Baseline B;
  B.BaseDir = directoryOf(Path);
  const llvm::json::Object *Root = Parsed->getAsObject();
  const llvm::json::Array *Entries = Root ? Root->getArray("findings") : nullptr;
  if (!Entries)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "baseline '%s' has no 'findings' array",
                                   Path.str().c_str());
  for (const llvm::json::Value &V : *Entries) {
    const llvm::json::Object *E = V.getAsObject();
    auto Str = [&](llvm::StringRef Field) -> std::optional<std::string> {
      if (!E)
        return std::nullopt;
      if (std::optional<llvm::StringRef> S = E->getString(Field))
        return S->str();
      return std::nullopt;
    };
    std::optional<std::string> Check = Str("check"), File = Str("file"),
                               Message = Str("message"), Line = Str("line");
    std::optional<int64_t> Count = E ? E->getInteger("count") : std::nullopt;
    if (!Check || !File || !Message || !Line || !Count || *Count < 1)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "baseline '%s': an entry lacks check, file, message, line or count",
          Path.str().c_str());
    B.Counts[{*Check, *File, currentWording(*Check, *Message), *Line,
              Str("function").value_or("")}] += *Count;
  }
  return B;
}

size_t Baseline::filter(std::vector<Finding> &Findings) const {
  // Each pass sees only the keys the ones before left, on both sides:
  //  1. the same finding in the same function of the same file;
  //  2. the same but for the names the program chose (a variable renamed);
  //  3. the same in a function of the same name in any file (the function
  //     moved), and 4. that but for the names;
  //  5. the same in the same file whatever the function (it was renamed, or
  //     the baseline was written before functions were recorded), and 6.
  //     that but for the names.
  // Keys of a function match keys of the same function before any key
  // that only shares their file: a copy of an old line put in a new
  // function is what is new.
  using Projection = std::optional<Key> (*)(const Key &);
  static const Projection Passes[] = {
      [](const Key &K) -> std::optional<Key> { return K; },
      [](const Key &K) -> std::optional<Key> { return looseKey(K); },
      [](const Key &K) -> std::optional<Key> {
        if (K.Function.empty())
          return std::nullopt;
        return Key{K.Check, "", K.Message, K.Line, K.Function};
      },
      [](const Key &K) -> std::optional<Key> {
        if (K.Function.empty())
          return std::nullopt;
        Key L = looseKey(K);
        L.File.clear();
        return L;
      },
      [](const Key &K) -> std::optional<Key> {
        return Key{K.Check, K.File, K.Message, K.Line, ""};
      },
      [](const Key &K) -> std::optional<Key> {
        Key L = looseKey(K);
        L.Function.clear();
        return L;
      }};
  std::map<Key, unsigned> Left = Counts;
  size_t Before = Findings.size();
  for (Projection Project : Passes) {
    // Each projected key, with the baseline's keys that project to it.
    std::map<Key, std::vector<Key>> Projected;
    for (const auto &[K, C] : Left)
      if (C)
        if (std::optional<Key> P = Project(K))
          Projected[*P].push_back(K);
    llvm::erase_if(Findings, [&](const Finding &F) {
      std::optional<Key> P = Project(keyOf(F, BaseDir));
      auto It = P ? Projected.find(*P) : Projected.end();
      if (It == Projected.end())
        return false;
      for (const Key &K : It->second)
        if (unsigned &C = Left[K]) {
          --C;
          return true;
        }
      return false;
    });
  }
  return Before - Findings.size();
}

} // namespace cublas_tidy
