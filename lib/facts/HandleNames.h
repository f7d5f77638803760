//===- HandleNames.h - Which cuBLAS handle an expression names ------------===//
//
// One answer, for every analysis that follows a handle by name (the
// configuration rules of HandleConfig.h, the pointer modes of
// PointerProvenance.h, the destroyed library handles of HandleChecks), to
// "which handle is this argument?": a variable, a member, a library's own
// handle (LibraryModel::ownedHandle), what an accessor of the user's
// returns, or, for a local copy that nothing changes, the handle it copies.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_HANDLENAMES_H
#define CUBLAS_TIDY_LIB_FACTS_HANDLENAMES_H

#include "ast/LocalUses.h"
#include "facts/LibraryModel.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <optional>

namespace cublas_tidy {

/// Which handle an expression names: a variable (parameter, local, global
/// or static), a member of `this` (Base null) or of a variable
/// (`ctx->handle`), a library's own handle (Getter and Library: every
/// at::cuda::getCurrentCUDABlasHandle() is the same handle), or what a
/// function of the user's returns (Getter: `ctx.handle()`, `getHandle()`,
/// with the object in Base). A local initialised with another handle and
/// never changed names that one. An element of an array or a container of
/// handles (`handles[i]`, `handles_[dev]`) names the array or container
/// (Base or Member) with Element set, whatever the index: these names
/// answer questions asked of the array as a whole (who else uses it), not
/// the flow of one element.
struct HandleName {
  const clang::ValueDecl *Base = nullptr;
  const clang::ValueDecl *Member = nullptr;
  const clang::FunctionDecl *Getter = nullptr;
  const LibraryModel *Library = nullptr;
  bool Element = false;

  /// The variable or member of `this` a flow analysis can key its state
  /// on; null for members of other objects, accessors and library
  /// handles, and for elements of arrays.
  const clang::ValueDecl *plainKey() const {
    if (Getter || Library || Element)
      return nullptr;
    if (Member)
      return Base ? nullptr : Member;
    return Base;
  }

  friend bool operator==(const HandleName &L, const HandleName &R) {
    return L.Base == R.Base && L.Member == R.Member && L.Getter == R.Getter &&
           L.Library == R.Library && L.Element == R.Element;
  }
};

/// The object `a[i]` subscripts (a raw array, a pointer, or a class's
/// `operator[]`), through parentheses and implicit casts; null when `E` is
/// no subscript.
const clang::Expr *subscriptedObject(const clang::Expr *E);

/// A library's own handle: the getter call, and the library's model.
struct LibraryHandle {
  const clang::CallExpr *Getter = nullptr;
  const LibraryModel *Library = nullptr;
};

/// The library handle `E` is (the first model that knows it), or nullopt.
std::optional<LibraryHandle> libraryOwnedHandle(const clang::Expr *E);

/// The handle `E` (an expression of type cublasHandle_t) names in
/// `Callable`, when it can be told.
std::optional<HandleName> handleNamed(const clang::Expr *E,
                                      const clang::Decl *Callable);

/// The same, with the unchanged locals of `Callable` the caller keeps
/// across many questions.
std::optional<HandleName> handleNamed(const clang::Expr *E,
                                      const clang::Decl *Callable,
                                      UnchangedVariables &Unchanged);

} // namespace cublas_tidy

#endif
