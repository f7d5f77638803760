#!/usr/bin/env python3
"""Every command of the guides runs as it is written: the shell blocks of
README.md and docs/*.md, the CI jobs (GitHub Actions steps, GitLab
scripts) and the paths the configuration snippets name.

    docs_commands_test.py --source REPO --cublas-tidy BIN --plugin SO
        [--cublas-clangd BIN] [--cuda-root DIR] [--fallback-include DIR]
        [--only FILE[:LINE]] [-j N] [--keep]

Each block runs in a copy of a scratch project (a CMake project of C++
sources with a .cu file, the compile database CMake writes for it with
nvcc, a git repository with an `origin`), with the built binaries for the
installed ones: `cublas-tidy` and `cublas-clangd` on PATH, and the
package's paths (/usr/bin/cublas-tidy, /usr/lib/cublas-tidy/22/..., ...)
rewritten to the build's files. `apt-get`, `sudo` and `curl` are stand-ins
that accept a release's package and nothing from the network.

A block the test cannot run is declared in the markdown, on the line
before it:

    <!-- docs-test: skip (why: root, the network, a GPU, minutes) -->
    <!-- docs-test: needs cuda /usr/include/torch/extension.h run-clang-tidy-22 -->
    <!-- docs-test: setup: cmake -S . -B build -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -->

`skip` never runs it; `needs` runs it where each program, absolute path
or `cuda` (the toolkit) is there and reports it skipped elsewhere;
`setup:` runs a command before it. Any other block that fails, and any
absolute path of this tool's in a block that the package does not
install (a clone's build tree, /path/to/...), fails the test. A .cu file
in a block without the CUDA toolkit skips it.

Exit code 77 (skipped) without bash, git or cmake.
"""
import argparse
import concurrent.futures
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testlib import Failure  # noqa: E402

SKIP = 77
BLOCK_TIMEOUT_S = 180
SHELL = ("sh", "bash", "console", "shell")
CONFIG = ("yaml", "yml", "json", "lua", "elisp", "toml")
# Programs a block may use that a machine may lack: the block is skipped
# there, not failed.
OPTIONAL_PROGRAMS = ("clang-tidy-22", "run-clang-tidy-22", "pre-commit")
# What the package installs, and where the build has it (filled in main).
INSTALLED = {}

# The scratch project: C++ sources without findings, a .cu file with one
# (a host pointer where cuBLAS needs device memory).
CMAKE_LISTS = """cmake_minimum_required(VERSION 3.18)
project(app LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 17)
add_library(app OBJECT src/gemm.cpp src/main.cpp)
target_include_directories(app PRIVATE include)
target_include_directories(app SYSTEM PRIVATE "{include}")
"""
GEMM_HPP = "#pragma once\nint scale(float *dX, int n);\n"
MAIN_CPP = """#include "gemm.hpp"
int main() { return scale(nullptr, 0); }
"""
GEMM_CU = """#include <cublas_v2.h>
#include <vector>
#include "gemm.hpp"  // include/, from the response file of nvcc's command

int axpy_from_host(float *dY, int n) {
  std::vector<float> x(n, 1.0f);
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 1;
  const float alpha = 3.0f;
  cublasStatus_t st = cublasSaxpy(handle, n, &alpha, x.data(), 1, dY, 1);
  cublasDestroy(handle);
  return st == CUBLAS_STATUS_SUCCESS ? 0 : 1;
}
"""
# A PyTorch extension (Debian's libtorch-dev; docs/pytorch.md).
TORCH_EXT = """#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cublas_v2.h>

torch::Tensor row_sums(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  auto ones = torch::ones({x.size(1)});
  auto sums = torch::zeros({x.size(0)}, x.options());
  cublasHandle_t handle = at::cuda::getCurrentCUDABlasHandle();
  const float one = 1.f, zero = 0.f;
  TORCH_CHECK(cublasSgemv(handle, CUBLAS_OP_T, x.size(1), x.size(0), &one,
                          x.data_ptr<float>(), x.size(1), ones.data_ptr<float>(), 1,
                          &zero, sums.data_ptr<float>(), 1) == CUBLAS_STATUS_SUCCESS);
  return sums;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("row_sums", &row_sums); }
"""
# Stand-ins for what needs root or the network. curl hands out a release's
# Debian package (an empty file) and nothing else; apt-get installs
# nothing (the build's binaries are on PATH already) but wants a package
# file to be there.
STUBS = {
    "sudo": '#!/bin/sh\nexec "$@"\n',
    "apt-get": r"""#!/bin/sh
echo "apt-get (stand-in) $*" >&2
[ "$1" = install ] || exit 0
for a in "$@"; do
  case "$a" in
    *.deb) [ -f "$a" ] || { echo "apt-get: no such package file: $a" >&2; exit 100; } ;;
  esac
done
""",
    "curl": r"""#!/bin/sh
out=; url=
while [ $# -gt 0 ]; do
  case "$1" in
    -o|--output) out=$2; shift ;;
    -*) ;;
    *) url=$1 ;;
  esac
  shift
done
case "$url" in
  https://github.com/*/releases/download/v[0-9]*/cublas-tidy_[0-9]*_amd64.deb) ;;
  *) echo "curl (stand-in): no network in the test: $url" >&2; exit 6 ;;
esac
: > "${out:-${url##*/}}"
""",
}
STUBS["wget"] = STUBS["curl"].replace("-o|--output", "-O|--output-document")


class Block:
    def __init__(self, path, line, lang, text, marker):
        self.path, self.line, self.lang, self.text = path, line, lang, text
        self.marker = marker

    def where(self):
        return "%s:%d" % (self.path, self.line)


def blocks_of(root):
    """Every fenced block of README.md and docs/*.md, with the docs-test
    marker on the line before it."""
    found = []
    pages = ["README.md"] + sorted(
        os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "docs", "*.md")))
    for page in pages:
        lines = Path(root, page).read_text().split("\n")
        i = 0
        while i < len(lines):
            fence = re.match(r"^(\s*)```(\S*)\s*$", lines[i])
            if not fence:
                i += 1
                continue
            indent, lang = len(fence.group(1)), fence.group(2).lower()
            end = i + 1
            while end < len(lines) and not re.match(r"^\s*```\s*$", lines[end]):
                end += 1
            before = next((l.strip() for l in reversed(lines[:i]) if l.strip()), "")
            marker = re.match(r"<!--\s*docs-test:\s*(.*?)\s*-->$", before)
            text = "\n".join(l[indent:] for l in lines[i + 1:end]) + "\n"
            found.append(Block(page, i + 1, lang, text,
                               marker.group(1) if marker else None))
            i = end + 1
    return found


def rewrite(text, options):
    """The block as it runs here: the package's paths as the build's, the
    toolkit where it is."""
    for installed, built in sorted(INSTALLED.items(), key=lambda kv: -len(kv[0])):
        text = text.replace(installed, built)
    if options.cuda_root:
        text = text.replace("/usr/local/cuda", options.cuda_root)
    else:
        text = text.replace("/usr/local/cuda/include", options.fallback_include)
    return text


def foreign_paths(text):
    """Absolute paths of this tool's files that the package does not install:
    a build tree of a clone, a placeholder."""
    bad = []
    for path in re.findall(r"(?<![\w.:/~$-])(/[\w.+-]+(?:/[\w.+*-]+)+)", text):
        if not re.search(r"/(cublas-tidy[^/]*/|cublas-tidy$|cublas-clangd$|libCublasTidy)",
                         path):
            continue  # a file of the user's project
        if any(path == p or path.startswith(p + "/") for p in INSTALLED):
            continue
        if path.startswith("/usr/share/doc/cublas-tidy/"):
            continue
        bad.append(path)
    return bad


def needs_missing(block, options):
    """What the block needs that this machine lacks, or None."""
    marker = block.marker or ""
    wanted = marker[len("needs"):].split() if marker.startswith("needs") else []
    wanted += [p for p in OPTIONAL_PROGRAMS
               if re.search(r"(^|[\s;&|(\"'])%s(\s|$)" % re.escape(p), block.text)]
    if re.search(r"\.cu\b", block.text):
        wanted.append("cuda")
    for want in wanted:
        if want == "cuda":
            if not options.cuda_root:
                return "the CUDA toolkit"
        elif want.startswith("/"):
            if not os.path.exists(want):
                return want
        elif not shutil.which(want):
            return want
    return None


def make_project(work, options):
    """The scratch project that every block starts from."""
    include = (os.path.join(options.cuda_root, "include") if options.cuda_root
               else options.fallback_include)
    project = work / "project"
    (project / "src").mkdir(parents=True)
    (project / "include").mkdir()
    (project / "CMakeLists.txt").write_text(CMAKE_LISTS.format(include=include))
    (project / "include" / "gemm.hpp").write_text(GEMM_HPP)
    clean = Path(options.source, "examples", "clean_gemm.cpp").read_text()
    (project / "src" / "gemm.cpp").write_text(
        clean.replace("int main() {", "int scale(float *, int) { return 0; }\n\n"
                      "int run_all() {"))
    (project / "src" / "main.cpp").write_text(MAIN_CPP)
    (project / ".gitignore").write_text("build*/\n")
    if options.cuda_root:
        (project / "src" / "gemm.cu").write_text(GEMM_CU)
    (project / "gemm_ext.cu").write_text(TORCH_EXT)

    # The compile database of project(app LANGUAGES CXX CUDA), as CMake 3.25
    # writes it (Unix Makefiles: the include directories of the .cu in a
    # response file), with the nvcc line of docs/ci.md.
    def cxx(build, name):
        return {"directory": str(build),
                "command": "/usr/bin/c++ -I%s/include -isystem %s -std=gnu++17 "
                           "-o CMakeFiles/app.dir/src/%s.o -c %s/src/%s"
                           % (project, include, name, project, name),
                "file": "%s/src/%s" % (project, name)}
    for name in ("build", "build-of-your-project"):
        build = project / name
        (build / "CMakeFiles" / "app.dir").mkdir(parents=True)
        (build / "CMakeFiles" / "app.dir" / "includes_CUDA.rsp").write_text(
            "-I%s/include\n" % project)
        database = [cxx(build, "gemm.cpp"), cxx(build, "main.cpp")]
        if options.cuda_root:
            database.append({
                "directory": str(build),
                "command": "%s/bin/nvcc -forward-unknown-to-host-compiler  "
                           "--options-file CMakeFiles/app.dir/includes_CUDA.rsp  "
                           "--generate-code=arch=compute_90,code=[compute_90,sm_90] "
                           "-Xcompiler=-fPIE --expt-relaxed-constexpr -Xcompiler=-Wall "
                           "-std=c++17 -x cu -rdc=true -c %s/src/gemm.cu "
                           "-o CMakeFiles/app.dir/src/gemm.cu.o"
                           % (options.cuda_root, project),
                "file": "%s/src/gemm.cu" % project})
        (build / "compile_commands.json").write_text(json.dumps(database, indent=2))
    # The build's files where README.md's commands look for them.
    for rel, target in (("build/bin/cublas-tidy", options.cublas_tidy),
                        ("build/bin/cublas-clangd", options.cublas_clangd),
                        ("build/lib/libCublasTidy.so", options.plugin)):
        if target:
            (project / rel).parent.mkdir(parents=True, exist_ok=True)
            (project / rel).symlink_to(target)

    origin = work / "origin.git"
    run_git(work, "init", "-q", "--bare", str(origin))
    run_git(project, "init", "-q")
    run_git(project, "add", "-A")
    run_git(project, "commit", "-q", "-m", "app")
    run_git(project, "remote", "add", "origin", str(origin))
    run_git(project, "push", "-q", "origin", "main")
    run_git(project, "fetch", "-q", "origin")

    tools = work / "bin"
    tools.mkdir()
    for name, script in STUBS.items():
        (tools / name).write_text(script)
        (tools / name).chmod(0o755)
    for name, target in (("cublas-tidy", options.cublas_tidy),
                         ("cublas-clangd", options.cublas_clangd)):
        if target:
            (tools / name).symlink_to(target)
    return project, tools


def git_env(home):
    return dict(os.environ, GIT_CONFIG_NOSYSTEM="1", HOME=str(home),
                GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.invalid",
                GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.invalid")


def run_git(cwd, *args):
    subprocess.run(["git", "-c", "init.defaultBranch=main"] + list(args), cwd=cwd,
                   env=git_env(cwd), check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)


def shell_commands(block):
    """A shell block's commands; a console block's are its `$ ` lines."""
    if block.lang != "console":
        return block.text
    return "".join(l[2:] + "\n" for l in block.text.split("\n") if l.startswith("$ "))


def job_scripts(block):
    """A CI job's shell scripts in order, or None when the YAML is not a job:
    GitHub Actions steps (`run:`, and the artifacts' upload and download as
    copies; other `uses:` steps are not run) and GitLab jobs (`before_script:`,
    `script:`). A `${{ matrix.X }}` is X's first value."""
    import yaml  # pre-commit's dependency; only here for the CI jobs
    try:
        doc = yaml.safe_load(block.text)
    except yaml.YAMLError:
        return None
    jobs = []
    if isinstance(doc, list) and all(isinstance(s, dict) for s in doc) and \
            any("run" in s or "uses" in s for s in doc):
        jobs = [{"steps": doc}]  # steps of a job, shown alone
    elif isinstance(doc, dict):
        jobs = list(doc["jobs"].values()) if isinstance(doc.get("jobs"), dict) else \
            [j for j in doc.values() if isinstance(j, dict) and "script" in j]
    scripts = []
    for job in jobs:
        matrix = (job.get("strategy") or {}).get("matrix") or {}
        for step in job.get("steps") or []:
            text = json.dumps(step)
            text = re.sub(r"\$\{\{\s*matrix\.(\w+)\s*\}\}",
                          lambda m: str((matrix.get(m.group(1)) or [""])[0]), text)
            step = json.loads(text)
            uses, given = step.get("uses", ""), step.get("with") or {}
            if "run" in step:
                scripts.append(step["run"])
            elif uses.startswith("actions/upload-artifact@"):
                # The jobs run one after the other in one folder here.
                scripts.append('mkdir -p "$ARTIFACTS/%s" && cp %s "$ARTIFACTS/%s"\n'
                               % (given["name"], given["path"], given["name"]))
            elif uses.startswith("actions/download-artifact@"):
                scripts.append('mkdir -p %s && cp "$ARTIFACTS"/*/* %s\n'
                               % (given["path"], given["path"]))
        lines = (job.get("before_script") or []) + (job.get("script") or [])
        if lines:
            scripts.append("\n".join(lines) + "\n")
    return scripts if jobs else None


def run_block(block, options, template):
    """('PASS'|'SKIP'|'FAIL', what) for one block."""
    marker = block.marker or ""
    if marker.startswith("skip"):
        reason = re.match(r"skip\s*\((.+)\)$", marker)
        if not reason:
            return "FAIL", "a skip without its reason: <!-- docs-test: skip (why) -->"
        return "SKIP", reason.group(1)
    if marker and not re.match(r"(needs|setup:)\s", marker):
        return "FAIL", "an unknown marker: %s" % marker
    if block.lang in SHELL:
        scripts = [shell_commands(block)]
    elif block.lang in ("yaml", "yml"):
        scripts = job_scripts(block) or []
    elif block.lang in CONFIG:
        scripts = []
    else:
        return None, ""  # code and output, not commands
    foreign = foreign_paths(block.text)
    if foreign:
        return "FAIL", ("names %s, which the package does not install (a build "
                        "from source? the package's paths are %s)"
                        % (", ".join(sorted(set(foreign))), ", ".join(sorted(INSTALLED))))
    if not scripts:
        return "PASS", "paths"
    missing = needs_missing(block, options)
    if missing:
        return "SKIP", "needs %s, not here" % missing
    if marker.startswith("setup:"):
        scripts = [marker[len("setup:"):].strip() + "\n"] + scripts
    work = Path(tempfile.mkdtemp(prefix="docs-block-", dir=template))
    try:
        project = work / "project"
        shutil.copytree(template / "project", project, symlinks=True)
        # The compile databases name the copy's files.
        for made in glob.glob(str(project / "build*" / "**" / "*.*"), recursive=True):
            if made.endswith((".json", ".rsp")):
                text = Path(made).read_text()
                Path(made).write_text(text.replace(str(template / "project"), str(project)))
        env = git_env(work)
        env["PATH"] = "%s:%s" % (template / "bin", os.environ.get("PATH", ""))
        env.pop("CUBLAS_TIDY_CACHE_DIR", None)
        env["ARTIFACTS"] = str(work / "artifacts")
        for n, script in enumerate(scripts):
            done = subprocess.run(["bash", "-e", "-o", "pipefail", "-c",
                                   rewrite(script, options)],
                                  cwd=project, env=env, text=True,
                                  stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, timeout=BLOCK_TIMEOUT_S)
            if done.returncode != 0:
                step = " (step %d of %d)" % (n + 1, len(scripts)) if len(scripts) > 1 else ""
                tail = "\n".join(done.stdout.rstrip().split("\n")[-25:])
                return "FAIL", "exit %d%s; the end of its output:\n%s\nthe commands run:\n%s" % (
                    done.returncode, step, tail, rewrite(script, options))
        return "PASS", "%d script(s)" % len(scripts)
    except subprocess.TimeoutExpired:
        return "FAIL", "still running after %d s" % BLOCK_TIMEOUT_S
    finally:
        if not options.keep:
            shutil.rmtree(work, ignore_errors=True)


def timed(run, block, options, template):
    start = time.monotonic()
    verdict, what = run(block, options, template)
    if verdict == "PASS" and what != "paths":
        what += " in %.1f s" % (time.monotonic() - start)
    return verdict, what


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--source", required=True)
    parser.add_argument("--cublas-tidy", required=True)
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--cublas-clangd", default="")
    parser.add_argument("--cuda-root", default="/usr/local/cuda")
    parser.add_argument("--fallback-include", default="")
    parser.add_argument("--only", default="", help="FILE or FILE:LINE of one block")
    parser.add_argument("-j", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--keep", action="store_true")
    options = parser.parse_args()
    options.source = os.path.abspath(options.source)
    for name in ("cublas_tidy", "plugin", "cublas_clangd"):
        if getattr(options, name):
            setattr(options, name, os.path.abspath(getattr(options, name)))
    if options.cuda_root and not os.path.isfile(
            os.path.join(options.cuda_root, "include", "cublas_v2.h")):
        options.cuda_root = ""
    if not options.fallback_include:
        options.fallback_include = os.path.join(options.source, "test", "fallback-include")
    for program in ("bash", "git", "cmake"):
        if not shutil.which(program):
            print("SKIP: %s is not installed" % program)
            return SKIP
    INSTALLED.update({
        "/usr/bin/cublas-tidy": options.cublas_tidy,
        "/usr/bin/cublas-clangd": options.cublas_clangd or "/nonexistent/cublas-clangd",
        "/usr/lib/cublas-tidy/22/libCublasTidy.so": options.plugin,
        "/usr/share/cublas-tidy/pre-commit-hook":
            os.path.join(options.source, "scripts", "pre-commit-hook"),
        "/usr/share/cublas-tidy/ci-action": os.path.join(options.source, "scripts", "ci-action"),
        "/usr/share/cublas-tidy/torch-include":
            os.path.join(options.source, "test", "torch-include"),
    })

    blocks = blocks_of(options.source)
    if options.only:
        blocks = [b for b in blocks
                  if b.where() == options.only or b.path == options.only]
    # The PyTorch ones are the longest (torch/extension.h): first.
    blocks.sort(key=lambda b: "torch" not in b.text)
    start = time.monotonic()
    template = Path(tempfile.mkdtemp(prefix="docs-commands-"))
    try:
        make_project(template, options)
        with concurrent.futures.ThreadPoolExecutor(max(1, options.j)) as pool:
            results = list(pool.map(lambda b: (b, timed(run_block, b, options, template)),
                                    blocks))
    except Failure as failure:
        print("FAIL:", failure)
        return 1
    finally:
        if options.keep:
            print("kept", template)
        else:
            shutil.rmtree(template, ignore_errors=True)
    counts = {"PASS": 0, "SKIP": 0, "FAIL": 0}
    for block, (verdict, what) in sorted(results, key=lambda r: (r[0].path, r[0].line)):
        if verdict is None:
            continue
        counts[verdict] += 1
        print("%s %s (%s): %s" % (verdict, block.where(), block.lang or "text", what))
    print("%d blocks run, %d skipped, %d failed in %.1f s"
          % (counts["PASS"], counts["SKIP"], counts["FAIL"], time.monotonic() - start))
    if not counts["PASS"] and not counts["FAIL"]:
        print("FAIL: no block ran")
        return 1
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
