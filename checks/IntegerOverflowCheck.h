//===- IntegerOverflowCheck.h - cublas-integer-overflow -------------------===//

#ifndef CUBLAS_TIDY_CHECKS_INTEGEROVERFLOWCHECK_H
#define CUBLAS_TIDY_CHECKS_INTEGEROVERFLOWCHECK_H

#include "CallableMatchers.h"
#include "CublasCheck.h"
#include "facts/IntegerWidths.h"
#include "facts/ValueBounds.h"
#include "facts/ValueFacts.h"
#include "model/CublasApi.h"

#include "llvm/ADT/DenseSet.h"

#include <vector>

namespace clang::tidy::cublas {

/// Finds sizes, leading dimensions, increments, strides and batch counts
/// whose value can exceed a type they pass through: a 32-bit product
/// widened only afterwards to a 64-bit parameter, and a 64-bit value
/// narrowed to an `int` parameter of the 32-bit API.
///
/// For the user-facing documentation see:
/// docs/checks/cublas-integer-overflow.md
class IntegerOverflowCheck : public CublasCheck {
public:
  IntegerOverflowCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  /// The values a function's callers give it are known only once every
  /// callable of the unit is matched: everything is decided at its end.
  void checkUnit(ASTContext &Ctx) override;
  void clearUnit() override;
  /// A 64-bit value narrowed at one argument of a call.
  struct NarrowedArg {
    cublas_tidy::Narrowing N;
    const Expr *Arg;
    QualType ParamType;
    StringRef Param;
  };

  void checkCall(const CallExpr *Call, const cublas_tidy::FunctionInfo &F,
                 const Decl *Callable,
                 const cublas_tidy::ValueFacts &Facts,
                 const cublas_tidy::UpperBounds &Bounds, ASTContext &Ctx);
  /// `Where` names what the value is widened to: "the 'long long'
  /// parameter 'strideA' of cublasSgemmStridedBatched".
  /// fitsAtEveryCallSite(), with the unit's call sites collected first.
  bool fitsForCallers(const Expr *E, QualType T, const Decl *Callable);
  void reportWrap(const cublas_tidy::WrapBeforeWidening &W, const Expr *Arg,
                  QualType ParamType, const std::string &Where,
                  ASTContext &Ctx);
  /// The values narrowed at one call: a constant that does not fit is a
  /// finding of its own; the others are one finding for the call.
  void reportNarrowings(std::vector<NarrowedArg> &Args,
                        const cublas_tidy::FunctionInfo &F,
                        const std::string &Routine, ASTContext &Ctx);
  void noteNarrowing(const NarrowedArg &A, ASTContext &Ctx);

  /// "all" (default): every 64-bit value narrowed without a bound;
  /// "products": only the values the code computed as products
  /// (`numel()`, `m * k`) and constants that do not fit.
  const std::string NarrowedValues;
  /// Call sites followed per function for values known from the callers.
  const unsigned MaxCallSites;
  cublas_tidy::CallerFacts Callers;
  bool CallSitesCollected = false;
  /// The operations and narrowed values reported in this unit.
  llvm::DenseSet<const void *> Reported;
};

} // namespace clang::tidy::cublas

#endif
