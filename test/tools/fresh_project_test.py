#!/usr/bin/env python3
"""A new user's project, checked by every front end with its defaults: the
findings in the project's own header, and a leak in one file made by a
deletion in another.

    fresh_project_test.py --cublas-tidy T --clang-tidy C --plugin P
        --clangd D --hook H --include DIR [--pre-commit PC] [--keep]

The project (src/blas_ops.h, src/blas_ops.cpp, src/main.cpp, a compile
database in build/, a .clang-tidy that enables the cublas-* checks, the
.clangd of docs/ide.md, a .pre-commit-config.yaml with the hook as a local
hook, as docs/pre-commit.md says) is committed to git;
then the cublasDestroy of release_handle() in blas_ops.cpp is deleted and
the change staged, as a user about to commit it. Each front end, run as its
documentation says and with no option of its defaults changed, must report:

  cublas-tidy -p build          the header's leak once, and main.cpp's leak
  clang-tidy-22 --load=P        the header's leak, from main.cpp's unit
  cublas-clangd (LSP)           the header's leak, with the header open
  the pre-commit hook           fails the commit on main.cpp's leak, though
                                only blas_ops.cpp is staged

scripts/fresh-install-test runs it in a fresh Debian 12 root with the
package installed; CTest with the build's binaries. Exit 0 when all pass,
77 when git or pre-commit is missing.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testlib import Failure, expect, git, in_scratch  # noqa: E402

HEADER = """#pragma once
#include <cublas_v2.h>

int release_handle(cublasHandle_t h);

// Scales x by 2 with a handle of its own.
inline int scale_once(float *x, int n) {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    return 1;
  const float a = 2.0f;
  if (cublasSscal(h, n, &a, x, 1) != CUBLAS_STATUS_SUCCESS)
    return 1;
  return cublasDestroy(h) == CUBLAS_STATUS_SUCCESS ? 0 : 1;
}
"""
DESTROY = "  if (cublasDestroy(h) != CUBLAS_STATUS_SUCCESS)\n    return 1;\n"
OPS = """#include "blas_ops.h"

int release_handle(cublasHandle_t h) {
""" + DESTROY + """  return 0;
}
"""
MAIN = """#include "blas_ops.h"

int run_job(float *x) {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    return 1;
  const float a = 0.5f;
  cublasStatus_t st = cublasSscal(h, 4, &a, x, 1);
  if (release_handle(h) != 0)
    return 1;
  return st == CUBLAS_STATUS_SUCCESS ? 0 : 1;
}
"""
HEADER_LEAK = "blas_ops.h:9:7: warning: handle 'h' created here"
MAIN_LEAK = "main.cpp:5:7: "  # then "warning:", or "error:" from the hook


def make_project(root, args):
    """The project, committed, with the deletion staged."""
    src = root / "src"
    src.mkdir(parents=True)
    (src / "blas_ops.h").write_text(HEADER)
    (src / "blas_ops.cpp").write_text(OPS)
    (src / "main.cpp").write_text(MAIN)
    (root / ".clang-tidy").write_text("Checks: '-*,cublas-*'\n")
    # docs/ide.md's: clangd's default filter runs no check it has not timed.
    (root / ".clangd").write_text(
        "Diagnostics:\n  ClangTidy:\n    Add: [cublas-*]\n"
        "    FastCheckFilter: Loose\n")
    (root / ".pre-commit-config.yaml").write_text(
        "repos:\n- repo: local\n  hooks:\n  - id: cublas-tidy\n"
        "    name: cublas-tidy\n    entry: %s\n    language: system\n"
        "    types_or: [c, c++, cuda]\n" % args.hook)
    (root / "build").mkdir()
    (root / "build" / "compile_commands.json").write_text(json.dumps([
        {"directory": str(root / "build"), "file": str(src / name),
         "arguments": ["c++", "-std=c++17", "-isystem", args.include,
                       "-c", str(src / name), "-o", name + ".o"]}
        for name in ("blas_ops.cpp", "main.cpp")], indent=1))
    (root / ".gitignore").write_text("build/\n")
    git(root, "init", "-q")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "blas ops")
    (src / "blas_ops.cpp").write_text(OPS.replace(DESTROY, ""))
    git(root, "add", "src/blas_ops.cpp")


def run(argv, cwd, env=None):
    done = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=600,
                          env=env)
    return done.returncode, done.stdout


def check_cublas_tidy(root, args):
    code, out = run([args.cublas_tidy, "-p", "build"], root)
    expect(out.count(HEADER_LEAK) == 1,
           "cublas-tidy -p build: the header's leak, once", out)
    expect(MAIN_LEAK in out and "[cublas-handle-leak]" in out,
           "cublas-tidy -p build: main.cpp's leak after the deletion", out)
    print("cublas-tidy -p build: the header's leak once, main.cpp's leak")


def check_plugin(root, args):
    code, out = run([args.clang_tidy, "--load=" + args.plugin, "-p", "build",
                     "src/main.cpp"], root)
    expect(HEADER_LEAK in out,
           "clang-tidy --load: the header's leak from main.cpp's unit", out)
    print("clang-tidy --load: the header's leak")


def check_clangd(root, args):
    import clangd_lsp_test as lsp
    try:
        found = lsp.diagnostics_when_opened(
            args.clangd, root, root / "src" / "blas_ops.h", "cublas-handle-leak",
            "the cublas-* diagnostics of blas_ops.h")
    except lsp.Failure as failure:
        raise Failure("cublas-clangd: %s" % failure)
    lines = [d["range"]["start"]["line"] + 1 for d in found]
    expect(lines == [9], "cublas-clangd: the leak on line 9, not %s" % lines)
    print("cublas-clangd: the header's leak in the open header")


def check_hook(root, args):
    env = dict(os.environ, HOME=str(root.parent / "home"),
               PRE_COMMIT_HOME=str(root.parent / "pre-commit-cache"),
               PATH=os.path.dirname(args.cublas_tidy) + os.pathsep +
               os.environ.get("PATH", ""))
    code, out = run([args.pre_commit, "run"], root, env)
    expect(code != 0 and "Failed" in out and MAIN_LEAK in out,
           "the hook: fails on main.cpp's leak, with only blas_ops.cpp "
           "staged (exit %d)" % code, out)
    print("pre-commit hook: fails the commit on main.cpp's leak")


def main():
    ap = argparse.ArgumentParser()
    for name in ("cublas-tidy", "clang-tidy", "plugin", "clangd", "hook",
                 "include"):
        ap.add_argument("--" + name, required=True)
    ap.add_argument("--pre-commit", default=shutil.which("pre-commit") or "")
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    if not shutil.which("git") or not args.pre_commit or \
            not os.access(args.pre_commit, os.X_OK):
        print("SKIP: needs git and pre-commit")
        return 77

    def body(work):
        root = work / "proj"
        make_project(root, args)
        check_cublas_tidy(root, args)
        check_plugin(root, args)
        check_clangd(root, args)
        check_hook(root, args)

    return in_scratch("cublas-fresh-project-", body, args.keep)


if __name__ == "__main__":
    sys.exit(main())
