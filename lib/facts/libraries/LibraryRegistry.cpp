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
#include "facts/ValueFacts.h"
#include "facts/libraries/RmmModel.h"
#include "facts/libraries/ThrustModel.h"
#include "facts/libraries/TorchModel.h"

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

llvm::ArrayRef<const LibraryModel *> libraryModels() {
  static const LibraryModel *const Models[] = {&torchModel(), &thrustModel(),
                                                 &rmmModel()};
  return Models;
}

} // namespace cublas_tidy
