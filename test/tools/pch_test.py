#!/usr/bin/env python3
"""The lit tests' precompiled preambles (test/pch.py, check_clang_tidy.py):
what a file's preamble is, which macros keep a run from the PCH, and a PCH
made again when a header it read changes.

    pch_test.py --clang CLANG++
"""
import argparse
import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

TEST_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, TEST_DIR)
import check_clang_tidy  # noqa: E402
import pch  # noqa: E402

CLANG = None  # clang++ (--clang): the PCH tests need it


class PreambleTest(unittest.TestCase):
    def test_leading_system_includes_past_comments(self):
        text = ("// RUN: %check_clang_tidy %s x %t\n\n"
                "#include <cublas_v2.h>\n"
                "// a comment between\n"
                "#include  <vector>\n"
                "#define CHECK(x) x\n"
                "#include <memory>\n")
        self.assertEqual(check_clang_tidy.preamble(text),
                         ["#include <cublas_v2.h>", "#include  <vector>"])

    def test_a_quoted_include_ends_it(self):
        text = '#include "local.h"\n#include <vector>\n'
        self.assertEqual(check_clang_tidy.preamble(text), [])

    def test_macro_arguments_in_both_spellings(self):
        macros, rest, names = check_clang_tidy.macro_arguments(
            ["-std=c++17", "-DTHROW", "-D", "N=3", "-UNDEBUG", "-isystem", "/x"])
        self.assertEqual(macros, ["-DTHROW", "-D", "N=3", "-UNDEBUG"])
        self.assertEqual(rest, ["-std=c++17", "-isystem", "/x"])
        self.assertEqual(names, ["THROW", "N", "NDEBUG"])


class BuildTest(unittest.TestCase):
    def setUp(self):
        if not CLANG:
            self.skipTest("no clang++")
        self.work = tempfile.mkdtemp(prefix="pch-test-")
        self.inc = os.path.join(self.work, "inc")
        os.makedirs(self.inc)
        self.header = os.path.join(self.inc, "lib.h")
        self.write('#pragma once\n#ifdef LIB_WIDE\ntypedef long word;\n'
                   '#else\ntypedef int word;\n#endif\n')
        self.flags = ["-isystem", self.inc, "-std=c++17"]
        self.out = os.path.join(self.work, "cache")
        self.clang = CLANG
        self.addCleanup(shutil.rmtree, self.work, True)

    def write(self, text):
        with open(self.header, "w") as f:
            f.write(text)

    def old_pchs(self, count):
        """`count` PCHs of other flags, last used two hours ago, the
        first longest ago."""
        made = []
        for i in range(count):
            self.flags = ["-isystem", self.inc, "-std=c++17", "-DX%d" % i]
            made.append(self.build())
        old = time.time() - 7200
        for i, p in enumerate(made):
            os.utime(p, (old + i, old + i))
        return made

    def build(self):
        return pch.build(self.clang, ["#include <lib.h>"], self.flags, self.out)

    def test_a_macro_a_header_names_is_mentioned(self):
        made = self.build()
        self.assertTrue(made and os.path.exists(made))
        self.assertEqual(pch.mentioned(made, ["LIB_WIDE", "THROW", "LIB"]),
                         {"LIB_WIDE"})

    def parse(self, made, assertion, extra=()):
        src = os.path.join(self.work, "use.cpp")
        with open(src, "w") as f:
            f.write('#include <lib.h>\nstatic_assert(%s, "");\n' % assertion)
        r = subprocess.run([self.clang, "-fsyntax-only"] + self.flags + list(extra) +
                           ["-include-pch", made, src],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        return r.returncode

    def test_a_run_may_define_a_macro_the_pch_was_made_without(self):
        self.assertEqual(self.parse(self.build(), "sizeof(word) == 4", ["-DTHROW"]), 0)

    def test_a_changed_header_makes_it_again(self):
        first = self.build()
        self.assertEqual(self.parse(first, "sizeof(word) == 4"), 0)
        time.sleep(0.01)
        self.write('#pragma once\ntypedef long long word;\n')
        second = self.build()
        # The same flags and lines, so the same file, made again: clang
        # refuses a PCH whose header changed since.
        self.assertEqual(first, second)
        self.assertEqual(self.parse(second, "sizeof(word) == 8"), 0)

    def test_other_flags_another_pch(self):
        first = self.build()
        self.flags = self.flags + ["-fno-exceptions"]
        self.assertNotEqual(self.build(), first)

    def test_the_host_side_of_cuda_has_its_own_pch(self):
        # Without CUDA's headers: the host side of a .cu file parses the
        # header as CUDA (__CUDA__, host and device functions).
        self.write('#pragma once\n#ifdef __CUDA__\n'
                   '__attribute__((host, device)) inline int twice(int x) '
                   '{ return 2 * x; }\n#endif\n')
        cuda = ["-nocudainc", "-nocudalib", "-Wno-unknown-cuda-version"]
        self.flags = cuda + self.flags
        host = pch.build(self.clang, ["#include <lib.h>"], self.flags, self.out,
                         cuda_host=True)
        self.assertTrue(host and os.path.exists(host))
        self.assertNotEqual(host, self.build())
        src = os.path.join(self.work, "use.cu")
        with open(src, "w") as f:
            f.write('#include <lib.h>\nstatic_assert(sizeof(twice(1)) == 4, "");\n')
        r = subprocess.run([self.clang, "-x", "cuda", "--cuda-host-only",
                            "-fsyntax-only"] + self.flags +
                           ["-include-pch", host, src],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.assertEqual(r.returncode, 0, r.stdout)

    def test_no_clang_no_pch(self):
        self.clang = os.path.join(self.work, "no-such-clang++")
        self.assertIsNone(self.build())

    def test_a_header_that_does_not_compile_no_pch(self):
        self.write("this is not C++\n")
        self.assertIsNone(self.build())
        self.assertEqual([n for n in os.listdir(self.out) if n.endswith(".pch")], [])

    def test_pruned_to_the_most_recent(self):
        made = self.old_pchs(3)
        pch._prune(self.out, 2)
        self.assertEqual([os.path.exists(p) for p in made], [False, True, True])

    def test_a_pch_used_after_the_listing_is_spared(self):
        # Another lit process uses the oldest PCH (build() touches it)
        # just after this prune read its date: the PCH it is
        # about to hand to clang-tidy must stay, with the header it names.
        made = self.old_pchs(3)
        real_stat = os.stat
        used = []

        def stat_then_used(path, *a, **k):
            st = real_stat(path, *a, **k)
            if path == made[0] and not used:
                used.append(path)
                os.utime(made[0])
            return st
        pch.os.stat = stat_then_used
        try:
            pch._prune(self.out, 2)
        finally:
            pch.os.stat = real_stat
        self.assertTrue(os.path.exists(made[0]))
        self.assertTrue(os.path.exists(made[0][:-len(".pch")] + ".h"))
        self.assertEqual(self.parse(made[0], "sizeof(word) == 4"), 0)

    def test_a_pch_another_process_holds_is_spared(self):
        made = self.old_pchs(2)
        with open(made[0] + ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            pid = os.fork()
            if pid == 0:
                pch._prune(self.out, 1)
                os._exit(0)
            os.waitpid(pid, 0)
        self.assertTrue(os.path.exists(made[0]))


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--clang")
    args, rest = ap.parse_known_args()
    if args.clang and os.path.exists(args.clang):
        CLANG = args.clang
    unittest.main(argv=[sys.argv[0]] + rest)
