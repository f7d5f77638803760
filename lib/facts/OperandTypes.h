//===- OperandTypes.h - The element types a call's pointers hold ----------===//
//
// The Ex routines take each operand as `const void *` with a cudaDataType_t
// beside it; what the pointer really holds is only in the source, in the
// static type of the argument (`__half *d_A`, `&alpha` of a `float`). This
// reads that type and the model's cudaDataType_t parameters that describe
// each pointer, for the checks to compare.
//
// A library's type-erased pointer (PyTorch's `t.data_ptr()`, a `void *`)
// holds what the library model says (LibraryModel.h's heldType).
//
// Unknown means null: `void *` (after looking through casts to `void *`),
// a typed view of untyped memory (`(__half *)workspace`, an offset from it,
// a local set to it: how the code reads bytes it did not type),
// raw bytes (char, unsigned char, int8_t, std::byte: how code holds data of
// any type), a type the model does not name (model/ComputeTypes.h), a
// template parameter.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_OPERANDTYPES_H
#define CUBLAS_TIDY_LIB_FACTS_OPERANDTYPES_H

#include "model/CublasApi.h"
#include "model/ElementTypes.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <optional>
#include <string>
#include <vector>

namespace cublas_tidy {

class LibraryModel;

/// What a pointer argument points to.
struct HeldType {
  const DataTypeInfo *Type = nullptr; // never null in a result
  std::string Spelled;                // as the source names it: "half"
  unsigned Bytes = 0;                 // sizeof the element
  /// For a library's type-erased pointer (PyTorch's `t.data_ptr()`): the
  /// model that answered, the element type as the library names it
  /// ("Half"), and what set it; empty for a typed pointer.
  const LibraryModel *Library = nullptr;
  llvm::StringRef LibraryType;
  const clang::Expr *LibraryTypeFrom = nullptr;
};

/// The element type `Arg` points to (through `Levels` pointers: 2 for an
/// array of pointers), when it is known.
std::optional<HeldType> heldType(const clang::Expr *Arg, unsigned Levels,
                                 const clang::ASTContext &Ctx);

/// A pointer parameter of a routine and the cudaDataType_t parameter that
/// gives the type of its elements.
struct TypedPointer {
  int Pointer = -1;
  int Type = -1;
  Operand Op = Operand::None;
  unsigned Levels = 1; // 2 for arrays of pointers (batched routines)
};

/// The typed pointers of `F` (the Ex routines and the others that take a
/// cudaDataType_t per operand).
std::vector<TypedPointer> typedPointers(const FunctionInfo &F);

/// The alpha and beta parameters of `F` whose type no cudaDataType_t
/// parameter of their own gives: the compute type decides it. (The other
/// scalars, the c and s of cublasRotEx, have types of their own.)
std::vector<int> untypedScalars(const FunctionInfo &F);

} // namespace cublas_tidy

#endif
