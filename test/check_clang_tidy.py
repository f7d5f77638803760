#!/usr/bin/env python3
"""Runs one cublas-* check over a test file and verifies its output.

    check_clang_tidy.py [options] INPUT CHECK TEMP [-- EXTRA_TIDY_ARGS [-- COMPILER_ARGS]]

The file holds its expectations in comments, as clang-tidy's own tests do:

    // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: ... [cublas-unchecked-status]
    // CHECK-NOTES:    notes and warnings together (use one or the other)
    // CHECK-FIXES:    lines of the file after --fix

The check runs through every front end given: the plugin loaded into
clang-tidy (--clang-tidy and --plugin) and the standalone driver
(--cublas-tidy). Each run works on its own copy of INPUT, with the CHECK
lines blanked so that fixes cannot touch them; the messages must match in
every front end and no other warning may appear (FileCheck's
-implicit-check-not). With -check-suffix=S the prefixes are CHECK-MESSAGES-S
and so on.

CUDA headers are passed as system headers (-isystem), as real projects get
them. For .cu files the plugin run passes the host-only flags explicitly; the
standalone driver is given none, to prove that it adds them itself.

With --pch-clang and --pch-dir, a C++ file's leading #include <...> lines
(its preamble) are read from a precompiled header (test/pch.py) made by that
clang with the test's compiler arguments, the -D and -U aside: a run that
defines a macro some header of the preamble names parses as text. The
file's own #include lines still run (the headers' guards make them no-ops).
CUBLAS_TIDY_LIT_NO_PCH=1 parses every file as text.
"""

import argparse
import os
import re
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pch  # noqa: E402


def fail(msg):
    sys.stderr.write("check_clang_tidy.py: " + msg + "\n")
    sys.exit(1)


def run(cmd, **kw):
    sys.stdout.write("RUN: " + " ".join(shlex.quote(c) for c in cmd) + "\n")
    sys.stdout.flush()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, **kw)
    return proc.returncode, proc.stdout


def filecheck(filecheck_bin, check_file, prefix, text, extra=()):
    cmd = [filecheck_bin, "-input-file=-", check_file,
           "-check-prefix=" + prefix] + list(extra)
    proc = subprocess.run(cmd, input=text, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        sys.stdout.write(proc.stdout)
        fail("FileCheck failed for " + prefix)


def preamble(text):
    """The #include <...> lines a file starts with, past blank and //
    comment lines: what a PCH can hold for it."""
    lines = []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("//"):
            continue
        if not re.match(r"#\s*include\s*<[^>]+>$", stripped):
            break
        lines.append(stripped)
    return lines


def macro_arguments(args):
    """`args` split into the -D/-U arguments (with their values) and the
    rest, and the names the former define or undefine."""
    macros, rest, names = [], [], []
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-D", "-U") and i + 1 < len(args):
            macros += [a, args[i + 1]]
            names.append(args[i + 1].split("=", 1)[0])
            i += 2
            continue
        if a.startswith(("-D", "-U")):
            macros.append(a)
            names.append(a[2:].split("=", 1)[0])
        else:
            rest.append(a)
        i += 1
    return macros, rest, names


def preamble_pch(args, text, compiler):
    """The -include-pch arguments for a C++ run whose compiler arguments
    are `compiler`, or [] where the file parses as text."""
    if (not args.pch_clang or not args.pch_dir
            or os.environ.get("CUBLAS_TIDY_LIT_NO_PCH") == "1"
            or any(a.startswith(("-include", "-x")) for a in compiler)):
        return []
    _, flags, names = macro_arguments(compiler)
    made = pch.build(args.pch_clang, preamble(text), flags, args.pch_dir)
    if not made or pch.mentioned(made, names):
        return []
    return ["-include-pch", made]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--clang-tidy", help="clang-tidy that loads the plugin")
    ap.add_argument("--plugin", help="libCublasTidy.so")
    ap.add_argument("--cublas-tidy", help="the standalone driver")
    ap.add_argument("--filecheck", required=True)
    ap.add_argument("--cuda-include", required=True,
                    help="directory with cublas_v2.h, passed with -isystem")
    ap.add_argument("--cuda-path", default="",
                    help="CUDA toolkit root for .cu files")
    ap.add_argument("--pch-clang", help="clang++ of the front ends' LLVM, "
                    "to read a C++ file's preamble from a PCH")
    ap.add_argument("--pch-dir", help="where the preambles' PCHs are kept")
    ap.add_argument("-check-suffix", "--check-suffix", default="")
    ap.add_argument("-config", "--config", default="",
                    help="clang-tidy -config text (CheckOptions etc.)")
    ap.add_argument("-expect-clang-tidy-error", action="store_true")
    ap.add_argument("input")
    ap.add_argument("check")
    ap.add_argument("temp")
    # Split at the first "--" before argparse sees it: argparse would drop
    # that "--" itself and the tidy arguments would become compiler ones.
    argv = sys.argv[1:]
    rest = []
    if "--" in argv:
        i = argv.index("--")
        argv, rest = argv[:i], argv[i + 1:]
    args = ap.parse_args(argv)

    tidy_extra, compiler_args = rest, []
    if "--" in rest:
        i = rest.index("--")
        tidy_extra, compiler_args = rest[:i], rest[i + 1:]

    suffix = "-" + args.check_suffix.upper() if args.check_suffix else ""
    prefix_messages = "CHECK-MESSAGES" + suffix
    prefix_notes = "CHECK-NOTES" + suffix
    prefix_fixes = "CHECK-FIXES" + suffix

    with open(args.input, encoding="utf-8") as f:
        text = f.read()
    has_messages = re.search(r"\b" + re.escape(prefix_messages) + r"\b", text)
    has_notes = re.search(r"\b" + re.escape(prefix_notes) + r"\b", text)
    has_fixes = re.search(r"\b" + re.escape(prefix_fixes) + r"\b", text)
    if has_messages and has_notes:
        fail("use either %s or %s, not both" % (prefix_messages, prefix_notes))
    # Blank every CHECK line (keeping line numbers) so that fixes land only
    # on code.
    cleaned = re.sub(r"//\s*CHECK-[A-Z0-9-]*:[^\r\n]*", "//", text)

    ext = os.path.splitext(args.input)[1]
    is_cuda = ext == ".cu"
    is_c = ext == ".c"

    base_compiler = ["-isystem", args.cuda_include]
    if not is_c and not any(a.startswith("-std=") for a in compiler_args):
        base_compiler.append("-std=c++17")
    if not is_c and not is_cuda:
        compiler_args = compiler_args + preamble_pch(
            args, cleaned, base_compiler + compiler_args)

    frontends = []
    if args.clang_tidy and args.plugin:
        extra = []
        if is_cuda:
            extra = ["--cuda-host-only", "-Wno-unknown-cuda-version"]
            if args.cuda_path:
                extra.append("--cuda-path=" + args.cuda_path)
        frontends.append(("plugin", [args.clang_tidy, "--load=" + args.plugin],
                          extra))
    if args.cublas_tidy:
        frontends.append(("standalone", [args.cublas_tidy], []))
    if not frontends:
        fail("no front end given")

    for name, tidy, cuda_flags in frontends:
        temp = "%s.%s%s" % (args.temp, name, ext)
        os.makedirs(os.path.dirname(os.path.abspath(temp)), exist_ok=True)
        with open(temp, "w", encoding="utf-8") as f:
            f.write(cleaned)
        cmd = tidy + [temp, "-checks=-*," + args.check, "--fix-notes"
                      if has_fixes and has_notes else "--fix"]
        if args.config:
            cmd.append("-config=" + args.config)
        cmd += tidy_extra + ["--"] + base_compiler + cuda_flags + compiler_args
        code, out = run(cmd)
        sys.stdout.write(out)
        if args.expect_clang_tidy_error:
            if code == 0:
                fail("%s: expected a non-zero exit" % name)
        elif "error:" in out and "clang-diagnostic-error" in out:
            fail("%s: the test file does not compile" % name)
        # Drop the source echo and fix-it lines: compare diagnostics only.
        diag_lines = [l for l in out.splitlines()
                      if re.match(r".*:\d+:\d+: (warning|error|note):", l)]
        diags = "\n".join(diag_lines) + "\n"
        if has_messages:
            only_warnings = "\n".join(l for l in diag_lines
                                      if ": note:" not in l) + "\n"
            filecheck(args.filecheck, args.input, prefix_messages,
                      only_warnings,
                      ["-implicit-check-not={{warning|error}}:"])
        elif has_notes:
            filecheck(args.filecheck, args.input, prefix_notes, diags,
                      ["-implicit-check-not={{note|warning|error}}:"])
        elif not args.expect_clang_tidy_error:
            # No expectations: nothing may be reported.
            reported = [l for l in diag_lines if "[" + args.check in l]
            if reported:
                fail("%s: unexpected diagnostics:\n%s"
                     % (name, "\n".join(reported)))
        if has_fixes:
            with open(temp, encoding="utf-8") as f:
                fixed = f.read()
            filecheck(args.filecheck, args.input, prefix_fixes, fixed,
                      ["-strict-whitespace"])
        sys.stdout.write("%s: ok\n" % name)


if __name__ == "__main__":
    main()
