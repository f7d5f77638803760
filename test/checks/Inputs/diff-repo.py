#!/usr/bin/env python3
"""diff-repo.py DIR: a git repository for the --diff-base tests.

Committed: legacy.cpp with an unchecked cublasCreate (an old finding, line 5)
and quiet.cpp with one too (line 5). Then, not committed: legacy.cpp gains a
function with an unchecked cublasDestroy (a new finding, line 10) and a
comment (line 1); quiet.cpp gains a line with no finding; fresh.cpp, not
tracked, has an unchecked cublasDestroy (line 4)."""
import sys

from gitrepo import Repo

repo = Repo(sys.argv[1])
write, git = repo.write, repo.git

OLD = """#include <cublas_v2.h>

int make() {
  cublasHandle_t h;
  cublasCreate(&h);
  return 0;
}
"""
write("legacy.cpp", OLD)
write("quiet.cpp", OLD)
git("init", "-q")
git("add", "legacy.cpp", "quiet.cpp")
git("commit", "-q", "-m", "old code")

write("legacy.cpp", "// edited\n" + OLD.replace("#include <cublas_v2.h>\n", "#include <cublas_v2.h>", 1)
      + "\nvoid drop(cublasHandle_t h2) {\n  cublasDestroy(h2);\n}\n")
write("quiet.cpp", OLD + "int unrelated() { return 1; }\n")
write("fresh.cpp", """#include <cublas_v2.h>

void release(cublasHandle_t h) {
  cublasDestroy(h);
}
""")
