//===- SymExpr.h - Integers as symbolic expressions -----------------------===//
//
// A value is a SymExpr: a constant plus a sum of coefficient * monomial,
// each monomial a symbol or the product of two. Comparisons decide only when
// the difference of two values has a sign that holds for every value of its
// symbols (given the assumptions the caller can justify). ValueFacts.h
// computes them from the code.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_SYMEXPR_H
#define CUBLAS_TIDY_LIB_FACTS_SYMEXPR_H

#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

namespace cublas_tidy {

/// Names the values a library model gives a variable (a tensor's sizes,
/// facts/libraries/torch/TorchModel.h): a Symbol with a Tag is `Decl`'s
/// value of that kind.
class SymbolTag {
public:
  virtual ~SymbolTag();
  /// The symbol's name in messages, from the variable's: "a.size(0)".
  virtual std::string name(llvm::StringRef Var) const = 0;
};

/// An integer the analysis cannot compute but can name: a parameter (no
/// Instance), or the value that a variable received at one definition
/// (Instance is the defining statement), such as an opaque call's result,
/// or a library's value of a variable (Tag).
struct Symbol {
  const clang::NamedDecl *Decl = nullptr;
  const void *Instance = nullptr;
  /// Of an unsigned type: never negative.
  bool NonNegative = false;
  const SymbolTag *Tag = nullptr;

  bool operator<(const Symbol &O) const {
    if (Decl != O.Decl)
      return Decl < O.Decl;
    return Instance != O.Instance ? Instance < O.Instance : Tag < O.Tag;
  }
  bool operator==(const Symbol &O) const {
    return Decl == O.Decl && Instance == O.Instance && Tag == O.Tag;
  }
  bool operator!=(const Symbol &O) const { return !(*this == O); }
  std::string name() const;
};

/// What the caller of a comparison knows about symbols beyond their type:
/// those known to be at least 1 (cuBLAS returns early for a dimension of 0
/// and rejects negative ones, so at a call the dimensions are >= 1 whenever
/// memory is accessed at all).
struct SymbolBounds {
  std::set<Symbol> Positive;
};

/// Constant + sum of Coefficient * Monomial; a monomial is one symbol or the
/// product of two or three (a strided batch's `m * n * batch`). Arithmetic
/// that overflows 64 bits or needs a product of four symbols fails
/// (nullopt).
class SymExpr {
public:
  /// Its symbols in order, First <= Second <= Third; the absent ones have
  /// a null Decl.
  struct Monomial {
    Symbol First, Second, Third;
    bool operator<(const Monomial &O) const {
      if (First != O.First)
        return First < O.First;
      return Second != O.Second ? Second < O.Second : Third < O.Third;
    }
    bool operator==(const Monomial &O) const {
      return First == O.First && Second == O.Second && Third == O.Third;
    }
    unsigned degree() const {
      return 1 + (Second.Decl ? 1 : 0) + (Third.Decl ? 1 : 0);
    }
    /// Its symbols, in order.
    llvm::SmallVector<const Symbol *, 3> symbols() const {
      llvm::SmallVector<const Symbol *, 3> Out{&First};
      if (Second.Decl)
        Out.push_back(&Second);
      if (Third.Decl)
        Out.push_back(&Third);
      return Out;
    }
  };

  SymExpr() = default;
  static SymExpr constant(int64_t V);
  static SymExpr symbol(const Symbol &S);

  bool isConstant() const { return Terms.empty(); }
  std::optional<int64_t> getConstant() const {
    if (!isConstant())
      return std::nullopt;
    return Const;
  }
  int64_t constantTerm() const { return Const; }
  /// The non-zero terms, by monomial.
  using TermList = llvm::SmallVector<std::pair<Monomial, int64_t>, 2>;
  const TermList &terms() const { return Terms; }
  /// The symbol when the value is exactly one symbol (coefficient 1, no
  /// constant).
  std::optional<Symbol> asSymbol() const;

  std::optional<SymExpr> add(const SymExpr &O) const;
  std::optional<SymExpr> sub(const SymExpr &O) const;
  std::optional<SymExpr> mul(const SymExpr &O) const;
  std::optional<SymExpr> neg() const;
  /// Division by a constant that divides every coefficient and the constant.
  std::optional<SymExpr> divExact(int64_t D) const;

  bool operator==(const SymExpr &O) const {
    return Const == O.Const && Terms == O.Terms;
  }
  bool operator!=(const SymExpr &O) const { return !(*this == O); }

  /// The least value over all values of the symbols allowed by their types
  /// and `Bounds`, when that is bounded below (every non-constant term has a
  /// positive coefficient and a monomial of non-negative symbols).
  std::optional<int64_t> lowerBound(const SymbolBounds &Bounds = {}) const;

  /// `x + 2*n*k - 1`, symbols by name, in a stable order.
  std::string str() const;

private:
  /// Adds `C` to the coefficient of `M`, dropping a term that becomes zero;
  /// false on overflow.
  bool addTerm(const Monomial &M, int64_t C);

  // Values are copied often (memoised, captured, returned): a sorted small
  // vector rather than a std::map keeps a copy one memcpy for the usual
  // one or two terms.
  TermList Terms;
  int64_t Const = 0;
};

/// The order of two values that holds for every value of their symbols.
enum class Order { Unknown, Less, Equal, Greater, LessOrEqual, GreaterOrEqual };
Order compare(const SymExpr &L, const SymExpr &R,
              const SymbolBounds &Bounds = {});
/// True when the order is proven and is `L < R`.
inline bool provenLess(const SymExpr &L, const SymExpr &R,
                       const SymbolBounds &Bounds = {}) {
  return compare(L, R, Bounds) == Order::Less;
}

} // namespace cublas_tidy

#endif
