//===- PlainUses.h - Uses of a local that a CFG analysis fully sees -------===//
//
// Analyses of local variables over the CFG need to know which references to
// a variable are plain uses (a load, also of a branch of a conditional
// that is loaded, the target of an assignment or of ++/--, an operand cast
// to void), so that every other reference (address
// taken, bound to a reference, captured, ...) can count as an escape.
// PlainUses marks them: show it the statements of a body in pre-order (a
// reference's parent before the reference), then ask isPlain() of each
// reference.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_AST_PLAINUSES_H
#define CUBLAS_TIDY_LIB_AST_PLAINUSES_H

#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseSet.h"

namespace cublas_tidy {

class PlainUses {
public:
  /// Marks the references `S` uses plainly. Returns the reference `S`
  /// stores to (assigns, increments, decrements), if any.
  const clang::DeclRefExpr *visit(const clang::Stmt *S) {
    using namespace clang;
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(S)) {
      if (ICE->getCastKind() == CK_LValueToRValue)
        markPlain(ICE->getSubExpr());
    } else if (const auto *Cast = dyn_cast<ExplicitCastExpr>(S)) {
      if (Cast->getTypeAsWritten()->isVoidType())
        markPlain(Cast->getSubExpr());
    } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->isAssignmentOp())
        return markStore(BO->getLHS());
    } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
      if (UO->isIncrementDecrementOp())
        return markStore(UO->getSubExpr());
    }
    return nullptr;
  }

  /// The reference `E` is (through parentheses), or null.
  static const clang::DeclRefExpr *referenceIn(const clang::Expr *E) {
    while (const auto *P = llvm::dyn_cast_or_null<clang::ParenExpr>(E))
      E = P->getSubExpr();
    return llvm::dyn_cast_or_null<clang::DeclRefExpr>(E);
  }
  /// A load of `E`: of the reference it is, or of both branches of the
  /// conditional it is (`(TransA == NoTrans) ? K : M` read as a value).
  void markPlain(const clang::Expr *E, unsigned Depth = 0) {
    if (const clang::DeclRefExpr *DRE = referenceIn(E)) {
      Plain.insert(DRE);
      return;
    }
    while (const auto *P = llvm::dyn_cast_or_null<clang::ParenExpr>(E))
      E = P->getSubExpr();
    if (const auto *CO = llvm::dyn_cast_or_null<clang::ConditionalOperator>(E);
        CO && Depth < 16) {
      markPlain(CO->getTrueExpr(), Depth + 1);
      markPlain(CO->getFalseExpr(), Depth + 1);
    }
  }
  /// Marks the reference `E` is as a plain store and returns it.
  const clang::DeclRefExpr *markStore(const clang::Expr *E) {
    const clang::DeclRefExpr *DRE = referenceIn(E);
    if (DRE)
      Plain.insert(DRE);
    return DRE;
  }
  bool isPlain(const clang::DeclRefExpr *DRE) const {
    return Plain.contains(DRE);
  }

private:
  llvm::DenseSet<const clang::DeclRefExpr *> Plain;
};

} // namespace cublas_tidy

#endif
