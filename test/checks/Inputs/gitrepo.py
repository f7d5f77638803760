"""Helpers of the scripts that make git repositories for the --diff-base
tests (diff-repo.py, gate-repo.py, project-gate-repo.py), and the sources
more than one test changes the same way."""
import os
import subprocess

# A handle created and destroyed; without OWNER_DESTROY it leaks, and the
# finding is on the cublasCreate line (5), which that change does not touch.
OWNER = """#include <cublas_v2.h>

int run(float *x) {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    return 1;
  const float a = 2.0f;
  cublasStatus_t st = cublasSscal(h, 4, &a, x, 1);
  if (cublasDestroy(h) != CUBLAS_STATUS_SUCCESS)
    return 1;
  return st == CUBLAS_STATUS_SUCCESS ? 0 : 1;
}
"""
OWNER_DESTROY = """  if (cublasDestroy(h) != CUBLAS_STATUS_SUCCESS)
    return 1;
"""


class Repo:
    """A directory to write files into and run git in, as user t."""

    def __init__(self, root):
        self.root = root
        os.makedirs(root)

    def write(self, name, text):
        path = os.path.join(self.root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)

    def git(self, *args):
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com",
                        "-c", "init.defaultBranch=main", *args],
                       cwd=self.root, check=True, stdout=subprocess.DEVNULL)
