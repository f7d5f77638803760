//===- SymExpr.cpp --------------------------------------------------------===//

#include "facts/SymExpr.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace clang;

namespace cublas_tidy {

//===----------------------------------------------------------------------===//
// Symbols and symbolic expressions
//===----------------------------------------------------------------------===//

SymbolTag::~SymbolTag() = default;

std::string Symbol::name() const {
  if (!Decl)
    return "?";
  std::string N = Decl->getNameAsString();
  if (N.empty())
    return "?";
  return Tag ? Tag->name(N) : N;
}

SymExpr SymExpr::constant(int64_t V) {
  SymExpr E;
  E.Const = V;
  return E;
}

SymExpr SymExpr::symbol(const Symbol &S) {
  SymExpr E;
  E.Terms.push_back({Monomial{S, Symbol(), Symbol()}, 1});
  return E;
}

bool SymExpr::addTerm(const Monomial &M, int64_t C) {
  auto It = llvm::lower_bound(
      Terms, M, [](const std::pair<Monomial, int64_t> &T, const Monomial &K) {
        return T.first < K;
      });
  if (It == Terms.end() || !(It->first == M)) {
    if (C != 0)
      Terms.insert(It, {M, C});
    return true;
  }
  if (llvm::AddOverflow(It->second, C, It->second))
    return false;
  if (It->second == 0)
    Terms.erase(It);
  return true;
}

std::optional<Symbol> SymExpr::asSymbol() const {
  if (Const != 0 || Terms.size() != 1)
    return std::nullopt;
  const auto &[M, C] = *Terms.begin();
  if (C != 1 || M.degree() != 1)
    return std::nullopt;
  return M.First;
}

std::optional<SymExpr> SymExpr::add(const SymExpr &O) const {
  SymExpr R = *this;
  if (llvm::AddOverflow(R.Const, O.Const, R.Const))
    return std::nullopt;
  for (const auto &[M, C] : O.Terms)
    if (!R.addTerm(M, C))
      return std::nullopt;
  return R;
}

std::optional<SymExpr> SymExpr::neg() const {
  SymExpr R;
  if (Const == INT64_MIN)
    return std::nullopt;
  R.Const = -Const;
  for (const auto &[M, C] : Terms) {
    if (C == INT64_MIN)
      return std::nullopt;
    R.Terms.push_back({M, -C}); // same order
  }
  return R;
}

std::optional<SymExpr> SymExpr::sub(const SymExpr &O) const {
  std::optional<SymExpr> N = O.neg();
  if (!N)
    return std::nullopt;
  return add(*N);
}

static std::optional<SymExpr::Monomial> multiply(const SymExpr::Monomial &L,
                                                 const SymExpr::Monomial &R) {
  if (L.degree() + R.degree() > 3)
    return std::nullopt;
  llvm::SmallVector<Symbol, 3> All;
  for (const Symbol *S : L.symbols())
    All.push_back(*S);
  for (const Symbol *S : R.symbols())
    All.push_back(*S);
  llvm::sort(All);
  SymExpr::Monomial M{All[0], All[1], All.size() > 2 ? All[2] : Symbol()};
  return M;
}

std::optional<SymExpr> SymExpr::mul(const SymExpr &O) const {
  SymExpr R;
  if (llvm::MulOverflow(Const, O.Const, R.Const))
    return std::nullopt;
  int64_t P;
  for (const auto &[M, C] : Terms)
    if (llvm::MulOverflow(C, O.Const, P) || (P != 0 && !R.addTerm(M, P)))
      return std::nullopt;
  for (const auto &[M, C] : O.Terms)
    if (llvm::MulOverflow(C, Const, P) || (P != 0 && !R.addTerm(M, P)))
      return std::nullopt;
  for (const auto &[LM, LC] : Terms)
    for (const auto &[RM, RC] : O.Terms) {
      std::optional<Monomial> M = multiply(LM, RM);
      if (!M || llvm::MulOverflow(LC, RC, P) || !R.addTerm(*M, P))
        return std::nullopt;
    }
  return R;
}

std::optional<SymExpr> SymExpr::divExact(int64_t D) const {
  if (D == 0 || (D == -1 && Const == INT64_MIN) || Const % D != 0)
    return std::nullopt;
  SymExpr R;
  R.Const = Const / D;
  for (const auto &[M, C] : Terms) {
    if (C % D != 0 || (D == -1 && C == INT64_MIN))
      return std::nullopt;
    R.Terms.push_back({M, C / D}); // same order, none zero
  }
  return R;
}

std::optional<int64_t> SymExpr::lowerBound(const SymbolBounds &Bounds) const {
  auto Least = [&Bounds](const Symbol &S) -> std::optional<int64_t> {
    if (Bounds.Positive.count(S))
      return 1;
    if (S.NonNegative)
      return 0;
    return std::nullopt;
  };
  int64_t Sum = Const;
  for (const auto &[M, C] : Terms) {
    // The least of each symbol's power: an even power is never negative,
    // whatever the symbol; an odd one needs the symbol's own bound.
    int64_t Min = 1;
    llvm::SmallVector<const Symbol *, 3> Symbols = M.symbols();
    for (size_t I = 0; I < Symbols.size();) {
      size_t Power = 1;
      while (I + Power < Symbols.size() && *Symbols[I + Power] == *Symbols[I])
        ++Power;
      std::optional<int64_t> L = Least(*Symbols[I]);
      if (!L && Power % 2 == 1)
        return std::nullopt;
      for (size_t P = 0; P < Power; ++P)
        if (llvm::MulOverflow(Min, L.value_or(0), Min))
          return std::nullopt;
      I += Power;
    }
    if (C < 0)
      return std::nullopt;
    int64_t T;
    if (llvm::MulOverflow(C, Min, T) || llvm::AddOverflow(Sum, T, Sum))
      return std::nullopt;
  }
  return Sum;
}

std::string SymExpr::str() const {
  std::vector<std::pair<std::string, int64_t>> Parts;
  for (const auto &[M, C] : Terms) {
    std::string Name;
    for (const Symbol *S : M.symbols())
      Name += (Name.empty() ? "" : "*") + S->name();
    Parts.push_back({Name, C});
  }
  std::sort(Parts.begin(), Parts.end());
  std::string Out;
  for (const auto &[Name, C] : Parts) {
    if (Out.empty())
      Out = C == 1    ? Name
            : C == -1 ? "-" + Name
                      : std::to_string(C) + "*" + Name;
    else if (C < 0)
      Out += " - " + (C == -1 ? Name : std::to_string(-C) + "*" + Name);
    else
      Out += " + " + (C == 1 ? Name : std::to_string(C) + "*" + Name);
  }
  if (Out.empty())
    return std::to_string(Const);
  if (Const > 0)
    Out += " + " + std::to_string(Const);
  else if (Const < 0)
    Out += " - " + std::to_string(static_cast<uint64_t>(-(Const + 1)) + 1);
  return Out;
}

Order compare(const SymExpr &L, const SymExpr &R, const SymbolBounds &Bounds) {
  std::optional<SymExpr> D = L.sub(R);
  if (!D)
    return Order::Unknown;
  if (std::optional<int64_t> C = D->getConstant())
    return *C < 0 ? Order::Less : *C > 0 ? Order::Greater : Order::Equal;
  if (std::optional<int64_t> LB = D->lowerBound(Bounds))
    return *LB > 0 ? Order::Greater : Order::GreaterOrEqual;
  if (std::optional<SymExpr> N = D->neg())
    if (std::optional<int64_t> LB = N->lowerBound(Bounds))
      return *LB > 0 ? Order::Less : Order::LessOrEqual;
  return Order::Unknown;
}

} // namespace cublas_tidy
