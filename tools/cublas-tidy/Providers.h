//===- Providers.h - Which units define what other units call -------------===//
//
// The order of a project run (docs/ci.md, "Facts across files"): the units
// whose functions other units call are analysed first, so that the others
// see their summaries at once and need no second analysis. Decided from the
// text of each main file, before any parse: a unit provides when it defines
// (a name followed by a parenthesised list and a body) a name that another
// unit mentions and does not define itself. Only the order depends on it:
// a unit that saw other summaries than the project's in the end is analysed
// again, whatever the order.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_TOOLS_PROVIDERS_H
#define CUBLAS_TIDY_TOOLS_PROVIDERS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <set>
#include <string>
#include <vector>

namespace cublas_tidy {

/// The names `Text` defines as functions, and the other names it mentions.
struct NamesInText {
  std::set<std::string> Defined;
  std::set<std::string> Mentioned;
};
NamesInText namesIn(llvm::StringRef Text);

/// For each of `Texts`: whether it provides a function another one calls.
std::vector<bool> providers(llvm::ArrayRef<NamesInText> Texts);

} // namespace cublas_tidy

#endif
