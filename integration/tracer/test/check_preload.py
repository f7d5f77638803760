#!/usr/bin/env python3
"""The tracer preloaded into TraceClient, which runs against the fake cuBLAS
and CUDA runtime of this directory: its report, read and matched by the
runner's own code, must show every prediction in TraceClient.cpp's header,
and nothing the client did not do.

  check_preload.py --tracer LIB --client EXE --source TraceClient.cpp
                   --stub-cudart LIB --work-dir DIR
"""

import argparse
import json
import os
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import runner  # noqa: E402

FAILURES = []


def expect(condition, message):
    print(("ok    " if condition else "FAIL  ") + message)
    if not condition:
        FAILURES.append(message)


def run_client(args, report, extra_env=None):
    env = dict(os.environ)
    env["LD_PRELOAD"] = args.tracer
    env.pop("CUBLAS_TRACE_CUDART", None)
    env.pop("CUBLAS_TRACE_CUDA_DRIVER", None)
    if report:
        env["CUBLAS_TRACE_REPORT"] = report
        if os.path.exists(report):
            os.remove(report)
    else:
        env.pop("CUBLAS_TRACE_REPORT", None)
    env.update(extra_env or {})
    return subprocess.run([args.client], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, env=env, timeout=60)


def predictions(source):
    with open(source, encoding="utf-8") as f:
        lines = f.read().split("\n")
    model = runner.load_api_model()
    prefix = "// PREDICT: "
    return [runner.parse_prediction(l[len(prefix):], lines, model)
            for l in lines if l.startswith(prefix)]


def main():
    ap = argparse.ArgumentParser()
    for name in ("--tracer", "--client", "--source", "--stub-cudart", "--work-dir"):
        ap.add_argument(name, required=True)
    args = ap.parse_args()
    report = os.path.join(args.work_dir, "trace-client.jsonl")

    # 1. The normal run: every prediction, with its line, from the report.
    proc = run_client(args, report)
    expect(proc.returncode == 0, "the client exits 0 (got %s: %s)"
           % (proc.returncode, proc.stderr.strip()[-300:]))
    events = runner.resolve_lines(runner.read_trace(report), args.client, args.source)
    seen = runner.Observed(events, proc.stdout, proc.stderr, proc.returncode)
    for p in predictions(args.source):
        ok, text = runner.match_prediction(p, seen)
        expect(ok, "predicted %s: %s" % (p.text, text))

    # 2. Nothing else: no call recorded outside the client (the fake cuBLAS
    # calls its own cublasSaxpy_v2 from cublasSnrm2_v2 with host pointers),
    # every site resolved to a line, the memory oracle found in the process.
    client = os.path.realpath(args.client)
    located = [e for e in events if "site" in e]
    expect(all(os.path.realpath(e["site"]["object"]) == client for e in located),
           "every recorded call comes from the client")
    expect(all(e.get("line") for e in located), "every call site maps to a line")
    expect(len(seen.of("host-pointer")) == 2, "two host-pointer records (got %d)"
           % len(seen.of("host-pointer")))
    oracle = seen.of("oracle")
    expect(bool(oracle) and oracle[0].get("cudaPointerGetAttributes") == "the process",
           "cudaPointerGetAttributes comes from the process: %s" % oracle)

    # 3. Predictions that are wrong must not match.
    lines = open(args.source, encoding="utf-8").read().split("\n")
    model = runner.load_api_model()
    gemm_line = next(p.line for p in predictions(args.source) if p.kind == "status")
    axpy_line = next(p.line for p in predictions(args.source) if p.function == "cublasSaxpy_v2")
    for text in ("status CUBLAS_STATUS_NOT_SUPPORTED from cublasSgemm_v2 @ %d" % gemm_line,
                 "host-pointer cublasSaxpy_v2 y @ %d" % axpy_line,
                 "leaked-handles == 4", "leaked-descriptors >= 2",
                 "cuda-error cudaErrorIllegalAddress", "sanitizer \"Invalid\""):
        ok, why = runner.match_prediction(runner.parse_prediction(text, lines, model), seen)
        expect(not ok, "not observed, as it should not be: %s (%s)" % (text, why))

    # 4. A crash: what was recorded before it stays, and the signal is said.
    crash = run_client(args, report, {"TRACE_CLIENT_CRASH": "1"})
    events = runner.read_trace(report)
    kinds = [e.get("event") for e in events]
    expect(crash.returncode != 0, "the crashing client dies (%s)" % crash.returncode)
    expect("status" in kinds and kinds[-1] == "signal"
           and events[-1].get("name") == "SIGSEGV",
           "the report keeps the records before the crash and ends with SIGSEGV: %s" % kinds)

    # 5. Without CUBLAS_TRACE_REPORT the records go to stderr.
    quiet = run_client(args, None)
    records = [json.loads(l) for l in quiet.stderr.splitlines() if l.startswith("{")]
    expect(any(r.get("event") == "exit" for r in records),
           "without CUBLAS_TRACE_REPORT the records go to stderr")

    # 6. The oracle named by CUBLAS_TRACE_CUDART is the one used.
    named = run_client(args, report, {"CUBLAS_TRACE_CUDART": args.stub_cudart})
    oracle = [e for e in runner.read_trace(report) if e.get("event") == "oracle"]
    expect(named.returncode == 0 and bool(oracle)
           and oracle[0].get("cudaPointerGetAttributes") == args.stub_cudart,
           "CUBLAS_TRACE_CUDART names the runtime to ask: %s" % oracle)

    if FAILURES:
        print("%d failures" % len(FAILURES))
        return 1
    print("all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
