//===- Summaries.cpp ------------------------------------------------------===//

#include "facts/Summaries.h"

#include "ast/AstUtils.h"
#include "ast/Callables.h"
#include "model/CublasApi.h"
#include "ast/TranslationUnitCache.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Mangle.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <mutex>

using namespace clang;
namespace json = llvm::json;

#ifndef CUBLAS_TIDY_PROJECT_VERSION
#define CUBLAS_TIDY_PROJECT_VERSION "unknown"
#endif

namespace cublas_tidy {

namespace {

constexpr llvm::StringLiteral StatusNames[] = {"unknown", "checker",
                                               "wrapper"};
constexpr llvm::StringLiteral EffectNames[] = {"keeps", "destroys"};

template <typename EnumT, size_t N>
std::optional<EnumT> enumNamed(const llvm::StringLiteral (&Names)[N],
                               std::optional<llvm::StringRef> Name) {
  for (size_t I = 0; Name && I < N; ++I)
    if (*Name == Names[I])
      return static_cast<EnumT>(I);
  return std::nullopt;
}

thread_local const SummaryStore *CurrentStore = nullptr;
thread_local std::vector<std::string> *CurrentAsked = nullptr;
thread_local std::vector<FunctionSummary> *CurrentMade = nullptr;
thread_local std::vector<FileSummary> *CurrentMadeFiles = nullptr;
thread_local const ASTContext *MadeFor = nullptr;
thread_local std::shared_ptr<const SummaryStore> DefaultStore;
thread_local unsigned ScopeDepth = 0;

/// A front end's scope decides alone, even with no store: a store found by
/// the check option would otherwise slip into the run that makes a new one.
const SummaryStore *storeInUse() {
  return ScopeDepth ? CurrentStore : DefaultStore.get();
}

thread_local TranslationUnitCache<int, std::string> MainFiles;

/// What projectSummary() answered about a function in this unit: its key,
/// the summary found in the store `From`, and the record of questions the
/// key went into.
struct Answer {
  std::string Key;
  bool Answered = false;
  const SummaryStore *From = nullptr;
  const FunctionSummary *Summary = nullptr;
  const std::vector<std::string> *RecordedIn = nullptr;
};
thread_local TranslationUnitCache<const FunctionDecl *, Answer> Answers;

} // namespace

std::optional<ParamPolynomial> ParamPolynomial::of(const SymExpr &V,
                                                   const FunctionDecl *FD) {
  auto IndexOf = [&](const Symbol &S) -> std::optional<unsigned> {
    const auto *P = dyn_cast_or_null<ParmVarDecl>(S.Decl);
    if (!P || S.Instance || S.Tag || P->getDeclContext() != FD)
      return std::nullopt;
    return P->getFunctionScopeIndex();
  };
  ParamPolynomial Out;
  Out.Constant = V.constantTerm();
  for (const auto &[M, C] : V.terms()) {
    std::optional<unsigned> First = IndexOf(M.First);
    if (!First)
      return std::nullopt;
    int Second = -1;
    if (M.Second.Decl) {
      std::optional<unsigned> S = IndexOf(M.Second);
      if (!S)
        return std::nullopt;
      Second = static_cast<int>(*S);
    }
    Out.Terms.push_back({*First, Second, C});
  }
  return Out;
}

std::optional<SymExpr> ParamPolynomial::bind(
    llvm::function_ref<std::optional<SymExpr>(unsigned)> Arg) const {
  std::optional<SymExpr> Sum = SymExpr::constant(Constant);
  for (const Term &T : Terms) {
    std::optional<SymExpr> V = Arg(T.First);
    if (V && T.Second >= 0) {
      std::optional<SymExpr> W = Arg(static_cast<unsigned>(T.Second));
      V = W ? V->mul(*W) : std::nullopt;
    }
    if (V)
      V = V->mul(SymExpr::constant(T.Coefficient));
    Sum = V ? Sum->add(*V) : std::nullopt;
    if (!Sum)
      return std::nullopt;
  }
  return Sum;
}

json::Value ParamPolynomial::toJson() const {
  json::Array A;
  for (const Term &T : Terms)
    A.push_back(json::Array{T.First, T.Second, T.Coefficient});
  return json::Array{Constant, std::move(A)};
}

std::optional<ParamPolynomial>
ParamPolynomial::fromJson(const json::Value *V) {
  const json::Array *P = V ? V->getAsArray() : nullptr;
  if (!P || P->size() != 2 || !(*P)[1].getAsArray())
    return std::nullopt;
  std::optional<int64_t> C = (*P)[0].getAsInteger();
  if (!C)
    return std::nullopt;
  ParamPolynomial Out;
  Out.Constant = *C;
  for (const json::Value &T : *(*P)[1].getAsArray()) {
    const json::Array *A = T.getAsArray();
    if (!A || A->size() != 3)
      return std::nullopt;
    auto First = (*A)[0].getAsInteger(), Second = (*A)[1].getAsInteger(),
         Coefficient = (*A)[2].getAsInteger();
    if (!First || !Second || !Coefficient || *First < 0 || *Second < -1 ||
        *First > 1000 || *Second > 1000)
      return std::nullopt;
    Out.Terms.push_back({static_cast<unsigned>(*First),
                         static_cast<int>(*Second), *Coefficient});
  }
  return Out;
}

namespace {

json::Value spanToJson(const FunctionSummary::BufferParam::Span &P) {
  json::Array Layout, Positive;
  for (const auto &[Name, V] : P.Layout)
    Layout.push_back(json::Array{Name, V.toJson()});
  for (unsigned I : P.Positive)
    Positive.push_back(I);
  return json::Object{{"operand", P.Operand},
                      {"elementBytes", P.ElementBytes},
                      {"plural", P.Plural},
                      {"elements", P.Elements.toJson()},
                      {"layout", std::move(Layout)},
                      {"positive", std::move(Positive)}};
}

std::optional<FunctionSummary::BufferParam::Span>
spanFromJson(const json::Object &O) {
  FunctionSummary::BufferParam::Span P;
  auto Operand = O.getString("operand"), Plural = O.getString("plural");
  auto Bytes = O.getInteger("elementBytes");
  std::optional<ParamPolynomial> Elements =
      ParamPolynomial::fromJson(O.get("elements"));
  const json::Array *Layout = O.getArray("layout");
  const json::Array *Positive = O.getArray("positive");
  if (!Operand || !Plural || !Bytes || *Bytes <= 0 || !Elements || !Layout ||
      !Positive)
    return std::nullopt;
  P.Operand = Operand->str();
  P.Plural = Plural->str();
  P.ElementBytes = static_cast<unsigned>(*Bytes);
  P.Elements = std::move(*Elements);
  for (const json::Value &L : *Layout) {
    const json::Array *A = L.getAsArray();
    std::optional<ParamPolynomial> V =
        A && A->size() == 2 ? ParamPolynomial::fromJson(&(*A)[1])
                            : std::nullopt;
    if (!V || !(*A)[0].getAsString())
      return std::nullopt;
    P.Layout.push_back({(*A)[0].getAsString()->str(), std::move(*V)});
  }
  for (const json::Value &I : *Positive) {
    std::optional<int64_t> N = I.getAsInteger();
    if (!N || *N < 0)
      return std::nullopt;
    P.Positive.push_back(static_cast<unsigned>(*N));
  }
  return P;
}

} // namespace

std::optional<FunctionSummary::HandleEffect>
FunctionSummary::handleEffect(unsigned Index) const {
  for (const HandleParam &H : Handles)
    if (H.Index == Index)
      return H.Effect;
  return std::nullopt;
}

bool FunctionSummary::operator==(const FunctionSummary &O) const {
  return Key == O.Key && Name == O.Name && File == O.File && Line == O.Line &&
         FileHash == O.FileHash &&
         Status == O.Status && Wrapped == O.Wrapped &&
         WrappedLine == O.WrappedLine && Handles == O.Handles &&
         Buffers == O.Buffers && PerCall == O.PerCall &&
         DestroyedGlobals == O.DestroyedGlobals &&
         CreatedGlobals == O.CreatedGlobals &&
         TouchedMembers == O.TouchedMembers;
}

json::Value FunctionSummary::toJson() const {
  json::Object O{{"key", Key},   {"name", Name},         {"file", File},
                 {"line", Line}, {"fileHash", FileHash}};
  if (Status != StatusRole::Unknown) {
    O["status"] = StatusNames[static_cast<int>(Status)];
    if (!Wrapped.empty()) {
      O["wrapped"] = Wrapped;
      O["wrappedLine"] = WrappedLine;
    }
  }
  if (!Handles.empty()) {
    json::Array A;
    for (const HandleParam &H : Handles)
      A.push_back(json::Array{H.Index, EffectNames[static_cast<int>(H.Effect)]});
    O["handles"] = std::move(A);
  }
  if (!Buffers.empty()) {
    json::Array A;
    for (const BufferParam &B : Buffers) {
      json::Array T{B.Index, B.Callee, B.Spelled, B.Arg, B.Line};
      if (B.Spans || !B.DataType.empty()) {
        json::Object More;
        if (B.Spans)
          More["span"] = spanToJson(*B.Spans);
        if (!B.DataType.empty())
          More["dataType"] = B.DataType;
        T.push_back(std::move(More));
      }
      A.push_back(std::move(T));
    }
    O["buffers"] = std::move(A);
  }
  if (!PerCall.empty()) {
    json::Array A;
    for (const PerCallHandle &H : PerCall)
      A.push_back(json::Array{H.Lt ? "lt-handle" : "handle", H.Create, H.Line});
    O["perCall"] = std::move(A);
  }
  if (!DestroyedGlobals.empty()) {
    json::Array A;
    for (const std::string &G : DestroyedGlobals)
      A.push_back(G);
    O["destroysGlobals"] = std::move(A);
  }
  if (!CreatedGlobals.empty()) {
    json::Array A;
    for (const CreatedGlobal &G : CreatedGlobals)
      A.push_back(json::Array{G.Key, G.Name, G.Noun, G.Line});
    O["createsGlobals"] = std::move(A);
  }
  if (TouchedMembers) {
    json::Array A;
    for (const std::string &M : *TouchedMembers)
      A.push_back(M);
    O["touchesMembers"] = std::move(A);
  }
  return O;
}

/// One entry of "buffers": [index, callee, spelled, arg, line, {more}?].
static std::optional<FunctionSummary::BufferParam>
bufferFromJson(const json::Value &B) {
  const json::Array *T = B.getAsArray();
  if (!T || T->size() < 5 || T->size() > 6)
    return std::nullopt;
  auto Index = (*T)[0].getAsInteger(), Arg = (*T)[3].getAsInteger(),
       Line = (*T)[4].getAsInteger();
  auto Callee = (*T)[1].getAsString(), Spelled = (*T)[2].getAsString();
  if (!Index || !Arg || !Line || !Callee || !Spelled || *Index < 0 ||
      *Arg < 0 || *Line < 0)
    return std::nullopt;
  FunctionSummary::BufferParam P{
      static_cast<unsigned>(*Index), Callee->str(), Spelled->str(),
      static_cast<unsigned>(*Arg), static_cast<unsigned>(*Line), std::nullopt,
      ""};
  if (T->size() == 6) {
    const json::Object *More = (*T)[5].getAsObject();
    if (!More)
      return std::nullopt;
    if (const json::Object *Span = More->getObject("span")) {
      P.Spans = spanFromJson(*Span);
      if (!P.Spans)
        return std::nullopt;
    }
    P.DataType = More->getString("dataType").value_or("").str();
  }
  return P;
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
  if (O->get("status")) {
    auto Role = enumNamed<StatusRole>(StatusNames, O->getString("status"));
    if (!Role)
      return std::nullopt;
    S.Status = *Role;
  }
  if (auto Wrapped = O->getString("wrapped")) {
    S.Wrapped = Wrapped->str();
    S.WrappedLine = static_cast<unsigned>(
        std::max<int64_t>(0, O->getInteger("wrappedLine").value_or(0)));
  }
  if (const json::Array *A = O->getArray("handles"))
    for (const json::Value &H : *A) {
      const json::Array *Pair = H.getAsArray();
      if (!Pair || Pair->size() != 2)
        return std::nullopt;
      auto Index = (*Pair)[0].getAsInteger();
      auto Effect = enumNamed<HandleEffect>(EffectNames, (*Pair)[1].getAsString());
      if (!Index || *Index < 0 || !Effect)
        return std::nullopt;
      S.Handles.push_back({static_cast<unsigned>(*Index), *Effect});
    }
  if (const json::Array *A = O->getArray("buffers"))
    for (const json::Value &B : *A) {
      std::optional<BufferParam> P = bufferFromJson(B);
      if (!P)
        return std::nullopt;
      S.Buffers.push_back(std::move(*P));
    }
  if (const json::Array *A = O->getArray("perCall"))
    for (const json::Value &H : *A) {
      const json::Array *T = H.getAsArray();
      if (!T || T->size() != 3)
        return std::nullopt;
      auto Kind = (*T)[0].getAsString(), Create = (*T)[1].getAsString();
      auto Line = (*T)[2].getAsInteger();
      if (!Kind || (*Kind != "handle" && *Kind != "lt-handle") || !Create ||
          !Line || *Line < 0)
        return std::nullopt;
      S.PerCall.push_back(
          {*Kind == "lt-handle", Create->str(), static_cast<unsigned>(*Line)});
    }
  if (const json::Array *A = O->getArray("destroysGlobals"))
    for (const json::Value &G : *A) {
      std::optional<llvm::StringRef> Name = G.getAsString();
      if (!Name || Name->empty())
        return std::nullopt;
      S.DestroyedGlobals.push_back(Name->str());
    }
  if (const json::Array *A = O->getArray("createsGlobals"))
    for (const json::Value &G : *A) {
      const json::Array *T = G.getAsArray();
      if (!T || T->size() != 4)
        return std::nullopt;
      auto Key = (*T)[0].getAsString(), Name = (*T)[1].getAsString(),
           Noun = (*T)[2].getAsString();
      auto Line = (*T)[3].getAsInteger();
      if (!Key || Key->empty() || !Name || !Noun || !Line || *Line < 0)
        return std::nullopt;
      S.CreatedGlobals.push_back({Key->str(), Name->str(), Noun->str(),
                                  static_cast<unsigned>(*Line)});
    }
  if (const json::Array *A = O->getArray("touchesMembers")) {
    S.TouchedMembers.emplace();
    for (const json::Value &M : *A) {
      std::optional<llvm::StringRef> Name = M.getAsString();
      if (!Name || Name->empty())
        return std::nullopt;
      S.TouchedMembers->push_back(Name->str());
    }
  }
  return S;
}

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

std::string SummaryStore::digest(llvm::ArrayRef<std::string> Keys) const {
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
        FileSummary One{F->File, F->FileHash, {*F->routeOf(Callee)}};
        OS << One.toJson() << ";";
      }
      OS << "\n";
      Hash.update(Text);
      continue;
    }
    if (llvm::StringRef(K).starts_with("global:")) {
      std::string Text = K + "=";
      for (const FunctionSummary *S :
           destroyersOf(llvm::StringRef(K).drop_front(7)))
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
    return llvm::createStringError(Buffer.getError(), "cannot read it: " +
                                                          Buffer.getError().message());
  return fromText((*Buffer)->getBuffer(), Tool);
}

std::string contentsHash(llvm::StringRef Contents) {
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(Contents)),
                     /*LowerCase=*/true)
      .substr(0, 32);
}

namespace {

/// Whether `Path` still has the contents hashed `Hash`: read once per
/// process and modification time.
bool fileUnchanged(llvm::StringRef Path, llvm::StringRef Hash) {
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

} // namespace

llvm::StringRef summaryFormat() {
  return "cublas-tidy " CUBLAS_TIDY_PROJECT_VERSION " summaries 3";
}

/// The name the linker knows `D` (a function or a variable) by.
static std::string linkerName(const NamedDecl *D, GlobalDecl GD) {
  std::unique_ptr<MangleContext> MC(D->getASTContext().createMangleContext());
  std::string Key;
  llvm::raw_string_ostream OS(Key);
  if (MC->shouldMangleDeclName(D))
    MC->mangleName(GD, OS);
  else
    OS << D->getName();
  return Key;
}

std::string globalKey(const VarDecl *VD) {
  if (!VD || !VD->hasGlobalStorage() || VD->isStaticLocal() ||
      VD->isStaticDataMember() || !VD->isExternallyVisible() ||
      VD->getDeclContext()->isDependentContext() || !VD->getIdentifier())
    return "";
  VD = VD->getCanonicalDecl();
  return linkerName(VD, GlobalDecl(VD));
}

std::string summaryKey(const FunctionDecl *FD) {
  if (!FD || isa<CXXConstructorDecl>(FD) || FD->isDependentContext() ||
      !FD->isExternallyVisible() || FD->getDeclName().isEmpty())
    return "";
  FD = FD->getCanonicalDecl();
  if (const auto *D = dyn_cast<CXXDestructorDecl>(FD))
    return linkerName(D, GlobalDecl(D, Dtor_Complete));
  if (!FD->getDeclName().isIdentifier())
    return "";
  return linkerName(FD, GlobalDecl(FD));
}

ProjectFactsScope::ProjectFactsScope(const SummaryStore *Store,
                                     std::vector<std::string> *Asked,
                                     std::vector<FunctionSummary> *Made,
                                     std::vector<FileSummary> *MadeFiles)
    : PrevStore(CurrentStore), PrevAsked(CurrentAsked), PrevMade(CurrentMade),
      PrevMadeFiles(CurrentMadeFiles), PrevMadeFor(MadeFor) {
  CurrentStore = Store;
  CurrentAsked = Asked;
  CurrentMade = Made;
  CurrentMadeFiles = MadeFiles;
  MadeFor = nullptr;
  ++ScopeDepth;
}

ProjectFactsScope::~ProjectFactsScope() {
  --ScopeDepth;
  CurrentStore = PrevStore;
  CurrentAsked = PrevAsked;
  CurrentMade = PrevMade;
  CurrentMadeFiles = PrevMadeFiles;
  MadeFor = PrevMadeFor;
}

bool projectFactsActive() { return storeInUse() != nullptr; }

bool projectFactsWanted() { return storeInUse() || CurrentAsked; }

void setThreadDefaultStore(std::shared_ptr<const SummaryStore> Store) {
  DefaultStore = std::move(Store);
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

std::vector<FunctionSummary> *summarySinkFor(const ASTContext &Ctx) {
  if (!CurrentMade || MadeFor == &Ctx)
    return nullptr;
  MadeFor = &Ctx;
  return CurrentMade;
}

std::vector<FileSummary> *fileSummarySink() { return CurrentMadeFiles; }

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

/// The absolute path of the main file of `Ctx`'s unit.
static const std::string &mainFileOf(const ASTContext &Ctx) {
  return *MainFiles.get(Ctx, 0, [&] {
    const SourceManager &SM = Ctx.getSourceManager();
    return std::make_unique<std::string>(
        absolutePathOf(SM, SM.getMainFileID()));
  });
}

/// Whether what `Store` says of `File` (summarised when it had the
/// contents hashed `Hash`) may be used in `Ctx`'s unit.
static bool usableFor(const SummaryStore &Store, const std::string &File,
                      llvm::StringRef Hash, const ASTContext &Ctx) {
  // A store made in this run is as new as the files; one read from a file
  // may be older than the file that defines the function.
  if (Store.mayBeStale() && !fileUnchanged(File, Hash))
    return false;
  // A summary of the file being analysed is from an older version of it
  // (its functions here have their bodies): the file as it is now decides.
  return File != mainFileOf(Ctx);
}

/// The summary under `Key` in `Store`, when it may be used for a call in
/// `Ctx`'s unit.
static const FunctionSummary *usableSummary(const SummaryStore &Store,
                                            llvm::StringRef Key,
                                            const ASTContext &Ctx) {
  const FunctionSummary *S = Store.find(Key);
  return S && usableFor(Store, S->File, S->FileHash, Ctx) ? S : nullptr;
}

std::string useStoreForUnit(const ASTContext &Ctx, llvm::StringRef Option,
                            std::string &Problem) {
  struct Resolved {
    std::string Option;
    std::shared_ptr<const SummaryStore> Store;
  };
  thread_local TranslationUnitCache<int, Resolved> Units;
  bool New = false;
  Resolved &R = *Units.get(Ctx, 0, [&] {
    New = true;
    return std::make_unique<Resolved>();
  });
  if (!New && R.Option == Option) {
    DefaultStore = R.Store;
    return "";
  }
  R.Option = Option.str();
  R.Store.reset();
  std::string Path = Option.str();
  if (Path.empty()) {
    const SourceManager &SM = Ctx.getSourceManager();
    std::string Main = absolutePathOf(SM, SM.getMainFileID());
    Path = Main.empty() ? "" : findStoreFor(Main);
  }
  if (!Path.empty() && Path != "none")
    R.Store = sharedStore(Path, Problem);
  DefaultStore = R.Store;
  return Problem.empty() ? "" : Path;
}

const FunctionSummary *projectSummary(const FunctionDecl *FD) {
  const SummaryStore *Store = storeInUse();
  if (!FD || (!Store && !CurrentAsked))
    return nullptr;
  // The analyses ask again and again about one function (the handle
  // analysis at each path through a call): it is answered once per store,
  // and recorded once per record of questions.
  FD = FD->getCanonicalDecl();
  const ASTContext &Ctx = FD->getASTContext();
  Answer &A = *Answers.get(Ctx, FD, [&] {
    auto New = std::make_unique<Answer>();
    New->Key = summaryKey(FD);
    return New;
  });
  if (A.Key.empty())
    return nullptr;
  if (CurrentAsked && A.RecordedIn != CurrentAsked) {
    CurrentAsked->push_back(A.Key);
    A.RecordedIn = CurrentAsked;
  }
  if (!A.Answered || A.From != Store) {
    A.Summary = Store ? usableSummary(*Store, A.Key, Ctx) : nullptr;
    A.From = Store;
    A.Answered = true;
  }
  return A.Summary;
}

const FunctionSummary *projectSummaryOfCall(const CallExpr *Call) {
  if (!projectFactsWanted())
    return nullptr;
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || isa<CXXOperatorCallExpr>(Call) || FD->getDefinition() ||
      calledCublasFunction(Call) ||
      FD->getASTContext().getSourceManager().isInSystemHeader(
          FD->getLocation()))
    return nullptr;
  return projectSummary(FD);
}

std::vector<std::pair<const FunctionDecl *, const FunctionSummary *>>
projectCallees(llvm::ArrayRef<const Decl *> Callables,
               llvm::function_ref<bool(const FunctionSummary &)> Wanted) {
  std::vector<std::pair<const FunctionDecl *, const FunctionSummary *>> Out;
  if (!projectFactsWanted())
    return Out;
  llvm::SmallPtrSet<const FunctionDecl *, 16> Seen;
  for (const Decl *Callable : Callables)
    for (const CallExpr *Call : callsIn(Callable)) {
      const FunctionDecl *FD = Call->getDirectCallee();
      if (!FD || isa<CXXOperatorCallExpr>(Call) ||
          !Seen.insert(FD->getCanonicalDecl()).second)
        continue;
      if (const FunctionSummary *S = projectSummaryOfCall(Call);
          S && Wanted(*S))
        Out.push_back({FD, S});
    }
  return Out;
}

const FunctionSummary *projectDestroyerOf(const VarDecl *VD) {
  if (!VD || (!storeInUse() && !CurrentAsked))
    return nullptr;
  std::string Key = globalKey(VD);
  return Key.empty() ? nullptr : projectDestroyerOf(Key, VD->getASTContext());
}

const FunctionSummary *projectDestroyerOf(llvm::StringRef Key,
                                          const ASTContext &Ctx) {
  const SummaryStore *Store = storeInUse();
  if (Key.empty() || (!Store && !CurrentAsked))
    return nullptr;
  if (CurrentAsked)
    CurrentAsked->push_back(("global:" + Key).str());
  if (!Store)
    return nullptr;
  for (const FunctionSummary *S : Store->destroyersOf(Key))
    if (usableSummary(*Store, S->Key, Ctx) == S)
      return S;
  return nullptr;
}

std::vector<std::pair<const FileSummary *, const FileSummary::ExceptionRoute *>>
projectExceptionRoutes(llvm::StringRef Callee, const ASTContext &Ctx) {
  std::vector<
      std::pair<const FileSummary *, const FileSummary::ExceptionRoute *>>
      Out;
  const SummaryStore *Store = storeInUse();
  if (Callee.empty() || (!Store && !CurrentAsked))
    return Out;
  if (CurrentAsked)
    CurrentAsked->push_back(("catch:" + Callee).str());
  if (!Store)
    return Out;
  for (const FileSummary *F : Store->routesOf(Callee))
    if (usableFor(*Store, F->File, F->FileHash, Ctx))
      Out.push_back({F, F->routeOf(Callee)});
  return Out;
}

} // namespace cublas_tidy
