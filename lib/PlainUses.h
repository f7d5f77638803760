//===- PlainUses.h - Uses of a local that a CFG analysis fully sees -------===//
//
// A visitor base for analyses of local variables over the CFG: it marks the
// references to a variable that are plain uses (a load, the target of an
// assignment or of ++/--, an operand cast to void), so that the derived
// visitor can treat every other reference (address taken, bound to a
// reference, captured, ...) as an escape.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_PLAINUSES_H
#define CUBLAS_TIDY_LIB_PLAINUSES_H

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"

namespace cublas_tidy {

/// CRTP base: `Derived` may define `void onStore(const clang::DeclRefExpr *)`
/// to see the references that are assigned or incremented.
template <typename Derived>
class PlainUses : public clang::RecursiveASTVisitor<Derived> {
public:
  bool shouldVisitLambdaBody() const { return true; }

  bool VisitImplicitCastExpr(clang::ImplicitCastExpr *ICE) {
    if (ICE->getCastKind() == clang::CK_LValueToRValue)
      markPlain(ICE->getSubExpr());
    return true;
  }
  bool VisitExplicitCastExpr(clang::ExplicitCastExpr *Cast) {
    if (Cast->getTypeAsWritten()->isVoidType())
      markPlain(Cast->getSubExpr());
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      markStore(BO->getLHS());
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp())
      markStore(UO->getSubExpr());
    return true;
  }

  void onStore(const clang::DeclRefExpr *) {}

protected:
  /// The reference `E` is (through parentheses), or null.
  static const clang::DeclRefExpr *referenceIn(const clang::Expr *E) {
    while (const auto *P = llvm::dyn_cast_or_null<clang::ParenExpr>(E))
      E = P->getSubExpr();
    return llvm::dyn_cast_or_null<clang::DeclRefExpr>(E);
  }
  void markPlain(const clang::Expr *E) {
    if (const clang::DeclRefExpr *DRE = referenceIn(E))
      Plain.insert(DRE);
  }
  void markStore(const clang::Expr *E) {
    if (const clang::DeclRefExpr *DRE = referenceIn(E)) {
      Plain.insert(DRE);
      static_cast<Derived *>(this)->onStore(DRE);
    }
  }
  bool isPlain(const clang::DeclRefExpr *DRE) const {
    return Plain.contains(DRE);
  }

private:
  llvm::DenseSet<const clang::DeclRefExpr *> Plain;
};

} // namespace cublas_tidy

#endif
