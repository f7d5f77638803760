//===- SummaryParts.cpp - A function's summary, part by part, as JSON -----===//
//
// A function's summary is where and what the function is, and parts, each
// said by one fact (docs/architecture.md, "Facts across translation
// units"). Each part is written and read here in one block: whether the
// summary has something of it, its JSON, and reading it back (false when
// it does not parse). The list at the end names every part once: a new
// part is its field in FunctionSummary, its block, and its line there.
//
//===----------------------------------------------------------------------===//

#include "facts/SummaryStore.h"

#include "llvm/ADT/ArrayRef.h"

#include <algorithm>

namespace json = llvm::json;

namespace cublas_tidy {

namespace {

using BufferParam = FunctionSummary::BufferParam;

/// One part of a function's summary.
struct SummaryPart {
  /// Whether `S` says something of this part.
  bool (*Has)(const FunctionSummary &S);
  /// Writes it into `O` (only when Has()).
  void (*Write)(const FunctionSummary &S, json::Object &O);
  /// Reads it from `O` into `S`; false when it is there but does not parse.
  bool (*Read)(const json::Object &O, FunctionSummary &S);
};

template <typename EnumT, size_t N>
std::optional<EnumT> enumNamed(const llvm::StringLiteral (&Names)[N],
                               std::optional<llvm::StringRef> Name) {
  for (size_t I = 0; Name && I < N; ++I)
    if (*Name == Names[I])
      return static_cast<EnumT>(I);
  return std::nullopt;
}

/// A line number, an index: an integer that is not negative.
std::optional<unsigned> natural(const json::Value &V) {
  std::optional<int64_t> N = V.getAsInteger();
  if (!N || *N < 0)
    return std::nullopt;
  return static_cast<unsigned>(*N);
}

/// Reads each element of the array `Name` of `O` (when there) with `One`;
/// false when one does not parse.
template <typename OneT>
bool readEach(const json::Object &O, llvm::StringRef Name, OneT One) {
  if (const json::Array *A = O.getArray(Name))
    for (const json::Value &V : *A)
      if (!One(V))
        return false;
  return true;
}

json::Array stringsToJson(llvm::ArrayRef<std::string> Strings) {
  json::Array A;
  for (const std::string &S : Strings)
    A.push_back(S);
  return A;
}

/// Appends the non-empty string `V` to `Out`; false for anything else.
bool readName(const json::Value &V, std::vector<std::string> &Out) {
  std::optional<llvm::StringRef> Name = V.getAsString();
  if (!Name || Name->empty())
    return false;
  Out.push_back(Name->str());
  return true;
}

// --- status: a checker, or a wrapper of one cuBLAS call
// (facts/StatusFunctions.h).

constexpr llvm::StringLiteral StatusNames[] = {"unknown", "checker",
                                               "wrapper"};

const SummaryPart StatusPart = {
    [](const FunctionSummary &S) {
      return S.Status != FunctionSummary::StatusRole::Unknown;
    },
    [](const FunctionSummary &S, json::Object &O) {
      O["status"] = StatusNames[static_cast<int>(S.Status)];
      if (!S.Wrapped.empty()) {
        O["wrapped"] = S.Wrapped;
        O["wrappedLine"] = S.WrappedLine;
      }
    },
    [](const json::Object &O, FunctionSummary &S) {
      if (O.get("status")) {
        auto Role = enumNamed<FunctionSummary::StatusRole>(
            StatusNames, O.getString("status"));
        if (!Role)
          return false;
        S.Status = *Role;
      }
      if (auto Wrapped = O.getString("wrapped")) {
        S.Wrapped = Wrapped->str();
        S.WrappedLine = static_cast<unsigned>(
            std::max<int64_t>(0, O.getInteger("wrappedLine").value_or(0)));
      }
      return true;
    }};

// --- handles: the handle parameters it destroys or keeps
// (facts/HandleStates.h).

constexpr llvm::StringLiteral EffectNames[] = {"keeps", "destroys"};

const SummaryPart HandlesPart = {
    [](const FunctionSummary &S) { return !S.Handles.empty(); },
    [](const FunctionSummary &S, json::Object &O) {
      json::Array A;
      for (const FunctionSummary::HandleParam &H : S.Handles)
        A.push_back(
            json::Array{H.Index, EffectNames[static_cast<int>(H.Effect)]});
      O["handles"] = std::move(A);
    },
    [](const json::Object &O, FunctionSummary &S) {
      return readEach(O, "handles", [&](const json::Value &H) {
        const json::Array *Pair = H.getAsArray();
        if (!Pair || Pair->size() != 2)
          return false;
        std::optional<unsigned> Index = natural((*Pair)[0]);
        auto Effect = enumNamed<FunctionSummary::HandleEffect>(
            EffectNames, (*Pair)[1].getAsString());
        if (!Index || !Effect)
          return false;
        S.Handles.push_back({*Index, *Effect});
        return true;
      });
    }};

// --- buffers: the pointer parameters it gives to cuBLAS, with what the
// call spans through them and the type it states (facts/BufferParams.h).

json::Value spanToJson(const BufferParam::Span &P) {
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

/// One entry of a span's "layout": [name, polynomial].
bool readLayout(const json::Value &L, BufferParam::Span &P) {
  const json::Array *A = L.getAsArray();
  std::optional<ParamPolynomial> V =
      A && A->size() == 2 ? ParamPolynomial::fromJson(&(*A)[1])
                          : std::nullopt;
  if (!V || !(*A)[0].getAsString())
    return false;
  P.Layout.push_back({(*A)[0].getAsString()->str(), std::move(*V)});
  return true;
}

std::optional<BufferParam::Span> spanFromJson(const json::Object &O) {
  BufferParam::Span P;
  auto Operand = O.getString("operand"), Plural = O.getString("plural");
  auto Bytes = O.getInteger("elementBytes");
  std::optional<ParamPolynomial> Elements =
      ParamPolynomial::fromJson(O.get("elements"));
  if (!Operand || !Plural || !Bytes || *Bytes <= 0 || !Elements ||
      !O.getArray("layout") || !O.getArray("positive"))
    return std::nullopt;
  P.Operand = Operand->str();
  P.Plural = Plural->str();
  P.ElementBytes = static_cast<unsigned>(*Bytes);
  P.Elements = std::move(*Elements);
  if (!readEach(O, "layout",
                [&](const json::Value &L) { return readLayout(L, P); }) ||
      !readEach(O, "positive", [&](const json::Value &I) {
        std::optional<unsigned> N = natural(I);
        if (N)
          P.Positive.push_back(*N);
        return N.has_value();
      }))
    return std::nullopt;
  return P;
}

/// One entry of "buffers": [index, callee, spelled, arg, line, {more}?].
json::Value bufferToJson(const BufferParam &B) {
  json::Array T{B.Index, B.Callee, B.Spelled, B.Arg, B.Line};
  if (B.Spans || !B.DataType.empty()) {
    json::Object More;
    if (B.Spans)
      More["span"] = spanToJson(*B.Spans);
    if (!B.DataType.empty())
      More["dataType"] = B.DataType;
    T.push_back(std::move(More));
  }
  return T;
}

std::optional<BufferParam> bufferFromJson(const json::Value &B) {
  const json::Array *T = B.getAsArray();
  if (!T || T->size() < 5 || T->size() > 6)
    return std::nullopt;
  auto Index = natural((*T)[0]), Arg = natural((*T)[3]),
       Line = natural((*T)[4]);
  auto Callee = (*T)[1].getAsString(), Spelled = (*T)[2].getAsString();
  if (!Index || !Arg || !Line || !Callee || !Spelled)
    return std::nullopt;
  BufferParam P{*Index, Callee->str(), Spelled->str(), *Arg, *Line,
                std::nullopt, ""};
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

const SummaryPart BuffersPart = {
    [](const FunctionSummary &S) { return !S.Buffers.empty(); },
    [](const FunctionSummary &S, json::Object &O) {
      json::Array A;
      for (const BufferParam &B : S.Buffers)
        A.push_back(bufferToJson(B));
      O["buffers"] = std::move(A);
    },
    [](const json::Object &O, FunctionSummary &S) {
      return readEach(O, "buffers", [&](const json::Value &B) {
        std::optional<BufferParam> P = bufferFromJson(B);
        if (P)
          S.Buffers.push_back(std::move(*P));
        return P.has_value();
      });
    }};

// --- per call: the handles it creates and destroys on every call
// (facts/RepeatedHandles.h).

const SummaryPart PerCallPart = {
    [](const FunctionSummary &S) { return !S.PerCall.empty(); },
    [](const FunctionSummary &S, json::Object &O) {
      json::Array A;
      for (const FunctionSummary::PerCallHandle &H : S.PerCall)
        A.push_back(
            json::Array{H.Lt ? "lt-handle" : "handle", H.Create, H.Line});
      O["perCall"] = std::move(A);
    },
    [](const json::Object &O, FunctionSummary &S) {
      return readEach(O, "perCall", [&](const json::Value &H) {
        const json::Array *T = H.getAsArray();
        if (!T || T->size() != 3)
          return false;
        auto Kind = (*T)[0].getAsString(), Create = (*T)[1].getAsString();
        std::optional<unsigned> Line = natural((*T)[2]);
        if (!Kind || (*Kind != "handle" && *Kind != "lt-handle") ||
            !Create || !Line)
          return false;
        S.PerCall.push_back({*Kind == "lt-handle", Create->str(), *Line});
        return true;
      });
    }};

// --- the globals a destroy in its body names (facts/DestroyedGlobals.h).

const SummaryPart DestroyedGlobalsPart = {
    [](const FunctionSummary &S) { return !S.DestroyedGlobals.empty(); },
    [](const FunctionSummary &S, json::Object &O) {
      O["destroysGlobals"] = stringsToJson(S.DestroyedGlobals);
    },
    [](const json::Object &O, FunctionSummary &S) {
      return readEach(O, "destroysGlobals", [&](const json::Value &G) {
        return readName(G, S.DestroyedGlobals);
      });
    }};

// --- the globals it creates on every call, unguarded
// (facts/RepeatedHandles.h).

const SummaryPart CreatedGlobalsPart = {
    [](const FunctionSummary &S) { return !S.CreatedGlobals.empty(); },
    [](const FunctionSummary &S, json::Object &O) {
      json::Array A;
      for (const FunctionSummary::CreatedGlobal &G : S.CreatedGlobals)
        A.push_back(json::Array{G.Key, G.Name, G.Noun, G.Line});
      O["createsGlobals"] = std::move(A);
    },
    [](const json::Object &O, FunctionSummary &S) {
      return readEach(O, "createsGlobals", [&](const json::Value &G) {
        const json::Array *T = G.getAsArray();
        if (!T || T->size() != 4)
          return false;
        auto Key = (*T)[0].getAsString(), Name = (*T)[1].getAsString(),
             Noun = (*T)[2].getAsString();
        std::optional<unsigned> Line = natural((*T)[3]);
        if (!Key || Key->empty() || !Name || !Noun || !Line)
          return false;
        S.CreatedGlobals.push_back(
            {Key->str(), Name->str(), Noun->str(), *Line});
        return true;
      });
    }};

// --- the handle members a member function touches
// (facts/MemberHandles.h).

const SummaryPart TouchedMembersPart = {
    [](const FunctionSummary &S) { return S.TouchedMembers.has_value(); },
    [](const FunctionSummary &S, json::Object &O) {
      O["touchesMembers"] = stringsToJson(*S.TouchedMembers);
    },
    [](const json::Object &O, FunctionSummary &S) {
      if (!O.getArray("touchesMembers"))
        return true;
      S.TouchedMembers.emplace();
      return readEach(O, "touchesMembers", [&](const json::Value &M) {
        return readName(M, *S.TouchedMembers);
      });
    }};

/// Every part of a function's summary, once.
const SummaryPart *const Parts[] = {
    &StatusPart,
    &HandlesPart,
    &BuffersPart,
    &PerCallPart,
    &DestroyedGlobalsPart,
    &CreatedGlobalsPart,
    &TouchedMembersPart,
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
         FileHash == O.FileHash && Status == O.Status &&
         Wrapped == O.Wrapped && WrappedLine == O.WrappedLine &&
         Handles == O.Handles && Buffers == O.Buffers &&
         PerCall == O.PerCall && DestroyedGlobals == O.DestroyedGlobals &&
         CreatedGlobals == O.CreatedGlobals &&
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
