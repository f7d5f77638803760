#!/usr/bin/env python3
"""Runs every cublas-* check over a hostile input and checks that each front
end finishes: no crash, no assertion, no sanitizer report, within a time
limit, and with no cublas-* diagnostic but those the input expects.

    run_torture.py --cublas-tidy BIN [--clang-tidy BIN --plugin SO]
                   --cuda-include DIR [--timeout S] INPUT

An input lists what it expects as `// EXPECT: <check> @ <line>` lines; with
none, nothing may be reported. Compile errors in the input are allowed
(exit code 1): the checks must cope with partial ASTs.
"""
import argparse
import os
import re
import subprocess
import sys

CRASH = re.compile(r"Stack dump:|PLEASE submit a bug report|Assertion .* failed|"
                   r"AddressSanitizer|UndefinedBehaviorSanitizer|LeakSanitizer|"
                   r"runtime error:|Segmentation fault|Aborted")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cublas-tidy", required=True)
    ap.add_argument("--clang-tidy")
    ap.add_argument("--plugin")
    ap.add_argument("--cuda-include", required=True)
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("input")
    args = ap.parse_args()

    with open(args.input, encoding="utf-8") as f:
        text = f.read()
    expected = sorted((m.group(1), int(m.group(2))) for m in
                      re.finditer(r"//\s*EXPECT:\s*(cublas-[\w-]+)\s*@\s*(\d+)", text))
    is_c = args.input.endswith(".c")
    compiler = ["-isystem", args.cuda_include, "-Wno-everything"]
    if not is_c:
        compiler.append("-std=c++20")

    frontends = [("standalone", [args.cublas_tidy])]
    if args.clang_tidy and args.plugin:
        frontends.append(("plugin", [args.clang_tidy, "--load=" + args.plugin]))
    ok = True
    for name, tidy in frontends:
        cmd = tidy + ["-checks=-*,cublas-*", "--quiet", args.input, "--"] + compiler
        try:
            proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True,
                                  timeout=args.timeout)
        except subprocess.TimeoutExpired:
            print("%s: did not finish within %d s" % (name, args.timeout))
            ok = False
            continue
        out = proc.stdout
        if proc.returncode not in (0, 1) or CRASH.search(out):
            print("%s: crashed (exit %d):\n%s" % (name, proc.returncode, out[-4000:]))
            ok = False
            continue
        found = sorted((m.group(3), int(m.group(1))) for m in re.finditer(
            r"^[^\n]*?:(\d+):(\d+): (?:warning|error): [^\n]*\[(cublas-[\w-]+)",
            out, re.M))
        found = sorted((c, l) for c, l in found)
        if found != expected:
            print("%s: expected %s, reported %s" % (name, expected, found))
            print(out[-4000:])
            ok = False
            continue
        print("%s: ok (exit %d, %d expected diagnostics)" % (name, proc.returncode, len(found)))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
