#!/usr/bin/env python3
"""Generates one C++ function with many statements and many cuBLAS handles.

    gen_handles.py [--handles N] [--statements S] [--leak-every K] > big.cpp

Each handle is created with its status checked, used by a run of ordinary
statements (arithmetic, branches on shared flags, loops, cuBLAS calls) and
destroyed; every K-th handle has an early return that leaks it, so the
analysis has findings to make. The statement count is approximate.
"""
import argparse

ap = argparse.ArgumentParser()
ap.add_argument("--handles", type=int, default=100)
ap.add_argument("--statements", type=int, default=5000)
ap.add_argument("--leak-every", type=int, default=10)
args = ap.parse_args()

per_handle = max(4, args.statements // args.handles - 4)
out = []
w = out.append
w("#include <cublas_v2.h>")
w("int work(int);")
w("int big(bool verbose, bool fast, int n, const float *x, float *y) {")
w("  int acc = 0;")
w("  const float alpha = 1.0f;")
for i in range(args.handles):
    h = "h%d" % i
    w("  cublasHandle_t %s;" % h)
    w("  if (cublasCreate(&%s) != CUBLAS_STATUS_SUCCESS)" % h)
    w("    return -1;")
    for j in range(per_handle):
        k = j % 6
        if k == 0:
            w("  acc += work(acc + %d);" % j)
        elif k == 1:
            w("  if (verbose)")
            w("    acc ^= %d;" % (i * 31 + j))
        elif k == 2:
            w("  for (int i = 0; i < n; ++i)")
            w("    acc += i * %d;" % (j + 1))
        elif k == 3:
            w("  if (cublasSaxpy(%s, n, &alpha, x, 1, y, 1) != CUBLAS_STATUS_SUCCESS)" % h)
            w("    acc -= 1;")
        elif k == 4:
            w("  acc = fast ? acc + 1 : acc - 1;")
        else:
            w("  acc *= %d;" % (j % 7 + 1))
    if args.leak_every and i % args.leak_every == args.leak_every - 1:
        w("  if (acc == %d)" % i)
        w("    return acc;")
    w("  cublasDestroy(%s);" % h)
w("  return acc;")
w("}")
print("\n".join(out))
