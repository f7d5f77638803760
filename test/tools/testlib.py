"""What the script tests under CTest share: a failure with its output, and
git run without the user's or the system's configuration."""

import os
import shutil
import subprocess
import tempfile
from pathlib import Path


class Failure(Exception):
    pass


def expect(condition, what, output=""):
    if not condition:
        raise Failure(what + ("; the output was:\n" + output if output else ""))


def git(cwd, *args):
    """git `args` in `cwd` as user t, with `cwd` as HOME; its output."""
    env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", HOME=str(cwd),
               GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.invalid",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.invalid")
    return subprocess.run(["git", "-c", "init.defaultBranch=main"] + list(args),
                          cwd=cwd, env=env, check=True, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout


def in_scratch(prefix, body, keep=False):
    """Runs body(work) in a new temporary directory, removed afterwards
    unless `keep`, and says PASS or what failed; the exit code (0 or 1)."""
    work = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        body(work)
        print("PASS")
        return 0
    except Failure as failure:
        print("FAIL:", failure)
        return 1
    finally:
        if keep:
            print("kept", work)
        else:
            shutil.rmtree(work, ignore_errors=True)
