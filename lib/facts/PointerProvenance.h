//===- PointerProvenance.h - What memory a pointer points to --------------===//
//
// A forward dataflow over a function's CFG that classifies the pointers in
// it by the memory they point to: device memory (cudaMalloc and friends,
// thrust::device_vector), managed memory (cudaMallocManaged), pinned host
// memory (cudaMallocHost, cudaHostAlloc), pageable host memory (arrays and
// variables on the stack, std::vector storage, new[], malloc), the buffer
// of a library's object whose memory the library model knows
// (LibraryModel.h), or unknown (parameters, globals, members, function
// results, anything else).
//
// Values flow through initialisations, assignments, casts, pointer
// arithmetic, conditional expressions and the output parameter of the CUDA
// allocators (`cudaMalloc(&p, n)`). Where paths merge, two different kinds
// make the pointer unknown. A local pointer whose address is passed to any
// other function becomes unknown after that call; one whose address is
// stored, bound to a reference or captured by reference is never tracked.
//
// The same pass follows the pointer mode of cuBLAS and cuSPARSE handles:
// set by cublasSetPointerMode or cusparseSetPointerMode with a constant,
// host after cublasCreate or cusparseCreate, unknown otherwise.
//
// Nothing here depends on clang-tidy.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_POINTERPROVENANCE_H
#define CUBLAS_TIDY_LIB_FACTS_POINTERPROVENANCE_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <functional>
#include <memory>

namespace cublas_tidy {

class LibraryModel;

/// The memory a pointer points to.
enum class MemoryKind : std::uint8_t {
  Unknown,      // not known, or different on different paths
  Null,         // a null pointer on every path that assigns it
  Device,       // device memory
  Managed,      // managed (unified) memory: host and device may use it
  PinnedHost,   // page-locked host memory: device-accessible under UVA
  PageableHost, // ordinary host memory
};

/// How the memory came to be.
enum class OriginKind : std::uint8_t {
  None,       // unknown
  Allocation, // an allocation function (Name: "cudaMalloc", "malloc", ...)
  New,        // a new-expression (Name: "new" or "new[]")
  Container,  // the storage of a container (Name: "std::vector", ...)
  Array,      // an array variable (Object)
  Variable,   // the address of a variable, or of a part of it (Object)
  Library,    // the buffer of a library's object (Where: the expression
              // that takes it, `t.data_ptr<T>()`; Object: the object's
              // variable; Library: the model that answered; Established:
              // what made its memory known)
};

/// Where a pointer's memory was established.
struct PointerOrigin {
  OriginKind Kind = OriginKind::None;
  /// The allocation call, new-expression, or the expression that took the
  /// container's storage (`v.data()`, `&v[0]`); null for Array and Variable.
  const clang::Expr *Where = nullptr;
  /// The array, variable or container variable, when there is one.
  const clang::ValueDecl *Object = nullptr;
  /// The allocation function or container class, e.g. "cudaMalloc",
  /// "new[]", "std::vector", "thrust::device_vector".
  llvm::StringRef Name;
  /// For a library's object: the model whose object it is, the expression
  /// that made its memory known (PyTorch's factory call, `.cpu()`,
  /// `.to(...)` or check), and whether the call that made it named no
  /// device (the host by default).
  const LibraryModel *Library = nullptr;
  const clang::Expr *Established = nullptr;
  bool DefaultDevice = false;

  /// Where to point a note: the expression, else the object's declaration.
  clang::SourceLocation location() const;

  friend bool operator==(const PointerOrigin &L, const PointerOrigin &R) {
    return L.Kind == R.Kind && L.Where == R.Where && L.Object == R.Object &&
           L.Name == R.Name && L.Library == R.Library &&
           L.Established == R.Established &&
           L.DefaultDevice == R.DefaultDevice;
  }
};

/// What a pointer expression points to.
struct PointerFact {
  MemoryKind Kind = MemoryKind::Unknown;
  PointerOrigin Origin; // set for the kinds other than Unknown and Null
};

/// The pointer mode of a cuBLAS handle.
enum class PointerMode : std::uint8_t { Unknown, Host, Device };

struct PointerModeFact {
  PointerMode Mode = PointerMode::Unknown;
  /// The cublasSetPointerMode call that set the mode, or the cublasCreate
  /// call that created the handle in the default host mode.
  const clang::CallExpr *Where = nullptr;
  bool FromCreate = false; // Where is cublasCreate
};

/// The analysis of one function, method, lambda or block body.
class PointerProvenance {
public:
  struct Options {
    /// Functions whose CFG has more blocks than this are not analysed.
    unsigned MaxBlocks = 20000;
    /// The fixpoint stops after this many block visits; everything is then
    /// unknown.
    unsigned MaxBlockVisits = 200000;
    /// Keep the state only at the calls of cuBLAS functions: calls() lists
    /// those alone, and nothing is known at the others. A state is copied
    /// at each call kept: the memory space checks ask about cuBLAS calls
    /// only.
    bool CublasCallsOnly = false;
    /// With CublasCallsOnly, the other calls whose state is kept too (the
    /// calls of functions of other units that pass pointers to cuBLAS).
    std::function<bool(const clang::CallExpr *)> AlsoKeep;
  };

  ~PointerProvenance();
  PointerProvenance(PointerProvenance &&);
  PointerProvenance &operator=(PointerProvenance &&);

  /// Analyses the body of `Callable`. Device and kernel functions of CUDA
  /// code, dependent contexts and bodies without a CFG give an analysis
  /// that knows nothing (complete() is false).
  static PointerProvenance analyze(const clang::Decl *Callable,
                                   clang::ASTContext &Ctx, Options Opts);
  static PointerProvenance analyze(const clang::Decl *Callable,
                                   clang::ASTContext &Ctx) {
    return analyze(Callable, Ctx, Options());
  }

  /// False when nothing could be learnt: no CFG, too many blocks, the visit
  /// budget ran out, or the function is not host code.
  bool complete() const;

  /// True when the analysis of `Callable` could only say "unknown" of the
  /// pointer arguments of its cuBLAS calls: each is a parameter that the
  /// body never changes (through casts, an offset, `&p[i]`), or a scalar
  /// given as the address of a variable while nothing in the body sets a
  /// pointer mode (the mode is the caller's, unknown, or a new handle's
  /// host mode, where a host scalar is right). A quick look at the calls,
  /// for callers that want to skip the dataflow when it cannot find a
  /// wrong memory space.
  static bool learnsNothingWrong(const clang::Decl *Callable);

  /// The calls in the body, reachable ones only, in source order.
  llvm::ArrayRef<const clang::CallExpr *> calls() const;

  /// What `E` (any pointer expression, typically an argument of `Call`)
  /// points to when `Call` is reached, before the call has any effect.
  /// Unknown for calls that are not in calls().
  PointerFact pointee(const clang::CallExpr *Call, const clang::Expr *E) const;

  /// What the pointer variable `Lvalue` names holds when `Call` is reached
  /// (`p` of `&p` given to a call that copies the pointer out, as
  /// cublasLtMatmulDescSetAttribute does). Unknown for an expression that
  /// names no tracked pointer variable.
  PointerFact heldBy(const clang::CallExpr *Call,
                     const clang::Expr *Lvalue) const;

  /// The same for argument `Index` of `Call`.
  PointerFact argument(const clang::CallExpr *Call, unsigned Index) const;

  /// The pointer mode of the cuBLAS handle `Handle` (an expression naming a
  /// variable, or a member of `this`) when `Call` is reached.
  PointerModeFact pointerMode(const clang::CallExpr *Call,
                              const clang::Expr *Handle) const;

private:
  struct Impl;
  explicit PointerProvenance(std::unique_ptr<Impl> I);
  std::unique_ptr<Impl> I;
};

} // namespace cublas_tidy

#endif
