#!/usr/bin/env python3
"""project-gate-repo.py DIR CUDA_INCLUDE: a git repository with a compile
database (build/, not tracked) for the --diff-base tests across files.

Committed: src/main.cpp creates a handle and gives it to shutdown(), which
src/handles.cpp defines and which destroys it; src/other.cpp has an old
finding (a discarded status). Then, in the working tree, shutdown() stops
destroying its handle: main.cpp, untouched, now leaks."""
import json
import os
import subprocess
import sys

root, include = sys.argv[1], sys.argv[2]
os.makedirs(os.path.join(root, "src"))
os.makedirs(os.path.join(root, "build"))

def write(name, text):
    with open(os.path.join(root, name), "w") as f:
        f.write(text)

def git(*args):
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com",
                    "-c", "init.defaultBranch=main", *args],
                   cwd=root, check=True, stdout=subprocess.DEVNULL)

write("src/main.cpp", """#include <cublas_v2.h>

void shutdown(cublasHandle_t h);

int run() {
  cublasHandle_t H;
  if (cublasCreate(&H) != CUBLAS_STATUS_SUCCESS)
    return 1;
  shutdown(H);
  return 0;
}
""")
HANDLES = """#include <cublas_v2.h>

void shutdown(cublasHandle_t h) {
  if (cublasDestroy(h) != CUBLAS_STATUS_SUCCESS)
    return;
}
"""
write("src/handles.cpp", HANDLES)
write("src/other.cpp", """#include <cublas_v2.h>

void legacy(cublasHandle_t h, float *x) {
  const float a = 2.0f;
  cublasSscal(h, 4, &a, x, 1);
}
""")
write(".gitignore", "build/\n")
write("build/compile_commands.json", json.dumps([
    {"directory": os.path.join(root, "build"),
     "file": os.path.join(root, "src", name),
     "arguments": ["clang++", "-std=c++17", "-isystem", include, "-c",
                   os.path.join(root, "src", name), "-o", name + ".o"]}
    for name in ("main.cpp", "handles.cpp", "other.cpp")], indent=1))
git("init", "-q")
git("add", ".")
git("commit", "-q", "-m", "old code")

write("src/handles.cpp", HANDLES.replace("cublasDestroy(h)",
                                         "cublasSetStream(h, nullptr)"))
