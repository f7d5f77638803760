"""Tests of the integration runner (runner.py): the sample header format and
its strictness, reading diagnostics, matching predictions against what a run
showed, the report. No GPU needed; the end-to-end cases at the bottom use
the built cublas-tidy when CUBLAS_TIDY_BUILD_DIR names a build (CTest sets
it) and are skipped otherwise.

  cd integration && python3 -m unittest -v test_runner
"""

import contextlib
import io
import json
import os
import shutil
import tempfile
import textwrap
import unittest

import runner

BUILD_DIR = os.environ.get("CUBLAS_TIDY_BUILD_DIR", "")
CUDA = os.environ.get("CUDA_PATH", "/usr/local/cuda")
STUB_DIR = os.environ.get("CUBLAS_TRACE_STUB_DIR", "")

GEMM_CALL = ("cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, "
             "a, lda, b, ldb, &beta, c, ldc);")


class SampleDir:
    """A temporary samples folder."""

    def __init__(self):
        self.root = tempfile.mkdtemp(prefix="integration-samples-")

    def write(self, rel, text):
        path = os.path.join(self.root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def parse(self, rel, text):
        return runner.parse_sample(self.write(rel, text), self.root)

    def cleanup(self):
        shutil.rmtree(self.root, ignore_errors=True)


def flagged(header, body=None):
    """A sample of cublas-unchecked-status whose line 7 calls cublasSgemm."""
    body = body if body is not None else "void f() {\n  %s\n}\n" % GEMM_CALL
    lines = textwrap.dedent(header).strip("\n").split("\n")
    lines += ["//"] * (4 - len(lines))
    return "\n".join(lines) + "\n#include <cublas_v2.h>\n" + body


class HeaderTest(unittest.TestCase):
    def setUp(self):
        self.dir = SampleDir()

    def tearDown(self):
        self.dir.cleanup()

    def check_error(self, text, message, rel="cublas-unchecked-status/s.cpp"):
        with self.assertRaises(runner.HeaderError) as ctx:
            self.dir.parse(rel, text)
        self.assertIn(message, str(ctx.exception))

    def test_a_good_header(self):
        s = self.dir.parse("cublas-unchecked-status/s.cpp", flagged("""
            // INTEGRATION-CHECK: cublas-unchecked-status
            // EXPECT-DIAG: cublas-unchecked-status @ 7
            // PREDICT: status CUBLAS_STATUS_INVALID_VALUE from cublasSgemm_v2 @ 7
            // PREDICT: wrong-result
            """))
        self.assertEqual(s.check, "cublas-unchecked-status")
        self.assertEqual([str(e) for e in s.expected], ["cublas-unchecked-status @ 7"])
        self.assertEqual([p.kind for p in s.predictions], ["status", "wrong-result"])
        self.assertEqual(s.predictions[0].function, "cublasSgemm_v2")
        self.assertEqual(s.predictions[0].span, (7, 7))
        self.assertFalse(s.needs_sanitizer())

    def test_every_prediction_form(self):
        body = "void f() {\n  %s\n  cublasDestroy(h);\n}\n" % GEMM_CALL
        s = self.dir.parse("cublas-unchecked-status/s.cpp", textwrap.dedent("""\
            // INTEGRATION-CHECK: cublas-unchecked-status
            // EXPECT-DIAG: cublas-unchecked-status @ 16
            // EXPECT-DIAG: cublas-unchecked-status @ 17 (note)
            // PREDICT: status CUBLAS_STATUS_INVALID_VALUE from cublasSgemm_v2 @ 16
            // PREDICT: host-pointer cublasSgemm_v2 A @ 16
            // PREDICT: device-pointer cublasSgemm_v2 alpha @ 16
            // PREDICT: out-of-bounds cublasSgemm_v2 C @ 16
            // PREDICT: use-after-destroy cublasDestroy_v2 @ 17
            // PREDICT: leaked-handles >= 200
            // PREDICT: leaked-descriptors == 0
            // PREDICT: cuda-error cudaErrorIllegalAddress
            // PREDICT: sanitizer "Invalid __global__ read"
            // PREDICT: wrong-result
            #include <cublas_v2.h>
            """) + body)
        kinds = [p.kind for p in s.predictions]
        self.assertEqual(kinds, ["status", "host-pointer", "device-pointer",
                                 "out-of-bounds", "use-after-destroy", "leaked-handles",
                                 "leaked-descriptors", "cuda-error", "sanitizer",
                                 "wrong-result"])
        self.assertEqual(s.notes()[0].line, 17)
        self.assertEqual(s.predictions[5].count, 200)
        self.assertEqual(s.predictions[8].needle, "Invalid __global__ read")
        self.assertTrue(s.needs_sanitizer())

    def test_a_control(self):
        s = self.dir.parse("clean/c.cpp", "// INTEGRATION-CHECK: none\n// PREDICT: clean\nint main() {}\n")
        self.assertTrue(s.is_control)
        self.check_error("// INTEGRATION-CHECK: none\n// PREDICT: clean\n// PREDICT: wrong-result\nint main() {}\n",
                         "a control predicts exactly 'clean'", "clean/c.cpp")
        self.check_error("// INTEGRATION-CHECK: none\n// EXPECT-DIAG: cublas-handle-leak @ 4\n"
                         "// PREDICT: clean\nint main() {}\n",
                         "a control expects no diagnostics", "clean/c.cpp")
        self.check_error("// INTEGRATION-CHECK: none\n// PREDICT: clean\nint main() {}\n",
                         "belongs in samples/clean/", "cublas-handle-leak/c.cpp")

    def test_malformed_headers(self):
        base = """
            // INTEGRATION-CHECK: cublas-unchecked-status
            // EXPECT-DIAG: cublas-unchecked-status @ 7
            // PREDICT: wrong-result
            """
        cases = [
            (base.replace("EXPECT-DIAG:", "EXPECT-DIAGS:"), "unknown directive EXPECT-DIAGS"),
            (base.replace("PREDICT:", "PREDICTION:"), "unknown directive PREDICTION"),
            (base + "// INTEGRATION-CHECK: cublas-handle-leak\n", "exactly one INTEGRATION-CHECK"),
            (base.replace("cublas-unchecked-status\n", "cublas-handle-leak\n", 1),
             "belongs in samples/cublas-handle-leak/"),
            (base.replace("INTEGRATION-CHECK: cublas-unchecked-status", "INTEGRATION-CHECK: unchecked"),
             "must be a cublas-* check name"),
            (base.replace("@ 7", "at 7"), "EXPECT-DIAG must read"),
            (base.replace("@ 7", "@ 70"), "outside the file"),
            (base.replace("// PREDICT: wrong-result", "//"), "at least one PREDICT"),
            (base.replace("wrong-result", "wrong result"), "cannot read the prediction"),
            (base.replace("wrong-result", "clean"), "'clean' is for the controls"),
            (base.replace("wrong-result", "status CUBLAS_STATUS_BAD from cublasSgemm_v2 @ 7"),
             "unknown status CUBLAS_STATUS_BAD"),
            (base.replace("wrong-result", "status CUBLAS_STATUS_INVALID_VALUE from cublasSgemm @ 7"),
             "unknown function cublasSgemm"),
            (base.replace("wrong-result", "host-pointer cublasSgemm_v2 Z @ 7"),
             "cublasSgemm_v2 has no parameter Z"),
            (base.replace("wrong-result", "use-after-destroy cublasDestroy_v2 @ 7"),
             "line 7 does not call cublasDestroy"),
            (base.replace("wrong-result", "leaked-handles > 3"), "cannot read the prediction"),
            (base.replace("EXPECT-DIAG: cublas-unchecked-status", "EXPECT-DIAG: cublas-handle-leak"),
             "expects no warning of its own check"),
        ]
        for header, message in cases:
            with self.subTest(message=message):
                self.check_error(flagged(header), message)
        self.check_error(flagged(base.replace("@ 7", "@ 8"),
                                 "void f() {\n  %s\n\n}\n" % GEMM_CALL), "line 8 is blank")

    def test_directives_belong_in_the_header(self):
        self.check_error(flagged("""
            // INTEGRATION-CHECK: cublas-unchecked-status
            // EXPECT-DIAG: cublas-unchecked-status @ 7
            // PREDICT: wrong-result
            """, "void f() {\n  %s\n}\n// PREDICT: clean\n" % GEMM_CALL),
            "PREDICT outside the header")

    def test_stray_files_fail_the_run(self):
        self.dir.write("clean/notes.txt", "not a sample\n")
        with self.assertRaises(runner.HeaderError) as ctx:
            runner.find_samples(self.dir.root)
        self.assertIn("not a sample", str(ctx.exception))

    def test_sample_selection(self):
        for rel in ("clean/a.cpp", "clean/b.cu", "cublas-handle-leak/a.cpp"):
            self.dir.write(rel, "// x\n")
        rels = lambda pattern: [os.path.relpath(p, self.dir.root)
                                for p in runner.find_samples(self.dir.root, pattern)]
        self.assertEqual(rels(None), ["clean/a.cpp", "clean/b.cu", "cublas-handle-leak/a.cpp"])
        self.assertEqual(rels("leak"), ["cublas-handle-leak/a.cpp"])
        self.assertEqual(rels("*/a.cpp"), ["clean/a.cpp", "cublas-handle-leak/a.cpp"])


class TheSamplesTest(unittest.TestCase):
    REQUIRED = ("cublas-unchecked-status", "cublas-handle-leak",
                "cublas-handle-use-after-destroy", "cublas-host-pointer",
                "cublas-matrix-extents", "cublas-handle-per-call",
                "cublas-data-type")

    def test_every_sample_has_a_valid_header(self):
        samples = [runner.parse_sample(p) for p in runner.find_samples()]
        per_check = {}
        for s in samples:
            per_check.setdefault(s.check, []).append(s)
        for check in self.REQUIRED:
            self.assertGreaterEqual(len(per_check.get(check, [])), 3, check)
        self.assertGreaterEqual(len(per_check.get(runner.CONTROL, [])), 2)


class HelpersTest(unittest.TestCase):
    def test_spelled_names(self):
        self.assertEqual(runner.spelled_names("cublasSgemm_v2"), {"cublasSgemm_v2", "cublasSgemm"})
        self.assertEqual(runner.spelled_names("cublasSgemm_v2_64"),
                         {"cublasSgemm_v2_64", "cublasSgemm_64"})
        self.assertEqual(runner.spelled_names("cublasLtMatmul"), {"cublasLtMatmul"})

    def test_call_span(self):
        lines = ["x = f(a,", "      g(b), // ) in a comment", "      c);", "y();"]
        self.assertEqual(runner.call_span(lines, 1), (1, 3))
        self.assertEqual(runner.call_span(lines, 4), (4, 4))
        # A call nested in another starts its span at its statement: nvcc
        # places the call site on the outer call's line.
        nested = ["  const float a = 1;", "  const bool ok =", "      check(",
                  "          cublasGemmEx(h,  // (", "                       x),",
                  "          \"gemm\");", "  if (x) {", "    f(", "      y);"]
        self.assertEqual(runner.call_span(nested, 4), (2, 5))
        self.assertEqual(runner.call_span(nested, 8), (8, 9))
        self.assertEqual(runner.call_span(["#include <x>", "f(1);"], 2), (2, 2))


DIAGNOSTICS = """\
/s/a.cpp:7:3: warning: the cublasStatus_t returned by 'cublasSgemm' is discarded [cublas-unchecked-status]
/usr/local/cuda/include/cublas_api.h:10:1: note: expanded from macro 'cublasSgemm'
/s/a.cpp:9:5: note: 'status' is overwritten here before it is read
/s/sample.h:3:1: warning: handle 'h' created here is not destroyed on every path [cublas-handle-leak,-warnings-as-errors]
/s/a.cpp:12:1: warning: unused variable 'x' [clang-diagnostic-unused-variable]
2 warnings generated.
"""


class DiagnosticsTest(unittest.TestCase):
    def setUp(self):
        self.dir = SampleDir()
        self.path = self.dir.write("cublas-unchecked-status/a.cpp", flagged("""
            // INTEGRATION-CHECK: cublas-unchecked-status
            // EXPECT-DIAG: cublas-unchecked-status @ 7
            // EXPECT-DIAG: cublas-matrix-extents @ 7
            // PREDICT: wrong-result
            """))
        self.sample = runner.parse_sample(self.path, self.dir.root)

    def tearDown(self):
        self.dir.cleanup()

    def diags(self, text):
        return runner.parse_diagnostics(text.replace("/s/a.cpp", self.path))

    def test_parse(self):
        d = self.diags(DIAGNOSTICS)
        self.assertEqual([(x.severity, x.line, x.check) for x in d], [
            ("warning", 7, "cublas-unchecked-status"), ("note", 10, "cublas-unchecked-status"),
            ("note", 9, "cublas-unchecked-status"), ("warning", 3, "cublas-handle-leak"),
            ("warning", 12, "clang-diagnostic-unused-variable")])

    def test_expected_warnings_of_registered_checks(self):
        warning = DIAGNOSTICS.splitlines()[0] + "\n"
        registered = ["cublas-unchecked-status"]
        self.assertEqual(runner.compare_diagnostics(self.sample, self.diags(warning), registered), [])
        # The matrix-extents warning is not verified while that check is not
        # registered; once it is, it is required.
        problems = runner.compare_diagnostics(
            self.sample, self.diags(warning), registered + ["cublas-matrix-extents"])
        self.assertEqual(problems, ["missing warning cublas-matrix-extents @ 7"])
        self.assertEqual(runner.compare_diagnostics(self.sample, [], registered),
                         ["missing warning cublas-unchecked-status @ 7"])

    def test_other_warnings_anywhere_fail(self):
        problems = runner.compare_diagnostics(self.sample, self.diags(DIAGNOSTICS),
                                              ["cublas-unchecked-status"])
        self.assertEqual(len(problems), 1)
        self.assertIn("unexpected sample.h:3: warning", problems[0])
        moved = DIAGNOSTICS.splitlines()[0].replace(":7:3:", ":8:3:") + "\n"
        problems = runner.compare_diagnostics(self.sample, self.diags(moved),
                                              ["cublas-unchecked-status"])
        self.assertEqual(len(problems), 2)

    def test_notes_are_compared_when_listed(self):
        path = self.dir.write("cublas-unchecked-status/b.cpp", flagged("""
            // INTEGRATION-CHECK: cublas-unchecked-status
            // EXPECT-DIAG: cublas-unchecked-status @ 7
            // EXPECT-DIAG: cublas-unchecked-status @ 8 (note)
            // PREDICT: wrong-result
            """, "void f() {\n  %s\n  x = 1;\n}\n" % GEMM_CALL))
        sample = runner.parse_sample(path, self.dir.root)
        text = DIAGNOSTICS.splitlines()[0] + "\n" + DIAGNOSTICS.splitlines()[1] + "\n"
        text = text.replace("/s/a.cpp", path)
        problems = runner.compare_diagnostics(sample, runner.parse_diagnostics(text),
                                              ["cublas-unchecked-status"])
        self.assertEqual(problems, ["notes of cublas-unchecked-status on lines [], expected [8]"])
        text += "%s:8:3: note: 'status' is overwritten here\n" % path
        self.assertEqual(runner.compare_diagnostics(sample, runner.parse_diagnostics(text),
                                                    ["cublas-unchecked-status"]), [])

    def test_compile_errors(self):
        text = "%s:3:1: error: unknown type name 'foo' [clang-diagnostic-error]\n" % self.path
        problems = runner.compare_diagnostics(self.sample, runner.parse_diagnostics(text), [])
        self.assertTrue(problems[0].startswith("does not compile"))


def event(kind, line, **fields):
    e = {"event": kind, "line": line, "site": {"object": "x", "address": "0x1"}}
    e.update(fields)
    return e


class MatchTest(unittest.TestCase):
    LINES = ["// h", "  %s" % GEMM_CALL, "  cublasDestroy(h);", "  cublasSgemm(h,", "    x);"]

    def predict(self, text):
        return runner.parse_prediction(text, self.LINES, runner.load_api_model())

    def seen(self, events=(), stdout="", exit_code=0, sanitizer=None, leaks=(0, 0),
             created=0):
        events = list(events)
        if leaks is not None:
            events.append({"event": "exit", "leaked_handles": leaks[0],
                           "leaked_descriptors": leaks[1], "created_handles": created})
        return runner.Observed(events, stdout, "", exit_code, False, sanitizer,
                               "" if sanitizer is not None else "not run")

    def assertMatch(self, text, seen, expected=True):
        ok, why = runner.match_prediction(self.predict(text), seen)
        self.assertEqual(ok, expected, "%s: %s" % (text, why))
        return why

    def test_located_predictions(self):
        seen = self.seen([event("status", 2, function="cublasSgemm_v2",
                                name="CUBLAS_STATUS_INVALID_VALUE"),
                          event("out-of-bounds", 5, function="cublasSgemm_v2", param="A"),
                          event("use-after-destroy", 3, function="cublasDestroy_v2")])
        self.assertMatch("status CUBLAS_STATUS_INVALID_VALUE from cublasSgemm_v2 @ 2", seen)
        self.assertMatch("status CUBLAS_STATUS_NOT_SUPPORTED from cublasSgemm_v2 @ 2", seen, False)
        self.assertMatch("out-of-bounds cublasSgemm_v2 A @ 4", seen)  # anywhere in the call
        self.assertMatch("out-of-bounds cublasSgemm_v2 C @ 4", seen, False)
        self.assertMatch("out-of-bounds cublasSgemm_v2 A @ 2", seen, False)
        self.assertMatch("use-after-destroy cublasDestroy_v2 @ 3", seen)
        self.assertMatch("host-pointer cublasSgemm_v2 A @ 2", seen, False)
        outside = self.seen([event("status", None, function="cublasSgemm_v2",
                                   name="CUBLAS_STATUS_INVALID_VALUE")])
        self.assertMatch("status CUBLAS_STATUS_INVALID_VALUE from cublasSgemm_v2 @ 2",
                         outside, False)

    def test_leaks(self):
        self.assertMatch("leaked-handles >= 200", self.seen(leaks=(200, 0)))
        self.assertMatch("leaked-handles >= 200", self.seen(leaks=(199, 0)), False)
        self.assertMatch("leaked-descriptors == 50", self.seen(leaks=(3, 50)))
        self.assertMatch("leaked-descriptors == 50", self.seen(leaks=(0, 51)), False)
        why = self.assertMatch("leaked-handles >= 1", self.seen(leaks=None), False)
        self.assertIn("no exit record", why)

    def test_created_handles(self):
        self.assertMatch("created-handles >= 200", self.seen(created=201))
        why = self.assertMatch("created-handles >= 200", self.seen(created=1), False)
        self.assertIn("created-handles 1", why)
        self.assertMatch("created-handles == 1", self.seen(created=1))

    def test_program_output(self):
        out = "CUDA-ERROR: cudaErrorIllegalAddress (axpy)\nRESULT: WRONG\n"
        self.assertMatch("cuda-error cudaErrorIllegalAddress", self.seen(stdout=out))
        self.assertMatch("cuda-error cudaErrorIllegal", self.seen(stdout=out), False)
        self.assertMatch("wrong-result", self.seen(stdout=out))
        self.assertMatch("wrong-result", self.seen(stdout="RESULT: OK\n"), False)

    def test_sanitizer(self):
        report = "========= Invalid __global__ read of size 4 bytes\n"
        self.assertMatch('sanitizer "Invalid __global__ read"', self.seen(sanitizer=report))
        self.assertMatch('sanitizer "Invalid __global__ write"', self.seen(sanitizer=report), False)
        self.assertIn("not run", self.assertMatch('sanitizer "Invalid"', self.seen(), False))

    def test_clean(self):
        clean = dict(stdout="RESULT: OK\n", sanitizer="========= ERROR SUMMARY: 0 errors\n")
        self.assertMatch("clean", self.seen(**clean))
        broken = [
            self.seen([event("status", 2, function="cublasSgemm_v2", name="X")], **clean),
            self.seen(leaks=(1, 0), **clean),
            self.seen(leaks=None, **clean),
            self.seen(stdout="RESULT: WRONG\n", sanitizer=clean["sanitizer"]),
            self.seen(exit_code=1, **clean),
            self.seen(stdout="RESULT: OK\n", sanitizer="ERROR SUMMARY: 2 errors"),
            self.seen(stdout="RESULT: OK\n"),
            self.seen([{"event": "signal", "name": "SIGSEGV"}], **clean),
        ]
        for seen in broken:
            self.assertMatch("clean", seen, False)


class ReportTest(unittest.TestCase):
    def test_markdown_and_json(self):
        data = {
            "date": "2025-01-01T00:00:00+00:00",
            "environment": {"host": "h", "gpu": {"present": False, "reason": "nvidia-smi not found"},
                            "toolkit": "/usr/local/cuda, nvcc 13.0.88", "frontends": ["cublas-tidy"]},
            "runtime_step": "not run: no GPU (nvidia-smi not found): runtime step not run",
            "registered_checks": ["cublas-handle-leak"],
            "summary": {"text": "1 sample: 1 passed"},
            "samples": [{"sample": "clean/a.cpp", "check": "none", "predicted": ["clean"],
                         "static": {"state": "ok", "detail": "no diagnostics"},
                         "build": {"state": "ok", "detail": "nvcc"},
                         "runtime": {"state": "not run", "detail": "no GPU"},
                         "observed": None, "observations": None, "verdict": "pass",
                         "error": None}],
        }
        with tempfile.TemporaryDirectory() as tmp:
            md, js = runner.write_reports(os.path.join(tmp, "results.md"), data)
            self.assertEqual(os.path.basename(js), "results.json")
            with open(md, encoding="utf-8") as f:
                text = f.read()
            self.assertIn("no GPU: nvidia-smi not found", text)
            self.assertIn("| `clean/a.cpp` | none | ok: no diagnostics | ok: nvcc | clean | "
                          "not run | pass (static, build) |", text)
            with open(js, encoding="utf-8") as f:
                self.assertEqual(json.load(f)["samples"][0]["verdict"], "pass")


class RunBase(unittest.TestCase):
    """integration/run on a sample folder of its own, with a toolkit folder
    that has the real CUDA headers and no nvcc (PATH loses it too)."""

    def setUp(self):
        self.dir = SampleDir()
        self.cuda = tempfile.mkdtemp(prefix="integration-cuda-")
        os.symlink(os.path.join(CUDA, "include"), os.path.join(self.cuda, "include"))
        self.work = tempfile.mkdtemp(prefix="integration-work-")
        # Built samples are kept in a cache of the test's own.
        self.cache_env = os.environ.get("CUBLAS_TIDY_NVCC_CACHE")
        os.environ["CUBLAS_TIDY_NVCC_CACHE"] = os.path.join(self.work, "nvcc-cache")
        self.path = os.environ["PATH"]
        os.environ["PATH"] = os.pathsep.join(
            d for d in self.path.split(os.pathsep)
            if not os.path.exists(os.path.join(d, "nvcc")))

    def tearDown(self):
        os.environ["PATH"] = self.path
        if self.cache_env is None:
            os.environ.pop("CUBLAS_TIDY_NVCC_CACHE", None)
        else:
            os.environ["CUBLAS_TIDY_NVCC_CACHE"] = self.cache_env
        self.dir.cleanup()
        shutil.rmtree(self.cuda, ignore_errors=True)
        shutil.rmtree(self.work, ignore_errors=True)

    def run_main(self, *extra):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = runner.main(["--build-dir", BUILD_DIR, "--cuda-path", self.cuda,
                                "--samples-dir", self.dir.root, "--work-dir", self.work,
                                "--report", os.path.join(self.work, "r.md")] + list(extra))
        return code, out.getvalue()


@unittest.skipUnless(BUILD_DIR and os.path.exists(os.path.join(BUILD_DIR, "bin", "cublas-tidy"))
                     and os.path.exists(os.path.join(CUDA, "include", "cublas_v2.h")),
                     "needs CUBLAS_TIDY_BUILD_DIR with a built cublas-tidy and the CUDA headers")
class RunTest(RunBase):
    """The static step end to end, as in a CI without nvcc."""

    @staticmethod
    def sample(line):
        return textwrap.dedent("""\
        // INTEGRATION-CHECK: cublas-unchecked-status
        // EXPECT-DIAG: cublas-unchecked-status @ %d
        // PREDICT: wrong-result
        #include <cublas_v2.h>

        void f(cublasHandle_t h) {
          cublasDestroy(h);
        }
        """) % line

    def test_static_step_without_nvcc(self):
        self.dir.write("cublas-unchecked-status/a.cpp", self.sample(7))
        code, out = self.run_main("--no-runtime")
        self.assertEqual(code, 0, out)
        self.assertIn("nvcc not found", out)
        self.assertIn("build skipped", out)
        self.assertIn("runtime step not run", out)

    def test_a_wrong_line_fails(self):
        self.dir.write("cublas-unchecked-status/a.cpp", self.sample(6))
        code, out = self.run_main("--no-runtime")
        self.assertEqual(code, 1, out)
        self.assertIn("missing warning cublas-unchecked-status @ 6", out)
        self.assertIn("unexpected a.cpp:7: warning", out)

    def test_a_malformed_header_fails_the_run(self):
        self.dir.write("cublas-unchecked-status/a.cpp",
                       self.sample(7).replace("PREDICT:", "PREDICTS:"))
        code, out = self.run_main("--no-runtime")
        self.assertEqual(code, 1, out)
        self.assertIn("malformed header", out)

    def test_samples_of_unregistered_checks_are_skipped(self):
        someday = self.sample(7).replace("cublas-unchecked-status", "cublas-someday")
        self.dir.write("cublas-someday/a.cpp", someday)
        code, out = self.run_main("--no-runtime")
        # Skipped, but the registered checks still run: the discarded status
        # on line 7 is a warning nobody expects.
        self.assertEqual(code, 1, out)
        self.assertIn("unexpected a.cpp:7: warning", out)
        self.dir.write("cublas-someday/a.cpp",
                       someday.replace("  cublasDestroy(h);", "  (void)cublasDestroy(h);"))
        code, out = self.run_main("--no-runtime")
        self.assertEqual(code, 0, out)
        self.assertIn("SKIP  cublas-someday/a.cpp: cublas-someday is not registered", out)

    def test_static_step_recorded_for_a_gpu_machine(self):
        self.dir.write("cublas-unchecked-status/a.cpp", self.sample(7))
        self.dir.write("cublas-unchecked-status/b.cpp", self.sample(7))
        code, out = self.run_main("--no-runtime")
        self.assertEqual(code, 0, out)
        recorded = os.path.join(self.work, "recorded.json")
        shutil.copy(os.path.join(self.work, "r.json"), recorded)
        # A machine without the tools: an empty build folder. One sample
        # changed since the record, one new: both fail; the other passes.
        self.dir.write("cublas-unchecked-status/b.cpp", self.sample(7) + "// edited\n")
        self.dir.write("cublas-unchecked-status/c.cpp", self.sample(7))
        empty = tempfile.mkdtemp(prefix="integration-nobuild-")
        self.addCleanup(shutil.rmtree, empty, ignore_errors=True)
        out_io = io.StringIO()
        with contextlib.redirect_stdout(out_io):
            code = runner.main(["--build-dir", empty, "--cuda-path", self.cuda,
                                "--samples-dir", self.dir.root, "--work-dir", self.work,
                                "--static-from", recorded, "--no-runtime",
                                "--report", os.path.join(self.work, "r2.md")])
        out = out_io.getvalue()
        self.assertEqual(code, 1, out)
        self.assertIn("static step recorded in", out)
        self.assertIn("front ends: cublas-tidy", out)
        self.assertRegex(out, r"ok +cublas-unchecked-status/a.cpp: static ok: "
                              r"cublas-unchecked-status @ 7 \[\d front ends\] \(recorded on ")
        self.assertRegex(out, r"FAIL +cublas-unchecked-status/b.cpp: static fail: "
                              r"the sample changed since")
        self.assertRegex(out, r"FAIL +cublas-unchecked-status/c.cpp: static fail: not in ")
        with open(os.path.join(self.work, "r2.md"), encoding="utf-8") as f:
            self.assertIn("| static step | recorded on ", f.read())


# A toolkit whose nvcc is the host compiler linking the fake cuBLAS and CUDA
# runtime of integration/tracer/test, whose compute-sanitizer only runs the
# program, next to an nvidia-smi that reports a GPU.
FAKE_NVCC = r"""#!/usr/bin/env python3
import os, sys
toolkit = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
with open(os.path.join(toolkit, "nvcc-calls"), "a") as log:
    log.write(sys.argv[-1] + "\n")
args, out, it = [], [], iter(sys.argv[1:])
for a in it:
    if a == "-cudart":
        next(it)
    elif a == "-Xlinker":
        out.append("-Wl," + next(it))
    elif a == "-lineinfo" or a.startswith("-arch="):
        pass
    else:
        args.append(a)
lib = os.path.join(toolkit, "lib64")
os.execvp("c++", ["c++"] + args + ["-isystem", os.path.join(toolkit, "include"),
                                   "-L" + lib, "-lcudart"] + out)
"""
FAKE_SANITIZER = """#!/bin/sh
for last; do :; done
"$last"
echo "========= ERROR SUMMARY: 0 errors"
"""
FAKE_SMI = """#!/bin/sh
case "$1" in
  -L) echo "GPU 0: Fake GPU (UUID: GPU-0)" ;;
  --query-gpu=*) echo "Fake GPU, 1.0, 9.0" ;;
  *) echo "| NVIDIA-SMI 1.0   Driver Version: 1.0   CUDA Version: 13.0 |" ;;
esac
"""


@unittest.skipUnless(BUILD_DIR and STUB_DIR
                     and os.path.exists(os.path.join(BUILD_DIR, "lib", "libcublas-trace.so"))
                     and os.path.exists(os.path.join(CUDA, "include", "cublas_v2.h")),
                     "needs the tracer, its fake cuBLAS (CUBLAS_TRACE_STUB_DIR) and the CUDA headers")
class FakeGpuRunTest(RunBase):
    """The runtime step end to end without a GPU: the samples run against the
    fake cuBLAS with the real tracer preloaded."""

    def setUp(self):
        super().setUp()
        os.symlink(STUB_DIR, os.path.join(self.cuda, "lib64"))
        bin_dir = os.path.join(self.cuda, "bin")
        os.makedirs(bin_dir)
        for name, text in (("nvcc", FAKE_NVCC), ("compute-sanitizer", FAKE_SANITIZER),
                           ("nvidia-smi", FAKE_SMI)):
            with open(os.path.join(bin_dir, name), "w", encoding="utf-8") as f:
                f.write(text)
            os.chmod(os.path.join(bin_dir, name), 0o755)
        os.environ["PATH"] = bin_dir + os.pathsep + os.environ["PATH"]

    LEAK = """\
        // INTEGRATION-CHECK: cublas-handle-leak
        // EXPECT-DIAG: cublas-handle-leak @ 12
        // EXPECT-DIAG: cublas-handle-leak @ 13 (note)
        // EXPECT-DIAG: cublas-matrix-extents @ 13
        // PREDICT: leaked-handles %s
        // PREDICT: status CUBLAS_STATUS_INVALID_VALUE from cublasSgemm_v2 @ 13
        // PREDICT: wrong-result
        #include <cublas_v2.h>
        #include <cstdio>
        static int work(float *a) {
          cublasHandle_t h;
          if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return 1;
          return cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, a, a, 4, a, 8, a, a, 8) == 0 ? 0 : 2;
        }
        int main() {
          float a[64] = {};
          int failures = 0;
          for (int i = 0; i < 3; ++i)
            failures += work(a) != 0;
          std::printf("RESULT: %%s\\n", failures ? "WRONG" : "OK");
          return 0;
        }
        """
    CLEAN = """\
        // INTEGRATION-CHECK: none
        // PREDICT: clean
        #include <cublas_v2.h>
        #include <cstdio>
        int main() {
          cublasHandle_t h;
          if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return 1;
          if (cublasDestroy(h) != CUBLAS_STATUS_SUCCESS) return 1;
          std::printf("RESULT: OK\\n");
          return 0;
        }
        """

    def test_predictions_observed(self):
        self.dir.write("cublas-handle-leak/leak.cpp", textwrap.dedent(self.LEAK) % "== 3")
        self.dir.write("clean/ok.cpp", textwrap.dedent(self.CLEAN))
        code, out = self.run_main()
        self.assertEqual(code, 0, out)
        self.assertIn("runtime step run on Fake GPU", out)
        self.assertIn("ok leaked-handles == 3: leaked-handles 3", out)
        self.assertIn("ok status CUBLAS_STATUS_INVALID_VALUE from cublasSgemm_v2 @ 13: seen @ 13", out)
        self.assertIn("ok clean: clean", out)
        with open(os.path.join(self.work, "r.json"), encoding="utf-8") as f:
            data = json.load(f)
        self.assertEqual(data["environment"]["gpu"]["name"], "Fake GPU")
        self.assertEqual(data["environment"]["gpu"]["cuda"], "13.0")
        leak = next(s for s in data["samples"] if s["sample"] == "cublas-handle-leak/leak.cpp")
        self.assertEqual([o["observed"] for o in leak["observed"]], [True, True, True])
        with open(os.path.join(self.work, "r.md"), encoding="utf-8") as f:
            self.assertIn("Fake GPU (driver 1.0, CUDA 13.0, compute capability 9.0)", f.read())

    def test_built_samples_are_cached(self):
        self.dir.write("clean/ok.cpp", textwrap.dedent(self.CLEAN))
        calls = os.path.join(self.cuda, "nvcc-calls")

        def nvcc_calls():  # the builds, not the --version of the report
            with open(calls, encoding="utf-8") as f:
                return sum(l != "--version" for l in f.read().splitlines())

        code, out = self.run_main()
        self.assertEqual(code, 0, out)
        self.assertEqual(nvcc_calls(), 1)
        self.assertNotIn("cached", out)
        # The same sample, nvcc and command: the executable of the first run,
        # which still runs on the (fake) GPU.
        shutil.rmtree(os.path.join(self.work, "clean"), ignore_errors=True)
        code, out = self.run_main()
        self.assertEqual(code, 0, out)
        self.assertEqual(nvcc_calls(), 1)
        self.assertIn("build ok: nvcc -arch=native, cached", out)
        self.assertIn("ok clean: clean", out)
        # A changed sample is built again, and so is every sample when the
        # cache is off.
        self.dir.write("clean/ok.cpp", textwrap.dedent(self.CLEAN) + "// edited\n")
        code, out = self.run_main()
        self.assertEqual(code, 0, out)
        self.assertEqual(nvcc_calls(), 2)
        os.environ["CUBLAS_TIDY_NVCC_CACHE"] = ""
        code, out = self.run_main()
        self.assertEqual(code, 0, out)
        self.assertEqual(nvcc_calls(), 3)

    def test_a_wrong_prediction_fails(self):
        self.dir.write("cublas-handle-leak/leak.cpp", textwrap.dedent(self.LEAK) % ">= 4")
        code, out = self.run_main()
        self.assertEqual(code, 1, out)
        self.assertIn("NOT OBSERVED leaked-handles >= 4: leaked-handles 3", out)



if __name__ == "__main__":
    unittest.main()
