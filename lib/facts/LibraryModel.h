//===- LibraryModel.h - What a library's own objects tell the analyses ----===//
//
// The generic analyses know pointers, integers, and the allocators and
// containers of lib/model (Allocators.h, Containers.h). A library whose
// objects own memory or carry sizes (PyTorch's tensors, RMM's buffers,
// thrust's device pointers) is a model: an object that answers the
// analyses' questions about the library's own expressions, such as
// `t.data_ptr<float>()` or `buf.data()`. Each analysis asks the models in
// order (libraryModels()) and takes the first answer; a model answers
// nullopt for an expression that is not its library's. A new library is a
// new model listed in libraries/LibraryRegistry.cpp; no analysis changes.
//
// The questions, and the analysis that asks each:
//   pointee      what memory a pointer expression points to
//                (PointerProvenance.h);
//   extent       how big the buffer it points into is (Allocations.h);
//   integer      the value of an integer expression, such as a size
//                (ValueFacts.h);
//   heldType     the element type behind a type-erased pointer
//                (OperandTypes.h);
//   ownedHandle  the library's own cuBLAS handle, which the user must
//                neither destroy nor leave reconfigured (HandleNames.h);
//   matrix       the matrix a pointer is when it is an object's storage
//                with a known layout (StorageMatrices.h), with
//                sizeSymbolOf and sizeSpelling for the sizes it names;
//   isElementCount  whether an integer is the count of an object's
//                elements, a product of its sizes (IntegerWidths.h).
// A model's terms() are the words the checks use for its objects.
//
// This header names the answers' types only; the models include the
// analyses they answer for, never the other way round.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_LIBRARYMODEL_H
#define CUBLAS_TIDY_LIB_FACTS_LIBRARYMODEL_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <utility>

namespace cublas_tidy {

struct PointerFact;   // PointerProvenance.h
struct Extent;        // Allocations.h
class SymExpr;        // ValueFacts.h
class ValueFacts;     // ValueFacts.h
struct HeldType;      // OperandTypes.h
struct StorageMatrix; // StorageMatrices.h
struct Symbol;        // SymExpr.h

/// Evaluates a subexpression in the asking analysis's context (its
/// recursion budget and memo included).
using IntegerEvaluator =
    llvm::function_ref<std::optional<SymExpr>(const clang::Expr *)>;

/// The pointer analysis asking a model, at one point of the function: a
/// model that follows subexpressions (`thrust::raw_pointer_cast(p)`) asks
/// back through it.
class PointerQuery {
public:
  virtual ~PointerQuery();
  virtual clang::ASTContext &context() const = 0;
  /// What the pointer expression `E` points to here (kind Null for a null
  /// pointer, Unknown when not known).
  virtual PointerFact pointee(const clang::Expr *E) const = 0;
  /// The storage of the container `Object` (of model/Containers.h; through
  /// a pointer when `Arrow`), taken by the expression `Whole`.
  virtual PointerFact storage(const clang::Expr *Whole,
                              const clang::Expr *Object, bool Arrow) const = 0;
};

/// The extent analysis asking a model.
class ExtentQuery {
public:
  virtual ~ExtentQuery();
  virtual const ValueFacts &facts() const = 0;
  /// The buffer the pointer expression `E` points into.
  virtual std::optional<Extent> extent(const clang::Expr *E) const = 0;
  /// The buffer of the sized container `Object` (of model/Containers.h)
  /// from its element `Index` on.
  virtual std::optional<Extent> element(const clang::Expr *Object,
                                        const clang::Expr *Index) const = 0;
};

/// The words a diagnostic uses for a library's objects: "tensor", "CUDA
/// tensor", "CPU tensor", "dtype"; empty for a library whose objects the
/// diagnostics name otherwise (by their class, as containers).
struct LibraryTerms {
  llvm::StringRef Object;       // an object: "tensor"
  llvm::StringRef DeviceObject; // one whose storage is on the device
  llvm::StringRef HostObject;   // one whose storage is on the host
  llvm::StringRef ElementType;  // what names its element type: "dtype"
};

class LibraryModel {
public:
  virtual ~LibraryModel();

  /// The library's name: "PyTorch", "RMM".
  virtual llvm::StringRef name() const = 0;

  /// What the pointer expression `E` (a call, typically) points to. A fact
  /// of kind Unknown when `E` is the library's but its memory is not known;
  /// nullopt when `E` is not the library's.
  virtual std::optional<PointerFact> pointee(const clang::Expr *E,
                                             const PointerQuery &Q) const;

  /// The buffer the pointer expression `E` points into; nullopt when not
  /// the library's or not known.
  virtual std::optional<Extent> extent(const clang::Expr *E,
                                       const ExtentQuery &Q) const;

  /// The value of the integer expression `E`; nullopt when not the
  /// library's or not known.
  virtual std::optional<SymExpr> integer(const clang::Expr *E,
                                         IntegerEvaluator Evaluate) const;

  /// The element type held behind the type-erased pointer `E` (a `void *`
  /// such as `t.data_ptr()`); nullopt when not known.
  virtual std::optional<HeldType> heldType(const clang::Expr *E,
                                           const clang::ASTContext &Ctx) const;
  /// The call of the library's handle getter whose result `E` is (PyTorch's
  /// `at::cuda::getCurrentCUDABlasHandle()`, also through a local that
  /// keeps it): a handle the library owns and keeps using. Null otherwise.
  virtual const clang::CallExpr *ownedHandle(const clang::Expr *E) const;

  /// The matrix the pointer argument `Ptr` is when it is the storage of one
  /// of the library's objects with a known layout (StorageMatrices.h), in
  /// the context `VF`; nullopt otherwise.
  virtual std::optional<StorageMatrix> matrix(const clang::Expr *Ptr,
                                              const ValueFacts &VF) const;
  /// The object variable and the dimension whose size the symbol `S` is,
  /// when it is one of the library's size symbols (`a.size(0)`).
  virtual std::optional<std::pair<const clang::VarDecl *, int>>
  sizeSymbolOf(const Symbol &S) const;
  /// The source's spelling of the size of dimension `Dim` of the object
  /// named `Object`: "a.size(0)". Empty when the library has none.
  virtual std::string sizeSpelling(llvm::StringRef Object, int Dim) const;

  /// Whether the integer expression `E` counts an object's elements or
  /// bytes, a product of its sizes (`t.numel()`, `t.nbytes()`).
  virtual bool isElementCount(const clang::Expr *E) const;

  /// The words for the library's objects.
  virtual LibraryTerms terms() const;
};

/// Every library model, in the order the analyses ask them
/// (libraries/LibraryRegistry.cpp).
llvm::ArrayRef<const LibraryModel *> libraryModels();

/// The model whose objects are called `Object` (its terms().Object), as
/// an extent's Allocator names them; null when none is.
const LibraryModel *libraryOfObjects(llvm::StringRef Object);

} // namespace cublas_tidy

#endif
