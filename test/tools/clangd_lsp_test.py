#!/usr/bin/env python3
"""cublas-clangd as a language server, over stdio, as an editor drives it.

In a temporary project (a compile_commands.json naming the CUDA headers as
system headers, and a .clangd that enables the cublas-* checks) it opens a
file with two cuBLAS bugs, waits for textDocument/publishDiagnostics, checks
that the cublas-* diagnostics arrive with their check names, lines and notes,
then sends an edit that fixes both and checks that they are gone. A fix-it
comes as a quick fix (textDocument/codeAction) that clears its diagnostic.
With the real CUDA toolkit, a .cu file from a CMake compile database for nvcc
is checked through the .clangd of docs/ide.md. A --resource-dir the user
gives wins over the built-in one. A program typed in line by line, and then
losing one line at a time, keeps the server up and answering, and its
finding comes back once the code is whole. A project's .clang-tidy with
checks, options and keys of other releases hides no finding. Every wait has
a timeout, so a server that hangs fails the test instead of blocking the run.
"""

import argparse
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path
from urllib.parse import quote, unquote, urlparse

# How long to wait for the first diagnostics of a file: clangd builds the
# preamble (the CUDA headers) first. Later waits reuse the preamble.
FIRST_WAIT_S = float(os.environ.get("CUBLAS_CLANGD_TEST_TIMEOUT", "120"))
WAIT_S = 60.0

# The directory of the check pages cublas-clangd links to by default
# (--docs-dir).
DOCS_DIR = None

# A cuBLAS bug per check, each line to report marked by a comment. The
# stddef.h include comes from clang's builtin headers: it fails unless
# cublas-clangd found its resource directory.
BUGGY_CPP = """\
#include <stddef.h>
#include <cublas_v2.h>

int scale(float *x, float *y, int n) {
  cublasHandle_t h;
  cublasCreate(&h); // @discarded
  const float alpha = 2.0f;
  cublasStatus_t st = cublasSaxpy(h, n, &alpha, x, 1, y, 1);
  if (cublasDestroy(h) != CUBLAS_STATUS_SUCCESS)
    return -1;
  return st == CUBLAS_STATUS_SUCCESS ? 0 : -2;
}

int axpy(const float *x, float *y, int n) {
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) // @created
    return -1;
  const float alpha = 2.0f;
  if (cublasSaxpy(handle, n, &alpha, x, 1, y, 1) != CUBLAS_STATUS_SUCCESS)
    return -2; // @leaks
  return cublasDestroy(handle) == CUBLAS_STATUS_SUCCESS ? 0 : -3;
}

int rowMajor(cublasHandle_t h, const float *A, const float *B, float *C) {
  const float one = 1.0f, zero = 0.0f;
  return cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 512, 256, 128, &one,
                     A, 128, // @lda
                     B, 256, &zero, C, 512) == CUBLAS_STATUS_SUCCESS ? 0 : 1;
}
"""

# All fixed: the status tested, the handle destroyed before the early return,
# the leading dimension of A its row count.
FIXED_CPP = BUGGY_CPP.replace(
    "A, 128, // @lda", "A, 512, // @lda").replace(
    "  cublasCreate(&h); // @discarded\n",
    "  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)\n"
    "    return -3;\n").replace(
    "CUBLAS_STATUS_SUCCESS)\n    return -2; // @leaks\n",
    "CUBLAS_STATUS_SUCCESS) {\n"
    "    (void)cublasDestroy(handle); // failing anyway\n"
    "    return -2;\n"
    "  }\n")

# A bug with a fix-it, which clangd offers as a quick fix.
MIXED_CPP = """\
#include <cublas_v2.h>
#include <cuda_runtime.h>

int destroy(cublasHandle_t h) {
  cublasStatus_t st = cublasDestroy(h);
  if (st != cudaSuccess) // @mixed
    return 1;
  return 0;
}
"""

# A .cu file whose bug is in host-only code: reported only when clangd parses
# the host side (clang defines __CUDA_ARCH__ on the device side, which clangd
# parses by default).
BUGGY_CU = """\
#include <cublas_v2.h>
#include <cuda_runtime.h>

__global__ void twice(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] *= 2.0f;
}

#ifndef __CUDA_ARCH__
int run(cublasHandle_t h, float *d_x, float *d_y, int n) {
  const float one = 1.0f;
  twice<<<(n + 255) / 256, 256>>>(d_x, n);
  cublasSaxpy(h, n, &one, d_x, 1, d_y, 1); // @discarded
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
#endif
"""

FIXED_CU = BUGGY_CU.replace(
    "  cublasSaxpy(h, n, &one, d_x, 1, d_y, 1); // @discarded\n",
    "  if (cublasSaxpy(h, n, &one, d_x, 1, d_y, 1) != CUBLAS_STATUS_SUCCESS)\n"
    "    return 2;\n")

# The .clangd of docs/ide.md: the cublas-* checks on, for every file; for .cu
# files the nvcc-only flags of a CMake compile database removed and the host
# side parsed.
DOT_CLANGD = """\
Diagnostics:
  ClangTidy:
    Add: [cublas-*]
    FastCheckFilter: Loose
---
If:
  PathMatch: .*\\.cu
CompileFlags:
  Remove: [-forward-unknown-to-host-compiler, --generate-code*, -gencode*,
           -arch*, -Xcompiler*, --expt-relaxed-constexpr,
           --expt-extended-lambda, -rdc*]
  Add: [--cuda-host-only, -Wno-unknown-cuda-version, --cuda-path=%(toolkit)s]
"""


class Failure(Exception):
    pass


def marker_line(text, marker):
    """0-based line of the comment `// @marker` (LSP lines are 0-based)."""
    for number, line in enumerate(text.splitlines()):
        if line.rstrip().endswith("// @" + marker):
            return number
    raise AssertionError("no marker " + marker)


def uri_of(path):
    return "file://" + quote(str(path))


def path_of(uri):
    return unquote(urlparse(uri).path)


class LanguageServer:
    """A JSON-RPC connection with Content-Length framing over stdio."""

    def __init__(self, argv, cwd, env, stderr):
        self.proc = subprocess.Popen(argv, cwd=cwd, env=env,
                                     stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=stderr)
        self.messages = queue.Queue()
        self.next_id = 1
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        stream = self.proc.stdout
        try:
            while True:
                length = None
                while True:
                    line = stream.readline()
                    if not line:
                        self.messages.put(None)
                        return
                    line = line.strip()
                    if not line:
                        break
                    name, _, value = line.decode("ascii").partition(":")
                    if name.strip().lower() == "content-length":
                        length = int(value.strip())
                if length is None:
                    raise ValueError("message without Content-Length")
                body = stream.read(length)
                if len(body) != length:
                    self.messages.put(None)
                    return
                self.messages.put(json.loads(body.decode("utf-8")))
        except Exception as error:  # reported by the waiting side
            self.messages.put(error)

    def send(self, message):
        message = dict(message, jsonrpc="2.0")
        body = json.dumps(message).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method, params):
        self.send({"method": method, "params": params})

    def request(self, method, params):
        request_id = self.next_id
        self.next_id += 1
        self.send({"id": request_id, "method": method, "params": params})
        return request_id

    def wait_for(self, what, predicate, timeout):
        """The first message that satisfies `predicate`, within `timeout`
        seconds. Requests from the server are answered with null."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failure("timed out after %.0f s waiting for %s"
                              % (timeout, what))
            try:
                message = self.messages.get(timeout=left)
            except queue.Empty:
                continue
            if message is None:
                raise Failure("cublas-clangd closed its output (exit code %s) "
                              "while waiting for %s" % (self.proc.poll(), what))
            if isinstance(message, Exception):
                raise Failure("bad message from cublas-clangd: %r" % message)
            if "method" in message and "id" in message:
                self.send({"id": message["id"], "result": None})
                continue
            if predicate(message):
                return message

    def response(self, request_id, timeout):
        message = self.wait_for("the response to request %d" % request_id,
                                lambda m: m.get("id") == request_id and
                                "method" not in m, timeout)
        if "error" in message:
            raise Failure("request %d failed: %r" % (request_id,
                                                     message["error"]))
        return message.get("result")

    def diagnostics(self, uri, version, timeout):
        message = self.wait_for(
            "textDocument/publishDiagnostics of %s version %d"
            % (os.path.basename(path_of(uri)), version),
            lambda m: m.get("method") == "textDocument/publishDiagnostics" and
            m["params"].get("uri") == uri and
            m["params"].get("version") == version, timeout)
        return message["params"]["diagnostics"]

    def shutdown(self, timeout):
        self.response(self.request("shutdown", None), timeout)
        self.notify("exit", None)
        self.proc.stdin.close()
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise Failure("cublas-clangd did not exit within %.0f s of 'exit'"
                          % timeout)

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def describe(diagnostics):
    lines = []
    for d in diagnostics:
        lines.append("  %d:%d [%s %s] %s" % (
            d["range"]["start"]["line"] + 1, d["range"]["start"]["character"] + 1,
            d.get("source", "?"), d.get("code", ""), d["message"]))
        for note in d.get("relatedInformation", []):
            lines.append("      note %d: %s" % (
                note["location"]["range"]["start"]["line"] + 1, note["message"]))
    return "\n".join(lines) or "  (none)"


def cublas_diagnostics(diagnostics):
    return [d for d in diagnostics if str(d.get("code", "")).startswith("cublas-")]


def says(message, text):
    """clangd capitalizes the first letter of every message and note."""
    return text[:1].upper() + text[1:] in message


def keeps_its_names(message):
    """clangd capitalizes the first letter of every message and note, so
    ours start with a quote or a word that capitalization leaves readable,
    never with a name it would change ("CublasStatus_t", "Lda")."""
    word = re.match(r"[^\s(,;:]*", message).group(0)
    if word.startswith("'"):
        return True
    return not ("_" in word or "::" in word or
                any(c.isupper() for c in word[1:]) or
                word in ("Lda", "Ldb", "Ldc", "Ld", "X", "Y", "Alpha", "Beta",
                         "Incx", "Incy"))


def check(condition, what, diagnostics):
    if not condition:
        raise Failure("%s; the diagnostics were:\n%s" % (what, describe(diagnostics)))


def expect_clean_parse(diagnostics, name):
    errors = [d for d in diagnostics if d.get("severity") == 1]
    check(not errors, "%s: error diagnostics (headers or compile command wrong)"
          % name, diagnostics)


def expect_bugs_cpp(diagnostics, uri, text):
    expect_clean_parse(diagnostics, "buggy.cpp")
    found = cublas_diagnostics(diagnostics)
    check(len(found) == 3, "buggy.cpp: expected 3 cublas-* diagnostics, got %d"
          % len(found), diagnostics)

    # Reported at the end of the translation unit, when the callers of every
    # function are known: clangd must show it all the same.
    extents = [d for d in found if d.get("code") == "cublas-matrix-extents"]
    check(len(extents) == 1, "buggy.cpp: no cublas-matrix-extents", diagnostics)
    check(extents[0]["range"]["start"]["line"] == marker_line(text, "lda"),
          "buggy.cpp: cublas-matrix-extents on the wrong line", diagnostics)
    # Exactly as cublas-tidy words them: the first letter is one that
    # clangd's capitalization leaves as it is.
    check("'lda' (128) is smaller than the rows of A (512)" in extents[0]["message"],
          "buggy.cpp: unexpected cublas-matrix-extents message", diagnostics)

    unchecked = [d for d in found if d.get("code") == "cublas-unchecked-status"]
    check(len(unchecked) == 1, "buggy.cpp: no cublas-unchecked-status", diagnostics)
    d = unchecked[0]
    check(d["range"]["start"]["line"] == marker_line(text, "discarded"),
          "buggy.cpp: cublas-unchecked-status on the wrong line", diagnostics)
    check(d.get("source") == "clang-tidy" and d.get("severity") == 2,
          "buggy.cpp: cublas-unchecked-status is not a clang-tidy warning",
          diagnostics)
    check(d["message"].startswith(
              "The cublasStatus_t returned by 'cublasCreate' is discarded"),
          "buggy.cpp: unexpected cublas-unchecked-status message", diagnostics)
    for each in found:
        for words in [each["message"]] + [n["message"] for n in
                                           each.get("relatedInformation", [])]:
            check(keeps_its_names(words), "buggy.cpp: clangd's capitalization "
                  "changes a name: %r" % words, diagnostics)

    # Each links to our page for its check, not to clang-tidy's site.
    for d in found:
        href = d.get("codeDescription", {}).get("href", "")
        want = uri_of(DOCS_DIR / (d["code"] + ".md"))
        check(href == want, "buggy.cpp: %s links to %r, not %r"
              % (d["code"], href, want), diagnostics)
        check((DOCS_DIR / (d["code"] + ".md")).is_file(),
              "buggy.cpp: no page %s.md" % d["code"], diagnostics)

    leaks = [d for d in found if d.get("code") == "cublas-handle-leak"]
    check(len(leaks) == 1, "buggy.cpp: no cublas-handle-leak", diagnostics)
    d = leaks[0]
    check(d["range"]["start"]["line"] == marker_line(text, "created"),
          "buggy.cpp: cublas-handle-leak on the wrong line", diagnostics)
    check(says(d["message"], "handle 'handle' created here is not destroyed on "
               "every path; call 'cublasDestroy' before it goes out of reach"),
          "buggy.cpp: unexpected cublas-handle-leak message", diagnostics)
    # The client declared relatedInformation support, so the note comes as
    # related information pointing at the return that leaks.
    notes = d.get("relatedInformation", [])
    check(len(notes) == 1, "buggy.cpp: cublas-handle-leak has %d notes, "
          "expected 1 as relatedInformation" % len(notes), diagnostics)
    note = notes[0]
    check(note["location"]["uri"] == uri and
          note["location"]["range"]["start"]["line"] == marker_line(text, "leaks"),
          "buggy.cpp: the note does not point at the leaking return", diagnostics)
    check(says(note["message"], "leaks when this 'return' is taken"),
          "buggy.cpp: unexpected note text", diagnostics)


def expect_bugs_cu(diagnostics, text):
    expect_clean_parse(diagnostics, "kernel.cu")
    found = cublas_diagnostics(diagnostics)
    check(len(found) == 1 and found[0].get("code") == "cublas-unchecked-status"
          and found[0]["range"]["start"]["line"] == marker_line(text, "discarded")
          and says(found[0]["message"],
                   "the cublasStatus_t returned by 'cublasSaxpy' is discarded"),
          "kernel.cu: expected one cublas-unchecked-status on the "
          "cublasSaxpy line", diagnostics)


def expect_fixed(diagnostics, name):
    expect_clean_parse(diagnostics, name)
    check(not cublas_diagnostics(diagnostics),
          "%s: cublas-* diagnostics remain after the fix" % name, diagnostics)


def apply_edits(text, edits):
    """`text` with the LSP TextEdits applied (positions in UTF-16 code units,
    which are characters for this ASCII text)."""
    lines = text.splitlines(keepends=True)

    def offset(position):
        return sum(len(line) for line in lines[:position["line"]]) + \
            position["character"]

    for edit in sorted(edits, key=lambda e: offset(e["range"]["start"]),
                       reverse=True):
        start, end = offset(edit["range"]["start"]), offset(edit["range"]["end"])
        text = text[:start] + edit["newText"] + text[end:]
    return text


def test_quick_fix(server, path):
    """A fix-it of a cublas-* check is offered as a quick fix; applying it
    clears the diagnostic."""
    uri = open_file(server, path, MIXED_CPP, "cpp")
    diagnostics = server.diagnostics(uri, 1, FIRST_WAIT_S)
    print("mixed.cpp after didOpen:\n" + describe(diagnostics))
    expect_clean_parse(diagnostics, "mixed.cpp")
    found = cublas_diagnostics(diagnostics)
    check(len(found) == 1 and found[0].get("code") == "cublas-unchecked-status"
          and found[0]["range"]["start"]["line"] == marker_line(MIXED_CPP, "mixed")
          and says(found[0]["message"], "a cublasStatus_t compared with "
                   "the cudaError_t value 'cudaSuccess'"),
          "mixed.cpp: expected one cublas-unchecked-status on the comparison",
          diagnostics)
    actions = server.response(server.request("textDocument/codeAction", {
        "textDocument": {"uri": uri},
        "range": found[0]["range"],
        "context": {"diagnostics": found, "only": ["quickfix"]},
    }), WAIT_S) or []
    fixes = [a for a in actions if a.get("kind") == "quickfix" and
             uri in a.get("edit", {}).get("changes", {})]
    check(len(fixes) == 1, "mixed.cpp: expected one quick fix, got %r"
          % actions, diagnostics)
    print("quick fix: %s" % fixes[0]["title"])
    fixed = apply_edits(MIXED_CPP, fixes[0]["edit"]["changes"][uri])
    check("  if (st != CUBLAS_STATUS_SUCCESS) // @mixed\n" in fixed,
          "mixed.cpp: the quick fix gives:\n" + fixed, diagnostics)
    change_file(server, uri, 2, fixed)
    expect_fixed(server.diagnostics(uri, 2, WAIT_S), "mixed.cpp")
    server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})


def cuda_setup(cuda_root, fallback_include):
    """(include directory, toolkit root or None)."""
    if cuda_root and (Path(cuda_root) / "include" / "cublas_v2.h").exists():
        return str(Path(cuda_root) / "include"), str(cuda_root)
    return os.path.abspath(fallback_include), None


def same_dir_or_below(path, directory):
    path, directory = os.path.normpath(path), os.path.normpath(directory)
    return os.path.commonpath([path, directory]) == directory


class Session:
    """A temporary directory with the server's log, and the servers started
    in it; on failure the end of the last log is printed."""

    def __init__(self, args):
        self.args = args
        self.work = Path(tempfile.mkdtemp(prefix="cublas-clangd-test-"))
        self.server = None
        self.log_path = None
        self.started = 0

    def start(self, root, extra_args=(), extra_env=None):
        env = dict(os.environ)
        # No user or system clangd configuration: only the project's .clangd.
        env["XDG_CONFIG_HOME"] = str(self.work / "config")
        env["HOME"] = str(self.work / "home")
        env.pop("CLANGD_FLAGS", None)
        env.update(extra_env or {})
        self.started += 1
        self.log_path = self.work / ("clangd-%d.log" % self.started)
        with open(self.log_path, "wb") as log:
            self.server = LanguageServer(
                [os.path.abspath(self.args.clangd), "--background-index=false",
                 "--log=info"] + list(extra_args), str(root), env, log)
        init = self.server.request("initialize", {
            "processId": os.getpid(),
            "rootUri": uri_of(root),
            "capabilities": {"textDocument": {
                "publishDiagnostics": {"relatedInformation": True,
                                       "versionSupport": True},
                "codeAction": {"codeActionLiteralSupport": {
                    "codeActionKind": {"valueSet": ["quickfix"]}}},
            }},
        })
        result = self.server.response(init, WAIT_S)
        self.server.notify("initialized", {})
        return result

    def stop(self):
        status = self.server.shutdown(WAIT_S)
        self.server = None
        if status != 0:
            raise Failure("cublas-clangd exited with %d after shutdown and exit"
                          % status)

    def close(self, failed):
        if self.server:
            self.server.kill()
        if failed and self.log_path and self.log_path.exists():
            print("--- end of the cublas-clangd log %s ---" % self.log_path.name)
            print(self.log_path.read_bytes()[-6000:].decode("utf-8", "replace"))
        if self.args.keep:
            print("kept", self.work)
        else:
            shutil.rmtree(self.work, ignore_errors=True)


def open_file(server, path, text, language):
    uri = uri_of(path)
    server.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": language, "version": 1, "text": text}})
    return uri


def diagnostics_when_opened(clangd, root, path, code, what):
    """Starts `clangd` on the project `root`, opens `path` and waits for its
    diagnostics to include one of the check `code`; the diagnostics of
    `code`, after a clean shutdown. `what` names the wait in a failure."""
    session = Session(argparse.Namespace(clangd=str(clangd), keep=False))
    failed = True
    try:
        session.start(root)
        uri = open_file(session.server, path, Path(path).read_text(), "cpp")
        # clangd may publish the compiler's diagnostics first, then all.
        message = session.server.wait_for(
            what,
            lambda m: m.get("method") == "textDocument/publishDiagnostics" and
            m["params"].get("uri") == uri and
            any(d.get("code") == code for d in m["params"]["diagnostics"]),
            FIRST_WAIT_S)
        session.stop()
        failed = False
        return [d for d in message["params"]["diagnostics"]
                if d.get("code") == code]
    finally:
        session.close(failed)


def change_file(server, uri, version, text):
    server.notify("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": version},
        "contentChanges": [{"text": text}]})


def include_target(server, uri, line):
    """The file that the #include on `line` (0-based) resolves to."""
    links = server.response(server.request(
        "textDocument/documentLink", {"textDocument": {"uri": uri}}), WAIT_S)
    for link in links or []:
        if link["range"]["start"]["line"] == line:
            return path_of(link["target"])
    raise Failure("no document link for the #include on line %d" % (line + 1))


def test_diagnostics(session, include, toolkit):
    """The bugs are reported as the user opens the files, and go when the
    user fixes them."""
    project = session.work / "project"
    project.mkdir()
    (project / ".clangd").write_text(DOT_CLANGD % {"toolkit": toolkit or ""})
    cpp = project / "buggy.cpp"
    cpp.write_text(BUGGY_CPP)
    commands = [{
        "directory": str(project),
        "file": str(cpp),
        "arguments": ["clang++", "-std=c++17", "-isystem", include,
                      "-c", str(cpp), "-o", "buggy.o"],
    }]
    mixed = project / "mixed.cpp"
    mixed.write_text(MIXED_CPP)
    commands.append(dict(commands[0], file=str(mixed), arguments=[
        "clang++", "-std=c++17", "-isystem", include, "-c", str(mixed),
        "-o", "mixed.o"]))
    cu = None
    if toolkit:
        # The command CMake writes for nvcc (project(x LANGUAGES CXX CUDA));
        # clang rejects the nvcc-only flags that the .clangd removes.
        cu = project / "kernel.cu"
        cu.write_text(BUGGY_CU)
        commands.append({
            "directory": str(project / "build"),
            "file": str(cu),
            "command": "%s/bin/nvcc -forward-unknown-to-host-compiler "
                       "-isystem=%s --generate-code=arch=compute_80,"
                       "code=[compute_80,sm_80] --expt-relaxed-constexpr "
                       "-Xcompiler=-Wall -std=c++17 -x cu -c %s -o kernel.cu.o"
                       % (toolkit, include, cu),
        })
    else:
        print("no CUDA toolkit: the .cu part is skipped")
    (project / "compile_commands.json").write_text(json.dumps(commands, indent=2))

    start = time.monotonic()
    result = session.start(project)
    info = result.get("serverInfo", {})
    print("server: %s %s" % (info.get("name", "?"), info.get("version", "")))
    server = session.server

    uri = open_file(server, cpp, BUGGY_CPP, "cpp")
    diagnostics = server.diagnostics(uri, 1, FIRST_WAIT_S)
    print("buggy.cpp after didOpen (%.1f s):\n%s"
          % (time.monotonic() - start, describe(diagnostics)))
    expect_bugs_cpp(diagnostics, uri, BUGGY_CPP)

    # clang's builtin headers come from the clang cublas-clangd was built
    # with, not from a directory next to the executable. (Debian's clang
    # also looks in /usr/include/clang/<version>/include, a link to the same
    # directory, when the resource directory does not exist, and clangd
    # reports resolved paths: the command in the log tells them apart.)
    stddef = include_target(server, uri, 0)
    if not same_dir_or_below(os.path.realpath(stddef),
                             os.path.realpath(session.args.resource_dir)):
        raise Failure("<stddef.h> resolved to %s, outside the resource "
                      "directory %s" % (stddef, session.args.resource_dir))
    expected = "-resource-dir=" + session.args.resource_dir + " "
    if expected not in session.log_path.read_text(errors="replace"):
        raise Failure("the compile command in the log has no " + expected)

    # The user fixes both bugs: the diagnostics go.
    change_file(server, uri, 2, FIXED_CPP)
    diagnostics = server.diagnostics(uri, 2, WAIT_S)
    print("buggy.cpp after the fix:\n" + describe(diagnostics))
    expect_fixed(diagnostics, "buggy.cpp")

    # An edit brings them back.
    change_file(server, uri, 3, BUGGY_CPP)
    expect_bugs_cpp(server.diagnostics(uri, 3, WAIT_S), uri, BUGGY_CPP)
    server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})

    test_quick_fix(server, mixed)

    if cu:
        uri = open_file(server, cu, BUGGY_CU, "cuda-cpp")
        diagnostics = server.diagnostics(uri, 1, FIRST_WAIT_S)
        print("kernel.cu after didOpen:\n" + describe(diagnostics))
        expect_bugs_cu(diagnostics, BUGGY_CU)
        change_file(server, uri, 2, FIXED_CU)
        diagnostics = server.diagnostics(uri, 2, WAIT_S)
        print("kernel.cu after the fix:\n" + describe(diagnostics))
        expect_fixed(diagnostics, "kernel.cu")
    session.stop()


def test_resource_dir_override(session):
    """A --resource-dir the user gives, on the command line or in
    $CLANGD_FLAGS, wins over the built-in default (and is not an error for
    being given twice)."""
    project = session.work / "override"
    fake = project / "resource"
    (fake / "include").mkdir(parents=True)
    (fake / "include" / "stddef.h").write_text("typedef unsigned long size_t;\n")
    source = project / "a.cpp"
    text = "#include <stddef.h>\nsize_t n;\n"
    source.write_text(text)
    (project / "compile_commands.json").write_text(json.dumps([{
        "directory": str(project), "file": str(source),
        "arguments": ["clang++", "-c", str(source)]}]))
    for how, extra_args, extra_env in [
            ("--resource-dir=DIR", ["--resource-dir=%s" % fake], {}),
            ("-resource-dir DIR", ["-resource-dir", str(fake)], {}),
            ("CLANGD_FLAGS", [], {"CLANGD_FLAGS": "--resource-dir=%s" % fake})]:
        session.start(project, extra_args, extra_env)
        uri = open_file(session.server, source, text, "cpp")
        expect_clean_parse(session.server.diagnostics(uri, 1, FIRST_WAIT_S),
                           "a.cpp with " + how)
        stddef = include_target(session.server, uri, 0)
        if not same_dir_or_below(os.path.realpath(stddef), os.path.realpath(fake)):
            raise Failure("with %s, <stddef.h> resolved to %s" % (how, stddef))
        session.stop()
        print("resource directory given with %s: used" % how)


def test_docs_url(session, include):
    """--cublas-docs=URL, or $CUBLAS_TIDY_DOCS_URL, points the links of the
    cublas-* diagnostics at another copy of the pages; the links of other
    checks stay clang-tidy's."""
    project = session.work / "docs-url"
    project.mkdir()
    source = project / "a.cpp"
    text = ("#include <cublas_v2.h>\n"
            "void f(cublasHandle_t h) { cublasDestroy(h); }\n"
            "int g(int x) { return 0; }\n")
    source.write_text(text)
    (project / ".clangd").write_text(
        "Diagnostics:\n  ClangTidy:\n"
        "    Add: [cublas-unchecked-status, misc-unused-parameters]\n"
        "    FastCheckFilter: None\n")
    (project / "compile_commands.json").write_text(json.dumps([{
        "directory": str(project), "file": str(source),
        "arguments": ["clang++", "-std=c++17", "-isystem", include, "-c",
                      str(source)]}]))
    base = "https://docs.example.invalid/cublas-tidy/checks"
    for how, extra_args, extra_env in [
            ("--cublas-docs", ["--cublas-docs=%s/" % base], {}),
            ("CUBLAS_TIDY_DOCS_URL", [], {"CUBLAS_TIDY_DOCS_URL": base})]:
        session.start(project, extra_args, extra_env)
        uri = open_file(session.server, source, text, "cpp")
        diagnostics = session.server.diagnostics(uri, 1, FIRST_WAIT_S)
        ours = [d for d in diagnostics
                if d.get("code") == "cublas-unchecked-status"]
        check(len(ours) == 1, "a.cpp with %s: no cublas-unchecked-status" % how,
              diagnostics)
        href = ours[0].get("codeDescription", {}).get("href")
        check(href == base + "/cublas-unchecked-status.md",
              "a.cpp with %s: the link is %r" % (how, href), diagnostics)
        stock = [d for d in diagnostics
                 if d.get("code") == "misc-unused-parameters"]
        check(len(stock) == 1, "a.cpp with %s: no misc-unused-parameters" % how,
              diagnostics)
        link = stock[0].get("codeDescription", {}).get("href", "")
        check(link.startswith("https://clang.llvm.org/extra/clang-tidy/checks/misc/"),
              "a.cpp with %s: a stock check's link changed: %r" % (how, link),
              diagnostics)
        session.stop()
        print("links with %s: %s" % (how, href))


# A program as the user types it in: a multi-line checking macro, a handle
# created with its status checked, a GEMM, a destroy, and one status left
# unchecked. While it is typed (and while lines are lost), most versions do
# not compile.
TYPED_CPP = """\
#include <cstdio>
#include <cstdlib>
#include <cublas_v2.h>

#define CUBLAS_CHECK(call)                                   \\
  do {                                                       \\
    cublasStatus_t status_ = (call);                         \\
    if (status_ != CUBLAS_STATUS_SUCCESS) {                  \\
      std::fprintf(stderr, "cuBLAS error %d\\n", (int)status_); \\
      std::exit(1);                                          \\
    }                                                        \\
  } while (0)

int gemm(const float *A, const float *B, float *C, int n) {
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return -1;
  cublasSetStream(handle, nullptr); // @unchecked
  const float alpha = 1.0f, beta = 0.0f;
  CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n,
                           &alpha, A, n, B, n, &beta, C, n));
  CUBLAS_CHECK(cublasDestroy(handle));
  return 0;
}
"""


def test_typing(session, include):
    """cublas-clangd while the user types: the program typed in line by
    line, then losing one line at a time. The server must stay up, answer
    every request, and publish the cublas-* finding once the code is whole
    again."""
    project = session.work / "typing"
    project.mkdir()
    (project / ".clangd").write_text(DOT_CLANGD % {"toolkit": ""})
    source = project / "typed.cpp"
    source.write_text("")
    (project / "compile_commands.json").write_text(json.dumps([{
        "directory": str(project), "file": str(source),
        "arguments": ["clang++", "-std=c++17", "-isystem", include,
                      "-c", str(source), "-o", "typed.o"]}]))
    session.start(project)
    server = session.server
    lines = TYPED_CPP.split("\n")
    unchecked = marker_line(TYPED_CPP, "unchecked")
    uri = open_file(server, source, lines[0] + "\n", "cpp")
    server.diagnostics(uri, 1, FIRST_WAIT_S)
    version = 1
    answered = 0

    def edit(text, ask):
        nonlocal version, answered
        version += 1
        change_file(server, uri, version, text)
        if server.proc.poll() is not None:
            raise Failure("cublas-clangd exited (%s) after version %d"
                          % (server.proc.returncode, version))
        if ask:
            # A request that needs the AST of the latest version.
            server.response(server.request("textDocument/documentSymbol", {
                "textDocument": {"uri": uri}}), WAIT_S)
            answered += 1

    def expect_whole(what):
        edit(TYPED_CPP, ask=False)
        diagnostics = server.diagnostics(uri, version, WAIT_S)
        found = [d for d in cublas_diagnostics(diagnostics)
                 if d["range"]["start"]["line"] == unchecked and
                 d.get("code") == "cublas-unchecked-status"]
        if len(cublas_diagnostics(diagnostics)) != 1 or not found:
            raise Failure("%s: expected the one cublas-unchecked-status "
                          "finding on line %d, got:\n%s"
                          % (what, unchecked + 1, describe(diagnostics)))

    start = time.monotonic()
    for k in range(2, len(lines) + 1):
        edit("\n".join(lines[:k]) + "\n", ask=True)
    expect_whole("typed in")
    typed = time.monotonic() - start
    for k in range(len(lines)):
        edit("\n".join(lines[:k] + lines[k + 1:]), ask=True)
    expect_whole("lines restored")
    print("typing: %d versions, %d requests answered, typed in %.1f s, "
          "%.1f s in all" % (version, answered, typed,
                             time.monotonic() - start))
    session.stop()


FACTS_HELPERS = """\
#include <cublas_v2.h>
void useOnly(cublasHandle_t h, float *x) {
  const float a = 2.0f;
  if (cublasSscal(h, 4, &a, x, 1) != CUBLAS_STATUS_SUCCESS) return;
}
"""

FACTS_MAIN = """\
#include <cublas_v2.h>
void useOnly(cublasHandle_t h, float *x);
void alsoUses(cublasHandle_t h, float *x) {
  const float a = 2.0f;
  if (cublasSscal(h, 4, &a, x, 1) != CUBLAS_STATUS_SUCCESS) return;
}
void viaOtherFile(float *x) {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return;
  useOnly(h, x);
}
void viaThisFile(float *x) {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return;
  alsoUses(h, x);
}
"""


def test_project_facts(session, include):
    """The summaries cublas-tidy -p writes beside the compile database reach
    the editor: a handle given to a function of another file that only uses
    it leaks. The functions of the file being edited are judged from the
    text as it is now, never from the store."""
    if not session.args.cublas_tidy:
        print("no cublas-tidy given: the project facts part is skipped")
        return
    project = session.work / "facts"
    (project / "build").mkdir(parents=True)
    (project / ".clangd").write_text(DOT_CLANGD % {"toolkit": ""})
    main, helpers = project / "main.cpp", project / "helpers.cpp"
    main.write_text(FACTS_MAIN)
    helpers.write_text(FACTS_HELPERS)
    (project / "build" / "compile_commands.json").write_text(json.dumps([
        {"directory": str(project), "file": str(f),
         "arguments": ["clang++", "-std=c++17", "-isystem", include, "-c",
                       str(f)]} for f in (main, helpers)]))
    subprocess.run([session.args.cublas_tidy, "-p", str(project / "build"),
                    "-checks=-*,cublas-*", "--quiet"], check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    store = project / "build" / "cublas-tidy-facts.json"
    if not store.exists():
        raise Failure("cublas-tidy -p did not write %s" % store)
    session.start(project)
    uri = open_file(session.server, main, FACTS_MAIN, "cpp")
    diagnostics = session.server.diagnostics(uri, 1, FIRST_WAIT_S)
    print("main.cpp with the project's summaries:\n" + describe(diagnostics))

    def leaks_on(diagnostics):
        return sorted(d["range"]["start"]["line"] + 1 for d in diagnostics
                      if d.get("code") == "cublas-handle-leak")
    check(leaks_on(diagnostics) == [9, 14],
          "a leak in viaOtherFile (line 9, through the summary of useOnly) "
          "and in viaThisFile (line 14)", diagnostics)
    # alsoUses loses its body: the store's summary of it (from main.cpp as
    # it was) is not used; the handle escapes into an unknown function.
    edited = FACTS_MAIN.replace(
        "void alsoUses(cublasHandle_t h, float *x) {\n"
        "  const float a = 2.0f;\n"
        "  if (cublasSscal(h, 4, &a, x, 1) != CUBLAS_STATUS_SUCCESS) return;\n"
        "}\n", "void alsoUses(cublasHandle_t h, float *x);\n\n\n\n")
    change_file(session.server, uri, 2, edited)
    diagnostics = session.server.diagnostics(uri, 2, WAIT_S)
    print("main.cpp with alsoUses declared only:\n" + describe(diagnostics))
    check(leaks_on(diagnostics) == [9],
          "only the leak through useOnly, defined in another file",
          diagnostics)
    session.stop()


# A project's .clang-tidy written for other tools: checks of other releases,
# options of other checks, a key that clang-tidy 22 does not have.
FOREIGN_TIDY = """\
Checks: '-*,cublas-*,-readability-foo-bar,bugprone-of-a-newer-release'
CheckOptions:
  readability-identifier-naming.SomeUnknownKey: x
  no-such-check.Option: 1
FutureKey: true
"""

FOREIGN_CPP = """\
#include <cublas_v2.h>

void shutdown(cublasHandle_t handle) {
  cublasDestroy(handle); // @discarded
}
"""


def test_foreign_config(session, include):
    """A .clang-tidy with what this build does not know blinds no editor
    that has the .clangd of docs/ide.md: clangd 22 ignores unknown checks
    and options, and drops a file with an unknown key (its log says so),
    while the .clangd still enables the cublas-* checks."""
    project = session.work / "foreign"
    project.mkdir()
    (project / ".clangd").write_text(DOT_CLANGD % {"toolkit": ""})
    (project / ".clang-tidy").write_text(FOREIGN_TIDY)
    cpp = project / "shutdown.cpp"
    cpp.write_text(FOREIGN_CPP)
    (project / "compile_commands.json").write_text(json.dumps([{
        "directory": str(project), "file": str(cpp),
        "arguments": ["clang++", "-std=c++17", "-isystem", include, "-c",
                      str(cpp)]}]))
    session.start(project)
    uri = open_file(session.server, cpp, FOREIGN_CPP, "cpp")
    diagnostics = session.server.diagnostics(uri, 1, FIRST_WAIT_S)
    print("shutdown.cpp under a foreign .clang-tidy:\n" + describe(diagnostics))
    expect_clean_parse(diagnostics, "shutdown.cpp")
    found = cublas_diagnostics(diagnostics)
    check([(d["code"], d["range"]["start"]["line"]) for d in found] ==
          [("cublas-unchecked-status", marker_line(FOREIGN_CPP, "discarded"))],
          "shutdown.cpp: expected the discarded status", diagnostics)
    session.stop()


def test_version_and_help(clangd):
    """--version and --help say what this clangd is and name its option."""
    out = subprocess.run([clangd, "--version"], capture_output=True,
                         text=True, timeout=60).stdout
    if not out.startswith("cublas-clangd: clangd with the cublas-* checks of "
                          "cublas-tidy ") or "clangd version" not in out:
        raise Failure("--version does not name cublas-tidy:\n" + out)
    out = subprocess.run([clangd, "--help"], capture_output=True, text=True,
                         timeout=60).stdout
    if "--cublas-docs=<url>" not in out or "cublas-tidy" not in out.split("\n")[0]:
        raise Failure("--help does not list --cublas-docs:\n" + out[:2000])
    print("--version and --help: name cublas-tidy and --cublas-docs")


def run(args):
    global DOCS_DIR
    DOCS_DIR = Path(args.docs_dir)
    include, toolkit = cuda_setup(args.cuda_root, args.fallback_include)
    print("CUDA headers:", include)
    session = Session(args)
    failed = True
    start = time.monotonic()
    try:
        test_version_and_help(args.clangd)
        test_diagnostics(session, include, toolkit)
        test_resource_dir_override(session)
        test_docs_url(session, include)
        test_typing(session, include)
        test_project_facts(session, include)
        test_foreign_config(session, include)
        failed = False
        print("PASS (%.1f s)" % (time.monotonic() - start))
        return 0
    except Failure as failure:
        print("FAIL:", failure)
        return 1
    finally:
        session.close(failed)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clangd", required=True, help="the cublas-clangd binary")
    parser.add_argument("--resource-dir", required=True,
                        help="the clang resource directory it should use")
    parser.add_argument("--cuda-root", default="",
                        help="CUDA toolkit root (empty: use --fallback-include)")
    parser.add_argument("--fallback-include", required=True,
                        help="the minimal CUDA headers under test/")
    parser.add_argument("--docs-dir", required=True,
                        help="the check pages cublas-clangd links to by default")
    parser.add_argument("--cublas-tidy", default="",
                        help="the cublas-tidy binary, to write the project's "
                             "summaries")
    parser.add_argument("--keep", action="store_true",
                        help="keep the temporary project and the server logs")
    args = parser.parse_args()
    try:
        return run(args)
    except Exception:
        traceback.print_exc()
        return 1


if __name__ == "__main__":
    sys.exit(main())
