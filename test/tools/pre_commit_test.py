#!/usr/bin/env python3
"""The cublas-tidy pre-commit hook, run by the real pre-commit.

A temporary git repository uses this repository's hook the way a project
would (repo: <this repository>, rev: <a commit with the working tree's hook
files>), installs it with `pre-commit install`, and commits through git:

- a C++ file with a cuBLAS bug is refused, and the output shows the
  diagnostic; the file fixed, the commit passes;
- only the staged content is checked: an unstaged bug does not block;
- a .py and a .md file do not run the hook; a header alone, without a
  compile database, runs it and is passed over with a message;
- C and (with the CUDA toolkit) CUDA files are checked too;
- with a compile database under build/, its flags are used;
- only the findings a commit brings are reported: an old finding does not
  block a change elsewhere in its file, a new one does, a deleted destroy
  does (its leak is on a line the commit does not touch), moved code does
  not; args: [--all-lines] reports every finding;
- with a compile database, what the change reaches in files it does not
  touch: a destroy deleted from one source makes a leak in another
  source's caller, a header changed alone makes a finding in a source that
  includes it; an untracked source and an old compile error elsewhere in
  the database do not block; the results cache is kept in the git
  directory;
- the hook's args go to cublas-tidy;
- the hook file as a repo: local hook (as the package installs it) works;
- without cublas-tidy, the hook fails with a message that says so.

Exit code 77 (skipped) when pre-commit is not installed.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SKIP = 77
HOOK_FILES = [".pre-commit-hooks.yaml", "scripts/pre-commit-hook"]
TIMEOUT_S = 300  # per git or pre-commit command

BUGGY_CPP = """\
#include <cublas_v2.h>

int make(cublasHandle_t *out) {
  cublasCreate(out);
  return 0;
}
"""

CLEAN_CPP = """\
#include <cublas_v2.h>

int make(cublasHandle_t *out) {
  return cublasCreate(out) == CUBLAS_STATUS_SUCCESS ? 0 : -1;
}
"""

BUGGY_C = """\
#include <cublas_v2.h>

void release(cublasHandle_t h) {
  cublasDestroy(h);
}
"""

BUGGY_CU = """\
#include <cublas_v2.h>

__global__ void zero(float *v) { v[threadIdx.x] = 0.0f; }

void run(cublasHandle_t h, float *d_x, float *d_y, int n) {
  const float one = 1.0f;
  zero<<<1, 32>>>(d_x);
  cublasSaxpy(h, n, &one, d_x, 1, d_y, 1);
}
"""

# Added after BUGGY_CPP (6 lines): a clean function, then one with a bug
# on line 10.
LEGACY_CLEAN_ADDITION = """\

int twice(int x) { return 2 * x; }
"""
LEGACY_BUGGY_ADDITION = """\
void drop(cublasHandle_t h) {
  cublasDestroy(h);
}
"""

# Parses only with the project's include directory, which only the compile
# database names.
PROJECT_H = """\
#pragma once
#include <cublas_v2.h>
typedef cublasHandle_t project_handle;
"""

USES_PROJECT_H = """\
#include "project.h"

void release(project_handle h) {
  cublasDestroy(h);
}
"""

# Across files, with a compile database: main.cpp gives its handle to
# release_handle(), which blas_ops.cpp defines; without BLAS_OPS_DESTROY,
# main.cpp leaks (line 7), though the commit does not touch it.
BLAS_OPS_CPP = """\
#include <cublas_v2.h>

int release_handle(cublasHandle_t h) {
  if (cublasDestroy(h) != CUBLAS_STATUS_SUCCESS)
    return 1;
  return 0;
}
"""
BLAS_OPS_DESTROY = """\
  if (cublasDestroy(h) != CUBLAS_STATUS_SUCCESS)
    return 1;
"""
MAIN_CPP = """\
#include <cublas_v2.h>

int release_handle(cublasHandle_t h);

int run() {
  cublasHandle_t H;
  if (cublasCreate(&H) != CUBLAS_STATUS_SUCCESS)
    return 1;
  return release_handle(H);
}
"""

# A header whose macro checks a status, and a source that uses it (only
# the compile database names include/); CHECKED_DISCARDS makes the status
# discarded in scale.cpp (line 6), which the commit does not touch.
CHECKED_H = """\
#pragma once
#include <cublas_v2.h>
#define CHECKED(call) ((call) == CUBLAS_STATUS_SUCCESS)
"""
CHECKED_DISCARDS = "#define CHECKED(call) ((call), true)"
SCALE_CPP = """\
#include <cublas_v2.h>
#include "checked.h"

bool scale(cublasHandle_t h, float *x) {
  const float a = 2.0f;
  return CHECKED(cublasSscal(h, 4, &a, x, 1));
}
"""

# Old code in the database that does not compile (committed without the
# hook), and a source of the database that git does not track.
BROKEN_CPP = """\
#include <cublas_v2.h>

int broken() { return undeclared_name; }
"""


class Failure(Exception):
    pass


class Runner:
    def __init__(self, env, log):
        self.env = env
        self.log = log

    def run(self, argv, cwd, env=None, check=True):
        start = time.monotonic()
        try:
            done = subprocess.run(argv, cwd=cwd, env=env or self.env,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT,
                                  timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            raise Failure("timed out after %d s: %s" % (TIMEOUT_S, " ".join(argv)))
        output = done.stdout.decode("utf-8", "replace")
        self.log.append("$ %s  (%.1f s, exit %d)\n%s" % (
            " ".join(argv), time.monotonic() - start, done.returncode, output))
        if check and done.returncode != 0:
            raise Failure("exit %d: %s\n%s" % (done.returncode, " ".join(argv),
                                               output))
        return done.returncode, output


def git_env(home):
    """An environment whose git ignores the user's and the system's
    configuration. The settings go through GIT_CONFIG_* variables, which
    pre-commit passes on to the git it runs itself."""
    env = dict(os.environ)
    for name in list(env):
        if name.startswith("GIT_") or name.startswith("PRE_COMMIT"):
            del env[name]
    env["HOME"] = str(home)
    env["XDG_CONFIG_HOME"] = str(home / ".config")
    env["XDG_CACHE_HOME"] = str(home / ".cache")
    env["GIT_CONFIG_NOSYSTEM"] = "1"
    settings = {
        "user.name": "Hook Test",
        "user.email": "hook-test@example.invalid",
        "commit.gpgsign": "false",
        "init.defaultBranch": "main",
        "safe.directory": "*",
        "protocol.file.allow": "always",
    }
    env["GIT_CONFIG_COUNT"] = str(len(settings))
    for index, (key, value) in enumerate(settings.items()):
        env["GIT_CONFIG_KEY_%d" % index] = key
        env["GIT_CONFIG_VALUE_%d" % index] = value
    return env


def hook_revision(runner, source, scratch):
    """(repository, revision) that pre-commit can clone and that holds the
    working tree's hook files.

    In a git work tree: a commit of the index with the hook files as they
    are in the working tree, made with a scratch index, so that uncommitted
    (even untracked) hook files are tested too; HEAD itself when nothing
    differs, as in CI's clean clone. Otherwise (a source tarball): a
    repository holding a copy of the hook files."""
    code, top = runner.run(["git", "-C", str(source), "rev-parse",
                            "--show-toplevel"], source, check=False)
    if code == 0 and os.path.realpath(top.strip()) == os.path.realpath(source):
        _, index = runner.run(["git", "rev-parse", "--git-path", "index"], source)
        index = Path(index.strip())
        if not index.is_absolute():
            index = source / index
        scratch_index = scratch / "index"
        if index.exists():
            shutil.copyfile(index, scratch_index)
        env = dict(runner.env, GIT_INDEX_FILE=str(scratch_index))
        runner.run(["git", "add", "--all", "--"] + HOOK_FILES, source, env=env)
        _, tree = runner.run(["git", "write-tree"], source, env=env)
        tree = tree.strip()
        code, head = runner.run(["git", "rev-parse", "--verify", "-q",
                                 "HEAD^{commit}"], source, check=False)
        head = head.strip() if code == 0 else ""
        if head:
            _, head_tree = runner.run(["git", "rev-parse", "HEAD^{tree}"], source)
            if head_tree.strip() == tree:
                return str(source), head
        parents = ["-p", head] if head else []
        _, commit = runner.run(["git", "commit-tree", tree] + parents +
                               ["-m", "working tree for the pre-commit test"],
                               source)
        return str(source), commit.strip()

    copy = scratch / "hook-repo"
    for name in HOOK_FILES:
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source / name, copy / name)
    runner.run(["git", "init", "-q", str(copy)], scratch)
    runner.run(["git", "add", "."], copy)
    runner.run(["git", "commit", "-q", "-m", "hook files"], copy)
    _, commit = runner.run(["git", "rev-parse", "HEAD"], copy)
    return str(copy), commit.strip()


def expect(condition, what, output):
    if not condition:
        raise Failure("%s; the output was:\n%s" % (what, output))


class Repo:
    """The user's repository, with the hook installed."""

    def __init__(self, runner, path):
        self.runner = runner
        self.path = path

    def git(self, *args, check=True, env=None):
        return self.runner.run(["git"] + list(args), self.path, env=env,
                               check=check)

    def write(self, name, text):
        target = self.path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)

    def head(self):
        return self.git("rev-parse", "HEAD")[1].strip()

    def commit_files(self, files, env=None):
        """Writes and stages `files` (name: text), then commits."""
        for name, text in files.items():
            self.write(name, text)
        self.git("add", *files)
        return self.commit("add " + ", ".join(files), env=env)

    def commit(self, message, env=None):
        """(accepted, output) of `git commit`, which runs the hook."""
        before = self.head()
        code, output = self.git("commit", "-m", message, check=False, env=env)
        accepted = self.head() != before
        if accepted != (code == 0):
            raise Failure("git commit exited %d but HEAD %s moved:\n%s"
                          % (code, "has" if accepted else "has not", output))
        return accepted, output


def hook_line(output):
    """pre-commit's status line of the hook: Passed, Failed or Skipped."""
    for line in output.splitlines():
        match = re.match(r"cublas-tidy\.+(\([^)]*\))?(Passed|Failed|Skipped)$",
                         line.strip())
        if match:
            return match.group(2)
    return None


def expect_hook(result, status, what):
    """The commit went through (or not, for Failed) with the hook `status`."""
    accepted, output = result
    expect(accepted == (status != "Failed") and hook_line(output) == status,
           what, output)
    return output


def discarded(where, function):
    """The finding for a discarded status, as the hook prints it."""
    return "%s: error: the cublasStatus_t returned by '%s' is discarded" % (
        where, function)


def run_tests(args, runner, work, source):
    include = None
    toolkit = None
    if args.cuda_root and (Path(args.cuda_root) / "include" / "cublas_v2.h").exists():
        toolkit = str(args.cuda_root)
    else:
        # The hook takes the headers from $CUDA_PATH/include: a toolkit-shaped
        # directory with the minimal headers.
        fake = work / "fake-cuda"
        fake.mkdir()
        os.symlink(os.path.abspath(args.fallback_include), fake / "include")
        runner.env["CUDA_PATH"] = str(fake)
        print("no CUDA toolkit: using the minimal headers; the .cu case is skipped")
    include = os.path.join(toolkit or runner.env["CUDA_PATH"], "include")
    if toolkit:
        runner.env["CUDA_PATH"] = toolkit

    hook_repo, rev = hook_revision(runner, source, work)
    print("hook from %s at %s" % (hook_repo, rev[:12]))

    repo = Repo(runner, work / "user")
    repo.path.mkdir()
    repo.git("init", "-q")
    config = ("repos:\n"
              "- repo: %s\n"
              "  rev: %s\n"
              "  hooks:\n"
              "  - id: cublas-tidy\n" % (hook_repo, rev))
    repo.write(".pre-commit-config.yaml", config)
    repo.write(".gitignore", "build/\n")
    repo.git("add", ".pre-commit-config.yaml", ".gitignore")
    repo.git("commit", "-q", "--no-verify", "-m", "pre-commit configuration")
    runner.run([args.pre_commit, "install"], repo.path)
    # Clone the hook repository once, outside the timing of the first commit.
    runner.run([args.pre_commit, "install-hooks"], repo.path)

    # A bug is refused, with the diagnostic.
    output = expect_hook(repo.commit_files({"src/gemm.cpp": BUGGY_CPP}),
                         "Failed", "the commit of a cuBLAS bug was accepted")
    expect(discarded("src/gemm.cpp:4:3", "cublasCreate") in output and
           "[cublas-unchecked-status" in output,
           "the diagnostic is not shown", output)
    expect("no compile database, CUDA headers from %s" % include in output,
           "the hook does not say where the headers came from", output)
    print("bug in src/gemm.cpp: refused with the diagnostic")

    # Fixed, it passes.
    expect_hook(repo.commit_files({"src/gemm.cpp": CLEAN_CPP}), "Passed",
                "the commit of the fixed file was refused")
    print("fixed src/gemm.cpp: committed")

    # Only the staged content counts: an unstaged bug does not block a
    # commit, and is kept in the working tree.
    repo.write("src/gemm.cpp", CLEAN_CPP + "// staged\n")
    repo.git("add", "src/gemm.cpp")
    repo.write("src/gemm.cpp", BUGGY_CPP)
    output = expect_hook(repo.commit("comment"), "Passed",
                         "an unstaged bug blocked the commit")
    expect((repo.path / "src/gemm.cpp").read_text() == BUGGY_CPP,
           "the unstaged change was lost", output)
    repo.git("checkout", "--", "src/gemm.cpp")
    print("unstaged bug: not checked, kept")

    # Files that are not C, C++ or CUDA do not run the hook, even when they
    # quote buggy code (cublas-tidy would fail on them: they do not parse).
    expect_hook(repo.commit_files({
        "tools/gen.py": "print('cublasCreate(&h);')\n",
        "NOTES.md": "```c++\n" + BUGGY_CPP + "```\n"}), "Skipped",
        "the hook ran on .py and .md files")
    print(".py and .md: hook skipped")

    # A header alone, without a compile database: the hook runs, and says
    # (pre-commit shows what a hook that passes says with --verbose) that
    # it passes over it: parsed on its own, a header lacks the context of
    # the sources that include it.
    repo.write("include/util.h", PROJECT_H)
    repo.git("add", "include/util.h")
    _, output = runner.run([args.pre_commit, "run", "--verbose"], repo.path,
                           check=False)
    expect(hook_line(output) == "Passed" and
           "1 header(s) and no source: not checked without a compile "
           "database" in output, "a header alone was not passed over with a "
           "message", output)
    expect_hook(repo.commit("util.h"), "Passed", "a header alone did not pass")
    print("header alone without a compile database: passed over")

    # C and CUDA sources.
    sources = [("src/release.c", BUGGY_C, "4:3", "cublasDestroy")]
    if toolkit:
        sources.append(("src/kernel.cu", BUGGY_CU, "8:3", "cublasSaxpy"))
    for name, text, line, function in sources:
        output = expect_hook(repo.commit_files({name: text}), "Failed",
                             "the bug in %s was not reported" % name)
        expect(discarded(name + ":" + line, function) in output,
               "the diagnostic for %s is not shown" % name, output)
        repo.git("rm", "-q", "--cached", name)
        print("bug in %s: refused" % name)

    # With a compile database (build/, ignored by git), its flags apply:
    # src/release.cpp includes "project.h" from include/, which only the
    # database names.
    repo.write("build/compile_commands.json", """[
  {"directory": "%s", "file": "%s",
   "arguments": ["clang++", "-std=c++17", "-I%s", "-isystem", "%s",
                 "-c", "%s", "-o", "release.o"]}
]
""" % (repo.path / "build", repo.path / "src/release.cpp",
       repo.path / "include", include, repo.path / "src/release.cpp"))
    output = expect_hook(repo.commit_files({"include/project.h": PROJECT_H,
                                            "src/release.cpp": USES_PROJECT_H}),
                         "Failed", "the bug in src/release.cpp was not reported")
    expect("compile database build/compile_commands.json" in output and
           discarded("src/release.cpp:4:3", "cublasDestroy") in output,
           "the compile database was not used", output)
    expect_hook(repo.commit_files({"src/release.cpp": USES_PROJECT_H.replace(
        "  cublasDestroy(h);", "  (void)cublasDestroy(h);")}), "Passed",
        "the fixed file was refused with the compile database")
    print("compile database in build/: used")

    # Only the lines a commit changes: an old finding (committed without
    # the hook) does not block a change elsewhere in its file, a new one
    # does, and args: [--all-lines] sees every line.
    repo.write("src/legacy.cpp", BUGGY_CPP)
    repo.git("add", "src/legacy.cpp")
    repo.git("commit", "-q", "--no-verify", "-m", "legacy code")
    output = expect_hook(
        repo.commit_files({"src/legacy.cpp": BUGGY_CPP + LEGACY_CLEAN_ADDITION}),
        "Passed", "an old finding blocked a change elsewhere")
    output = expect_hook(
        repo.commit_files({"src/legacy.cpp": BUGGY_CPP + LEGACY_CLEAN_ADDITION +
                           LEGACY_BUGGY_ADDITION}),
        "Failed", "a new finding in an old file was not reported")
    expect(discarded("src/legacy.cpp:10:3", "cublasDestroy") in output and
           "src/legacy.cpp:4:3" not in output,
           "not the new finding alone", output)
    expect("findings new since the last commit only" in output,
           "the hook does not say it checks changed lines only", output)
    repo.git("reset", "-q", "--", "src/legacy.cpp")
    repo.git("checkout", "--", "src/legacy.cpp")
    output = expect_hook(repo.commit_files({
        ".pre-commit-config.yaml": config + "    args: [--all-lines]\n",
        "src/legacy.cpp": BUGGY_CPP + LEGACY_CLEAN_ADDITION + "// again\n"}),
        "Failed", "args: [--all-lines] did not report the old finding")
    expect(discarded("src/legacy.cpp:4:3", "cublasCreate") in output,
           "the old finding is not shown with --all-lines", output)
    repo.git("reset", "-q", "--", "src/legacy.cpp", ".pre-commit-config.yaml")
    repo.git("checkout", "--", "src/legacy.cpp", ".pre-commit-config.yaml")
    print("changed lines only: old findings left, new ones refused, "
          "--all-lines sees all")

    # New findings, not changed lines: a commit that only deletes a destroy
    # makes a leak on a line it does not touch, and is refused; one that
    # only moves old code (and its old finding) passes.
    sys.path.insert(0, str(Path(source) / "test" / "checks" / "Inputs"))
    from gitrepo import OWNER as OWNER_CPP, OWNER_DESTROY
    repo.write("src/owner.cpp", OWNER_CPP)
    repo.git("add", "src/owner.cpp")
    repo.git("commit", "-q", "--no-verify", "-m", "owner")
    output = expect_hook(
        repo.commit_files({"src/owner.cpp": OWNER_CPP.replace(OWNER_DESTROY, "")}),
        "Failed", "a commit that deletes the destroy passed")
    expect("src/owner.cpp:5:7: error: handle 'h' created here" in output,
           "not the leak on the untouched cublasCreate line", output)
    repo.git("reset", "-q", "--", "src/owner.cpp")
    repo.git("checkout", "--", "src/owner.cpp")
    moved = BUGGY_CPP.replace("#include <cublas_v2.h>\n",
                              "#include <cublas_v2.h>\n\nint unrelated() "
                              "{ return 1; }\n")
    expect_hook(repo.commit_files({"src/legacy.cpp": moved}), "Passed",
                "a commit that only moves old code was refused")
    print("new findings: a deleted destroy refused, moved code passes")

    # With a compile database, what a change reaches beyond the files it
    # stages: the callers of what it changes and the sources that include a
    # changed header. An untracked source of the database with a bug, and a
    # unit that does not compile (both old), block nothing.
    units = ["src/release.cpp", "src/blas_ops.cpp", "src/main.cpp",
             "src/scale.cpp", "src/broken.cpp", "src/scratch.cpp"]
    repo.write("build/compile_commands.json", "[\n%s\n]\n" % ",\n".join(
        """  {"directory": "%s", "file": "%s",
   "arguments": ["clang++", "-std=c++17", "-I%s", "-isystem", "%s",
                 "-c", "%s", "-o", "%s.o"]}""" % (
            repo.path / "build", repo.path / name, repo.path / "include",
            include, repo.path / name, Path(name).stem) for name in units))
    repo.write("src/broken.cpp", BROKEN_CPP)
    repo.git("add", "src/broken.cpp")
    repo.git("commit", "-q", "--no-verify", "-m", "broken old code")
    repo.write("src/scratch.cpp", BUGGY_CPP)
    output = expect_hook(repo.commit_files({
        "src/blas_ops.cpp": BLAS_OPS_CPP, "src/main.cpp": MAIN_CPP,
        "include/checked.h": CHECKED_H, "src/scale.cpp": SCALE_CPP}),
        "Passed", "clean sources were refused (an untracked source or an "
        "old compile error elsewhere blocked them?)")
    cache = repo.path / ".git" / "cublas-tidy-cache"
    expect(cache.is_dir() and any(cache.iterdir()),
           "no results cache in .git/cublas-tidy-cache", output)

    # A destroy deleted from release_handle() in blas_ops.cpp: main.cpp,
    # not staged, leaks.
    output = expect_hook(repo.commit_files({
        "src/blas_ops.cpp": BLAS_OPS_CPP.replace(BLAS_OPS_DESTROY, "")}),
        "Failed", "a destroy deleted from a callee passed (the caller's "
        "leak is in another file)")
    expect("src/main.cpp:7:7: error: handle 'H' created here" in output,
           "not the leak in the caller, src/main.cpp", output)
    expect("scratch.cpp" not in output and "broken.cpp:3" not in output,
           "an untracked source or an old compile error was reported", output)
    repo.git("reset", "-q", "--", "src/blas_ops.cpp")
    repo.git("checkout", "--", "src/blas_ops.cpp")
    print("database: a destroy deleted in blas_ops.cpp refused for the leak "
          "in main.cpp")

    # A header changed alone runs the hook, and the finding it makes in a
    # source that includes it fails the commit.
    output = expect_hook(repo.commit_files({
        "include/checked.h": CHECKED_H.replace(
            "#define CHECKED(call) ((call) == CUBLAS_STATUS_SUCCESS)",
            CHECKED_DISCARDS)}),
        "Failed", "a header that makes a finding in its includer passed")
    expect(discarded("src/scale.cpp:6:18", "cublasSscal") in output,
           "not the finding in src/scale.cpp, which includes the header",
           output)
    repo.git("reset", "-q", "--", "include/checked.h")
    repo.git("checkout", "--", "include/checked.h")
    print("database: a header changed alone refused for the finding in its "
          "includer")

    # The hook's args go to cublas-tidy.
    expect_hook(repo.commit_files({
        ".pre-commit-config.yaml":
            config + "    args: [--checks=-cublas-unchecked-status]\n",
        "src/quiet.cpp": BUGGY_CPP}), "Passed",
        "args: [--checks=-cublas-unchecked-status] did not apply")
    print("args: passed on to cublas-tidy")

    # The installed hook (/usr/share/cublas-tidy/pre-commit-hook, the same
    # file as scripts/pre-commit-hook) as a repo: local hook, as
    # docs/pre-commit.md shows it.
    local = ("repos:\n"
             "- repo: local\n"
             "  hooks:\n"
             "  - id: cublas-tidy\n"
             "    name: cublas-tidy\n"
             "    entry: %s\n"
             "    language: system\n"
             "    types_or: [c, c++, cuda]\n"
             % (Path(source) / "scripts" / "pre-commit-hook"))
    output = expect_hook(repo.commit_files({".pre-commit-config.yaml": local,
                                            "src/local.cpp": BUGGY_CPP}),
                         "Failed", "the repo: local hook passed a bug")
    expect(discarded("src/local.cpp:4:3", "cublasCreate") in output,
           "the repo: local hook did not show the finding", output)
    repo.git("reset", "-q", "--", ".pre-commit-config.yaml", "src/local.cpp")
    repo.git("checkout", "--", ".pre-commit-config.yaml")
    os.remove(repo.path / "src" / "local.cpp")
    print("repo: local with the hook's path: refuses the bug")

    # No cublas-tidy: a clear failure.
    repo.write("src/other.cpp", CLEAN_CPP)
    repo.git("add", "src/other.cpp")
    missing = str(work / "no-such-cublas-tidy")
    output = expect_hook(repo.commit("other", env=dict(
        runner.env, CUBLAS_TIDY=missing)), "Failed",
        "the hook passed with CUBLAS_TIDY naming no file")
    expect("CUBLAS_TIDY is '%s', which is not an executable" % missing
           in output, "no clear message for a wrong CUBLAS_TIDY", output)
    path = path_without_cublas_tidy(runner.env["PATH"], work)
    output = expect_hook(repo.commit("other", env=dict(runner.env, PATH=path)),
                         "Failed", "the hook passed without cublas-tidy")
    expect("cublas-tidy is not on PATH" in output,
           "no clear message without cublas-tidy on PATH", output)
    print("no cublas-tidy: refused with a message")


def path_without_cublas_tidy(path, work):
    """`path` with every folder that holds a cublas-tidy replaced by a
    folder of links to its other programs: where the package is installed,
    /usr/bin also holds git and pre-commit."""
    folders = []
    for i, folder in enumerate(path.split(os.pathsep)):
        if not (Path(folder) / "cublas-tidy").exists():
            folders.append(folder)
            continue
        mirror = work / ("path-without-cublas-tidy-%d" % i)
        mirror.mkdir(parents=True, exist_ok=True)
        for entry in Path(folder).iterdir():
            link = mirror / entry.name
            if entry.name != "cublas-tidy" and not os.path.lexists(link):
                link.symlink_to(entry)
        folders.append(str(mirror))
    return os.pathsep.join(folders)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pre-commit", default="",
                        help="the pre-commit program (empty: skip)")
    parser.add_argument("--cublas-tidy", required=True,
                        help="the cublas-tidy binary (its directory goes on PATH)")
    parser.add_argument("--source", required=True,
                        help="this repository (the hook's repository)")
    parser.add_argument("--cuda-root", default="")
    parser.add_argument("--fallback-include", required=True)
    parser.add_argument("--keep", action="store_true",
                        help="keep the temporary repositories")
    args = parser.parse_args()
    if not args.pre_commit or not shutil.which(args.pre_commit):
        print("pre-commit is not installed (Debian package pre-commit): skipped")
        return SKIP

    start = time.monotonic()
    work = Path(tempfile.mkdtemp(prefix="cublas-pre-commit-test-"))
    env = git_env(work / "home")
    env["PRE_COMMIT_HOME"] = str(work / "pre-commit-home")
    env.pop("CUBLAS_TIDY", None)
    bin_dir = os.path.dirname(os.path.abspath(args.cublas_tidy))
    env["PATH"] = bin_dir + os.pathsep + env.get("PATH", "")
    log = []
    runner = Runner(env, log)
    try:
        run_tests(args, runner, work, Path(args.source).resolve())
        print("PASS (%.1f s)" % (time.monotonic() - start))
        return 0
    except Failure as failure:
        print("FAIL:", failure)
        print("--- commands run ---")
        print("\n".join(log)[-8000:])
        return 1
    finally:
        if args.keep:
            print("kept", work)
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
