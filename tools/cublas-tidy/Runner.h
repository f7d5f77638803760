//===- Runner.h - One translation unit through the checks -----------------===//
//
// The driver analyses each unit as clang-tidy's runClangTidy does (the
// options' extra and removed arguments, the checks' consumer, the
// diagnostics), with one difference, for a unit that includes a
// precompiled header: when every declaration the PCH holds is in a system
// header, the checks' matchers start from the declarations the unit parsed
// itself (ASTContext's traversal scope, as clangd's is), not from the whole
// translation unit.
//
// The result is the same: clang-tidy's matchers skip declarations of system
// headers unless SystemHeaders is set (and then the whole unit is traversed).
// What changes is the cost: to skip a declaration of the PCH the matchers
// first read it from the PCH, which was two fifths of a run over a short
// file after the CUDA and standard headers.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_TOOLS_RUNNER_H
#define CUBLAS_TIDY_TOOLS_RUNNER_H

#include "ClangTidyDiagnosticConsumer.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <string>
#include <vector>

namespace clang {
class CompilerInstance;
}

namespace clang::tidy::cublas {

/// The checks of `Context` run over `File` (runClangTidy's arguments).
std::vector<ClangTidyError>
analyseFile(ClangTidyContext &Context,
            const tooling::CompilationDatabase &DB, StringRef File,
            IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS,
            bool ApplyAnyFix, bool EnableCheckProfile,
            StringRef StoreCheckProfile, bool Quiet);

/// Whether `Text` declares nothing: past comments and blank lines, each
/// line is a preprocessor directive (a PCH's own header of #include
/// lines).
bool declaresNothing(StringRef Text);

/// Whether every declaration of the precompiled headers `CI` loaded is in
/// a system header: their user files (the PCH's own header, the headers it
/// names with quotes) declare nothing. False without a PCH, or with a
/// module.
bool precompiledOnlySystemCode(CompilerInstance &CI);

} // namespace clang::tidy::cublas

#endif
