//===- ValueFacts.h - Integers the code proves ----------------------------===//
//
// The value of an integer expression at the point where it is written:
// constants (literals, macros, enumerators, sizeof, constexpr and const
// variables), locals whose every reaching definition gives the same value
// (flow-sensitive, over the CFG), arithmetic on those, and symbolic terms
// for what the code does not fix (a parameter, the result of an opaque
// call), so that `lda = K` against rows `M` compares K with M.
//
// A value is a SymExpr: a constant plus a sum of coefficient * monomial,
// each monomial a symbol or the product of two. Comparisons decide only when
// the difference of two values has a sign that holds for every value of its
// symbols (given the assumptions the caller can justify).
//
// Facts flow into helper functions of the same translation unit: a
// ValueFacts can be created for a callee in the context of one call site, so
// that the callee's parameters take the values of the caller's arguments.
//
// Everything is bounded (CFG size, recursion depth, context depth); what
// exceeds a bound is unknown.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_VALUEFACTS_H
#define CUBLAS_TIDY_LIB_FACTS_VALUEFACTS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>

namespace cublas_tidy {

/// Names the values a library model gives a variable (a tensor's sizes,
/// facts/libraries/TorchModel.h): a Symbol with a Tag is `Decl`'s value of
/// that kind.
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
/// product of two. Arithmetic that overflows 64 bits or needs a product of
/// three symbols fails (nullopt).
class SymExpr {
public:
  struct Monomial {
    Symbol First, Second; // Second.Decl is null for a single symbol
    bool operator<(const Monomial &O) const {
      return First != O.First ? First < O.First : Second < O.Second;
    }
    bool operator==(const Monomial &O) const {
      return First == O.First && Second == O.Second;
    }
    unsigned degree() const { return Second.Decl ? 2 : 1; }
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

class FunctionDefinitions;

/// How a definition of a local variable sets its value.
enum class DefKind {
  Entry,      // a parameter's value on entry
  Init,       // `T v = e;` / `T v(e);` (Value is the initializer; may be null)
  Assign,     // `v = e` (Value is e)
  Compound,   // `v op= e` (Stmt is the operator)
  IncDec,     // `++v`, `v--` (Stmt is the operator)
  OutArgument // `f(&v, ...)` for an allocator that writes v (Stmt is the call)
};

struct Definition {
  const clang::VarDecl *Var = nullptr;
  DefKind Kind = DefKind::Init;
  const clang::Stmt *S = nullptr;     // the defining statement
  const clang::Expr *Value = nullptr; // Init/Assign: the value stored
  unsigned ArgIndex = 0;              // OutArgument: which argument
};

/// Integer values in one function, optionally in the context of one call
/// site (its caller's facts bind the parameters).
class ValueFacts {
public:
  /// Facts of `Callable` (a function, method, lambda or block with a body).
  ValueFacts(const clang::Decl *Callable, clang::ASTContext &Ctx);
  /// Facts of the function `Callee` describes (its context-free facts), at
  /// the call `Site` to it: its parameters are bound to the arguments of
  /// `Site` as `Caller` evaluates them. A parameter that the callee tests in
  /// a condition (a guard such as `if (lda < m) return;`) is left unbound,
  /// since the values that reach the tested code may differ.
  ValueFacts(const ValueFacts &Callee, const clang::CallExpr *Site,
             const ValueFacts &Caller);
  ~ValueFacts();
  ValueFacts(const ValueFacts &) = delete;
  ValueFacts &operator=(const ValueFacts &) = delete;

  /// The value of `E` where it is written; nullopt when unknown.
  std::optional<SymExpr> evaluate(const clang::Expr *E) const;

  /// The definitions of the local (or parameter) `Var` that reach the read
  /// `Use` (a DeclRefExpr naming `Var`; nothing else is placed), or nullopt
  /// when `Var` is not tracked (address escapes, not a local, the CFG could
  /// not be built) or some path reaches `Use` without a definition.
  std::optional<llvm::SmallVector<const Definition *, 4>>
  reachingDefinitions(const clang::VarDecl *Var, const clang::Expr *Use) const;

  /// The caller's facts and argument bound to `Param` in this context.
  struct Binding {
    const ValueFacts *Facts;
    const clang::Expr *Arg;
  };
  std::optional<Binding> binding(const clang::ParmVarDecl *Param) const;

  /// The call site this context was created for (null when none), and the
  /// number of contexts above this one.
  const clang::CallExpr *callSite() const { return Site; }
  unsigned contextDepth() const { return Depth; }
  const ValueFacts *caller() const { return Caller; }

  const clang::Decl *callable() const { return Callable; }
  clang::ASTContext &context() const { return Ctx; }

  /// The element count of a local std::vector / thrust vector `Var` whose
  /// size never changes after its construction: the count it was
  /// constructed with. nullopt when unknown.
  std::optional<SymExpr> containerSize(const clang::VarDecl *Var) const;

private:
  std::optional<SymExpr> eval(const clang::Expr *E, unsigned Depth) const;
  std::optional<SymExpr> evalVar(const clang::DeclRefExpr *DRE,
                                 unsigned Depth) const;
  std::optional<SymExpr> evalDefinition(const Definition &D,
                                        unsigned Depth) const;
  std::optional<SymExpr> evalLibrary(const clang::Expr *E,
                                     unsigned Depth) const;
  std::optional<SymExpr> evalConditional(const clang::ConditionalOperator *CO,
                                         unsigned Depth) const;
  std::optional<SymExpr> evalCall(const clang::CallExpr *Call,
                                  unsigned Depth) const;

  const clang::Decl *Callable;
  clang::ASTContext &Ctx;
  const ValueFacts *Caller = nullptr;
  const clang::CallExpr *Site = nullptr;
  unsigned Depth = 0;
  /// The parameters a condition of the body reads (their values in a
  /// caller's context are not used: the body may guard against them).
  /// Shared by the facts of every context of the function.
  struct GuardedParams {
    std::optional<std::set<const clang::ParmVarDecl *>> Params;
  };
  const std::set<const clang::ParmVarDecl *> &guardedParams() const;
  std::shared_ptr<GuardedParams> Guarded;
  std::shared_ptr<const FunctionDefinitions> Defs;
  mutable std::map<const Definition *, std::optional<SymExpr>> Memo;
  mutable std::set<const Definition *> InProgress;
  mutable llvm::DenseMap<const clang::Expr *, std::optional<SymExpr>>
      Evaluated;
};

/// `E` without the nodes that pass its value through unchanged:
/// parentheses, ConstantExpr, ExprWithCleanups, temporaries.
const clang::Expr *ignoreWrappers(const clang::Expr *E);

} // namespace cublas_tidy

#endif
