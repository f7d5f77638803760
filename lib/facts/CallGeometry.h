//===- CallGeometry.h - The operands of one cuBLAS call, from the facts ---===//
//
// The operand geometry of the API model (model/OperandGeometry.h) at one
// call in the source: each operand's rows and columns (after its transpose
// or side flag), leading dimension or increment, batch stride and count,
// element type and the elements it spans, as symbolic values (ValueFacts)
// that also remember how the source writes them, for messages.
//
// The values come from a CallArguments: the facts at a call (argumentsAt),
// or given values (the tests that hold this geometry against the tracer's).
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_CALLGEOMETRY_H
#define CUBLAS_TIDY_LIB_FACTS_CALLGEOMETRY_H

#include "facts/ValueFacts.h"
#include "model/OperandGeometry.h"

#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace cublas_tidy {

/// The arithmetic of model/OperandGeometry.h's rules over symbolic values
/// (`SymExpr`): the elements an operand spans, for any fact that applies
/// the shared rules (this file's operands, cuBLASLt layouts).
struct SymbolicArithmetic {
  using Value = SymExpr;
  const SymbolBounds &Bounds;

  std::optional<Value> size(ParamRole) { return std::nullopt; }
  Value constant(int64_t C) { return SymExpr::constant(C); }
  std::optional<Value> add(const Value &L, const Value &R) { return L.add(R); }
  std::optional<Value> sub(const Value &L, const Value &R) { return L.sub(R); }
  std::optional<Value> mul(const Value &L, const Value &R) { return L.mul(R); }
  std::optional<Value> max(const Value &, const Value &) {
    return std::nullopt;
  }
  std::optional<int64_t> constantOf(const Value &V) { return V.getConstant(); }
  bool provenLess(const Value &L, const Value &R) {
    return cublas_tidy::provenLess(L, R, Bounds);
  }
};

/// Text for a message, made only when a message needs it: most arguments
/// are never named in one, and looking up how they are written costs more
/// than evaluating them.
class LazyText {
public:
  LazyText() = default;
  LazyText(std::string Fixed) : Made(std::move(Fixed)) {}
  explicit LazyText(std::function<std::string()> Make)
      : Make(std::move(Make)) {}
  const std::string &get() const {
    if (!Made)
      Made = Make ? Make() : std::string();
    return *Made;
  }

private:
  std::function<std::string()> Make;
  mutable std::optional<std::string> Made;
};

/// A value at a call and how the source writes it.
struct ArgValue {
  SymExpr V;
  LazyText Written; // may be empty

  /// `K = 128`, `128`, or `m - 1`; `Name` is what the message calls it
  /// (written text equal to it is not repeated).
  std::string describe(llvm::StringRef Name = "") const;
  /// The value alone: a number, or the expression as written.
  std::string brief() const;
};

/// The arguments of one call of a model function.
class CallArguments {
public:
  virtual ~CallArguments();
  /// The value of parameter `Index`, when known.
  virtual std::optional<ArgValue> value(int Index) const = 0;
  /// The name of the enumerator with value `V` of parameter `Index`'s enum
  /// type ("CUBLAS_OP_T", "CUDA_R_16F"), or the number.
  virtual std::string enumerator(int Index, int64_t V) const = 0;
  /// The enumerator parameter `Index` is given, when its value is known
  /// ("CUDA_R_16F"); empty otherwise.
  std::string knownEnumerator(int Index) const {
    if (Index < 0)
      return {};
    std::optional<ArgValue> A = value(Index);
    std::optional<int64_t> C = A ? A->V.getConstant() : std::nullopt;
    return C ? enumerator(Index, *C) : std::string();
  }
};

/// The arguments of `Call` as `Facts` know them.
std::unique_ptr<CallArguments> argumentsAt(const clang::CallExpr *Call,
                                           const ValueFacts &Facts,
                                           const clang::ASTContext &Ctx,
                                           unsigned MaxTextLength = 40);

/// One operand at one call.
struct OperandAtCall {
  OperandParams Params; // Params.Shape: the row of the shape table
  /// Rows and columns, when known (both shapes agree where the flag is
  /// unknown); Written is how the source spells them ("k + 1").
  std::optional<ArgValue> Rows, Cols;
  /// Which dimensions of the call the rows and columns are, when the shape
  /// is known (Unknown otherwise).
  ShapeDim RowDim = ShapeDim::Unknown, ColDim = ShapeDim::Unknown;
  /// " for transa=CUBLAS_OP_T" when a flag chose the shape.
  std::string SelectorText;
  std::optional<ArgValue> Ld, Inc, Stride, Count;
  /// Its elements (Bytes 0: unknown) and how a message counts them
  /// ("floats", "4-byte elements").
  OperandElement Element;
  std::string Plural;
  /// The elements one batch member spans, and all members of a strided
  /// batch (Member for other calls); nothing when the call touches no
  /// memory through the operand or a value is unknown.
  std::optional<SymExpr> Member, Total;
};

/// The operands of a call of `F`.
class CallGeometry {
public:
  CallGeometry(const FunctionInfo &F, const CallArguments &Args);

  const FunctionInfo &function() const { return F; }
  const CallArguments &arguments() const { return Args; }
  /// At a call, memory is touched only when every dimension, leading
  /// dimension and batch count is at least 1: the symbols they are.
  const SymbolBounds &bounds() const { return Bounds; }
  llvm::ArrayRef<OperandAtCall> operands() const { return Operands; }

private:
  const FunctionInfo &F;
  const CallArguments &Args;
  SymbolBounds Bounds;
  llvm::SmallVector<OperandAtCall, 4> Operands;
};

/// Whether the members of a strided batch of matrices, operand `O`, lie
/// side by side in the rows of one matrix (each attention head's output in
/// its own rows of a [T, H*D] buffer: rows D, stride D, ld H*D): each
/// member's rows begin where the one before ends or later, and the last
/// one's end within the leading dimension, so no two touch the same
/// element. False when a value is unknown or the order is not proven.
bool sideBySideInRows(const OperandAtCall &O, const SymbolBounds &Bounds);

} // namespace cublas_tidy

#endif
