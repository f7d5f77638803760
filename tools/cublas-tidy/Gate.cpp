//===- Gate.cpp -----------------------------------------------------------===//

#include "Gate.h"

#include "Baseline.h"
#include "ChangedLines.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace llvm;
using namespace cublas_tidy::cli;

namespace cublas_tidy {

/// Stage "plan", the filter: the changed lines (a revision that does not
/// exist is said before any analysis).
std::optional<int> readDiffBase(Invocation &Inv) {
  if (DiffBy != "findings" && DiffBy != "lines") {
    WithColor::error() << "unknown --diff-by '" << DiffBy
                       << "': use findings or lines\n";
    return 1;
  }
  if (!DiffBase.empty()) {
    // The repository of the first file named (the current directory's
    // when --whole-database was given none: a source of the database may
    // lie outside it).
    SmallString<256> Dir;
    if (!Inv.Paths.empty() && !Inv.FromDatabase.count(Inv.Paths.front())) {
      Dir = cublas_tidy::absolutePath(Inv.Paths.front(), "");
      sys::path::remove_filename(Dir);
    } else {
      sys::fs::current_path(Dir);
    }
    Error E = Error::success();
    if (DiffBy == "lines") {
      Expected<cublas_tidy::ChangedLines> C =
          cublas_tidy::ChangedLines::since(DiffBase, Dir);
      if (C)
        Inv.Changed = std::move(*C);
      else
        E = C.takeError();
    } else {
      Expected<cublas_tidy::BaseRevision> B =
          cublas_tidy::BaseRevision::of(DiffBase, Dir);
      if (B)
        Inv.Base = std::move(*B);
      else
        E = B.takeError();
    }
    if (E) {
      WithColor::error() << toString(std::move(E)) << "\n";
      return 1;
    }
  }
  return std::nullopt;
}

/// True when nothing the unit read differs at the base revision: none of
/// its files changed, and the summaries it asked about say the same there.
/// Its findings are then the base's findings too.
static bool sameAtBase(const FileRun &R, const cublas_tidy::BaseRevision &Base,
                       const cublas_tidy::SummaryStore *BaseFacts) {
  if (R.Files.empty())
    return false; // what it reads is unknown
  for (const std::string &F : R.Files)
    if (Base.changed(F))
      return false;
  return R.SeenDigest == digestOf(BaseFacts, R.Asked, R.File);
}

/// The findings of the units analysed with the plan (its texts those of
/// the base revision), as they would be printed.
static std::vector<cublas_tidy::Finding>
findingsOfRuns(const tooling::CompilationDatabase &DB,
               ArrayRef<std::string> Paths, ArrayRef<std::string> SummaryOnly,
               const RunPlan &Plan, cublas_tidy::SummaryStore &Store) {
  if (Paths.empty() && SummaryOnly.empty())
    return {};
  std::vector<FileRun> Runs = runAll(DB, Paths, SummaryOnly, Plan, Store);
  Collected C = collectErrors(Runs);
  cublas_tidy::SourceCache Sources(Plan.Texts);
  return cublas_tidy::toFindings(C.Errors, Sources);
}

/// Where the findings at the revision are keyed from: paths relative to the
/// repository's top, as in a baseline stored there.
static std::string baseKeyPath(const cublas_tidy::BaseRevision &Base) {
  SmallString<256> Key(Base.root());
  sys::path::append(Key, "base");
  return std::string(Key);
}

/// Of the units `Clean` (their own file changed, no findings now), those
/// whose file defined at the revision a function that a finding of
/// `Findings`, not matched by `AtBase`, is in now: where a function with
/// old findings may have moved from.
static std::vector<std::string>
unitsMovedFrom(ArrayRef<std::string> Clean,
               const cublas_tidy::BaseRevision &Base,
               ArrayRef<cublas_tidy::Finding> Findings,
               ArrayRef<cublas_tidy::Finding> AtBase) {
  if (Clean.empty())
    return {};
  std::vector<cublas_tidy::Finding> Left(Findings.begin(), Findings.end());
  cublas_tidy::Baseline::of(AtBase, baseKeyPath(Base)).filter(Left);
  StringSet<> Functions;
  for (const cublas_tidy::Finding &F : Left)
    if (!F.Function.empty())
      Functions.insert(F.Function);
  std::vector<std::string> Out;
  if (Functions.empty())
    return Out;
  for (const std::string &File : Clean) {
    auto Text = Base.texts().find(cublas_tidy::absolutePath(File, ""));
    if (Text == Base.texts().end())
      continue;
    for (const cublas_tidy::FunctionBody &B :
         cublas_tidy::functionBodies(Text->second))
      if (Functions.contains(B.Name)) {
        Out.push_back(File);
        break;
      }
  }
  return Out;
}

/// What findingsAtBase does with each unit, and the summaries of the units
/// whose own file did not change.
struct UnitsAtBase {
  std::vector<std::string> Changed, ChangedSummaryOnly; // own file changed
  std::vector<std::string> ChangedClean; // own file changed, no findings
  std::vector<size_t> Kept;              // unchanged own file, with findings
  std::vector<bool> Untracked;           // not named, not tracked
  cublas_tidy::SummaryStore Store;
};

static UnitsAtBase unitsAtBase(const Collected &C, ArrayRef<FileRun> Runs,
                               const cublas_tidy::BaseRevision &Base,
                               bool CollectFacts) {
  UnitsAtBase U;
  U.Untracked.assign(Runs.size(), false);
  std::vector<bool> HasFindings(Runs.size(), false);
  for (unsigned Owner : C.Owner)
    HasFindings[Owner] = true;
  for (size_t I = 0; I < Runs.size(); ++I) {
    const FileRun &R = Runs[I];
    std::string File = cublas_tidy::absolutePath(R.File, "");
    bool OwnChanged = Base.changed(File);
    if (!OwnChanged) {
      for (const cublas_tidy::FunctionSummary &S : R.Summaries)
        U.Store.add(S);
      for (const cublas_tidy::FileSummary &S : R.FileSummaries)
        U.Store.add(S);
    }
    if (R.Skipped || R.Crashed)
      continue;
    if (Base.isNew(File)) {
      U.Untracked[I] = !R.Named && Base.untracked(File);
      continue;
    }
    bool Report = HasFindings[I] && !R.SummaryOnly;
    if (OwnChanged && Report)
      U.Changed.push_back(R.File);
    else if (OwnChanged && CollectFacts)
      U.ChangedSummaryOnly.push_back(R.File);
    else if (Report)
      U.Kept.push_back(I);
    if (OwnChanged && !Report && !R.SummaryOnly)
      U.ChangedClean.push_back(R.File);
  }
  return U;
}

/// Stage "filter", what the code was (--diff-base): the findings the units
/// with findings have with the revision's text of every file changed since.
/// First the units whose own file changed are analysed again (those without
/// findings only for the summaries of their functions; the other units'
/// summaries are this run's); then a unit whose own file did not change
/// keeps its findings when nothing it reads changed (sameAtBase), and is
/// analysed again otherwise. Compiler errors are left out: they are always
/// reported, but for the sources --whole-database added: those that nothing
/// changed keep their compiler errors old too, and the findings of those
/// git does not track are all old (they are no part of the change).
static std::vector<cublas_tidy::Finding>
findingsAtBase(const tooling::CompilationDatabase &DB, const Invocation &Inv,
               const Collected &C, ArrayRef<cublas_tidy::Finding> Findings,
               ArrayRef<FileRun> Runs, const RunPlan &HeadPlan) {
  const cublas_tidy::BaseRevision &Base = *Inv.Base;
  UnitsAtBase U = unitsAtBase(C, Runs, Base, HeadPlan.CollectFacts);
  auto &[Changed, ChangedSummaryOnly, ChangedClean, Kept, Untracked, Store] = U;
  RunPlan Plan = HeadPlan;
  Plan.Texts = &Base.texts();
  Plan.Cache = nullptr; // its keys read the working tree
  Plan.Skip = false;
  std::vector<cublas_tidy::Finding> Found =
      findingsOfRuns(DB, Changed, ChangedSummaryOnly, Plan, Store);

  const cublas_tidy::SummaryStore *BaseFacts =
      HeadPlan.CollectFacts ? &Store : HeadPlan.Facts;
  std::vector<std::string> Again;
  std::vector<bool> Same(Runs.size(), false);
  for (size_t I : Kept) {
    Same[I] = sameAtBase(Runs[I], Base, BaseFacts);
    if (!Same[I])
      Again.push_back(Runs[I].File);
  }
  for (const cublas_tidy::Finding &F : Findings)
    if (Same[C.Owner[F.ErrorIndex]])
      Found.push_back(F);
  Plan.CollectFacts = false;
  Plan.Facts = BaseFacts;
  cublas_tidy::SummaryStore Unused;
  std::vector<cublas_tidy::Finding> More =
      findingsOfRuns(DB, Again, {}, Plan, Unused);
  Found.insert(Found.end(), More.begin(), More.end());
  // A function moved out of a changed unit that has no findings now keeps
  // the findings it had (Baseline matches them in any file by function):
  // such a unit is analysed as at the revision too when its file defined
  // there a function that a finding not matched so far is in.
  std::vector<std::string> MovedFrom = unitsMovedFrom(
      ChangedClean, Base, Findings, Found);
  std::vector<cublas_tidy::Finding> From =
      findingsOfRuns(DB, MovedFrom, {}, Plan, Unused);
  Found.insert(Found.end(), From.begin(), From.end());
  if (Verbose) {
    size_t N = Changed.size() + Again.size() + MovedFrom.size(),
           K = Kept.size() - Again.size();
    errs() << "cublas-tidy: --diff-base: " << N << " unit"
           << (N == 1 ? "" : "s") << " analysed again as at " << DiffBase
           << "; " << K << " with findings kept as they are (nothing they "
           << "read changed)\n";
  }
  llvm::erase_if(Found, [](const cublas_tidy::Finding &F) {
    return F.Check == "clang-diagnostic-error";
  });
  for (const cublas_tidy::Finding &F : Findings) {
    unsigned Owner = C.Owner[F.ErrorIndex];
    if (Untracked[Owner] || (Same[Owner] && !Runs[Owner].Named &&
                             F.Check == "clang-diagnostic-error"))
      Found.push_back(F);
  }
  return Found;
}

/// --whole-database, --diff-by=lines: whether the change reaches a source
/// the command line did not name: git tracks it, and a file it reads
/// changed (when what it reads is unknown, it may).
static bool changeReaches(const FileRun &R,
                          const cublas_tidy::ChangedLines &Changed) {
  if (Changed.untracked(cublas_tidy::absolutePath(R.File, "")))
    return false;
  return R.Files.empty() || llvm::any_of(R.Files, [&](const std::string &F) {
           return Changed.touches(F);
         });
}

/// Stage "filter": the findings a change brought (--diff-base: those the
/// revision's code does not have, or, by lines, those on lines the change
/// touched), the baseline written (which ends the run) or applied. The errors
/// whose findings remain are kept. The exit code when the run ends here.
static std::optional<int>
filterFindings(Collected &C, std::vector<cublas_tidy::Finding> &Findings,
               const Invocation &Inv, ArrayRef<FileRun> Runs,
               const std::vector<cublas_tidy::Finding> &AtBase) {
  size_t FindingsBefore = Findings.size();
  if (Inv.Base) {
    size_t Old = cublas_tidy::Baseline::of(AtBase, baseKeyPath(*Inv.Base))
                     .filter(Findings);
    if (!Quiet && Old)
      errs() << Old << " finding" << (Old == 1 ? "" : "s") << " also in "
             << DiffBase << " (not new)\n";
  }
  if (Inv.Changed) {
    size_t Old = 0;
    llvm::erase_if(Findings, [&](const cublas_tidy::Finding &F) {
      const FileRun &R = Runs[C.Owner[F.ErrorIndex]];
      bool Keep = F.Check == "clang-diagnostic-error" || F.Where.File.empty() ||
                  Inv.Changed->contains(F.Where.File, F.Where.Line);
      Keep &= R.Named || changeReaches(R, *Inv.Changed);
      Old += !Keep;
      return !Keep;
    });
    if (!Quiet && Old)
      errs() << Old << " finding" << (Old == 1 ? "" : "s")
             << " on lines not changed since " << DiffBase << "\n";
  }
  if (!WriteBaseline.empty()) {
    cublas_tidy::Baseline B =
        cublas_tidy::Baseline::of(Findings, WriteBaseline);
    if (Error E = B.write(WriteBaseline)) {
      WithColor::error() << toString(std::move(E)) << "\n";
      return 1;
    }
    errs() << "wrote " << B.size() << " finding" << (B.size() == 1 ? "" : "s")
           << " to the baseline " << WriteBaseline << "\n";
    return 0;
  }
  if (!BaselineFile.empty()) {
    Expected<cublas_tidy::Baseline> B =
        cublas_tidy::Baseline::read(BaselineFile);
    if (!B) {
      WithColor::error() << toString(B.takeError()) << "\n";
      return 1;
    }
    size_t Accepted = B->filter(Findings);
    if (!Quiet && Accepted)
      errs() << Accepted << " finding" << (Accepted == 1 ? "" : "s")
             << " accepted by the baseline " << BaselineFile << "\n";
  }
  if (Findings.size() == FindingsBefore)
    return std::nullopt;
  std::vector<bool> Keep(C.Errors.size(), false);
  for (const cublas_tidy::Finding &F : Findings)
    Keep[F.ErrorIndex] = true;
  Collected Kept;
  for (size_t I = 0; I < C.Errors.size(); ++I)
    if (Keep[I]) {
      Kept.Errors.push_back(std::move(C.Errors[I]));
      Kept.Owner.push_back(C.Owner[I]);
    }
  C = std::move(Kept);
  return std::nullopt;
}

std::optional<int> gateFindings(const tooling::CompilationDatabase &DB,
                                const Invocation &Inv, const RunPlan &Plan,
                                ArrayRef<FileRun> Runs, Collected &C,
                                std::vector<Finding> &Findings) {
  // Lines, columns and source text are needed only for SARIF and
  // baselines.
  cublas_tidy::SourceCache Sources;
  if (Format == "sarif" || !BaselineFile.empty() || !WriteBaseline.empty() ||
      Inv.Changed || Inv.Base)
    Findings = cublas_tidy::toFindings(C.Errors, Sources);
  std::vector<cublas_tidy::Finding> AtBase;
  if (Inv.Base && !C.Errors.empty())
    AtBase = findingsAtBase(DB, Inv, C, Findings, Runs, Plan);
  return filterFindings(C, Findings, Inv, Runs, AtBase);
}

} // namespace cublas_tidy
