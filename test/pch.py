"""Precompiled headers for the checks' lit tests.

A test's parse is mostly its headers: the CUDA and standard headers cost
0.6 s of a 0.75 s run of one check, PyTorch's extension.h 13 s. A PCH of
the lines a test starts with, made once per machine (cache_dir) by the
clang of the front ends' LLVM, gives the same AST for a fifth of that: the test's
own #include lines still run, and the headers' include guards make them
no-ops, as clangd's preamble does for an editor.

build(clang, lines, flags, out_dir, stem, cuda_host) returns the path of a
PCH of `lines` (#include lines) made with `flags` (as C++, or with
cuda_host as the host side of CUDA, the parse the front ends make of a .cu
file), or None when there is no such clang or it fails. Its name carries a digest of the compiler, the flags and
the lines; the files it read are listed beside it with their sizes and
dates, and a PCH whose inputs changed is made again (clang would refuse
it). A lock lets the lit processes CTest runs side by side make it once.
Templates the headers instantiate are instantiated in the PCH
(-fpch-instantiate-templates), not again at the end of every parse.

cache_dir(build_dir) is where they are kept: $CUBLAS_TIDY_PCH_CACHE ("" keeps
them in the build folder), else $XDG_CACHE_HOME/cublas-tidy/pch (or
~/.cache/...), outside the checkout like ccache's, so that the build
folders of one machine, and a clean clone of a commit built before, share
them. At most KEEP are kept: past that, those used longest ago (not in the
last hour) are removed, each under its own lock, so that a PCH another lit
process has just taken is never removed under it.

mentioned(pch, names) returns those of `names` (macros a test defines on
its command line) that occur as a word in a file the PCH read: a PCH made
without them parses those files as a parse with them would only when none
does.
"""
import fcntl
import hashlib
import json
import os
import re
import subprocess
import time


KEEP = 96


def cache_dir(build_dir):
    path = os.environ.get("CUBLAS_TIDY_PCH_CACHE")
    if path is not None:
        return path or os.path.join(build_dir, "test", "pch")
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache")
    return os.path.join(base, "cublas-tidy", "pch")


def _prune(out_dir, keep):
    """Removes the PCHs past the `keep` used most recently (a use touches
    the file), sparing those used in the last hour."""
    found = []
    for name in os.listdir(out_dir):
        if name.endswith(".pch"):
            try:
                found.append((os.stat(os.path.join(out_dir, name)).st_mtime, name))
            except OSError:
                pass
    for _, name in sorted(found, reverse=True)[keep:]:
        _remove_unused(os.path.join(out_dir, name))


def _remove_unused(pch):
    """Removes `pch` with its header and inputs unless it was used in the
    last hour. Under the PCH's own lock, and with its date read again
    there: another lit process that takes the PCH touches it under that
    lock, and then hands it, and the header it names, to clang-tidy.
    One whose lock is held is in use, and spared."""
    with open(pch + ".lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return
        try:
            if time.time() - os.stat(pch).st_mtime < 3600:
                return
        except OSError:
            return
        stem = pch[:-len(".pch")]
        for suffix in (".pch", ".pch.inputs", ".h"):
            try:
                os.unlink(stem + suffix)
            except OSError:
                pass


def _inputs(depfile):
    """The files a make-style dependency file names."""
    with open(depfile, encoding="utf-8", errors="replace") as f:
        text = f.read().replace("\\\n", " ")
    _, _, deps = text.partition(": ")
    return [p.replace("\\ ", " ") for p in re.split(r"(?<!\\)\s+", deps) if p]


def _stamp(path):
    st = os.stat(path)
    return [st.st_mtime_ns, st.st_size]


def _current(pch):
    """Whether `pch` exists and no file it read has changed since."""
    try:
        with open(pch + ".inputs", encoding="utf-8") as f:
            inputs = json.load(f)
        return os.path.exists(pch) and all(
            os.path.exists(p) and _stamp(p) == s for p, s in inputs)
    except (OSError, ValueError):
        return False


def _command(clang, flags, cuda_host):
    """The compile of a PCH, less its input and outputs."""
    if cuda_host:
        # The driver makes no PCH of CUDA: the front end's own -emit-pch.
        return [clang, "-x", "cuda", "--cuda-host-only"] + list(flags) + [
            "-Xclang", "-fpch-instantiate-templates", "-Xclang", "-emit-pch",
            "-c"]
    return [clang, "-x", "c++-header"] + list(flags) + [
        "-fpch-instantiate-templates"]


def build(clang, lines, flags, out_dir, stem="preamble", cuda_host=False):
    if not clang or not os.path.exists(clang) or not lines:
        return None
    command = _command(clang, flags, cuda_host)
    key = hashlib.sha1()
    real = os.path.realpath(clang)
    for part in [real, json.dumps(_stamp(real))] + command[1:] + list(lines):
        key.update(part.encode() + b"\0")
    os.makedirs(out_dir, exist_ok=True)
    pch = os.path.join(out_dir, "%s-%s.pch" % (stem, key.hexdigest()[:16]))
    with open(pch + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if _current(pch):
            os.utime(pch)
            return pch
        # The PCH names the header it was made from: it stays beside it.
        header = pch[:-len(".pch")] + ".h"
        with open(header, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        tmp, dep = pch + ".tmp", pch + ".d"
        r = subprocess.run(command + [header, "-o", tmp, "-MD", "-MF", dep],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if r.returncode != 0:
            for p in (tmp, dep):
                if os.path.exists(p):
                    os.unlink(p)
            return None
        inputs = [[p, _stamp(p)] for p in _inputs(dep) if os.path.exists(p)]
        with open(pch + ".inputs", "w", encoding="utf-8") as f:
            json.dump(inputs, f)
        os.unlink(dep)
        os.replace(tmp, pch)
    _prune(out_dir, KEEP)
    return pch


def mentioned(pch, names):
    names = set(names)
    if not names:
        return set()
    with open(pch + ".inputs", encoding="utf-8") as f:
        inputs = [p for p, _ in json.load(f)]
    word = re.compile(r"\b(%s)\b" % "|".join(re.escape(n) for n in sorted(names)))
    found = set()
    for p in inputs:
        with open(p, encoding="utf-8", errors="replace") as f:
            found.update(word.findall(f.read()))
    return found
