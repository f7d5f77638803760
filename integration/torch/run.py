#!/usr/bin/env python3
"""integration/torch/run.py [--report FILE] [--case NAME] [--no-sanitizer]

The PyTorch part of the integration suite: builds integration/torch/ext.cu
as a PyTorch C++/CUDA extension (torch.utils.cpp_extension, nvcc) and runs
each of its ops on the GPU, each in a process of its own (a bug may take the
process or its CUDA context down), to confirm what the cublas-* finding on
that op predicts. test/frontends/torch-integration.test checks that the checks
flag each op. Needs PyTorch with CUDA, nvcc and a GPU; exit code 77 without
them. See docs/integration.md.
"""

import argparse
import json
import re
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SKIP = 77

# Each op of ext.cu: the check that flags it, what the bug does (the
# prediction), and how to tell from the run.
CASES = [
    {"name": "row_sums", "check": "cublas-host-pointer",
     "predicted": "error: a CUDA error (the GEMV reads a CPU tensor's host "
                  "pointer on the device)",
     "expect": lambda o: o["kind"] == "error"},
    {"name": "scale", "check": "cublas-device-pointer",
     "predicted": "crash: SIGSEGV (cuBLAS reads the CUDA tensor alpha on the "
                  "host)",
     "expect": lambda o: o["kind"] == "signal" and o["signal"] == 11},
    {"name": "half_gemm", "check": "cublas-data-type",
     "predicted": "wrong result (halves written into a float tensor)",
     "expect": lambda o: o["kind"] == "result" and o["result"] == "WRONG"},
    {"name": "norm_then_destroy", "check": "cublas-handle-use-after-destroy",
     "predicted": "the next torch.matmul fails (PyTorch's handle destroyed)",
     "expect": lambda o: o["kind"] in ("error", "signal") or
                         o.get("result") == "WRONG"},
    {"name": "small_output", "check": "cublas-matrix-extents",
     "predicted": "compute-sanitizer: Invalid __global__ write (64 x 64 floats "
                  "into a 32 x 32 tensor)",
     "sanitizer": True,
     "expect": lambda o: "Invalid __global__ write" in o.get("sanitizer", "")},
    {"name": "linear_view", "check": "cublas-matrix-extents",
     "predicted": "wrong result (w.t() read with the leading dimension of a "
                  "row-major {k, n} tensor; its storage is w's {n, k})",
     "expect": lambda o: o["kind"] == "result" and o["result"] == "WRONG"},
    {"name": "head_scores", "check": "cublas-matrix-extents",
     "predicted": "wrong result (q.transpose(1, 2) and k.transpose(1, 2) "
                  "read with the leading dimension and batch stride of packed "
                  "[B, H, S, D] tensors; their storage is [B, S, H, D])",
     "expect": lambda o: o["kind"] == "result" and o["result"] == "WRONG"},
    {"name": "block_scores", "check": "cublas-matrix-extents",
     "predicted": "wrong result (qkv.narrow(1, C, C) read with lda = C; its "
                  "rows are 3C elements apart in qkv's storage)",
     "expect": lambda o: o["kind"] == "result" and o["result"] == "WRONG"},
    {"name": "shared_weight", "check": "cublas-matrix-extents",
     "predicted": "compute-sanitizer: Invalid __global__ read (w.expand() "
                  "given batch stride N * K: batches past the first read "
                  "beyond w)",
     "sanitizer": True,
     "expect": lambda o: "Invalid __global__ read" in o.get("sanitizer", "")},
    {"name": "index_scores", "check": "cublas-matrix-extents",
     "predicted": "wrong result (qkv.index({Slice(), Slice(C, 2 * C)}) read "
                  "with lda = C; its rows are 3C elements apart in qkv's "
                  "storage)",
     "expect": lambda o: o["kind"] == "result" and o["result"] == "WRONG"},
]


def load_extension(build_dir):
    from torch.utils.cpp_extension import load
    return load(name="cublas_tidy_torch_integration",
                sources=[os.path.join(HERE, "ext.cu")],
                extra_ldflags=["-lcublas"], build_directory=build_dir,
                verbose=False)


def child(case, build_dir):
    """Runs one op and prints what happened: RESULT: OK|WRONG or ERROR: ..."""
    import torch
    ext = load_extension(build_dir)
    torch.manual_seed(0)
    try:
        if case == "row_sums":
            x = torch.randn(64, 32, device="cuda")
            s = ext.row_sums(x)
            torch.cuda.synchronize()
            ok = torch.allclose(s, x.sum(1), atol=1e-3)
        elif case == "scale":
            x = torch.ones(1000, device="cuda")
            ext.scale(x)
            torch.cuda.synchronize()
            ok = bool((x == 2).all())
        elif case == "half_gemm":
            a = torch.randn(64, 32, device="cuda", dtype=torch.half)
            b = torch.randn(32, 48, device="cuda", dtype=torch.half)
            out = ext.half_gemm(a, b)
            torch.cuda.synchronize()
            ok = torch.allclose(out, a.float() @ b.float(), atol=1e-1, rtol=1e-2)
        elif case == "norm_then_destroy":
            x = torch.randn(1000, device="cuda")
            ext.norm_then_destroy(x)
            y = torch.randn(64, 64, device="cuda")
            z = y @ y
            torch.cuda.synchronize()
            ok = torch.allclose(z.cpu(), y.cpu() @ y.cpu(), atol=1e-3)
        elif case == "small_output":
            a = torch.randn(64, 64, device="cuda")
            b = torch.randn(64, 64, device="cuda")
            ext.small_output(a, b)
            torch.cuda.synchronize()
            ok = True
        elif case == "linear_view":
            x = torch.randn(64, 32, device="cuda")
            w = torch.randn(48, 32, device="cuda")
            out = ext.linear_view(x, w)
            torch.cuda.synchronize()
            ok = torch.allclose(out, x @ w.t(), atol=1e-3)
        elif case == "head_scores":
            q = torch.randn(2, 16, 4, 32, device="cuda")
            k = torch.randn(2, 16, 4, 32, device="cuda")
            out = ext.head_scores(q, k)
            torch.cuda.synchronize()
            want = q.transpose(1, 2) @ k.transpose(1, 2).transpose(-1, -2)
            ok = torch.allclose(out, want, atol=1e-3)
        elif case == "block_scores":
            C = 32
            qkv = torch.randn(64, 3 * C, device="cuda")
            out = ext.block_scores(qkv, C)
            torch.cuda.synchronize()
            q, k = qkv[:, :C], qkv[:, C:2 * C]
            ok = torch.allclose(out, (q @ k.t()).t(), atol=1e-3)
        elif case == "index_scores":
            C = 32
            qkv = torch.randn(64, 3 * C, device="cuda")
            out = ext.index_scores(qkv, C)
            torch.cuda.synchronize()
            q, k = qkv[:, :C], qkv[:, C:2 * C]
            ok = torch.allclose(out, (q @ k.t()).t(), atol=1e-3)
        elif case == "shared_weight":
            x = torch.randn(8, 64, 32, device="cuda")
            w = torch.randn(48, 32, device="cuda")
            ext.shared_weight(x, w)
            torch.cuda.synchronize()
            ok = True
        else:
            print("ERROR: no case %s" % case)
            return 2
    except Exception as e:  # what PyTorch raises for a CUDA or cuBLAS error
        print("ERROR: %s" % str(e).strip().splitlines()[0][:300])
        return 1
    print("RESULT: %s" % ("OK" if ok else "WRONG"))
    return 0


def observe(case, build_dir, sanitizer):
    cmd = [sys.executable, os.path.abspath(__file__), "--child", case["name"],
           "--build-dir", build_dir]
    env = dict(os.environ)
    if sanitizer:
        # One cudaMalloc per tensor, so that memcheck sees the tensor's end.
        env["PYTORCH_NO_CUDA_MEMORY_CACHING"] = "1"
        cmd = [sanitizer, "--tool", "memcheck", "--padding", "1048576",
               "--print-limit", "5"] + cmd
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=180 if sanitizer else 120, env=env)
    except subprocess.TimeoutExpired:
        return {"kind": "timeout", "text": "timed out"}
    out, err = p.stdout, p.stderr
    o = {"exit": p.returncode, "stdout": out[-2000:], "stderr": err[-2000:]}
    if sanitizer:
        o["sanitizer"] = out + err
    if p.returncode < 0:
        o.update(kind="signal", signal=-p.returncode,
                 text="killed by signal %d" % -p.returncode)
    elif "ERROR:" in out:
        o.update(kind="error",
                 text=out[out.index("ERROR:"):].splitlines()[0])
    elif "RESULT:" in out:
        result = out[out.index("RESULT:") + 7:].split()[0]
        o.update(kind="result", result=result, text="RESULT: " + result)
    else:
        o.update(kind="other", text="exit %d: %s" % (
            p.returncode, (err.strip().splitlines() or [""])[-1][:300]))
    if sanitizer:
        summary = [l.strip("= ").strip() for l in (out + err).splitlines()
                   if re.search(r"ERROR SUMMARY: \d+ errors?$", l.strip())]
        first = [l.strip("= ").strip() for l in (out + err).splitlines()
                 if "Invalid __global__" in l][:1]
        o["text"] += "; compute-sanitizer: %s" % "; ".join(first + summary[-1:])
    return o


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--report", help="write a markdown report (and .json beside it)")
    ap.add_argument("--case", help="only this op")
    ap.add_argument("--no-sanitizer", action="store_true",
                    help="leave out the cases that need compute-sanitizer")
    ap.add_argument("--build-dir", default=None)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        return child(args.child, args.build_dir)

    try:
        import torch
    except ImportError:
        print("torch-integration: SKIPPED: no PyTorch")
        return SKIP
    if not torch.cuda.is_available():
        print("torch-integration: SKIPPED: PyTorch sees no GPU")
        return SKIP
    build_dir = args.build_dir or tempfile.mkdtemp(prefix="cublas-tidy-torch-")
    os.makedirs(build_dir, exist_ok=True)
    print("torch-integration: building ext.cu with PyTorch %s in %s"
          % (torch.__version__, build_dir))
    sys.stdout.flush()
    load_extension(build_dir)
    sanitizer = shutil.which("compute-sanitizer") or (
        "/usr/local/cuda/bin/compute-sanitizer"
        if os.path.exists("/usr/local/cuda/bin/compute-sanitizer") else None)
    rows, failed = [], 0
    for case in CASES:
        if args.case and case["name"] != args.case:
            continue
        if case.get("sanitizer") and (args.no_sanitizer or not sanitizer):
            rows.append(dict(case=case["name"], check=case["check"],
                             predicted=case["predicted"], observed="not run",
                             verdict="skipped"))
            continue
        o = observe(case, build_dir, sanitizer if case.get("sanitizer") else None)
        ok = case["expect"](o)
        failed += not ok
        rows.append(dict(case=case["name"], check=case["check"],
                         predicted=case["predicted"], observed=o["text"],
                         verdict="confirmed" if ok else "NOT OBSERVED",
                         details={k: v for k, v in o.items() if k != "sanitizer"}))
        print("%-13s %s: %s\n        predicted: %s\n        observed:  %s"
              % ("ok" if ok else "FAIL", case["name"], case["check"],
                 case["predicted"], o["text"]))
        sys.stdout.flush()
    gpu = torch.cuda.get_device_name(0)
    summary = "%d ops: %d confirmed, %d not observed, %d skipped" % (
        len(rows), sum(r["verdict"] == "confirmed" for r in rows), failed,
        sum(r["verdict"] == "skipped" for r in rows))
    print("torch-integration: %s on %s (PyTorch %s, CUDA %s)"
          % (summary, gpu, torch.__version__, torch.version.cuda))
    if args.report:
        base = args.report[:-3] if args.report.endswith(".md") else args.report
        with open(base + ".json", "w", encoding="utf-8") as f:
            json.dump({"gpu": gpu, "torch": torch.__version__,
                       "cuda": torch.version.cuda, "summary": summary,
                       "ops": rows}, f, indent=2)
        with open(base + ".md", "w", encoding="utf-8") as f:
            f.write("# cublas-tidy integration results: PyTorch extension ops\n\n"
                    "Written by `integration/torch/run.py` on %s, PyTorch %s "
                    "(CUDA %s): %s.\n\n" % (gpu, torch.__version__,
                                            torch.version.cuda, summary))
            f.write("| op of `integration/torch/ext.cu` | check | predicted | "
                    "observed | verdict |\n| --- | --- | --- | --- | --- |\n")
            for r in rows:
                f.write("| `%s` | %s | %s | %s | %s |\n" % (
                    r["case"], r["check"], r["predicted"],
                    r["observed"].replace("|", "\\|"), r["verdict"]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
