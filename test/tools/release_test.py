#!/usr/bin/env python3
"""scripts/release refuses what would make a wrong release, before it tags or
builds anything, and tags only what it built.

In a copy of the repository (the source's scripts/release and CMakeLists.txt,
committed in a fresh git repository, with a scripts/package that stands in
for the build):

- a version that is not MAJOR.MINOR.PATCH is a usage error (exit 2);
- a version other than CMakeLists.txt's project() version is refused;
- a working tree with changes is refused, naming the untracked file;
- a build that fails (scripts/package exits 1) leaves no tag;
- a build that works puts both packages, the tarball and SHA256SUMS in
  build/release-VERSION/ and tags the commit;
- an existing tag vVERSION on another commit is refused;
and none of the refusals creates a tag.
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
    env = dict(os.environ, HOME=str(repo), GIT_CONFIG_NOSYSTEM="1",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.invalid")
    done = subprocess.run(["bash", str(repo / "scripts" / "release"), *args],
                          cwd=repo, env=env, text=True, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=60)
    return done.returncode, done.stdout


# The build's stand-ins: one that fails, one that makes the release's files.
FAILING_BUILD = "#!/bin/sh\necho 'ninja: build stopped: subcommand failed.' >&2\nexit 1\n"
WORKING_BUILD = """#!/bin/sh
set -e
mkdir -p build
for f in cublas-tidy_{v}_amd64.deb cublas-clangd_{v}_amd64.deb \\
         cublas-tidy-{v}-linux-x86_64.tar.gz; do echo "$f" > "build/$f"; done
"""


def refusals(source, version, work):
    repo = work / "repo"
    (repo / "scripts").mkdir(parents=True)
    shutil.copy(source / "scripts" / "release", repo / "scripts" / "release")
    shutil.copy(source / "CMakeLists.txt", repo / "CMakeLists.txt")
    package = repo / "scripts" / "package"
    package.write_text(FAILING_BUILD)
    package.chmod(0o755)
    (repo / ".gitignore").write_text("build/\n")
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
    expect("notes.txt" in out, "the refusal does not name the untracked "
           "file notes.txt", out)
    os.remove(repo / "notes.txt")

    code, out = release(repo, version)
    tags = git(repo, "tag", "--list").split()
    expect(code != 0 and "the build failed" in out,
           "a build that failed was not reported (exit %d)" % code, out)
    expect(tags == [], "a build that failed left the tags %s" % tags, out)
    package.write_text(WORKING_BUILD.format(v=version))
    git(repo, "commit", "-q", "-a", "-m", "a build that works")
    code, out = release(repo, version)
    released = repo / "build" / ("release-" + version)
    made = sorted(os.listdir(released)) if released.is_dir() else []
    expect(code == 0 and made == sorted(
        ["SHA256SUMS", "cublas-clangd_%s_amd64.deb" % version,
         "cublas-tidy-%s-linux-x86_64.tar.gz" % version,
         "cublas-tidy_%s_amd64.deb" % version]),
           "a build that works made %s (exit %d)" % (made, code), out)
    expect(git(repo, "rev-parse", "v%s^{commit}" % version) ==
           git(repo, "rev-parse", "HEAD"),
           "the release built is not tagged v%s" % version, out)
    print("release: a failed build leaves no tag; a build that works is "
          "tagged, with both packages and the tarball")
    (repo / "README").write_text("later\n")
    git(repo, "add", "README")
    git(repo, "commit", "-q", "-m", "later")
    code, out = release(repo, version)
    expect(code == 1 and "tag v%s names" % version in out,
           "a tag on another commit was not refused", out)
    tags = git(repo, "tag", "--list").split()
    expect(tags == ["v" + version], "tags after refusals: %s" % tags)
    print("release: bad version, other version, changes (named), tag "
          "elsewhere: refused, no tag made")


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
