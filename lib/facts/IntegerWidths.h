//===- IntegerWidths.h - Integers that outgrow the type they pass through -===//
//
// The question any check can ask of an integer argument: can its value
// exceed a type it passes through on the way to the parameter? Two shapes
// do this in cuBLAS code:
//
// - a product computed in 32 bits (`m * k` with `int` operands) that is
//   widened only afterwards to a 64-bit parameter (the `long long` batch
//   strides, the `int64_t` sizes of the _64 API): it has wrapped already;
// - a 64-bit value (`size_t`, `int64_t`, a tensor's `numel()`) narrowed to
//   the `int` of the 32-bit API.
//
// Both are followed through one local (`long long s = m * k;`,
// `int n = x.numel();`). A value is left alone when it is a constant that
// fits, or when the code bounds it from above (ValueBounds.h) or computes
// it in 64 bits first.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_INTEGERWIDTHS_H
#define CUBLAS_TIDY_LIB_FACTS_INTEGERWIDTHS_H

#include "facts/CallerFacts.h"
#include "facts/ProgramInputs.h"
#include "facts/ValueBounds.h"
#include "facts/ValueFacts.h"

#include "clang/AST/Expr.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace cublas_tidy {

/// The width in bits of an integer type (not bool, not an enumeration), or
/// 0.
unsigned integerWidth(clang::QualType T, const clang::ASTContext &Ctx);

/// Whether `V` fits the integer type `T`.
bool fitsType(int64_t V, clang::QualType T, const clang::ASTContext &Ctx);

/// `V` as the integer type `T` stores it (two's complement wrap).
int64_t wrappedTo(int64_t V, clang::QualType T, const clang::ASTContext &Ctx);

/// Arithmetic done in 32 bits whose result is widened afterwards.
struct WrapBeforeWidening {
  /// The outermost 32-bit operation whose result is widened.
  const clang::Expr *Operation = nullptr;
  /// The multiplication in it of two values the code does not bound (the
  /// one to widen first), or Operation itself when it is a constant.
  const clang::BinaryOperator *Product = nullptr;
  /// The type it is computed in ('int', 'unsigned').
  clang::QualType ComputedIn;
  /// The local that holds the value between the operation and the
  /// argument, or null when the operation is in the argument.
  const clang::VarDecl *Through = nullptr;
  /// The exact value, when the operands are constants (then it does not
  /// fit ComputedIn).
  std::optional<int64_t> Value;
};

/// Whether `Arg`, passed to a 64-bit integer parameter at `Call`, carries a
/// 32-bit operation that can wrap: a constant that does not fit, or a
/// product of two values that nothing bounds.
std::optional<WrapBeforeWidening>
wrapBeforeWidening(const clang::Expr *Arg, clang::QualType ParamType,
                   const clang::CallExpr *Call, const ValueFacts &Facts,
                   const UpperBounds &Bounds);

/// Whether `Set`, a cublasLtMatrixLayoutSetAttribute of a 64-bit layout
/// attribute (rows, columns, leading dimension, batch stride), gives it
/// through `&v` a local that holds a 32-bit operation that can wrap (set
/// once, at its declaration). `Attribute` names the attribute.
std::optional<WrapBeforeWidening>
wrapInLayoutAttribute(const clang::CallExpr *Set, const ValueFacts &Facts,
                      const UpperBounds &Bounds, const char *&Attribute);

/// A 64-bit value converted to a 32-bit parameter.
struct Narrowing {
  /// The 64-bit expression that is narrowed (`x.numel()`, `n`).
  const clang::Expr *Source = nullptr;
  /// The conversion (implicit or a cast written in the code).
  const clang::Expr *Conversion = nullptr;
  /// The local the narrowed value is kept in on the way, or null.
  const clang::VarDecl *Through = nullptr;
  /// The source's value is a product the code computed (a multiplication
  /// of values, `numel()`): the likelier one to exceed 32 bits.
  bool FromProduct = false;
  /// The exact value, when constant (then it does not fit).
  std::optional<int64_t> Value;
};

/// Whether `Arg`, passed to a 32-bit integer parameter at `Call`, is a
/// 64-bit value narrowed without a bound.
std::optional<Narrowing> narrowing(const clang::Expr *Arg,
                                   clang::QualType ParamType,
                                   const clang::CallExpr *Call,
                                   const ValueFacts &Facts,
                                   const UpperBounds &Bounds);

/// Whether `E`, an expression of the function `Callable`, is a constant
/// that fits `T` at every call site of that function in this translation
/// unit (the values the program gives it are small).
bool fitsAtEveryCallSite(const clang::Expr *E, clang::QualType T,
                         const clang::Decl *Callable, CallerFacts &Callers);

/// The evidence that a value the code does not bound will outgrow a type:
/// what a finding rests on when the value is not a constant of its own.
struct GrowthEvidence {
  /// The value at a call site whose arguments fix it (then it does not
  /// fit), or nullopt.
  std::optional<int64_t> Value;
  /// A read from outside the program (the command line, the environment,
  /// input) that the value takes, unbounded, or nullopt.
  std::optional<ProgramInput> Input;
  /// The call sites, nearest first, through which the callers give the
  /// value; empty when the function itself fixes or reads it.
  std::vector<CallerFacts::Site> Chain;
};

/// The evidence that `E`, an integer expression of `Callable` (whose own
/// facts are `Facts`), outgrows `T`: a read from outside the program that a
/// term of it takes with no bound on the way (ProgramInputs.h), in
/// `Callable`; a call site (two levels of callers, CallerFacts.h) at which
/// it is a constant that does not fit `T`; or such a read in a caller.
/// nullopt when there is none. `Callers` has its call sites collected.
std::optional<GrowthEvidence> growthEvidence(const clang::Expr *E,
                                             clang::QualType T,
                                             const clang::Decl *Callable,
                                             const ValueFacts &Facts,
                                             CallerFacts &Callers);

} // namespace cublas_tidy

#endif
