//===- DroppedArguments.cpp -----------------------------------------------===//

#include "ast/DroppedArguments.h"

#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroArgs.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace cublas_tidy {

namespace {

class Recorder final : public PPCallbacks {
public:
  Recorder(Preprocessor &PP, std::vector<DroppedArguments::Expansion> &Out)
      : PP(PP), Out(Out) {}

  void MacroExpands(const Token &Name, const MacroDefinition &MD,
                    SourceRange Range, const MacroArgs *Args) override;

private:
  Preprocessor &PP;
  std::vector<DroppedArguments::Expansion> &Out;
};

/// The identifiers a macro's replacement names.
llvm::SmallPtrSet<const IdentifierInfo *, 8> namedInBody(const MacroInfo &MI) {
  llvm::SmallPtrSet<const IdentifierInfo *, 8> Named;
  for (const Token &T : MI.tokens())
    if (const IdentifierInfo *II = T.getIdentifierInfo())
      Named.insert(II);
  return Named;
}

void Recorder::MacroExpands(const Token &Name, const MacroDefinition &MD,
                            SourceRange, const MacroArgs *Args) {
  const MacroInfo *MI = MD.getMacroInfo();
  if (!MI || !Args || !MI->isFunctionLike() || MI->getNumParams() == 0)
    return;
  const SourceManager &SM = PP.getSourceManager();
  SourceLocation Loc = SM.getExpansionLoc(Name.getLocation());
  if (Loc.isInvalid() || SM.isInSystemHeader(Loc))
    return;
  auto Named = namedInBody(*MI);
  DroppedArguments::Expansion E;
  unsigned Index = 0;
  for (const IdentifierInfo *Param : MI->params()) {
    unsigned I = Index++;
    if (Named.count(Param) || I >= Args->getNumMacroArguments())
      continue;
    for (const Token *T = Args->getUnexpArgument(I); T->isNot(tok::eof); ++T)
      if (const IdentifierInfo *II = T->getIdentifierInfo())
        E.Names.push_back(II);
  }
  if (E.Names.empty())
    return;
  E.Loc = Loc;
  E.Macro = Name.getIdentifierInfo()->getName().str();
  E.Written = E.Macro;
  if (Name.getLocation().isMacroID())
    E.Written = Lexer::getSourceText(CharSourceRange::getTokenRange(Loc), SM,
                                     PP.getLangOpts())
                    .str();
  E.UnderNDEBUG = PP.isMacroDefined("NDEBUG");
  Out.push_back(std::move(E));
}

} // namespace

void DroppedArguments::watch(Preprocessor &PP) {
  Expansions.clear();
  PP.addPPCallbacks(std::make_unique<Recorder>(PP, Expansions));
}

const DroppedArguments::Expansion *
DroppedArguments::firstNaming(const IdentifierInfo *Name, SourceLocation After,
                              SourceLocation Before,
                              const SourceManager &SM) const {
  if (!Name || After.isInvalid() || Before.isInvalid())
    return nullptr;
  // Recorded in the order the preprocessor met them: source order.
  for (const Expansion &E : Expansions)
    if (SM.isBeforeInTranslationUnit(After, E.Loc) &&
        SM.isBeforeInTranslationUnit(E.Loc, Before) &&
        llvm::is_contained(E.Names, Name))
      return &E;
  return nullptr;
}

} // namespace cublas_tidy
