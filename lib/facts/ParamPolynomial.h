//===- ParamPolynomial.h - A size in terms of a function's parameters -----===//
//
// What a function's cuBLAS call spans through a pointer parameter depends
// on the values its callers give: `lda * (k - 1) + m` in terms of its
// parameters `lda`, `k`, `m`. A summary (facts/Summaries.h) keeps such a
// size as a polynomial of the parameters, by index, that a caller in
// another unit binds to its own arguments' values.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_PARAMPOLYNOMIAL_H
#define CUBLAS_TIDY_LIB_FACTS_PARAMPOLYNOMIAL_H

#include "facts/SymExpr.h"

#include "clang/AST/Decl.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace cublas_tidy {

/// An integer in terms of a function's parameters, by index: a summary's
/// sizes. A constant plus a sum of coefficient * parameter (or the product
/// of two or three), as SymExpr is over symbols.
struct ParamPolynomial {
  struct Term {
    unsigned First;
    int Second; // -1: a term of one parameter
    int64_t Coefficient;
    int Third = -1; // a product of three parameters (`m * n * batch`)
    bool operator==(const Term &O) const {
      return First == O.First && Second == O.Second && Third == O.Third &&
             Coefficient == O.Coefficient;
    }
  };
  int64_t Constant = 0;
  std::vector<Term> Terms;

  /// `V` in terms of the parameters of `FD`: nullopt when it has another
  /// symbol (a local, a value computed in the body).
  static std::optional<ParamPolynomial> of(const SymExpr &V,
                                           const clang::FunctionDecl *FD);
  /// Its value when parameter I has the value `Arg(I)`; nullopt when one
  /// is unknown or the arithmetic fails.
  std::optional<SymExpr>
  bind(llvm::function_ref<std::optional<SymExpr>(unsigned)> Arg) const;
  bool operator==(const ParamPolynomial &O) const {
    return Constant == O.Constant && Terms == O.Terms;
  }
  llvm::json::Value toJson() const;
  static std::optional<ParamPolynomial> fromJson(const llvm::json::Value *V);
};

} // namespace cublas_tidy

#endif
