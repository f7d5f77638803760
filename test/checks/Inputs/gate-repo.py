#!/usr/bin/env python3
"""gate-repo.py DIR: a git repository for the --diff-base gate tests, one
file per kind of change, committed and then changed in the working tree:

  destroy.cpp  the cublasDestroy line deleted: a leak on the untouched
               cublasCreate line (new)
  status.cpp   the check of a stored status deleted: "never read" on the
               untouched line that stores it (new)
  moved.cpp    a function with an old finding moved below another (not new)
  renamed.cpp  a leaking handle renamed (not new)
  fixed.cpp    an old finding fixed, nothing else (nothing to report)
  renamed-file.cpp  was old-file.cpp, with an old finding: git mv, staged
               as pre-commit sees a rename (not new)
  added.cpp    a new file with a finding (new)
  kernels.cpp, blas.cpp  a function with an old finding moved from one
               file into the other (not new)
  first.cpp, second.cpp  a finding fixed in one file's function and the
               same line, in a function of another name, added to the other
               file (new)"""
import sys

from gitrepo import OWNER, OWNER_DESTROY, Repo

repo = Repo(sys.argv[1])
write, git = repo.write, repo.git

H = "#include <cublas_v2.h>\n\n"
# Longer than the function that moves past it, so that git's diff moves
# that function, not this one.
OTHER = """int other(int n) {
  int sum = 0;
  for (int i = 0; i < n; ++i)
    sum += i;
  return sum;
}
"""
BEFORE = {
    "destroy.cpp": OWNER,
    "status.cpp": H + """int scale(cublasHandle_t h, float *x) {
  const float a = 2.0f;
  cublasStatus_t st = cublasSscal(h, 4, &a, x, 1);
  if (st != CUBLAS_STATUS_SUCCESS)
    return 1;
  return 0;
}
""",
    "moved.cpp": H + """void legacy(cublasHandle_t h, float *x) {
  const float a = 2.0f;
  cublasSscal(h, 4, &a, x, 1);
}

""" + OTHER,
    "renamed.cpp": H + """int leaky() {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    return 1;
  return 0;
}
""",
    "old-file.cpp": H + """void kept(cublasHandle_t h, float *x) {
  const float a = 3.0f;
  cublasSscal(h, 4, &a, x, 1);
}
""",
    "fixed.cpp": H + """void legacy(cublasHandle_t h, float *x) {
  const float a = 2.0f;
  cublasSscal(h, 4, &a, x, 1);
}
""",
}
MOVING = """void scale_rows(cublasHandle_t h, float *x) {
  const float a = 2.0f;
  cublasSscal(h, 4, &a, x, 1);
}
"""
SAME_LINE = """  cublasSscal(h, 4, &a, x, 1);
"""
BEFORE.update({
    "kernels.cpp": H + OTHER + "\n" + MOVING,
    "blas.cpp": H + "int twice(int n) { return 2 * n; }\n",
    "first.cpp": H + "void fixed_here(cublasHandle_t h, float *x) {\n"
                 "  const float a = 2.0f;\n" + SAME_LINE + "}\n",
    "second.cpp": H + "int twice(int n) { return 2 * n; }\n",
})
for name, text in BEFORE.items():
    write(name, text)
git("init", "-q")
git("add", *BEFORE)
git("commit", "-q", "-m", "old code")

write("destroy.cpp", OWNER.replace(OWNER_DESTROY, ""))
write("status.cpp", BEFORE["status.cpp"].replace(
    "  if (st != CUBLAS_STATUS_SUCCESS)\n    return 1;\n", ""))
write("moved.cpp", H + OTHER + """
// Moved below.
void legacy(cublasHandle_t h, float *x) {
  const float a = 2.0f;
  cublasSscal(h, 4, &a, x, 1);
}
""")
write("renamed.cpp", BEFORE["renamed.cpp"].replace("(&h)", "(&handle)")
      .replace(" h;", " handle;"))
write("fixed.cpp", BEFORE["fixed.cpp"].replace(
    "  cublasSscal(h, 4, &a, x, 1);",
    "  if (cublasSscal(h, 4, &a, x, 1) != CUBLAS_STATUS_SUCCESS)\n    return;"))
git("mv", "old-file.cpp", "renamed-file.cpp")
write("kernels.cpp", H + OTHER)
write("blas.cpp", BEFORE["blas.cpp"] + "\n// Moved here from kernels.cpp.\n" + MOVING)
write("first.cpp", BEFORE["first.cpp"].replace(
    SAME_LINE, "  if (cublasSscal(h, 4, &a, x, 1) != CUBLAS_STATUS_SUCCESS)\n"
               "    return;\n"))
write("second.cpp", BEFORE["second.cpp"] + "void added_here(cublasHandle_t h, "
      "float *x) {\n  const float a = 2.0f;\n" + SAME_LINE + "}\n")
write("added.cpp", H + """void release(cublasHandle_t h) {
  cublasDestroy(h);
}
""")
