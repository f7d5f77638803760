#!/usr/bin/env python3
"""--fix never breaks a build, and fixing is idempotent.

    fix_test.py --cublas-tidy BIN --clang CLANG++ --cuda-include DIR
                [--pch-cache BUILD_DIR] [--jobs J] FILE_OR_DIR...

Every input (directories are searched for .cpp, .cu and .c files) is copied
and fixed with all cublas-* checks, once with the default options and once
with cublas-unchecked-status.CheckMacro set to a macro that the inputs do
not define (CK). Inputs that include PyTorch's headers are left out (they
compile only with libtorch's flags). The fixed file must compile with no
more errors than the original (some inputs are broken on purpose), and a
second --fix must leave it unchanged; a file that --fix leaves as it was
passes both, without a compile or a second fix. Prints one line per failure and ends with
'fix-test: N runs, F failures'.
"""
import argparse
import concurrent.futures as cf
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from edit_torture import TORCH_INCLUDE, build_pch, inputs, pch_dir  # noqa: E402

CONFIGS = [("default", None),
           ("checkmacro", "{CheckOptions: {cublas-unchecked-status.CheckMacro: CK}}")]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cublas-tidy", required=True)
    ap.add_argument("--clang", required=True)
    ap.add_argument("--cuda-include", required=True)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--pch-cache", metavar="BUILD_DIR",
                    help="keep the precompiled headers in the machine's PCH "
                         "cache (test/pch.py's cache_dir of BUILD_DIR)")
    ap.add_argument("--step", type=int, default=1,
                    help="fix every STEP-th input only, and every input "
                         "whose expectations hold fixes (CHECK-FIXES)")
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="fix-test-")
    pch = build_pch(args.clang, args.cuda_include, pch_dir(args, work),
                    cuda=False)
    cu_pch = build_pch(args.clang, args.cuda_include, pch_dir(args, work),
                       cuda=True)
    root = os.path.dirname(os.path.normpath(args.cuda_include))

    def compiler_args(ext):
        if ext == ".c":
            return ["-x", "c", "-std=c11"]
        if ext == ".cu":
            return ["-std=c++17"] + (["-include-pch", cu_pch] if cu_pch else [])
        return ["-std=c++17"] + (["-include-pch", pch] if pch else [])

    def errors(path, ext):
        cmd = [args.clang, "-fsyntax-only", "-Wno-everything",
               "-isystem", args.cuda_include]
        if ext == ".cu":
            cmd += ["-x", "cuda", "--cuda-host-only", "--cuda-path=" + root,
                    "-Wno-unknown-cuda-version",
                    "-isystem", os.path.join(args.cuda_include, "cccl")]
        cmd += compiler_args(ext) + [path]
        r = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
        return len(re.findall(r": (?:fatal )?error: ", r.stderr))

    def fix(path, ext, config):
        cmd = [args.cublas_tidy, "-checks=-*,cublas-*", "--fix", "--quiet", path]
        if config:
            cmd.append("-config=" + config)
        cmd += ["--", "-isystem", args.cuda_include, "-Wno-everything"]
        cmd += compiler_args(ext)
        return subprocess.run(cmd, capture_output=True, text=True,
                              errors="replace")

    # The inputs that include PyTorch's headers are left out, as by the
    # edit torture: without libtorch's flags they stop at a fatal include
    # and nothing in them is analysed or fixed.
    files = []
    for i, f in enumerate(inputs(args.paths)):
        with open(f, encoding="utf-8", errors="replace") as fh:
            source = fh.read()
        if ((i % args.step == 0 or "CHECK-FIXES" in source) and
                not TORCH_INCLUDE.search(source)):
            files.append(f)
    jobs = [(f, name, config) for f in files for name, config in CONFIGS]

    originals = {}
    originals_lock = threading.Lock()

    def errors_before(f, ext):
        """The compile errors of `f` as copied into the work folder (its
        includes resolve as its fixed copies' do), counted once per file."""
        with originals_lock:
            if f in originals:
                return originals[f]
        base = os.path.relpath(f).replace(os.sep, "_").replace(".", "_")
        path = os.path.join(work, "%s.original%s" % (base, ext))
        shutil.copy(f, path)
        n = errors(path, ext)
        with originals_lock:
            originals[f] = n
        return n

    def run(job):
        f, name, config = job
        ext = os.path.splitext(f)[1]
        base = os.path.relpath(f).replace(os.sep, "_").replace(".", "_")
        path = os.path.join(work, "%s.%s%s" % (base, name, ext))
        shutil.copy(f, path)
        with open(path, encoding="utf-8", errors="replace") as fh:
            original = fh.read()
        r = fix(path, ext, config)
        if r.returncode < 0:
            return job, "crashed while fixing"
        with open(path, encoding="utf-8", errors="replace") as fh:
            once = fh.read()
        # Nothing fixed: the file compiles as before, and a second --fix
        # would analyse the same text again.
        if once == original:
            return job, None
        before = errors_before(f, ext)
        after = errors(path, ext)
        if after > before:
            return job, "the fixed file has %d compile errors, the original %d" \
                % (after, before)
        fix(path, ext, config)
        with open(path, encoding="utf-8", errors="replace") as fh:
            twice = fh.read()
        if twice != once:
            return job, "a second --fix changed the file again"
        return job, None

    failures = 0
    with cf.ThreadPoolExecutor(args.jobs) as ex:
        for (f, name, _), problem in ex.map(run, jobs):
            if problem:
                failures += 1
                print("FAIL: %s (%s): %s" % (f, name, problem))
    print("fix-test: %d runs, %d failures" % (len(jobs), failures))
    if not failures:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
