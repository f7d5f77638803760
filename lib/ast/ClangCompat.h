//===- ClangCompat.h - Clang API differences the sources meet --------------===//
//
// The plugin is built against clang-tidy 22 and, alone, against older
// clang-tidy releases (19 is tested). The sources are written against 22;
// each API they use that an older release lacks or spells differently is
// wrapped here, and nowhere else, so that the differences stay in one file.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_AST_CLANGCOMPAT_H
#define CUBLAS_TIDY_AST_CLANGCOMPAT_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/Version.h"
#include "llvm/ADT/StringRef.h"

namespace cublas_tidy::compat {

/// Calls `Use` with a diagnostic `ID` that says `Message`, made outside the
/// engine's reporting path (to hand to another consumer). Since clang 20 a
/// diagnostic carries its own ID and location (none here); before, they are
/// those of the diagnostic the engine is handling, which `Message` replaces.
template <typename Fn>
void withSyntheticDiagnostic(const clang::DiagnosticsEngine &Diags, unsigned ID,
                             llvm::StringRef Message, Fn &&Use) {
#if CLANG_VERSION_MAJOR >= 20
  clang::DiagnosticStorage Storage;
  clang::Diagnostic D(&Diags, clang::SourceLocation(), ID, Storage, Message);
#else
  (void)ID;
  clang::Diagnostic D(&Diags, Message);
#endif
  Use(static_cast<const clang::Diagnostic &>(D));
}

} // namespace cublas_tidy::compat

#endif
