//===- LibraryRegistry.cpp - The library models the analyses ask ----------===//
//
// The one list of library models (LibraryModel.h), and the answers a model
// gives to the questions it does not override: none. A new library's model
// is one line in the list.
//
//===----------------------------------------------------------------------===//

#include "facts/LibraryModel.h"

#include "facts/Allocations.h"
#include "facts/OperandTypes.h"
#include "facts/PointerProvenance.h"
#include "facts/StorageMatrices.h"
#include "facts/ValueFacts.h"
#include "facts/libraries/RmmModel.h"
#include "facts/libraries/ThrustModel.h"
#include "facts/libraries/torch/TorchModel.h"

namespace cublas_tidy {

LibraryModel::~LibraryModel() = default;
PointerQuery::~PointerQuery() = default;
ExtentQuery::~ExtentQuery() = default;

std::optional<PointerFact> LibraryModel::pointee(const clang::Expr *,
                                                 const PointerQuery &) const {
  return std::nullopt;
}

std::optional<Extent> LibraryModel::extent(const clang::Expr *,
                                           const ExtentQuery &) const {
  return std::nullopt;
}

std::optional<SymExpr> LibraryModel::integer(const clang::Expr *,
                                             IntegerEvaluator) const {
  return std::nullopt;
}

std::optional<HeldType>
LibraryModel::heldType(const clang::Expr *, const clang::ASTContext &) const {
  return std::nullopt;
}

const clang::CallExpr *LibraryModel::ownedHandle(const clang::Expr *) const {
  return nullptr;
}

std::optional<StorageMatrix> LibraryModel::matrix(const clang::Expr *,
                                                  const ValueFacts &) const {
  return std::nullopt;
}

std::optional<std::pair<const clang::VarDecl *, int>>
LibraryModel::sizeSymbolOf(const Symbol &) const {
  return std::nullopt;
}

std::string LibraryModel::sizeSpelling(llvm::StringRef, int) const {
  return std::string();
}

bool LibraryModel::isElementCount(const clang::Expr *) const { return false; }

LibraryTerms LibraryModel::terms() const { return LibraryTerms(); }

llvm::ArrayRef<const LibraryModel *> libraryModels() {
  static const LibraryModel *const Models[] = {&torchModel(), &thrustModel(),
                                                 &rmmModel()};
  return Models;
}

const LibraryModel *libraryOfObjects(llvm::StringRef Object) {
  if (Object.empty())
    return nullptr;
  for (const LibraryModel *M : libraryModels())
    if (M->terms().Object == Object)
      return M;
  return nullptr;
}

} // namespace cublas_tidy
