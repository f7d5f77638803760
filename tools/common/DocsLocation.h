//===- DocsLocation.h - Where the front ends point users for our pages ----===//
//
// The pages of the checks and of the guides, as URIs a message, a SARIF log
// or an editor can link to: installed next to the executable
// (share/doc/cublas-tidy/html, the package's), else the Markdown of the
// source tree the executable was built from. CUBLAS_TIDY_DOCS_URL names
// another copy of the checks' pages (a web server): `<base>/<check>.md`.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_TOOLS_COMMON_DOCSLOCATION_H
#define CUBLAS_TIDY_TOOLS_COMMON_DOCSLOCATION_H

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <string>

namespace cublas_tidy {

/// A `file://` URI for an absolute path.
inline std::string fileUri(llvm::StringRef Path) {
  std::string Uri = "file://";
  for (char C : Path) {
    if (llvm::isAlnum(C) || llvm::StringRef("-._~/").contains(C))
      Uri += C;
    else
      Uri += "%" + llvm::utohexstr(static_cast<unsigned char>(C), false, 2);
  }
  return Uri;
}

struct DocsLocation {
  std::string Root;   // the guides: <Root>/broken-code<Suffix>
  std::string Checks; // the checks: <Checks>/<check><Suffix>
  std::string Suffix; // ".html" or ".md"
  std::string Index;  // where they start: the index, or the README

  std::string page(llvm::StringRef Name) const {
    return Root + "/" + Name.str() + Suffix;
  }
  std::string check(llvm::StringRef Name) const {
    return Checks + "/" + Name.str() + Suffix;
  }
};

/// The pages for the executable `Argv0` (`MainAddr`: its `main`), built from
/// a source tree whose docs/ is `SourceDocs`.
inline DocsLocation docsLocation(const char *Argv0, void *MainAddr,
                                 llvm::StringRef SourceDocs) {
  llvm::SmallString<256> Readme(llvm::sys::path::parent_path(SourceDocs));
  llvm::sys::path::append(Readme, "README.md");
  DocsLocation D{fileUri(SourceDocs), fileUri(SourceDocs) + "/checks", ".md",
                 fileUri(Readme)};
  std::string Exe = llvm::sys::fs::getMainExecutable(Argv0, MainAddr);
  llvm::SmallString<256> Html(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
  llvm::sys::path::append(Html, "share", "doc", "cublas-tidy", "html");
  llvm::SmallString<256> Real;
  llvm::SmallString<256> HtmlChecks(Html);
  llvm::sys::path::append(HtmlChecks, "checks");
  if (!Exe.empty() && llvm::sys::fs::is_directory(HtmlChecks) &&
      !llvm::sys::fs::real_path(Html, Real))
    D = {fileUri(Real), fileUri(Real) + "/checks", ".html",
         fileUri(Real) + "/index.html"};
  if (const char *Env = std::getenv("CUBLAS_TIDY_DOCS_URL"); Env && *Env) {
    D.Checks = Env;
    D.Suffix = ".md";
    llvm::StringRef Base(Env);
    D.Root = Base.ends_with("/checks") ? Base.drop_back(7).str() : Base.str();
    D.Index = D.Root;
  }
  return D;
}

} // namespace cublas_tidy

#endif
