"""The integration suite: every sample under integration/samples/ is

  1. flagged by our checks exactly as its header says (both front ends: the
     standalone cublas-tidy and the plugin in clang-tidy),
  2. compiled and linked with nvcc against the real cuBLAS, and
  3. when a GPU is present, run under the tracer (libcublas-trace.so) and,
     where a prediction needs it, compute-sanitizer, and what it does is
     compared with what its header predicts.

integration/run is the command; docs/integration.md describes the sample
header format, the tracer and the report. Python 3 standard library only.
"""

import argparse
import concurrent.futures
import datetime
import fnmatch
import hashlib
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
SAMPLES_DIR = os.path.join(HERE, "samples")
API_MODEL = os.path.join(REPO, "lib", "model", "CublasApi.def")

CONTROL = "none"          # INTEGRATION-CHECK of the clean controls
CONTROL_DIR = "clean"     # ... which live in samples/clean/
SAMPLE_EXTENSIONS = (".cpp", ".cu")
EXIT_SKIPPED = 77         # CTest's SKIP_RETURN_CODE

CHECK_NAME = r"cublas-[a-z0-9]+(?:-[a-z0-9]+)*"
STATUS_NAMES = (
    "CUBLAS_STATUS_SUCCESS", "CUBLAS_STATUS_NOT_INITIALIZED",
    "CUBLAS_STATUS_ALLOC_FAILED", "CUBLAS_STATUS_INVALID_VALUE",
    "CUBLAS_STATUS_ARCH_MISMATCH", "CUBLAS_STATUS_MAPPING_ERROR",
    "CUBLAS_STATUS_EXECUTION_FAILED", "CUBLAS_STATUS_INTERNAL_ERROR",
    "CUBLAS_STATUS_NOT_SUPPORTED", "CUBLAS_STATUS_LICENSE_ERROR",
)
# Bytes of padding that compute-sanitizer puts after every allocation: an
# access past the end of a buffer lands in the padding and is reported, not
# in the allocation that cudaMalloc happened to place next to it (cuBLAS's
# workspace, the next matrix).
SANITIZER_PADDING = 1 << 20
# Tracer events that a clean program must not produce.
TROUBLE_EVENTS = ("status", "host-pointer", "device-pointer", "out-of-bounds",
                  "use-after-destroy", "default-workspace", "missing-function",
                  "signal")


class HeaderError(Exception):
    """A sample's header does not follow the format: the run fails."""


# --------------------------------------------------------------------------
# The API model: which functions and parameters a prediction may name
# --------------------------------------------------------------------------

_model_cache = {}


def load_api_model(path=API_MODEL):
    """{function: [parameter names]} from lib/model/CublasApi.def."""
    if path not in _model_cache:
        model, current = {}, None
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = re.match(r"^CUBLAS_FUNCTION\((\w+),", line)
                if m:
                    current = model.setdefault(m.group(1), [])
                    continue
                m = re.match(r"^\s+CUBLAS_PARAM\((\w+),", line)
                if m and current is not None:
                    current.append(m.group(1))
        _model_cache[path] = model
    return _model_cache[path]


def spelled_names(function):
    """What a program may write for the symbol: cublasSgemm for
    cublasSgemm_v2, cublasSgemm_64 for cublasSgemm_v2_64."""
    names = {function}
    m = re.match(r"^(\w+)_v2(_64)?$", function)
    if m:
        names.add(m.group(1) + (m.group(2) or ""))
    return names


def call_span(lines, line):
    """The lines (1-based, inclusive) where a call site of the call that
    starts on `line` may be placed: from the first line of its statement
    (nvcc's line table gives a call nested in another, as in
    `ok = check(\n cublasGemmEx(...))`, the line of the outer call) to the
    parenthesis that closes the first one opened on `line`."""
    return statement_start(lines, line), call_end(lines, line)


def statement_start(lines, line):
    """The first line of the statement that `line` is part of: back over
    lines that do not end a statement or open or close a block."""
    first = line
    while first > 1 and line - first < 20:
        previous = strip_line_comment(lines[first - 2]).strip()
        if not previous or previous.endswith((";", "{", "}")) or previous.startswith("#"):
            break
        first -= 1
    return first


def call_end(lines, line):
    depth, seen_open = 0, False
    for number in range(line, min(len(lines), line + 40) + 1):
        for c in strip_line_comment(lines[number - 1]):
            if c == "(":
                depth += 1
                seen_open = True
            elif c == ")":
                depth -= 1
                if seen_open and depth <= 0:
                    return number
    return line


def strip_line_comment(text):
    i = text.find("//")
    return text if i < 0 else text[:i]


# --------------------------------------------------------------------------
# Predictions
# --------------------------------------------------------------------------

class Prediction:
    """One PREDICT line. `kind` is the first word; the other fields are set
    for the kinds that have them."""

    def __init__(self, text, kind, **fields):
        self.text = text
        self.kind = kind
        self.function = fields.get("function")
        self.param = fields.get("param")
        self.status = fields.get("status")
        self.line = fields.get("line")
        self.span = fields.get("span")
        self.op = fields.get("op")
        self.count = fields.get("count")
        self.error = fields.get("error")
        self.needle = fields.get("needle")

    def needs_sanitizer(self):
        return self.kind in ("sanitizer", "clean")

    def __repr__(self):
        return "Prediction(%r)" % self.text


LOCATED = r"(?P<function>(?:cublas|cusolver|cusparse)\w+)%s @ (?P<line>\d+)"
PREDICTION_FORMS = (
    ("status", re.compile(r"^status (?P<status>CUBLAS_STATUS_[A-Z_]+) from "
                          + LOCATED % "" + "$")),
    ("host-pointer", re.compile(r"^host-pointer " + LOCATED % r" (?P<param>\w+)" + "$")),
    ("device-pointer", re.compile(r"^device-pointer " + LOCATED % r" (?P<param>\w+)" + "$")),
    ("out-of-bounds", re.compile(r"^out-of-bounds " + LOCATED % r" (?P<param>\w+)" + "$")),
    ("use-after-destroy", re.compile(r"^use-after-destroy " + LOCATED % "" + "$")),
    ("default-workspace", re.compile(r"^default-workspace " + LOCATED % "" + "$")),
    ("leaked-handles", re.compile(r"^leaked-handles (?P<op>>=|==) (?P<count>\d+)$")),
    ("leaked-descriptors", re.compile(r"^leaked-descriptors (?P<op>>=|==) (?P<count>\d+)$")),
    ("created-handles", re.compile(r"^created-handles (?P<op>>=|==) (?P<count>\d+)$")),
    ("cuda-error", re.compile(r"^cuda-error (?P<error>cudaError[A-Z]\w*)$")),
    ("sanitizer", re.compile(r'^sanitizer "(?P<needle>[^"]+)"$')),
    ("wrong-result", re.compile(r"^wrong-result$")),
    ("clean", re.compile(r"^clean$")),
)


def parse_prediction(text, lines, model):
    """A Prediction from the text after `PREDICT:`; HeaderError if it does
    not follow the format or names something that does not exist."""
    for kind, form in PREDICTION_FORMS:
        m = form.match(text)
        if not m:
            continue
        fields = {k: v for k, v in m.groupdict().items() if v is not None}
        function = fields.get("function")
        if function is not None:
            if function not in model:
                raise HeaderError("unknown function %s (not in the API model; "
                                  "give the real symbol, e.g. cublasSgemm_v2)"
                                  % function)
            param = fields.get("param")
            if param is not None and param not in model[function]:
                raise HeaderError("%s has no parameter %s (it has: %s)"
                                  % (function, param, ", ".join(model[function])))
            line = int(fields["line"])
            check_line(line, lines)
            spelled = spelled_names(function)
            if not any(s in lines[line - 1] for s in spelled):
                raise HeaderError("line %d does not call %s: %r"
                                  % (line, " or ".join(sorted(spelled)),
                                     lines[line - 1].strip()))
            fields["line"] = line
            fields["span"] = call_span(lines, line)
        if "status" in fields and fields["status"] not in STATUS_NAMES:
            raise HeaderError("unknown status %s" % fields["status"])
        if "count" in fields:
            fields["count"] = int(fields["count"])
        return Prediction(text, kind, **fields)
    raise HeaderError("cannot read the prediction %r (see docs/integration.md "
                      "for the forms)" % text)


def check_line(line, lines):
    if not 1 <= line <= len(lines):
        raise HeaderError("line %d is outside the file (%d lines)"
                          % (line, len(lines)))
    if not lines[line - 1].strip():
        raise HeaderError("line %d is blank" % line)


# --------------------------------------------------------------------------
# Samples and their headers
# --------------------------------------------------------------------------

class Expected:
    def __init__(self, check, line, note):
        self.check, self.line, self.note = check, line, note

    def key(self):
        return (self.check, self.line)

    def __str__(self):
        return "%s @ %d%s" % (self.check, self.line, " (note)" if self.note else "")


class Sample:
    def __init__(self, path, rel, check, expected, predictions, lines):
        self.path = path
        self.rel = rel
        self.check = check
        self.expected = expected
        self.predictions = predictions
        self.lines = lines

    @property
    def is_control(self):
        return self.check == CONTROL

    def warnings(self):
        return [e for e in self.expected if not e.note]

    def notes(self):
        return [e for e in self.expected if e.note]

    def needs_sanitizer(self):
        return any(p.needs_sanitizer() for p in self.predictions)


DIRECTIVE = re.compile(r"^\s*//\s*(?P<word>(?:INTEGRATION|EXPECT|PREDICT)[A-Z-]*)\s*:(?P<rest>.*)$")
KNOWN_DIRECTIVES = ("INTEGRATION-CHECK", "EXPECT-DIAG", "PREDICT")


def parse_sample(path, samples_dir=SAMPLES_DIR, model=None):
    """Reads and validates a sample's header; HeaderError when malformed."""
    model = model if model is not None else load_api_model()
    rel = os.path.relpath(path, samples_dir)
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    header_end = 0
    while header_end < len(lines) and lines[header_end].lstrip().startswith("//"):
        header_end += 1

    checks, expected, predictions = [], [], []
    for index, text in enumerate(lines):
        m = DIRECTIVE.match(text)
        if not m:
            continue
        number = index + 1
        where = "%s:%d: " % (rel, number)
        word, rest = m.group("word"), m.group("rest").strip()
        if word not in KNOWN_DIRECTIVES:
            raise HeaderError(where + "unknown directive %s (known: %s)"
                              % (word, ", ".join(KNOWN_DIRECTIVES)))
        if index >= header_end:
            raise HeaderError(where + "%s outside the header (the comment "
                              "block at the top of the file)" % word)
        try:
            if word == "INTEGRATION-CHECK":
                if not re.match(r"^(?:%s|%s)$" % (CONTROL, CHECK_NAME), rest):
                    raise HeaderError("INTEGRATION-CHECK must be a cublas-* "
                                      "check name or '%s', not %r" % (CONTROL, rest))
                checks.append(rest)
            elif word == "EXPECT-DIAG":
                em = re.match(r"^(%s) @ (\d+)( \(note\))?$" % CHECK_NAME, rest)
                if not em:
                    raise HeaderError("EXPECT-DIAG must read '<check> @ <line>' "
                                      "or '<check> @ <line> (note)', not %r" % rest)
                line = int(em.group(2))
                check_line(line, lines)
                expected.append(Expected(em.group(1), line, bool(em.group(3))))
            else:
                predictions.append(parse_prediction(rest, lines, model))
        except HeaderError as e:
            raise HeaderError(where + str(e)) from None

    where = rel + ": "
    if len(checks) != 1:
        raise HeaderError(where + "needs exactly one INTEGRATION-CHECK line, has %d"
                          % len(checks))
    check = checks[0]
    folder = os.path.basename(os.path.dirname(path))
    want_folder = CONTROL_DIR if check == CONTROL else check
    if folder != want_folder:
        raise HeaderError(where + "INTEGRATION-CHECK %s belongs in samples/%s/, "
                          "not samples/%s/" % (check, want_folder, folder))
    if not predictions:
        raise HeaderError(where + "needs at least one PREDICT line")
    kinds = [p.kind for p in predictions]
    if check == CONTROL:
        if expected:
            raise HeaderError(where + "a control expects no diagnostics")
        if kinds != ["clean"]:
            raise HeaderError(where + "a control predicts exactly 'clean'")
    else:
        if "clean" in kinds:
            raise HeaderError(where + "'clean' is for the controls in samples/%s/"
                              % CONTROL_DIR)
        if not any(e.check == check and not e.note for e in expected):
            raise HeaderError(where + "expects no warning of its own check %s" % check)
    return Sample(path, rel, check, expected, predictions, lines)


def find_samples(samples_dir=SAMPLES_DIR, pattern=None):
    """Every sample file, sorted; HeaderError for a file that has no place
    in the suite. `pattern`: a glob on 'check/name.cpp', else a substring."""
    paths = []
    for folder in sorted(os.listdir(samples_dir)):
        full = os.path.join(samples_dir, folder)
        if not os.path.isdir(full):
            continue
        for name in sorted(os.listdir(full)):
            path = os.path.join(full, name)
            if not name.endswith(SAMPLE_EXTENSIONS) or not os.path.isfile(path):
                raise HeaderError("samples/%s/%s: not a sample (.cpp or .cu); "
                                  "shared code goes in samples/*.h" % (folder, name))
            rel = folder + "/" + name
            if pattern and not (fnmatch.fnmatch(rel, pattern)
                                if any(c in pattern for c in "*?[") else pattern in rel):
                continue
            paths.append(path)
    return paths


# --------------------------------------------------------------------------
# Step results
# --------------------------------------------------------------------------

def sample_digest(sample, samples_dir):
    """sha256 of what the static step reads of a sample: its text and the
    shared sample.h beside the samples."""
    h = hashlib.sha256()
    with open(sample.path, "rb") as f:
        h.update(f.read())
    shared = os.path.join(samples_dir, "sample.h")
    if os.path.exists(shared):
        with open(shared, "rb") as f:
            h.update(b"\0" + f.read())
    return h.hexdigest()


class StaticResults:
    """The static step of an earlier run (its --report JSON), for a machine
    that has a GPU but not the tools: clang and the plugin run where they are
    built, nvcc and the GPU where the GPU is (--static-from)."""

    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        self.path = path
        self.registered = data["registered_checks"]
        self.frontends = data["environment"]["frontends"]
        self.origin = "%s, %s" % (data["environment"]["host"], data["date"])
        self.samples = {s["sample"]: s for s in data["samples"]}

    def step(self, outcome, digest):
        """The recorded static Step of a sample, or a failing one when the
        sample is not in the file or has changed since."""
        rec = self.samples.get(outcome.rel)
        if rec is None or rec.get("static") is None:
            return Step("fail", "not in %s: run the static step where the tools are built"
                        % self.path)
        if rec.get("digest") != digest:
            return Step("fail", "the sample changed since %s was written (%s)"
                        % (self.path, self.origin))
        st = rec["static"]
        return Step(st["state"], "%s (recorded on %s)" % (st["detail"], self.origin),
                    st["seconds"])


class Step:
    """The outcome of one step of one sample: 'ok', 'fail' or 'skipped'."""

    def __init__(self, state, detail="", seconds=0.0):
        self.state, self.detail, self.seconds = state, detail, seconds

    def summary(self):
        return self.state + (": " + self.detail if self.detail else "")

    def to_json(self):
        return {"state": self.state, "detail": self.detail,
                "seconds": round(self.seconds, 2)}


def run_command(cmd, timeout, env=None, cwd=None):
    """(returncode, stdout, stderr, timed_out)."""
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, errors="replace", timeout=timeout,
                              env=env, cwd=cwd)
        return proc.returncode, proc.stdout, proc.stderr, False
    except subprocess.TimeoutExpired as e:
        def text(b):
            return b.decode(errors="replace") if isinstance(b, bytes) else (b or "")
        return None, text(e.stdout), text(e.stderr), True
    except OSError as e:
        return None, "", str(e), False


# --------------------------------------------------------------------------
# Step 1: our checks
# --------------------------------------------------------------------------

DIAG_LINE = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): "
                       r"(?P<severity>warning|error|note): (?P<message>.*?)"
                       r"(?: \[(?P<checks>[^\]]+)\])?$")


class Diagnostic:
    def __init__(self, file, line, severity, message, check):
        self.file, self.line = file, line
        self.severity, self.message, self.check = severity, message, check

    def __str__(self):
        return "%s:%d: %s: %s [%s]" % (os.path.basename(self.file), self.line,
                                       self.severity, self.message, self.check)


def parse_diagnostics(output):
    """Warnings and errors with their check; notes carry the check of the
    warning before them."""
    diags, last_check = [], None
    for text in output.splitlines():
        m = DIAG_LINE.match(text)
        if not m:
            continue
        severity = m.group("severity")
        names = [c.strip() for c in (m.group("checks") or "").split(",")]
        names = [c for c in names if c and not c.startswith("-")]
        if severity == "note":
            check = last_check
        else:
            check = names[0] if names else None
            last_check = check
        diags.append(Diagnostic(m.group("file"), int(m.group("line")), severity,
                                m.group("message"), check))
    return diags


def compare_diagnostics(sample, diags, registered):
    """[] when the diagnostics are what the header expects for the
    registered checks, else the differences as lines."""
    problems = []
    sample_file = os.path.realpath(sample.path)

    def in_sample(d):
        return os.path.realpath(d.file) == sample_file

    errors = [d for d in diags if d.severity == "error"]
    if errors:
        return ["does not compile: " + str(d) for d in errors[:5]]
    got = [d for d in diags if d.severity == "warning" and d.check
           and d.check.startswith("cublas-")]
    want = [e for e in sample.warnings() if e.check in registered]
    remaining = list(want)
    for d in got:
        match = next((e for e in remaining if in_sample(d) and
                      e.key() == (d.check, d.line)), None)
        if match:
            remaining.remove(match)
        else:
            problems.append("unexpected " + str(d))
    problems += ["missing warning %s" % e for e in remaining]

    for check in sorted({e.check for e in sample.notes() if e.check in registered}):
        want_notes = sorted(e.line for e in sample.notes() if e.check == check)
        got_notes = sorted(d.line for d in diags
                           if d.severity == "note" and d.check == check and in_sample(d)
                           and not d.message.startswith("expanded from"))
        if want_notes != got_notes:
            problems.append("notes of %s on lines %s, expected %s"
                            % (check, got_notes, want_notes))
    return problems


class Toolchain:
    def __init__(self, args):
        self.build_dir = os.path.abspath(args.build_dir)
        self.samples_dir = os.path.abspath(args.samples_dir)
        self.cublas_tidy = os.path.join(self.build_dir, "bin", "cublas-tidy")
        self.plugin = os.path.join(self.build_dir, "lib", "libCublasTidy.so")
        self.tracer = os.path.join(self.build_dir, "lib", "libcublas-trace.so")
        self.clang_tidy = args.clang_tidy or find_clang_tidy()
        self.cuda = os.path.abspath(args.cuda_path) if args.cuda_path else ""
        self.include = os.path.join(self.cuda, "include") if self.cuda else ""
        self.nvcc = find_tool("nvcc", self.cuda, ("bin",))
        self.sanitizer = find_tool("compute-sanitizer", self.cuda,
                                   ("bin", "compute-sanitizer"))
        self.arch = args.arch
        self.frontends = [("cublas-tidy", [self.cublas_tidy], [])]
        if self.clang_tidy and os.path.exists(self.plugin):
            cuda_flags = ["--cuda-host-only", "-Wno-unknown-cuda-version",
                          "--cuda-path=" + self.cuda]
            self.frontends.append(("plugin", [self.clang_tidy, "--load=" + self.plugin],
                                   cuda_flags))

    def have_headers(self):
        return bool(self.include) and os.path.isfile(os.path.join(self.include, "cublas_v2.h"))


def find_clang_tidy():
    for candidate in ("/usr/lib/llvm-22/bin/clang-tidy", shutil.which("clang-tidy-22")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


def find_tool(name, cuda, subdirs):
    for sub in subdirs:
        path = os.path.join(cuda, sub, name) if cuda else ""
        if path and os.access(path, os.X_OK):
            return path
    return shutil.which(name)


def registered_checks(tool_cmd):
    """The cublas-* checks a front end has, from --list-checks."""
    code, out, err, _ = run_command(tool_cmd + ["--list-checks", "-checks=-*,cublas-*"], 120)
    if code != 0:
        raise RuntimeError("%s --list-checks failed: %s" % (tool_cmd[-1], (out + err).strip()))
    return sorted(set(re.findall(r"^\s+(%s)\s*$" % CHECK_NAME, out, re.M)))


def static_step(sample, tools, registered):
    start = time.time()
    problems, runs = [], 0
    for name, cmd, cuda_flags in tools.frontends:
        full = cmd + [sample.path, "-checks=-*,cublas-*", "--header-filter=.*", "--",
                      "-std=c++17", "-isystem", tools.include, "-I", tools.samples_dir]
        if sample.path.endswith(".cu"):
            full += cuda_flags
        code, out, err, timed_out = run_command(full, 300)
        runs += 1
        if timed_out:
            problems.append("%s: timed out" % name)
            continue
        diags = parse_diagnostics(out + "\n" + err)
        found = compare_diagnostics(sample, diags, registered)
        if not found and code != 0:
            found = ["exit code %s: %s" % (code, (err or out).strip()[-300:])]
        problems += ["%s: %s" % (name, p) for p in found]
    seconds = time.time() - start
    if problems:
        return Step("fail", "; ".join(problems), seconds)
    verified = [str(e) for e in sample.expected if e.check in registered]
    detail = ", ".join(verified) if verified else "no diagnostics"
    pending = [str(e) for e in sample.expected if e.check not in registered]
    if pending:
        detail += " (not verified, check not registered: %s)" % ", ".join(pending)
    return Step("ok", "%s [%d front ends]" % (detail, runs), seconds)


# --------------------------------------------------------------------------
# Step 2: nvcc
# --------------------------------------------------------------------------

NVCC_CACHE_ENTRIES = 256


def nvcc_cache_dir():
    """Where built samples are kept between runs: $CUBLAS_TIDY_NVCC_CACHE
    ("" turns the cache off), else $XDG_CACHE_HOME/cublas-tidy/nvcc (or
    ~/.cache/...): outside the checkout, like ccache's, so that a clean clone
    on a machine that built the same samples before builds none again."""
    path = os.environ.get("CUBLAS_TIDY_NVCC_CACHE")
    if path is not None:
        return path or None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "cublas-tidy", "nvcc")


def nvcc_cache_key(sample, tools, cmd, exe):
    """What the executable depends on: the sample and sample.h, the nvcc
    binary (its path, size and time: a new toolkit is another compiler)
    and the command, its output path aside."""
    h = hashlib.sha256()
    h.update(sample_digest(sample, tools.samples_dir).encode())
    st = os.stat(tools.nvcc)
    h.update(("\0%s\0%d\0%d" % (os.path.realpath(tools.nvcc), st.st_size,
                                   st.st_mtime_ns)).encode())
    for arg in cmd:
        h.update(b"\0" + ("<out>" if arg == exe else arg).encode())
    return h.hexdigest()


def cache_store(cache, key, exe):
    """Keeps a copy of `exe` under `key`, and the newest entries only."""
    try:
        os.makedirs(cache, exist_ok=True)
        tmp = os.path.join(cache, "%s.%d.tmp" % (key, os.getpid()))
        shutil.copy2(exe, tmp)
        os.replace(tmp, os.path.join(cache, key))
        entries = sorted((e for e in os.scandir(cache) if e.is_file()),
                         key=lambda e: e.stat().st_mtime)
        for e in entries[:-NVCC_CACHE_ENTRIES]:
            os.unlink(e.path)
    except OSError:
        pass  # a cache that cannot be written is no cache, not a failure


def build_step(sample, tools, out_dir):
    """Compiles and links the sample; returns (Step, executable). A sample
    built before with the same nvcc and command is taken from the cache
    (nvcc_cache_dir)."""
    if not tools.nvcc:
        return Step("skipped", "nvcc not found (looked in %s/bin and on PATH)"
                    % (tools.cuda or "$CUDA_PATH")), None
    start = time.time()
    exe = os.path.join(out_dir, os.path.splitext(sample.rel)[0])
    os.makedirs(os.path.dirname(exe), exist_ok=True)
    cmd = [tools.nvcc, "-std=c++17", "-g", "-lineinfo", "-cudart", "shared",
           "-I", tools.samples_dir, "-o", exe, sample.path, "-lcublas"]
    includes = [l for l in sample.lines if l.lstrip().startswith("#include")]
    for header, library in (("cublasLt.h", "-lcublasLt"),
                            ("cusolverDn.h", "-lcusolver"),
                            ("cusparse.h", "-lcusparse")):
        if any(header in l for l in includes):
            cmd.append(library)
    if tools.arch:
        cmd.append("-arch=" + tools.arch)
    lib = os.path.join(tools.cuda, "lib64") if tools.cuda else ""
    if lib and os.path.isdir(lib):
        cmd += ["-Xlinker", "-rpath", "-Xlinker", lib]
    built = "nvcc %s" % ("-arch=" + tools.arch if tools.arch else "(default arch)")
    cache = nvcc_cache_dir()
    key = nvcc_cache_key(sample, tools, cmd, exe) if cache else None
    if key and os.path.isfile(os.path.join(cache, key)):
        try:
            shutil.copy2(os.path.join(cache, key), exe)
            return Step("ok", built + ", cached", time.time() - start), exe
        except OSError:
            pass
    code, out, err, timed_out = run_command(cmd, 600)
    seconds = time.time() - start
    if timed_out or code != 0:
        text = "timed out" if timed_out else (err or out).strip()
        return Step("fail", "nvcc: " + text[-600:], seconds), None
    if key:
        cache_store(cache, key, exe)
    return Step("ok", built, seconds), exe


# --------------------------------------------------------------------------
# Step 3: on the GPU
# --------------------------------------------------------------------------

def gpu_info():
    """{'present': bool, 'reason', 'name', 'driver', 'cuda', 'compute_cap'}."""
    smi = shutil.which("nvidia-smi")
    if not smi:
        return {"present": False, "reason": "nvidia-smi not found"}
    code, out, err, _ = run_command([smi, "-L"], 60)
    if code != 0 or "GPU" not in out:
        return {"present": False, "reason": "nvidia-smi -L failed: %s"
                % (err or out).strip()[:200]}
    info = {"present": True, "reason": "", "list": out.strip()}
    code, out, _, _ = run_command([smi, "--query-gpu=name,driver_version,compute_cap",
                                   "--format=csv,noheader"], 60)
    if code == 0 and out.strip():
        fields = [f.strip() for f in out.strip().splitlines()[0].split(",")]
        info.update(zip(("name", "driver", "compute_cap"), fields))
    code, out, _, _ = run_command([smi], 60)
    m = re.search(r"CUDA Version:\s*([\d.]+)", out or "")
    if m:
        info["cuda"] = m.group(1)
    return info


def read_trace(path):
    events = []
    if not os.path.exists(path):
        return events
    with open(path, encoding="utf-8", errors="replace") as f:
        for text in f:
            text = text.strip()
            if not text:
                continue
            try:
                events.append(json.loads(text))
            except ValueError:
                events.append({"event": "unreadable", "text": text[:200]})
    return events


def resolve_lines(events, exe, source):
    """Sets 'line' on each event whose call site is in `exe` and maps to
    `source` (addr2line on the executable's debug information)."""
    exe_real = os.path.realpath(exe)
    sites = [e["site"] for e in events if isinstance(e.get("site"), dict)
             and os.path.realpath(e["site"].get("object", "")) == exe_real]
    addresses = sorted({s["address"] for s in sites})
    table = {}
    addr2line = shutil.which("addr2line")
    if addresses and addr2line:
        code, out, _, _ = run_command([addr2line, "-e", exe] + addresses, 120)
        if code == 0:
            for address, text in zip(addresses, out.splitlines()):
                m = re.match(r"^(.*):(\d+)", text)
                if m and os.path.basename(m.group(1)) == os.path.basename(source):
                    table[address] = int(m.group(2))
    for e in events:
        site = e.get("site")
        if isinstance(site, dict):
            e["line"] = table.get(site.get("address")) if site in sites else None
    return events


class Observed:
    """What one run showed: the tracer's events (with source lines), the
    program's output and exit, and compute-sanitizer's report."""

    def __init__(self, events=(), stdout="", stderr="", exit_code=0,
                 timed_out=False, sanitizer=None, sanitizer_note=""):
        self.events = list(events)
        self.stdout, self.stderr = stdout, stderr
        self.exit_code, self.timed_out = exit_code, timed_out
        self.sanitizer, self.sanitizer_note = sanitizer, sanitizer_note

    def of(self, kind):
        return [e for e in self.events if e.get("event") == kind]

    def exit_record(self):
        records = self.of("exit")
        return records[-1] if records else None

    def output_lines(self, prefix):
        return [l[len(prefix):].strip() for l in self.stdout.splitlines()
                if l.startswith(prefix)]

    def describe(self):
        """Every observation, one short line each."""
        out = []
        for e in self.events:
            kind = e.get("event")
            where = " @ %s" % e["line"] if e.get("line") else " (outside the sample)"
            if kind == "status":
                out.append("status %s from %s%s" % (e.get("name"), e.get("function"), where))
            elif kind in ("host-pointer", "device-pointer", "out-of-bounds"):
                extra = ""
                if kind == "out-of-bounds":
                    extra = " (needs %s bytes, %s available)" % (
                        e.get("needed_bytes"), e.get("available_bytes"))
                out.append("%s %s %s%s%s" % (kind, e.get("function"), e.get("param"),
                                             where, extra))
            elif kind in ("use-after-destroy", "default-workspace"):
                out.append("%s %s%s" % (kind, e.get("function"), where))
            elif kind == "signal":
                out.append("killed by %s" % e.get("name"))
            elif kind == "missing-function":
                out.append("tracer: no real %s" % e.get("function"))
            elif kind == "exit":
                out.append("leaked-handles %s, leaked-descriptors %s, created-handles %s"
                           % (e.get("leaked_handles"), e.get("leaked_descriptors"),
                              e.get("created_handles")))
        if self.exit_record() is None:
            out.append("no exit record from the tracer")
        out += ["CUDA-ERROR: " + l for l in self.output_lines("CUDA-ERROR:")]
        out += ["CUBLAS-ERROR: " + l for l in self.output_lines("CUBLAS-ERROR:")]
        out += ["RESULT: " + l for l in self.output_lines("RESULT:")]
        out.append("timed out" if self.timed_out else "exit code %s" % self.exit_code)
        if self.sanitizer is not None:
            m = re.search(r"ERROR SUMMARY: (\d+) errors?", self.sanitizer)
            out.append("compute-sanitizer: %s" % (m.group(0) if m else "no summary"))
        elif self.sanitizer_note:
            out.append("compute-sanitizer: " + self.sanitizer_note)
        return out


def located_matches(p, events):
    lo, hi = p.span
    return [e for e in events if e.get("function") == p.function
            and e.get("line") is not None and lo <= e["line"] <= hi
            and (p.param is None or e.get("param") == p.param)
            and (p.status is None or e.get("name") == p.status)]


def match_prediction(p, seen):
    """(matched, what was seen) for one prediction."""
    if p.kind in ("status", "host-pointer", "device-pointer", "out-of-bounds",
                  "use-after-destroy", "default-workspace"):
        hits = located_matches(p, seen.of(p.kind))
        if hits:
            return True, "seen @ %s" % hits[0]["line"]
        others = [d for d in seen.describe() if d.startswith(p.kind)]
        return False, "not seen" + ("; saw " + "; ".join(others[:4]) if others else "")
    if p.kind in ("leaked-handles", "leaked-descriptors", "created-handles"):
        record = seen.exit_record()
        if record is None:
            return False, "no exit record (the program did not exit normally)"
        count = record.get(p.kind.replace("-", "_"), 0)
        ok = count >= p.count if p.op == ">=" else count == p.count
        return ok, "%s %d" % (p.kind, count)
    if p.kind == "cuda-error":
        errors = seen.output_lines("CUDA-ERROR:")
        ok = any(e.split()[0] == p.error for e in errors if e)
        return ok, "CUDA-ERROR: " + ("; ".join(errors) if errors else "none printed")
    if p.kind == "wrong-result":
        results = seen.output_lines("RESULT:")
        return "WRONG" in results, "RESULT: " + (", ".join(results) or "none printed")
    if p.kind == "sanitizer":
        if seen.sanitizer is None:
            return False, "compute-sanitizer not run: " + (seen.sanitizer_note or "?")
        found = p.needle in seen.sanitizer
        return found, ("found" if found else "not in its output")
    if p.kind == "clean":
        trouble = [e for e in seen.events if e.get("event") in TROUBLE_EVENTS]
        record = seen.exit_record()
        leaks = (record.get("leaked_handles", 0) + record.get("leaked_descriptors", 0)
                 if record else None)
        results = seen.output_lines("RESULT:")
        sanitizer_ok = seen.sanitizer is not None and re.search(
            r"ERROR SUMMARY: 0 errors", seen.sanitizer)
        problems = []
        if trouble:
            problems.append("tracer events: " + "; ".join(
                d for d in seen.describe() if not d.startswith(("leaked", "RESULT", "exit"))))
        if leaks != 0:
            problems.append("leaks: %s" % ("no exit record" if leaks is None else leaks))
        if results != ["OK"]:
            problems.append("RESULT: %s" % (", ".join(results) or "none printed"))
        if seen.timed_out or seen.exit_code != 0:
            problems.append("exit code %s" % seen.exit_code)
        if not sanitizer_ok:
            problems.append("compute-sanitizer: %s" % (
                "not run: " + seen.sanitizer_note if seen.sanitizer is None
                else "errors reported"))
        return not problems, "; ".join(problems) or "clean"
    return False, "unknown prediction"


def runtime_step(sample, exe, tools, work_dir):
    """Runs the sample under the tracer (and compute-sanitizer when a
    prediction needs it); returns (Step, Observed, [(prediction, ok, seen)])."""
    start = time.time()
    trace = exe + ".trace.jsonl"
    env = dict(os.environ)
    env["CUBLAS_TRACE_REPORT"] = trace
    env["LD_PRELOAD"] = tools.tracer + (":" + env["LD_PRELOAD"] if env.get("LD_PRELOAD") else "")
    code, out, err, timed_out = run_command([exe], 300, env=env, cwd=work_dir)
    seen = Observed(resolve_lines(read_trace(trace), exe, sample.path), out, err,
                    code, timed_out)
    if sample.needs_sanitizer():
        if not tools.sanitizer:
            seen.sanitizer_note = "compute-sanitizer not found"
        else:
            _, sout, serr, stimed = run_command(
                [tools.sanitizer, "--tool", "memcheck", "--print-limit", "20",
                 "--padding", str(SANITIZER_PADDING), exe],
                600, cwd=work_dir)
            seen.sanitizer = sout + serr
            if stimed:
                seen.sanitizer_note = "timed out"
    results = [(p,) + match_prediction(p, seen) for p in sample.predictions]
    failed = [p.text for p, ok, _ in results if not ok]
    step = Step("fail" if failed else "ok",
                ("not observed: " + "; ".join(failed)) if failed else "every prediction observed",
                time.time() - start)
    return step, seen, results


# --------------------------------------------------------------------------
# The run and its report
# --------------------------------------------------------------------------

class Outcome:
    def __init__(self, sample=None, rel="", error=""):
        self.sample, self.rel, self.error = sample, rel, error
        self.static = self.build = self.runtime = None
        self.pending = False
        self.seen = None
        self.results = []
        self.exe = None
        self.digest = None

    @property
    def verdict(self):
        if self.error:
            return "fail"
        steps = [s for s in (self.static, self.build, self.runtime) if s]
        if any(s.state == "fail" for s in steps):
            return "fail"
        return "skip" if self.pending else "pass"

    def to_json(self, runtime_reason):
        s = self.sample
        observed = ([{"prediction": p.text, "observed": ok, "seen": text}
                     for p, ok, text in self.results] if self.results else None)
        return {
            "sample": self.rel,
            "digest": self.digest,
            "check": s.check if s else None,
            "expected_diagnostics": [str(e) for e in s.expected] if s else [],
            "predicted": [p.text for p in s.predictions] if s else [],
            "static": self.static.to_json() if self.static else None,
            "build": self.build.to_json() if self.build else None,
            "runtime": self.runtime.to_json() if self.runtime else
                       {"state": "not run", "detail": runtime_reason if not self.pending
                        else "check not registered"},
            "observed": observed,
            "observations": self.seen.describe() if self.seen else None,
            "verdict": self.verdict,
            "error": self.error or None,
        }


def markdown_report(data):
    env = data["environment"]
    gpu = env["gpu"]
    out = ["# cublas-tidy integration results", "",
           "Written by `integration/run` on %s (%s)." % (data["date"], env["host"]), ""]
    if gpu.get("present"):
        gpu_text = "%s (driver %s, CUDA %s, compute capability %s)" % (
            gpu.get("name", "?"), gpu.get("driver", "?"), gpu.get("cuda", "?"),
            gpu.get("compute_cap", "?"))
    else:
        gpu_text = "no GPU: " + gpu.get("reason", "")
    if not data["runtime_step"].startswith("run"):
        out += ["**%s: runtime step not run.** The static and build steps "
                "were." % ("No GPU" if not gpu.get("present") else "Runtime step off"), ""]
    out += ["| | |", "| --- | --- |",
            "| GPU | %s |" % gpu_text,
            "| runtime step | %s |" % data["runtime_step"],
            "| static step | %s |" % ("recorded on " + env["static_from"]
                                      if env.get("static_from") else "run here"),
            "| CUDA toolkit | %s |" % env["toolkit"],
            "| checks registered | %s |" % ", ".join(data["registered_checks"]),
            "| result | %s |" % data["summary"]["text"], ""]
    out += ["| sample | check | static | build | predicted | observed | verdict |",
            "| --- | --- | --- | --- | --- | --- | --- |"]

    def cell(text):
        return str(text).replace("|", "\\|").replace("\n", " ")

    for s in data["samples"]:
        if s["observed"]:
            observed = "<br>".join("%s %s: %s" % ("✔" if o["observed"] else "✘",
                                                  o["prediction"], o["seen"])
                                   for o in s["observed"])
        else:
            observed = s["runtime"]["state"]
        step = lambda st: "-" if st is None else st["state"] + (
            ": " + st["detail"] if st["detail"] else "")
        verdict = s["verdict"]
        if verdict == "pass" and not s["observed"]:
            verdict = "pass (static, build)"
        out.append("| `%s` | %s | %s | %s | %s | %s | %s |" % (
            s["sample"], s["check"] or "-",
            cell(s["error"] or step(s["static"])), cell(step(s["build"])),
            cell("<br>".join(s["predicted"])), cell(observed), verdict))
    out.append("")
    details = [s for s in data["samples"] if s["observations"]]
    if details:
        out += ["## Everything each run showed", ""]
        for s in details:
            out.append("- `%s`: %s" % (s["sample"], cell("; ".join(s["observations"]))))
        out.append("")
    return "\n".join(out)


def write_reports(path, data):
    base = path[:-3] if path.endswith(".md") else (path[:-5] if path.endswith(".json") else path)
    os.makedirs(os.path.dirname(os.path.abspath(base)) or ".", exist_ok=True)
    with open(base + ".md", "w", encoding="utf-8") as f:
        f.write(markdown_report(data))
    with open(base + ".json", "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2)
        f.write("\n")
    return base + ".md", base + ".json"


def toolkit_text(tools):
    if not tools.nvcc:
        return "%s (no nvcc)" % (tools.cuda or "none")
    code, out, _, _ = run_command([tools.nvcc, "--version"], 60)
    m = re.search(r"release [\d.]+, V([\d.]+)", out or "")
    return "%s, nvcc %s" % (tools.cuda, m.group(1) if m else "?")


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog="integration/run",
        description="Checks, builds and (on a GPU) runs every integration sample; "
                    "see docs/integration.md.")
    ap.add_argument("--report", metavar="FILE",
                    help="write the report to FILE (markdown) and FILE with .json")
    ap.add_argument("--sample", metavar="PATTERN",
                    help="only samples whose 'check/name' matches (glob, else substring)")
    ap.add_argument("--build-dir", default=os.path.join(REPO, "build"),
                    help="the cublas-tidy build (default: build/)")
    ap.add_argument("--work-dir", default=None,
                    help="where executables and traces go (default: BUILD_DIR/integration/work)")
    ap.add_argument("--cuda-path", default=os.environ.get("CUDA_PATH", "/usr/local/cuda"),
                    help="the CUDA toolkit (default: $CUDA_PATH or /usr/local/cuda)")
    ap.add_argument("--clang-tidy", default=None,
                    help="the clang-tidy 22 that loads the plugin (default: found)")
    ap.add_argument("--arch", default=None,
                    help="nvcc -arch (default: native on a GPU machine, nvcc's default otherwise)")
    ap.add_argument("--jobs", type=int, default=2, help="samples checked and built at once")
    ap.add_argument("--samples-dir", default=SAMPLES_DIR,
                    help="another samples folder (the runner's own tests use one)")
    ap.add_argument("--static-from", metavar="JSON",
                    help="take the static step from an earlier run's report (a GPU machine "
                         "without the tools); samples changed since fail")
    ap.add_argument("--no-runtime", action="store_true",
                    help="static and build steps only, as without a GPU (what CTest runs)")
    return ap.parse_args(argv)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    started = time.time()
    tools = Toolchain(args)
    print("integration: samples in %s" % os.path.relpath(tools.samples_dir, os.getcwd()))
    if not tools.have_headers():
        print("integration: SKIPPED: no CUDA headers at %s (set --cuda-path or CUDA_PATH); "
              "the samples cannot be parsed" % (tools.include or "(none given)"))
        return EXIT_SKIPPED
    recorded = None
    if args.static_from:
        try:
            recorded = StaticResults(args.static_from)
        except (OSError, ValueError, KeyError) as e:
            print("integration: FAILED: cannot read %s: %s" % (args.static_from, e))
            return 1
        registered, frontend_names = recorded.registered, recorded.frontends
        print("integration: static step recorded in %s (%s)" % (args.static_from, recorded.origin))
    else:
        if not os.access(tools.cublas_tidy, os.X_OK):
            print("integration: FAILED: %s not built" % tools.cublas_tidy)
            return 1
        try:
            registered = registered_checks(tools.frontends[0][1])
            for name, cmd, _ in tools.frontends[1:]:
                other = registered_checks(cmd)
                if other != registered:
                    print("integration: FAILED: the front ends register different checks: "
                          "%s vs %s (%s)" % (registered, other, name))
                    return 1
        except RuntimeError as e:
            print("integration: FAILED: %s" % e)
            return 1
        frontend_names = [n for n, _, _ in tools.frontends]
    print("integration: checks registered: %s; front ends: %s"
          % (", ".join(registered), ", ".join(frontend_names)))
    if len(frontend_names) == 1:
        print("integration: note: no clang-tidy 22 with the plugin: standalone only")

    gpu = gpu_info()
    if args.no_runtime:
        runtime_reason = "--no-runtime given"
        if gpu["present"]:
            runtime_reason += " (a GPU is present: run without --no-runtime)"
    elif not gpu["present"]:
        runtime_reason = "no GPU (%s)" % gpu["reason"]
    else:
        runtime_reason = ""
    run_on_gpu = gpu["present"] and not args.no_runtime
    if run_on_gpu:
        if not os.path.exists(tools.tracer):
            print("integration: FAILED: a GPU is present but %s is not built" % tools.tracer)
            return 1
        if not tools.arch:
            tools.arch = "native"
    if not tools.nvcc:
        print("integration: nvcc not found in %s/bin or on PATH: build step skipped, "
              "static step only" % (tools.cuda or "$CUDA_PATH"))
    if runtime_reason:
        print("integration: %s: runtime step not run" % runtime_reason)

    work_dir = os.path.abspath(args.work_dir or os.path.join(tools.build_dir, "integration", "work"))
    os.makedirs(work_dir, exist_ok=True)

    outcomes = []
    try:
        paths = find_samples(tools.samples_dir, args.sample)
    except HeaderError as e:
        print("FAIL  %s" % e)
        return 1
    model = load_api_model()
    for path in paths:
        rel = os.path.relpath(path, tools.samples_dir)
        try:
            sample = parse_sample(path, tools.samples_dir, model)
            outcome = Outcome(sample, rel)
            outcome.pending = not sample.is_control and sample.check not in registered
        except HeaderError as e:
            outcome = Outcome(None, rel, "malformed header: %s" % e)
        outcomes.append(outcome)
    if not outcomes:
        print("integration: no sample matches %r" % args.sample)
        return 1

    lock = threading.Lock()

    def prepare(o):
        if o.sample:
            o.digest = sample_digest(o.sample, tools.samples_dir)
            o.static = (recorded.step(o, o.digest) if recorded
                        else static_step(o.sample, tools, registered))
            o.build, o.exe = build_step(o.sample, tools, work_dir)
        with lock:
            print_outcome(o, runtime_pending=run_on_gpu)

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        list(pool.map(prepare, outcomes))

    if run_on_gpu:
        for o in outcomes:
            if o.verdict == "fail" or o.pending or not o.exe:
                continue
            o.runtime, o.seen, o.results = runtime_step(o.sample, o.exe, tools, work_dir)
            print_runtime(o)

    counts = {v: sum(1 for o in outcomes if o.verdict == v) for v in ("pass", "skip", "fail")}
    seconds = time.time() - started
    summary = "%d sample%s: %d passed, %d skipped, %d failed in %.1f s" % (
        len(outcomes), "" if len(outcomes) == 1 else "s", counts["pass"],
        counts["skip"], counts["fail"], seconds)
    runtime_step_text = ("run on " + gpu.get("name", "the GPU")) if run_on_gpu \
        else "not run: " + runtime_reason
    print("integration: %s; runtime step %s" % (summary, runtime_step_text))
    if args.report:
        data = {
            "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
            "environment": {"host": platform.node(), "gpu": gpu,
                            "toolkit": toolkit_text(tools),
                            "frontends": frontend_names,
                            "static_from": recorded.origin if recorded else None},
            "runtime_step": runtime_step_text,
            "registered_checks": registered,
            "summary": dict(counts, total=len(outcomes), seconds=round(seconds, 1),
                            text=summary),
            "samples": [o.to_json(runtime_reason) for o in outcomes],
        }
        md, js = write_reports(args.report, data)
        print("integration: report in %s and %s" % (md, js))
    return 1 if counts["fail"] else 0


def print_outcome(o, runtime_pending):
    if o.error:
        print("FAIL  %s: %s" % (o.rel, o.error))
        return
    label = {"pass": "ok   ", "fail": "FAIL ", "skip": "SKIP "}[o.verdict]
    if o.pending and o.verdict != "fail":
        print("%s %s: %s is not registered in the built tools; the other checks "
              "leave it silent, build %s, runtime step not run"
              % (label, o.rel, o.sample.check, o.build.state))
        return
    print("%s %s: static %s; build %s%s" % (
        label, o.rel, o.static.summary(), o.build.summary(),
        "; runtime next" if runtime_pending and o.verdict != "fail" else ""))
    sys.stdout.flush()


def print_runtime(o):
    label = "ok   " if o.runtime.state == "ok" else "FAIL "
    print("%s %s: runtime %s" % (label, o.rel, o.runtime.summary()))
    for p, ok, seen in o.results:
        print("        %s %s: %s" % ("ok" if ok else "NOT OBSERVED", p.text, seen))
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
