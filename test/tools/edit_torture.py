#!/usr/bin/env python3
"""Runs every cublas-* check on code as an editor sees it while the user types.

    edit_torture.py --cublas-tidy BIN --cuda-include DIR [--clang CLANG++]
                    [--pch-cache BUILD_DIR] [--step N] [--cu-step N] [--offset K]
                    [--max-variants M] [--jobs J]
                    [--timeout S] [--keep DIR] [--arg -I...]... FILE_OR_DIR...

For each input file (directories are searched for .cpp, .cu and .c files) it
makes two variants per line k: the file cut after line k (what the editor
holds while the user types the file in), and the file with line k deleted
(one line lost in an edit: a brace, a semicolon, a line of a multi-line
macro). Only lines of code are taken: cutting after a blank or comment-only
line gives the variant of the line of code before it, and deleting one gives
the file itself, so those variants would parse what others already parse.
With --step N only every N-th line of code is taken, starting at the
--offset K-th, so that two runs with different offsets cover different
lines; with --max-variants M the steps are multiplied by the smallest
factor that leaves at most M variants, so that the run's time stays
bounded while the inputs grow. Each variant
is analysed by the standalone driver with all cublas-* checks; a crash (a
signal, a stack dump, an assertion, a sanitizer report, a crash reported by
the driver) or a timeout is a failure. Compile errors are expected.

The CUDA headers are parsed once into a precompiled header (with --clang)
that every C++ variant includes first: the headers' include guards make the
variant's own #includes no-ops. The header's pending template instantiations
are made in it too (-fpch-instantiate-templates), or every variant would
make them again at its end (four fifths of a variant's time in the standard
headers); a variant then costs a twentieth of a full parse. With
--pch-cache the two PCHs are kept in the machine's cache of test/pch.py
(made again when a header they read changes), not made by every run.

Variants are analysed --batch at a time by one driver process (-j 1), as
a run over several files is: the process starts once per batch instead of
once per variant, and the units that follow one another in it share what
the process keeps between units. A batch that crashes, or that runs past
--timeout (the limit of one variant), is analysed again one variant at a
time, so that each failure names its variant and a slow batch of fast
variants is not a timeout.

A file that includes PyTorch's headers (<torch/...>, <ATen/...>) is left
out: without libtorch's flags its variants stop at a fatal include error
after reading part of ATen as text (a second each, most of the run's time,
for code that is never analysed), and with them each would parse
torch/extension.h; the front ends' PyTorch tests parse those files whole.

Prints one line per failure, with the variant kept for reproduction, and ends
with 'edit-torture: N variants, C crashes, T timeouts'.
"""
import argparse
import concurrent.futures as cf
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import pch as pchlib  # noqa: E402  test/pch.py

CRASH = re.compile(r"Stack dump:|PLEASE submit a bug report|Assertion .* failed|"
                   r"AddressSanitizer|UndefinedBehaviorSanitizer|"
                   r"runtime error:|Segmentation fault|Aborted|"
                   r"analysis of .* crashed")

# The headers the inputs include, parsed once for every C++ variant.
PREFIX_HEADERS = ["cuda_runtime.h", "cublas_v2.h", "cublasLt.h", "cublasXt.h",
                  "library_types.h", "cuda_fp16.h", "cuda_bf16.h"]
PREFIX_STD = ["cstdio", "cstdlib", "cstring", "cstdint", "memory", "vector",
              "stdexcept", "utility", "string", "algorithm", "functional",
              "mutex", "thread", "atomic", "cmath", "iostream", "map",
              "optional", "array", "initializer_list", "type_traits",
              "new", "numeric", "chrono", "future", "cstddef", "cassert",
              "exception", "list", "deque"]
PREFIX_THRUST = ["thrust/device_vector.h", "thrust/host_vector.h"]


def inputs(paths):
    out = []
    for p in paths:
        if os.path.isdir(p):
            for root, _, files in os.walk(p):
                for f in sorted(files):
                    if f.endswith((".cpp", ".cu", ".c")):
                        out.append(os.path.join(root, f))
        else:
            out.append(p)
    return sorted(out)


def code_lines(lines):
    """The 1-based numbers of the lines that hold code: neither blank nor
    a // comment alone (a line inside a /* */ comment counts as code, so
    that no variant is lost to a guess)."""
    return [k for k, line in enumerate(lines, 1)
            if line.strip() and not line.lstrip().startswith("//")]


def build_pch(clang, cuda_include, out_dir, cuda):
    """A precompiled header of the CUDA and standard headers: for C++, or
    (cuda) for CUDA host-only parses as the driver makes them for .cu files,
    thrust included. Made by test/pch.py into `out_dir`: the machine's PCH
    cache (--pch-cache) keeps it for the next run, as it keeps the lit
    tests' preambles."""
    lines = []
    for h in PREFIX_HEADERS + (PREFIX_THRUST if cuda else []):
        if os.path.exists(os.path.join(cuda_include, h)) or \
           os.path.exists(os.path.join(cuda_include, "cccl", h)):
            lines.append("#include <%s>" % h)
    lines += ["#include <%s>" % h for h in PREFIX_STD]
    flags = ["-std=c++17", "-isystem", cuda_include, "-Wno-everything"]
    if cuda:
        root = os.path.dirname(os.path.normpath(cuda_include))
        flags = ["--cuda-path=" + root, "-Wno-unknown-cuda-version"] + flags + [
            "-isystem", os.path.join(cuda_include, "cccl")]
    pch = pchlib.build(clang, lines, flags, out_dir,
                       "edit-prefix-cu" if cuda else "edit-prefix",
                       cuda_host=cuda)
    if not pch:
        sys.stderr.write("edit-torture: no precompiled header; every variant "
                         "parses the headers\n")
    return pch


def pch_dir(args, work):
    """Where the PCHs are made: the machine's cache of test/pch.py when
    --pch-cache names the build folder, else the run's own folder."""
    return pchlib.cache_dir(args.pch_cache) if args.pch_cache else work


TORCH_INCLUDE = re.compile(r"^\s*#\s*include\s*<(torch|ATen)/", re.M)


def read_inputs(args):
    """[(path, lines, its lines of code, the step of its extension)] for
    the inputs that are analysed, and the inputs left out because they
    include PyTorch's headers."""
    kept, torch = [], []
    for f in inputs(args.paths):
        with open(f, encoding="utf-8", errors="replace") as fh:
            source = fh.read()
        if TORCH_INCLUDE.search(source):
            torch.append(f)
            continue
        ext = os.path.splitext(f)[1]
        step = args.cu_step if ext == ".cu" and args.cu_step else args.step
        lines = source.split("\n")
        kept.append((f, lines, code_lines(lines), step))
    return kept, torch


def thinning(args, kept):
    """The factor the steps are multiplied by so that the variants stay
    within --max-variants: 1 when they fit. The inputs grow with every
    test written, and the run's time with them; past the bound the lines
    taken spread evenly over every input."""
    if not args.max_variants:
        return 1
    count = lambda factor: sum(
        2 * len(code[args.offset - 1::step * factor])
        for _, _, code, step in kept)
    factor = 1
    while count(factor) > args.max_variants:
        factor += 1
    return factor


def write_variants(args, work):
    """Writes the variants of every input into `work`: a list of
    (input, "cut" or "del", line, variant path, extension), the inputs
    left out because they include PyTorch's headers, and the factor the
    steps were thinned by."""
    variants = []
    kept, torch = read_inputs(args)
    factor = thinning(args, kept)
    for f, lines, code, step in kept:
        ext = os.path.splitext(f)[1]
        base = os.path.relpath(f).replace(os.sep, "_").replace(".", "_")
        for k in code[args.offset - 1::step * factor]:
            for kind, text in (("cut", lines[:k]),
                               ("del", lines[:k - 1] + lines[k:])):
                p = os.path.join(work, "%s.%s%d%s" % (base, kind, k, ext))
                with open(p, "w", encoding="utf-8") as out:
                    out.write("\n".join(text) + "\n")
                variants.append((f, kind, k, p, ext))
    return variants, torch, factor


def report(failures, keep):
    """Prints one line per failure (and a crash's first lines), the variant
    copied into `keep` when given; returns (crashes, timeouts)."""
    crashes = timeouts = 0
    for (f, kind, k, p, ext), res, detail in failures:
        crashes += res == "crash"
        timeouts += res == "timeout"
        kept = p
        if keep:
            os.makedirs(keep, exist_ok=True)
            kept = shutil.copy(p, keep)
        what = "line %d deleted" % k if kind == "del" else "cut after line %d" % k
        print("%s: %s, %s (%s)" % (res, f, what, kept))
        if res == "crash":
            tail = [l for l in detail.splitlines() if l.strip()][:12]
            print("    " + "\n    ".join(tail))
    return crashes, timeouts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cublas-tidy", required=True)
    ap.add_argument("--cuda-include", required=True)
    ap.add_argument("--clang", help="clang++ for the precompiled header")
    ap.add_argument("--pch-cache", metavar="BUILD_DIR",
                    help="keep the precompiled headers in the machine's PCH "
                         "cache (test/pch.py's cache_dir of BUILD_DIR)")
    ap.add_argument("--step", type=int, default=1)
    ap.add_argument("--cu-step", type=int,
                    help="the step for .cu files (their parses cost more)")
    ap.add_argument("--offset", type=int, default=1)
    ap.add_argument("--max-variants", type=int, default=0,
                    help="thin the steps by a common factor until the "
                         "variants number at most this (0: no bound)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=int, default=60,
                    help="seconds one variant may take")
    ap.add_argument("--batch", type=int, default=16,
                    help="variants per driver process (.cu: a quarter)")
    ap.add_argument("--keep", help="directory to keep failing variants in")
    ap.add_argument("--arg", action="append", default=[],
                    help="an extra compiler argument (-I...), repeatable")
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="edit-torture-")
    pch = cu_pch = None
    if args.clang:
        pch = build_pch(args.clang, args.cuda_include, pch_dir(args, work),
                        cuda=False)
        cu_pch = build_pch(args.clang, args.cuda_include, pch_dir(args, work),
                           cuda=True)

    variants, torch, factor = write_variants(args, work)
    if torch:
        print("edit-torture: %d inputs that include PyTorch's headers left out"
              % len(torch))
    if factor > 1:
        print("edit-torture: every %d-th line of code (.cu: %d-th), to stay "
              "within %d variants" % (args.step * factor,
                                      (args.cu_step or args.step) * factor,
                                      args.max_variants))

    def command(batch):
        ext = batch[0][4]
        cmd = [args.cublas_tidy, "-checks=-*,cublas-*", "--quiet", "-j", "1"]
        cmd += [v[3] for v in batch] + ["--"]
        if ext == ".c":
            cmd += ["-x", "c", "-std=c11"]
        elif ext == ".cu":
            cmd += ["-std=c++17"]  # the driver adds the CUDA host-only flags
            if cu_pch:
                cmd += ["-include-pch", cu_pch]
        else:
            cmd += ["-std=c++17"]
            if pch:
                cmd += ["-include-pch", pch]
        return cmd + ["-isystem", args.cuda_include, "-Wno-everything"] + args.arg

    def analyse(batch):
        """(None, "") when the batch ran clean; else what went wrong."""
        try:
            r = subprocess.run(command(batch), capture_output=True, text=True,
                               errors="replace", timeout=args.timeout)
        except subprocess.TimeoutExpired:
            return "timeout", ""
        out = r.stdout + r.stderr
        if r.returncode < 0 or CRASH.search(out):
            return "crash", out
        return None, ""

    def run(batch):
        """[(variant, failure, detail)] for the variants of `batch` that
        crash or time out alone."""
        res, detail = analyse(batch)
        if not res:
            return []
        if len(batch) == 1:
            return [(batch[0], res, detail)]
        return [f for v in batch for f in run([v])]

    batches = []
    for ext in sorted({v[4] for v in variants}):
        same = [v for v in variants if v[4] == ext]
        size = max(1, args.batch // 4 if ext == ".cu" else args.batch)
        batches += [same[i:i + size] for i in range(0, len(same), size)]

    with cf.ThreadPoolExecutor(args.jobs) as ex:
        failures = [f for found in ex.map(run, batches) for f in found]
    crashes, timeouts = report(failures, args.keep)
    print("edit-torture: %d variants, %d crashes, %d timeouts"
          % (len(variants), crashes, timeouts))
    if not crashes and not timeouts:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if crashes or timeouts else 0

if __name__ == "__main__":
    sys.exit(main())
