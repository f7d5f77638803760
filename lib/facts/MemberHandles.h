//===- MemberHandles.h - Handles kept in class members --------------------===//
//
// A class that creates a handle or descriptor into one of its data members
// in a constructor (directly, or in a member function the constructor
// calls) and never destroys it: every object of the class leaks one.
//
// Precision first. Nothing is said when any function of the class, or any
// other function of the file, does anything with the member but pass it to
// cuBLAS (a swap, a move that nulls it, an assignment: the handle may be
// released elsewhere), when any of them destroys it, when a function of
// the class has no body in the unit (a destructor or a shutdown() of
// another file may destroy it), or when the file creates no object of the
// class but as a variable of static storage (a singleton lives until the
// process ends). An accessor that returns the member by value
// (`cublasHandle_t get() const { return h_; }`) is followed to its calls:
// it leaves the member in the class when every call in the file hands the
// result to cuBLAS only (directly, or through a local variable).
//
// A class that creates a handle into a member and destroys it in its
// destructor, copied by a copy operation the compiler writes (implicit or
// `= default`): both objects hold the same handle and both destroy it.
// Silent when the destructor's destroy depends on anything but the handle
// itself (a shared count, an ownership flag), when the class never creates
// the handle (it borrows it), and for copies the compiler elides.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_MEMBERHANDLES_H
#define CUBLAS_TIDY_LIB_FACTS_MEMBERHANDLES_H

#include "facts/HandleStates.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>
#include <vector>

namespace cublas_tidy {

struct LeakedMember {
  const clang::CXXRecordDecl *Class = nullptr;
  const clang::FieldDecl *Field = nullptr;
  const clang::CallExpr *Create = nullptr;
  unsigned KindId = 0;
  /// An object of the class that the file creates (not a static).
  const clang::Expr *Object = nullptr;
  /// An accessor that gives the member out (`return h_;`), when the file
  /// only hands what it returns to cuBLAS.
  const clang::CXXMethodDecl *Accessor = nullptr;
  /// The function that creates it after construction, when no
  /// constructor does: a method (`init()`, InitParam -1) or a function
  /// given the object by pointer or reference (`ctx_create(&ctx)`,
  /// InitParam the parameter's index). Object is then a call of it on an
  /// object the calling function makes.
  const clang::FunctionDecl *Init = nullptr;
  int InitParam = -1;
  /// Init is a factory that creates the member in an object it makes and
  /// returns (`Ctx *ctx_create()`, InitParam -1); Object is then a call of
  /// it whose result the calling function keeps in a local.
  bool Returns = false;
};

/// The leaked members of the classes whose constructors are among
/// `Callables` (the callables of user code of one translation unit).
std::vector<LeakedMember>
leakedMembers(llvm::ArrayRef<const clang::Decl *> Callables,
              const ResourceTable &Table);

/// The handle members of `M`'s class that `M` (a member function with a
/// body, not a constructor) does something with other than passing them
/// to cuBLAS or creating into them (a destroy, a copy, a getter): by
/// qualified name ("ns::Gemm::handle_"), sorted. Nothing when the class
/// has no handle member.
std::optional<std::vector<std::string>>
membersTouchedBy(const clang::CXXMethodDecl *M, const ResourceTable &Table);

/// A copy that shares a handle member with its original.
struct SharedHandleCopy {
  /// The class of the object copied: `Owner`, or a class that holds an
  /// `Owner` by value (and copies it with its own copy).
  const clang::CXXRecordDecl *Copied = nullptr;
  /// The class whose destructor destroys `Field`.
  const clang::CXXRecordDecl *Owner = nullptr;
  const clang::FieldDecl *Field = nullptr;
  /// The destroy that runs for each of the two objects.
  const clang::CallExpr *Destroy = nullptr;
  /// The copy: a CXXConstructExpr, the call of a copy assignment, or the
  /// call of a standard container's method that copies into it.
  const clang::Expr *Copy = nullptr;
  bool Assignment = false;
  /// The container method that copies (`push_back`, `emplace_back`,
  /// `insert`, ...): the copy is in the library, asked for here. Empty for
  /// a copy written in user code.
  llvm::StringRef Through;
  unsigned KindId = 0;
};

/// The copies in `Callables` (the callables of user code of one translation
/// unit) that share a handle member, by the rules above.
std::vector<SharedHandleCopy>
sharedHandleCopies(llvm::ArrayRef<const clang::Decl *> Callables,
                   const ResourceTable &Table);

} // namespace cublas_tidy

#endif
