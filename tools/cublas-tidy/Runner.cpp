//===- Runner.cpp ---------------------------------------------------------===//

#include "Runner.h"

#include "ClangTidy.h"
#include "ClangTidyModule.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Serialization/ASTReader.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>

using namespace clang;
using namespace clang::tooling;

namespace clang::tidy::cublas {

bool declaresNothing(StringRef Text) {
  bool InComment = false, InDirective = false;
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    Line = Line.rtrim("\r");
    bool Continued = Line.ends_with("\\");
    // What the line holds outside comments.
    std::string Code;
    for (size_t I = 0; I < Line.size(); ++I) {
      if (InComment) {
        if (Line.substr(I).starts_with("*/")) {
          InComment = false;
          ++I;
        }
        continue;
      }
      if (Line.substr(I).starts_with("/*")) {
        InComment = true;
        ++I;
        continue;
      }
      if (Line.substr(I).starts_with("//"))
        break;
      Code += Line[I];
    }
    StringRef Kept = StringRef(Code).trim();
    if (!InDirective && !Kept.empty() && !Kept.starts_with("#"))
      return false;
    InDirective = (InDirective || Kept.starts_with("#")) && Continued;
  }
  return true;
}

bool precompiledOnlySystemCode(CompilerInstance &CI) {
  IntrusiveRefCntPtr<ASTReader> Reader = CI.getASTReader();
  if (!Reader || Reader->getModuleManager().size() == 0)
    return false;
  FileManager &Files = CI.getFileManager();
  for (serialization::ModuleFile &M : Reader->getModuleManager()) {
    if (M.Kind != serialization::MK_PCH && M.Kind != serialization::MK_Preamble)
      return false;
    bool Clean = true;
    Reader->visitInputFiles(
        M, /*IncludeSystem=*/false, /*Complain=*/false,
        [&](const serialization::InputFile &IF, bool IsSystem) {
          if (!Clean || IsSystem)
            return;
          OptionalFileEntryRef File = IF.getFile();
          llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text =
              File ? Files.getBufferForFile(*File)
                   : llvm::errc::no_such_file_or_directory;
          Clean = Text && declaresNothing((*Text)->getBuffer());
        });
    if (!Clean)
      return false;
  }
  return true;
}

namespace {

/// Collects the top-level declarations the unit parses (not those read
/// from its PCH) and, at the unit's end, makes them the traversal scope
/// when the PCH holds only system code and the checks skip it.
class LocalScope : public ASTConsumer {
public:
  LocalScope(CompilerInstance &CI, bool SystemHeaders)
      : CI(CI), SystemHeaders(SystemHeaders) {}

  bool HandleTopLevelDecl(DeclGroupRef Group) override {
    for (Decl *D : Group)
      if (!D->isFromASTFile())
        Parsed.push_back(D);
    return true;
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (!SystemHeaders && precompiledOnlySystemCode(CI))
      Ctx.setTraversalScope(Parsed);
  }

private:
  CompilerInstance &CI;
  bool SystemHeaders;
  std::vector<Decl *> Parsed;
};

class Action : public ASTFrontendAction {
public:
  Action(ClangTidyASTConsumerFactory &Factory, ClangTidyContext &Context)
      : Factory(Factory), Context(Context) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef File) override {
    // The checks' consumer sets the context's current file.
    std::unique_ptr<ASTConsumer> Checks = Factory.createASTConsumer(CI, File);
    std::vector<std::unique_ptr<ASTConsumer>> Consumers;
    Consumers.push_back(std::make_unique<LocalScope>(
        CI, Context.getOptions().SystemHeaders.value_or(false)));
    Consumers.push_back(std::move(Checks));
    return std::make_unique<MultiplexConsumer>(std::move(Consumers));
  }

private:
  ClangTidyASTConsumerFactory &Factory;
  ClangTidyContext &Context;
};

class ActionFactory : public FrontendActionFactory {
public:
  ActionFactory(ClangTidyContext &Context,
                IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS,
                bool Quiet)
      : Context(Context), Factory(Context, std::move(BaseFS)), Quiet(Quiet) {}

  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<Action>(Factory, Context);
  }

  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHOps,
                     DiagnosticConsumer *Diags) override {
    // As clang-tidy: __clang_analyzer__ is defined, and a quiet run
    // prints no carets.
    Invocation->getPreprocessorOpts().SetUpStaticAnalyzer = true;
    if (Quiet)
      Invocation->getDiagnosticOpts().ShowCarets = false;
    return FrontendActionFactory::runInvocation(std::move(Invocation), Files,
                                                std::move(PCHOps), Diags);
  }

private:
  ClangTidyContext &Context;
  ClangTidyASTConsumerFactory Factory;
  bool Quiet;
};

/// The options' arguments for `File`: RemovedArgs out, ExtraArgsBefore
/// after the compiler's name, ExtraArgs at the end.
CommandLineArguments optionArguments(ClangTidyContext &Context,
                                     const CommandLineArguments &Args,
                                     StringRef File) {
  ClangTidyOptions Opts = Context.getOptionsForFile(File);
  CommandLineArguments Out = Args;
  if (Opts.RemovedArgs)
    for (const std::string &Removed : *Opts.RemovedArgs)
      Out.erase(std::remove(Out.begin(), Out.end(), Removed), Out.end());
  if (Opts.ExtraArgsBefore) {
    auto At = Out.begin();
    if (At != Out.end() && !StringRef(*At).starts_with("-"))
      ++At;
    Out.insert(At, Opts.ExtraArgsBefore->begin(), Opts.ExtraArgsBefore->end());
  }
  if (Opts.ExtraArgs)
    Out.insert(Out.end(), Opts.ExtraArgs->begin(), Opts.ExtraArgs->end());
  return Out;
}

} // namespace

std::vector<ClangTidyError>
analyseFile(ClangTidyContext &Context, const CompilationDatabase &DB,
            StringRef File,
            IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS,
            bool ApplyAnyFix, bool EnableCheckProfile,
            StringRef StoreCheckProfile, bool Quiet) {
  ClangTool Tool(DB, {File.str()}, std::make_shared<PCHContainerOperations>(),
                 BaseFS);
  Tool.appendArgumentsAdjuster(
      [&Context](const CommandLineArguments &Args, StringRef Filename) {
        return optionArguments(Context, Args, Filename);
      });
  Tool.appendArgumentsAdjuster(getStripPluginsAdjuster());
  Context.setEnableProfiling(EnableCheckProfile);
  Context.setProfileStoragePrefix(StoreCheckProfile);

  ClangTidyDiagnosticConsumer Diags(Context, nullptr, true, ApplyAnyFix);
  auto DiagOpts = std::make_unique<DiagnosticOptions>();
  DiagnosticsEngine Engine(DiagnosticIDs::create(), *DiagOpts, &Diags,
                           /*ShouldOwnClient=*/false);
  Context.setDiagnosticsEngine(std::move(DiagOpts), &Engine);
  Tool.setDiagnosticConsumer(&Diags);

  ActionFactory Factory(Context, std::move(BaseFS), Quiet);
  Tool.run(&Factory);
  return Diags.take();
}

} // namespace clang::tidy::cublas
