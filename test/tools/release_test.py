#!/usr/bin/env python3
"""scripts/release refuses what would make a wrong release, before it tags or
builds anything.

In a copy of the repository (the source's scripts/release and CMakeLists.txt,
committed in a fresh git repository):

- a version that is not MAJOR.MINOR.PATCH is a usage error (exit 2);
- a version other than CMakeLists.txt's project() version is refused;
- a working tree with changes is refused;
- an existing tag vVERSION on another commit is refused;
and none of them creates a tag.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

SKIP = 77

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testlib import expect, git, in_scratch  # noqa: E402


def release(repo, *args):
    env = dict(os.environ, HOME=str(repo), GIT_CONFIG_NOSYSTEM="1")
    done = subprocess.run(["bash", str(repo / "scripts" / "release"), *args],
                          cwd=repo, env=env, text=True, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=60)
    return done.returncode, done.stdout


def refusals(source, version, work):
    repo = work / "repo"
    (repo / "scripts").mkdir(parents=True)
    shutil.copy(source / "scripts" / "release", repo / "scripts" / "release")
    shutil.copy(source / "CMakeLists.txt", repo / "CMakeLists.txt")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "source")

    code, out = release(repo, "v" + version)
    expect(code == 2 and "usage" in out, "a bad version was not a usage "
           "error (exit %d)" % code, out)
    code, out = release(repo, "99.0.0")
    expect(code == 1 and "CMakeLists.txt says version %s, not 99.0.0" % version
           in out, "a version CMakeLists.txt does not say was not refused", out)
    (repo / "notes.txt").write_text("unfinished\n")
    code, out = release(repo, version)
    expect(code == 1 and "the working tree has changes" in out,
           "a working tree with changes was not refused", out)
    os.remove(repo / "notes.txt")
    git(repo, "tag", "-a", "v" + version, "-m", "old")
    (repo / "README").write_text("later\n")
    git(repo, "add", "README")
    git(repo, "commit", "-q", "-m", "later")
    code, out = release(repo, version)
    expect(code == 1 and "tag v%s names" % version in out,
           "a tag on another commit was not refused", out)
    tags = git(repo, "tag", "--list").split()
    expect(tags == ["v" + version], "tags after refusals: %s" % tags)
    print("release: bad version, other version, changes, tag elsewhere: "
          "refused, no tag made")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--source", required=True)
    args = parser.parse_args()
    if not shutil.which("git"):
        print("git is not installed: skipped")
        return SKIP
    source = Path(args.source)
    version = re.search(r"project\(cublas-tidy VERSION ([0-9.]+) ",
                        (source / "CMakeLists.txt").read_text()).group(1)
    return in_scratch("cublas-release-test-",
                      lambda work: refusals(source, version, work))


if __name__ == "__main__":
    sys.exit(main())
