//===- IntegerOverflowCheck.h - cublas-integer-overflow -------------------===//

#ifndef CUBLAS_TIDY_CHECKS_INTEGEROVERFLOWCHECK_H
#define CUBLAS_TIDY_CHECKS_INTEGEROVERFLOWCHECK_H

#include "CublasCallCheck.h"
#include "facts/IntegerWidths.h"
#include "facts/ValueBounds.h"
#include "facts/ValueFacts.h"
#include "model/CublasApi.h"

#include "llvm/ADT/DenseSet.h"

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace clang::tidy::cublas {

/// Finds sizes, leading dimensions, increments, strides and batch counts
/// whose value can exceed a type they pass through: a 32-bit product
/// widened only afterwards to a 64-bit parameter, and a 64-bit value
/// narrowed to an `int` parameter of the 32-bit API.
///
/// For the user-facing documentation see:
/// docs/checks/cublas-integer-overflow.md
class IntegerOverflowCheck : public CublasCallCheck {
public:
  IntegerOverflowCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  /// The values a function's callers give it are known only once every
  /// callable of the unit is matched: every call is visited at its end.
  void clearUnit() override;
  /// A 64-bit value narrowed at one argument of a call.
  struct NarrowedArg {
    cublas_tidy::Narrowing N;
    const Expr *Arg;
    QualType ParamType;
    StringRef Param;
    /// What shows that the value outgrows 'int', when N.Value does not.
    std::optional<cublas_tidy::GrowthEvidence> Evidence;
  };

  void checkCall(const CallExpr *Call, const cublas_tidy::FunctionInfo &F,
                 const Decl *Callable, ASTContext &Ctx) override;
  /// `Where` names what the value is widened to: "the 'long long'
  /// parameter 'strideA' of cublasSgemmStridedBatched".
  /// The callers' facts, with the unit's call sites collected first.
  cublas_tidy::CallerFacts &collectedCallers();
  /// fitsAtEveryCallSite() over collectedCallers().
  bool fitsForCallers(const Expr *E, QualType T, const Decl *Callable);
  /// growthEvidence() over collectedCallers().
  std::optional<cublas_tidy::GrowthEvidence>
  evidenceFor(const Expr *E, QualType T, const Decl *Callable,
              const cublas_tidy::ValueFacts &Facts);
  /// Whether a wrap is reported: a constant that does not fit, a value
  /// with evidence, or (ReportUnproven) a product nothing bounds. Fills
  /// `Evidence`.
  bool wrapReported(const cublas_tidy::WrapBeforeWidening &W,
                    const Decl *Callable, const cublas_tidy::ValueFacts &Facts,
                    std::optional<cublas_tidy::GrowthEvidence> &Evidence);
  /// Whether a narrowing is reported: a constant that does not fit, a
  /// value with evidence, a 64-bit product given to a vector routine, or
  /// (ReportUnproven) a value nothing bounds. Fills `Evidence`.
  bool narrowingReported(const cublas_tidy::Narrowing &Nr, QualType ParamType,
                         bool VectorRoutine, const Decl *Callable,
                         const cublas_tidy::ValueFacts &Facts,
                         std::optional<cublas_tidy::GrowthEvidence> &Evidence);
  /// False when the same operation, by its text, was reported in
  /// `Callable` already (one finding per expression).
  bool firstOfItsText(const Expr *Operation, const Decl *Callable,
                      ASTContext &Ctx);
  /// `Twins`: the same product written again in the call, fixed too.
  void reportWrap(const cublas_tidy::WrapBeforeWidening &W,
                  const std::optional<cublas_tidy::GrowthEvidence> &Evidence,
                  const Expr *Arg, QualType ParamType,
                  const std::string &Where, ASTContext &Ctx,
                  llvm::ArrayRef<const BinaryOperator *> Twins = {});
  /// The notes of the evidence: where the input is read, the call sites
  /// that pass the values.
  void noteEvidence(const cublas_tidy::GrowthEvidence &Evidence,
                    ASTContext &Ctx);
  /// The values narrowed at one call: a constant that does not fit is a
  /// finding of its own; the others are one finding for the call.
  void reportNarrowings(std::vector<NarrowedArg> &Args,
                        const cublas_tidy::FunctionInfo &F,
                        const std::string &Routine, ASTContext &Ctx);
  void noteNarrowing(const NarrowedArg &A, ASTContext &Ctx);

  /// False (default): only values with evidence (constants, the callers'
  /// values, input from outside the program) and 64-bit products the code
  /// computed and narrowed; true: also products of values nothing bounds
  /// and single narrowed sizes.
  const bool ReportUnproven;
  /// With ReportUnproven, "all" (default): every 64-bit value narrowed
  /// without a bound; "products": only the values the code computed as
  /// products (`numel()`, `m * k`) and constants that do not fit.
  std::string NarrowedValues;
  /// Call sites followed per function for values known from the callers.
  const unsigned MaxCallSites;
  cublas_tidy::CallerFacts Callers;
  bool CallSitesCollected = false;
  PerCallable<cublas_tidy::UpperBounds> CallableBounds;
  /// The operations and narrowed values reported in this unit.
  llvm::DenseSet<const void *> Reported;
  std::set<std::pair<const Decl *, std::string>> ReportedTexts;
};

} // namespace clang::tidy::cublas

#endif
