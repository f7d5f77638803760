//===- ParamPolynomial.cpp ------------------------------------------------===//

#include "facts/ParamPolynomial.h"

using namespace clang;
namespace json = llvm::json;

namespace cublas_tidy {

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
    int Others[2] = {-1, -1};
    llvm::SmallVector<const Symbol *, 3> Symbols = M.symbols();
    for (size_t I = 1; I < Symbols.size(); ++I) {
      std::optional<unsigned> S = IndexOf(*Symbols[I]);
      if (!S)
        return std::nullopt;
      Others[I - 1] = static_cast<int>(*S);
    }
    Out.Terms.push_back({*First, Others[0], C, Others[1]});
  }
  return Out;
}

std::optional<SymExpr> ParamPolynomial::bind(
    llvm::function_ref<std::optional<SymExpr>(unsigned)> Arg) const {
  std::optional<SymExpr> Sum = SymExpr::constant(Constant);
  for (const Term &T : Terms) {
    std::optional<SymExpr> V = Arg(T.First);
    for (int Other : {T.Second, T.Third})
      if (V && Other >= 0) {
        std::optional<SymExpr> W = Arg(static_cast<unsigned>(Other));
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
    A.push_back(T.Third < 0
                    ? json::Array{T.First, T.Second, T.Coefficient}
                    : json::Array{T.First, T.Second, T.Third, T.Coefficient});
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
    // [first, second, coefficient], or [first, second, third,
    // coefficient] for a product of three.
    if (!A || (A->size() != 3 && A->size() != 4))
      return std::nullopt;
    bool Three = A->size() == 4;
    auto First = (*A)[0].getAsInteger(), Second = (*A)[1].getAsInteger(),
         Third = Three ? (*A)[2].getAsInteger() : std::optional<int64_t>(-1),
         Coefficient = A->back().getAsInteger();
    if (!First || !Second || !Third || !Coefficient || *First < 0 ||
        *Second < -1 || *Third < -1 || *First > 1000 || *Second > 1000 ||
        *Third > 1000 || (Three && (*Second < 0 || *Third < 0)))
      return std::nullopt;
    Out.Terms.push_back({static_cast<unsigned>(*First),
                         static_cast<int>(*Second), *Coefficient,
                         static_cast<int>(*Third)});
  }
  return Out;
}

} // namespace cublas_tidy
