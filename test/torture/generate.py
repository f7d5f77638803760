#!/usr/bin/env python3
"""Writes the generated torture inputs: a function of 20,000 statements and
expressions nested 1,000 and 5,000 levels deep.

    generate.py OUTDIR
"""
import os
import sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)

with open(os.path.join(out, "huge-function.cpp"), "w") as f:
    f.write("#include <cublas_v2.h>\nint work(int);\n")
    f.write("int huge(cublasHandle_t h, bool flag, int n) {\n  int acc = 0;\n")
    for i in range(20000):
        k = i % 5
        if k == 0:
            f.write("  acc += work(%d);\n" % i)
        elif k == 1:
            f.write("  if (flag) acc ^= %d;\n" % i)
        elif k == 2:
            f.write("  if (cublasSetStream(h, nullptr) != CUBLAS_STATUS_SUCCESS) return %d;\n" % i)
        elif k == 3:
            f.write("  for (int i = 0; i < n; ++i) acc += i;\n")
        else:
            f.write("  acc = n > %d ? acc + 1 : acc - 1;\n" % i)
    f.write("  return acc;\n}\n")

def deep(path, depth, blocks):
    with open(path, "w") as f:
        f.write("#include <cublas_v2.h>\n")
        f.write("int deep(cublasHandle_t h, int n) {\n  int x = ")
        f.write("(" * depth + "n" + " + 1)" * depth)
        f.write(";\n")
        f.write("  " + "if (n) {" * blocks +
                " if (cublasSetStream(h, nullptr)) return x; " + "}" * blocks + "\n")
        f.write("  return x;\n}\n")


# clang-tidy 22 itself overflows its stack in the parser past about 1,200
# nested parentheses: the plugin is tested to 1,000, the standalone driver,
# which parses on large-stack threads, to 5,000.
deep(os.path.join(out, "deep-nesting.cpp"), 1000, 200)
deep(os.path.join(out, "very-deep-nesting.cpp"), 5000, 250)
