"""A precompiled header of torch/extension.h for the checks' lit tests.

build(llvm_bin, cuda_include, torch_flags, out_dir) returns the path of a
PCH made by llvm_bin/clang++ with the flags the tests' front ends get
(-isystem CUDA, -std=c++17, the PyTorch flags), or None when there is no
such clang or it fails. The file's name carries a digest of the compiler,
the flags and the headers' dates, so that an upgrade makes a new one; a
lock lets the lit processes CTest runs side by side make it once.
"""
import fcntl
import hashlib
import os
import subprocess


def build(llvm_bin, cuda_include, torch_flags, out_dir):
    clang = os.path.join(llvm_bin, "clang++")
    if not os.path.exists(clang):
        return None
    # The templates the headers instantiate are instantiated in the PCH
    # (the virtual members of torch::nn's module templates, two thirds of
    # a parse), not again at the end of every test's parse.
    flags = ["-isystem", cuda_include, "-std=c++17",
             "-fpch-instantiate-templates"] + list(torch_flags)
    key = hashlib.sha1()
    for part in [os.path.realpath(clang)] + flags:
        key.update(part.encode() + b"\0")
    for path in [os.path.realpath(clang)] + [
            os.path.join(d, h) for d in (flags[i + 1] for i, f in enumerate(flags)
                                         if f == "-isystem")
            for h in ("torch/extension.h", "Python.h", "cublas_v2.h")]:
        if os.path.exists(path):
            st = os.stat(path)
            key.update(("%s %d %d\0" % (path, st.st_mtime_ns, st.st_size)).encode())
    os.makedirs(out_dir, exist_ok=True)
    pch = os.path.join(out_dir, "torch-%s.pch" % key.hexdigest()[:16])
    with open(pch + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.exists(pch):
            return pch
        # The PCH names the header it was made from: it stays beside it.
        header = pch[:-len(".pch")] + ".h"
        with open(header, "w") as f:
            f.write("#include <torch/extension.h>\n")
        tmp = pch + ".tmp"
        r = subprocess.run([clang, "-x", "c++-header"] + flags + [header, "-o", tmp],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if r.returncode != 0:
            if os.path.exists(tmp):
                os.unlink(tmp)
            return None
        os.replace(tmp, pch)
    return pch
