//===- ChangedLines.cpp ---------------------------------------------------===//

#include "ChangedLines.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

#include <optional>
#include <string>

namespace cublas_tidy {

namespace {

/// The path of `File` with symbolic links resolved, or `File` itself.
std::string realPath(llvm::StringRef File) {
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(File, Real))
    return File.str();
  return std::string(Real);
}

/// Runs git with `Args` in `Dir`; its standard output, or an error with
/// what it wrote on standard error.
llvm::Expected<std::string> git(llvm::StringRef Dir,
                                llvm::ArrayRef<llvm::StringRef> Args) {
  llvm::ErrorOr<std::string> Git = llvm::sys::findProgramByName("git");
  if (!Git)
    return llvm::createStringError("--diff-base needs git, which is not on "
                                   "PATH");
  llvm::SmallVector<llvm::StringRef, 12> Argv{*Git, "-C", Dir};
  Argv.append(Args.begin(), Args.end());
  llvm::SmallString<128> Out, Err;
  int OutFD, ErrFD;
  if (llvm::sys::fs::createTemporaryFile("cublas-tidy-git", "out", OutFD, Out) ||
      llvm::sys::fs::createTemporaryFile("cublas-tidy-git", "err", ErrFD, Err))
    return llvm::createStringError("cannot create a temporary file for git");
  llvm::sys::Process::SafelyCloseFileDescriptor(OutFD);
  llvm::sys::Process::SafelyCloseFileDescriptor(ErrFD);
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, Out.str(),
                                                Err.str()};
  std::string Message;
  int Code = llvm::sys::ExecuteAndWait(*Git, Argv, std::nullopt, Redirects,
                                       /*SecondsToWait=*/0,
                                       /*MemoryLimit=*/0, &Message);
  auto Read = [](llvm::StringRef Path) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> B =
        llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
    return B ? (*B)->getBuffer().str() : std::string();
  };
  std::string Output = Read(Out), Errors = Read(Err);
  llvm::sys::fs::remove(Out);
  llvm::sys::fs::remove(Err);
  if (Code != 0) {
    llvm::StringRef Why = llvm::StringRef(Errors).trim();
    if (Why.empty())
      Why = Message;
    return llvm::createStringError("git " + llvm::join(Args, " ") +
                                   " failed: " + Why);
  }
  return Output;
}

} // namespace

ChangedLines ChangedLines::fromDiff(llvm::StringRef Diff,
                                    llvm::StringRef Root) {
  ChangedLines C;
  std::string File; // absolute; empty for a deleted file
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Diff.split(Lines, '\n');
  for (llvm::StringRef L : Lines) {
    if (L.consume_front("+++ ")) {
      L = L.rtrim("\r");
      if (L == "/dev/null") {
        File.clear();
        continue;
      }
      L.consume_front("b/");
      llvm::SmallString<256> Path(Root);
      llvm::sys::path::append(Path, L);
      llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
      File = std::string(Path);
      C.Touched.insert(File);
      continue;
    }
    // @@ -a[,b] +c[,d] @@: d lines from line c are new (none when d is 0).
    if (File.empty() || !L.consume_front("@@ -"))
      continue;
    size_t Plus = L.find(" +");
    if (Plus == llvm::StringRef::npos)
      continue;
    llvm::StringRef New = L.substr(Plus + 2);
    New = New.take_until([](char Ch) { return Ch == ' '; });
    auto [StartText, CountText] = New.split(',');
    unsigned Start = 0, Count = 1;
    if (StartText.getAsInteger(10, Start) ||
        (!CountText.empty() && CountText.getAsInteger(10, Count)))
      continue;
    if (Count > 0)
      C.Ranges[File].push_back({Start, Start + Count - 1});
  }
  return C;
}

/// The top of the git repository holding `Dir` (symbolic links resolved),
/// after checking that `Ref` names a commit of it.
static llvm::Expected<std::string> repositoryWith(llvm::StringRef Ref,
                                                 llvm::StringRef Dir) {
  llvm::Expected<std::string> Top = git(Dir, {"rev-parse", "--show-toplevel"});
  if (!Top)
    return Top.takeError();
  std::string Root = realPath(llvm::StringRef(*Top).trim());
  // The revision first, so that a bad one is said as such.
  std::string Verify = (Ref + "^{commit}").str();
  if (llvm::Expected<std::string> R =
          git(Root, {"rev-parse", "--verify", "--quiet", Verify});
      !R) {
    llvm::consumeError(R.takeError());
    return llvm::createStringError("--diff-base: '" + Ref +
                                   "' is not a revision of the git "
                                   "repository at " + Root);
  }
  return Root;
}

/// The names, relative to `Root`, of the files of the repository there that
/// git does not track (and does not ignore).
static llvm::Expected<std::vector<std::string>>
untrackedNames(llvm::StringRef Root) {
  llvm::Expected<std::string> Untracked =
      git(Root, {"ls-files", "--others", "--exclude-standard", "-z"});
  if (!Untracked)
    return Untracked.takeError();
  llvm::SmallVector<llvm::StringRef, 8> Names;
  llvm::StringRef(*Untracked).split(Names, '\0', -1, /*KeepEmpty=*/false);
  return std::vector<std::string>(Names.begin(), Names.end());
}

llvm::Expected<ChangedLines> ChangedLines::since(llvm::StringRef Ref,
                                                 llvm::StringRef Dir) {
  llvm::Expected<std::string> Top = repositoryWith(Ref, Dir);
  if (!Top)
    return Top.takeError();
  std::string Root = *Top;
  llvm::Expected<std::string> Diff =
      git(Root, {"diff", "-U0", "--no-color", "--no-ext-diff",
                 "--no-renames", Ref, "--"});
  if (!Diff)
    return Diff.takeError();
  ChangedLines C = fromDiff(*Diff, Root);
  // Files git does not track yet are new in every line.
  llvm::Expected<std::vector<std::string>> Untracked = untrackedNames(Root);
  if (!Untracked)
    return Untracked.takeError();
  for (const std::string &Name : *Untracked) {
    llvm::SmallString<256> Path(Root);
    llvm::sys::path::append(Path, Name);
    C.addWholeFile(Path);
  }
  return C;
}

/// The top of the repository as `Dir` spells it, when that differs from
/// its real path `Root` (a symbolic link on the way): the compile commands
/// and the files the run was given may name the files so. Empty otherwise.
static std::string spelledTop(llvm::StringRef Dir, llvm::StringRef Root) {
  llvm::SmallString<256> Abs(Dir);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  std::string Real = realPath(Abs);
  llvm::StringRef Rest(Real);
  if (!Rest.consume_front(Root) || (!Rest.empty() && !Rest.starts_with("/")))
    return {};
  llvm::StringRef Spelled(Abs);
  if (!Spelled.consume_back(Rest) || Spelled == Root)
    return {};
  return Spelled.str();
}

llvm::Expected<BaseRevision> BaseRevision::of(llvm::StringRef Ref,
                                              llvm::StringRef Dir) {
  llvm::Expected<std::string> Top = repositoryWith(Ref, Dir);
  if (!Top)
    return Top.takeError();
  BaseRevision B;
  B.Root = *Top;
  std::vector<std::string> Tops = {B.Root};
  if (std::string Spelled = spelledTop(Dir, B.Root); !Spelled.empty())
    Tops.push_back(Spelled);
  auto Under = [&](llvm::StringRef Name) {
    std::vector<std::string> Paths;
    for (const std::string &T : Tops) {
      llvm::SmallString<256> Path(T);
      llvm::sys::path::append(Path, Name);
      Paths.push_back(std::string(Path));
    }
    return Paths;
  };
  // -z: "STATUS\0PATH\0" per file, "RSCORE\0OLD\0NEW\0" per renamed
  // one. A renamed file's text at the revision is read under both names:
  // its findings stay old, and the files that included the old name still
  // find it.
  llvm::Expected<std::string> Names =
      git(B.Root, {"diff", "--name-status", "-z", "-M", Ref, "--"});
  if (!Names)
    return Names.takeError();
  llvm::SmallVector<llvm::StringRef, 16> Fields;
  llvm::StringRef(*Names).split(Fields, '\0', -1, /*KeepEmpty=*/false);
  for (size_t I = 0; I + 1 < Fields.size();) {
    llvm::StringRef Status = Fields[I], Name = Fields[I + 1];
    bool Renamed = Status.starts_with("R") && I + 2 < Fields.size();
    llvm::StringRef NewName = Renamed ? Fields[I + 2] : Name;
    I += Renamed ? 3 : 2;
    if (Status.starts_with("A")) {
      for (const std::string &Path : Under(Name))
        B.New.insert(Path);
      continue;
    }
    llvm::Expected<std::string> Text =
        git(B.Root, {"cat-file", "blob", (Ref + ":" + Name).str()});
    if (!Text)
      return Text.takeError();
    for (llvm::StringRef Each : {Name, NewName})
      for (const std::string &Path : Under(Each))
        B.Texts[Path] = *Text;
  }
  llvm::Expected<std::vector<std::string>> Untracked = untrackedNames(B.Root);
  if (!Untracked)
    return Untracked.takeError();
  for (const std::string &Name : *Untracked)
    for (const std::string &Path : Under(Name)) {
      B.New.insert(Path);
      B.Untracked.insert(Path);
    }
  return B;
}

bool BaseRevision::changed(llvm::StringRef File) const {
  // Every file a unit reads is asked about: the path's own spelling first,
  // its real path (a system call) only when that says nothing.
  if (New.contains(File) || Texts.contains(File))
    return true;
  std::string Real = realPath(File);
  return Real != File && (New.contains(Real) || Texts.contains(Real));
}

/// True when `Set` holds `File` under its own spelling or its real path.
static bool holds(const llvm::StringSet<> &Set, llvm::StringRef File) {
  if (Set.contains(File))
    return true;
  std::string Real = realPath(File);
  return Real != File && Set.contains(Real);
}

bool BaseRevision::isNew(llvm::StringRef File) const {
  return holds(New, File);
}

bool BaseRevision::untracked(llvm::StringRef File) const {
  return holds(Untracked, File);
}

bool ChangedLines::touches(llvm::StringRef File) const {
  return holds(Touched, File) || holds(Whole, File);
}

bool ChangedLines::untracked(llvm::StringRef File) const {
  return holds(Whole, File);
}

bool ChangedLines::contains(llvm::StringRef File, unsigned Line) const {
  auto Lookup = [&](llvm::StringRef Path) {
    if (Whole.contains(Path))
      return true;
    auto It = Ranges.find(Path);
    if (It == Ranges.end())
      return false;
    for (const auto &[First, Last] : It->second)
      if (Line >= First && Line <= Last)
        return true;
    return false;
  };
  if (Lookup(File))
    return true;
  std::string Real = realPath(File);
  return Real != File && Lookup(Real);
}

} // namespace cublas_tidy
