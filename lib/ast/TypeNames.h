//===- TypeNames.h - Names and sizes of declarations and types ------------===//
//
// How the library tables of lib/model name what a program declares: a
// qualified name without inline namespaces ("std::vector" for
// std::__1::vector), the class template behind a type and its arguments,
// and the size of a type in bytes.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_AST_TYPENAMES_H
#define CUBLAS_TIDY_LIB_AST_TYPENAMES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace cublas_tidy {

/// "std::vector" for std::__1::vector, "std::basic_string" for
/// std::__cxx11::basic_string: the qualified name without inline
/// namespaces; empty for anonymous declarations and those in anonymous
/// namespaces or functions.
std::string qualifiedName(const clang::NamedDecl *D);

/// A function of the global namespace or of namespace std (std::malloc).
bool isGlobalFunction(const clang::FunctionDecl *FD);

/// The class template specialization behind `T` (through references and,
/// when `ThroughPointer`, one pointer), with its qualifiedName() in `Name`.
const clang::ClassTemplateSpecializationDecl *
specialization(clang::QualType T, bool ThroughPointer, std::string &Name);

/// True when template argument `Index` of `Spec` is a specialization of
/// the class template `Expected` ("std::allocator").
bool templateArgIs(const clang::ClassTemplateSpecializationDecl *Spec,
                   unsigned Index, llvm::StringRef Expected);

/// The size of one `T` in bytes, when known and not zero (1 for void, as
/// GNU pointer arithmetic counts it).
std::optional<int64_t> sizeInBytes(clang::QualType T,
                                   const clang::ASTContext &Ctx);

} // namespace cublas_tidy

#endif
