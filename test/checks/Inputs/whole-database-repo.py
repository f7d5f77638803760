#!/usr/bin/env python3
"""whole-database-repo.py DIR CUDA_INCLUDE: a git repository with a compile
database (build/, not tracked) for --whole-database.

Committed: src/main.cpp creates a handle and gives it to shutdown(), which
src/handles.cpp defines and which destroys it; src/other.cpp has an old
finding (a discarded status); src/broken.cpp does not compile. Not
tracked: src/scratch.cpp, with a discarded status. Then, in the working
tree, shutdown() stops destroying its handle: main.cpp, untouched, now
leaks."""
import json
import os
import sys

from gitrepo import Repo

root, include = sys.argv[1], sys.argv[2]
repo = Repo(root)
write, git = repo.write, repo.git

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
write("src/broken.cpp", """#include <cublas_v2.h>

int broken() { return undeclared_name; }
""")
write(".gitignore", "build/\n")
units = ("main.cpp", "handles.cpp", "other.cpp", "broken.cpp", "scratch.cpp",
         "gone.cpp")
write("build/compile_commands.json", json.dumps([
    {"directory": os.path.join(root, "build"),
     "file": os.path.join(root, "src", name),
     "arguments": ["clang++", "-std=c++17", "-isystem", include, "-c",
                   os.path.join(root, "src", name), "-o", name + ".o"]}
    for name in units], indent=1))
git("init", "-q")
git("add", ".")
git("commit", "-q", "-m", "old code")

write("src/scratch.cpp", """#include <cublas_v2.h>

void scratch(cublasHandle_t h) {
  cublasDestroy(h);
}
""")
write("src/handles.cpp", HANDLES.replace("cublasDestroy(h)",
                                         "cublasSetStream(h, nullptr)"))
