#!/usr/bin/env python3
"""The CI action (action.yml, scripts/ci-action) in a simulated workflow.

A temporary repository has a main branch with an old finding, cloned (so
that origin/main exists, as in a pull request's checkout) onto a feature
branch whose commit adds a finding to the old file and a new file with one.
scripts/ci-action runs with the variables GitHub sets (GITHUB_WORKSPACE,
GITHUB_BASE_REF, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and the INPUT_* of the
action's inputs), and the test checks:

- files: changed reports the two new findings, not the old one, as
  ::warning annotations, in the SARIF log, in the outputs, the job summary
  and a GitLab code-quality report; fail-on: new fails the job;
- fail-on: none passes with the same annotations;
- a baseline accepts a finding for fail-on: new, and is ignored for any;
- files: all reports the old finding too;
- on a push (no GITHUB_BASE_REF) the change is HEAD's;
- version: a release's package is downloaded, unpacked and used, and a
  release that is not there fails the step;
- the gate is on new findings: a change that only deletes a destroy fails
  (its leak is on a line the change does not touch), one that only moves
  old code passes;
- a base revision that is not there, and no compile database, fail the step
  (exit 2) with an ::error;
- action.yml passes every input to the script.
"""

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SKIP = 77

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testlib import expect, git, in_scratch  # noqa: E402

OLD = """\
#include <cublas_v2.h>

int make(cublasHandle_t *out) {
  cublasCreate(out);
  return 0;
}
"""

ADDED = """\

void drop(cublasHandle_t h) {
  cublasDestroy(h);
}
"""

FRESH = """\
#include <cublas_v2.h>

void release(cublasHandle_t h) {
  cublasDestroy(h);
}
"""


def make_repos(work, include, before=None, after=None, name="checkout"):
    """A main branch with the files `before` (under src/), cloned onto a
    feature branch whose commit makes them `after`, with a compile database
    of the files `after` names."""
    before = before or {"legacy.cpp": OLD}
    after = after or {"legacy.cpp": OLD + ADDED, "fresh.cpp": FRESH}
    origin = work / (name + "-origin")
    (origin / "src").mkdir(parents=True)
    for file, text in before.items():
        (origin / "src" / file).write_text(text)
    (origin / ".gitignore").write_text("build/\n")
    git(origin, "init", "-q")
    git(origin, "add", ".")
    git(origin, "commit", "-q", "-m", "old code")
    checkout = work / name
    git(work, "clone", "-q", str(origin), str(checkout))
    git(checkout, "checkout", "-q", "-b", "feature")
    for file, text in after.items():
        (checkout / "src" / file).write_text(text)
    git(checkout, "add", ".")
    git(checkout, "commit", "-q", "-m", "feature")
    build = checkout / "build"
    build.mkdir()
    (build / "compile_commands.json").write_text(json.dumps([
        {"directory": str(build), "file": str(checkout / "src" / file),
         "arguments": ["clang++", "-std=c++17", "-isystem", include, "-c",
                       str(checkout / "src" / file), "-o", file + ".o"]}
        for file in after]))
    return checkout


def run_action(script, checkout, tidy, inputs, github=None):
    """(exit code, output, outputs file text, summary text)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("GITHUB_", "INPUT_"))}
    scratch = Path(tempfile.mkdtemp(dir=checkout.parent))
    env.update({
        "GITHUB_WORKSPACE": str(checkout),
        "GITHUB_OUTPUT": str(scratch / "output"),
        "GITHUB_STEP_SUMMARY": str(scratch / "summary"),
        "INPUT_CUBLAS_TIDY": tidy,
    })
    env.update(github if github is not None else {"GITHUB_BASE_REF": "main"})
    for name, value in inputs.items():
        env["INPUT_" + name.upper().replace("-", "_")] = value
    done = subprocess.run([sys.executable, str(script)], cwd=str(checkout),
                          env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=300)
    read = lambda p: p.read_text() if p.exists() else ""
    return (done.returncode, done.stdout, read(scratch / "output"),
            read(scratch / "summary"))


def annotation(path, line, col=3, check="cublas-unchecked-status"):
    return "::warning file=%s,line=%d,col=%d,title=%s::" % (
        path, line, col, check)


def sarif_places(checkout, name="cublas-tidy.sarif"):
    log = json.loads((checkout / name).read_text())
    places = []
    for run in log["runs"]:
        for r in run["results"]:
            loc = r["locations"][0]["physicalLocation"]
            places.append("%s:%d" % (loc["artifactLocation"]["uri"],
                                     loc["region"]["startLine"]))
    return sorted(places)


def run_tests(args, work):
    source = Path(args.source).resolve()
    script = source / "scripts" / "ci-action"
    include = args.cuda_include
    checkout = make_repos(work, include)
    tidy = os.path.abspath(args.cublas_tidy)
    new = ["src/fresh.cpp:4", "src/legacy.cpp:9"]

    # A pull request: the findings of the change, and the job fails.
    code, out, outputs, summary = run_action(script, checkout, tidy, {
        "code-quality": "gl-code-quality.json"})
    expect(code == 1, "fail-on: new with new findings exited %d" % code, out)
    expect(annotation("src/legacy.cpp", 9) in out and
           annotation("src/fresh.cpp", 4) in out, "no annotations", out)
    expect(annotation("src/legacy.cpp", 4) not in out,
           "the old finding was reported", out)
    expect("findings new since origin/main" in out,
           "the base is not origin/main", out)
    expect(sarif_places(checkout) == new, "SARIF holds %s" % sarif_places(checkout))
    expect("findings=2" in outputs and "sarif-file=%s" % (
        checkout / "cublas-tidy.sarif") in outputs, "outputs: " + outputs)
    expect("### cublas-tidy: 2 findings" in summary and
           "| cublas-unchecked-status | src/legacy.cpp:9 |" in summary,
           "summary: " + summary)
    quality = json.loads((checkout / "gl-code-quality.json").read_text())
    expect(sorted("%s:%d" % (q["location"]["path"], q["location"]["lines"]["begin"])
                  for q in quality) == new and
           len({q["fingerprint"] for q in quality}) == 2 and
           all(q["check_name"] == "cublas-unchecked-status" and
               q["severity"] == "major" for q in quality),
           "code quality report: %s" % quality)
    print("pull request: 2 new findings annotated, SARIF, outputs, summary, "
          "code quality; job failed")

    code, out, _, _ = run_action(script, checkout, tidy, {"fail-on": "none"})
    expect(code == 0 and annotation("src/legacy.cpp", 9) in out,
           "fail-on: none exited %d" % code, out)
    print("fail-on: none: annotated, passed")

    # A baseline that accepts the new file's finding.
    subprocess.run([tidy, "-p", str(checkout / "build"), "-checks=-*,cublas-*",
                    "--write-baseline=" + str(checkout / "baseline.json"),
                    str(checkout / "src" / "fresh.cpp")], cwd=str(checkout),
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    code, out, outputs, _ = run_action(script, checkout, tidy,
                                       {"baseline": "baseline.json"})
    expect(code == 1 and "findings=1" in outputs and
           sarif_places(checkout) == ["src/legacy.cpp:9"],
           "the baseline did not apply (exit %d)" % code, out)
    code, out, outputs, _ = run_action(script, checkout, tidy,
                                       {"baseline": "baseline.json",
                                        "fail-on": "any"})
    expect(code == 1 and "findings=2" in outputs,
           "fail-on: any did not ignore the baseline", out)
    print("baseline: applied for fail-on: new, ignored for any")

    code, out, outputs, _ = run_action(script, checkout, tidy, {"files": "all"})
    expect(code == 1 and "findings=3" in outputs and
           annotation("src/legacy.cpp", 4) in out,
           "files: all did not report every finding", out)
    print("files: all: the old finding too")

    code, out, outputs, _ = run_action(script, checkout, tidy, {}, github={})
    expect(code == 1 and "findings=2" in outputs and
           "findings new since HEAD^" in out, "a push: not HEAD's change", out)
    print("push: HEAD's change")

    # New findings, not changed lines: a change that only deletes a destroy
    # fails (the leak is on the cublasCreate line it does not touch); one
    # that only moves old code does not.
    sys.path.insert(0, str(source / "test" / "checks" / "Inputs"))
    from gitrepo import OWNER, OWNER_DESTROY
    gate = make_repos(work, include, {"owner.cpp": OWNER},
                      {"owner.cpp": OWNER.replace(OWNER_DESTROY, "")}, "gate")
    code, out, outputs, _ = run_action(script, gate, tidy, {})
    expect(code == 1 and "findings=1" in outputs and
           annotation("src/owner.cpp", 5, 7, "cublas-handle-leak") in out,
           "a deleted destroy did not fail the job (exit %d)" % code, out)
    moved = make_repos(work, include, {"legacy.cpp": OLD},
                       {"legacy.cpp": OLD.replace(
                           "#include <cublas_v2.h>\n",
                           "#include <cublas_v2.h>\n\nint unrelated() "
                           "{ return 1; }\n")}, "moved")
    code, out, outputs, _ = run_action(script, moved, tidy, {})
    expect(code == 0 and "findings=0" in outputs,
           "moving old code failed the job (exit %d)" % code, out)
    print("new findings: a deleted destroy fails, moved code passes")

    # version: a release's Debian package, downloaded from the releases
    # (here a file:// folder laid out as GitHub's release downloads are) and
    # unpacked into $RUNNER_TEMP. The package is a stand-in whose
    # cublas-tidy runs the one under test.
    if shutil.which("dpkg-deb"):
        arch = {"x86_64": "amd64", "aarch64": "arm64"}.get(
            platform.machine(), platform.machine())
        pkg = work / "pkg"
        (pkg / "DEBIAN").mkdir(parents=True)
        (pkg / "usr" / "bin").mkdir(parents=True)
        (pkg / "DEBIAN" / "control").write_text(
            "Package: cublas-tidy\nVersion: 9.8.7\nArchitecture: %s\n"
            "Maintainer: t <t@example.invalid>\nDepends: libc6\n"
            "Description: a stand-in\n" % arch)
        wrapper = pkg / "usr" / "bin" / "cublas-tidy"
        wrapper.write_text('#!/bin/sh\nexec "%s" "$@"\n' % tidy)
        wrapper.chmod(0o755)
        releases = work / "releases"
        (releases / "v9.8.7").mkdir(parents=True)
        subprocess.run(["dpkg-deb", "--build", "--root-owner-group", str(pkg),
                        str(releases / "v9.8.7" / ("cublas-tidy_9.8.7_%s.deb" % arch))],
                       check=True, stdout=subprocess.DEVNULL)
        runner = {"GITHUB_BASE_REF": "main", "RUNNER_TEMP": str(work / "runner"),
                  "CUBLAS_TIDY_RELEASES": (releases).as_uri()}
        code, out, outputs, _ = run_action(script, checkout, "",
                                           {"version": "9.8.7"}, github=runner)
        expect(code == 1 and "findings=2" in outputs and
               "release 9.8.7: %s/v9.8.7/" % releases.as_uri() in out and
               (work / "runner" / "cublas-tidy-9.8.7" / "usr" / "bin" /
                "cublas-tidy").exists(),
               "version: the release was not used (exit %d)" % code, out)
        code, out, _, _ = run_action(script, checkout, "",
                                     {"version": "9.9.9"}, github=runner)
        expect(code == 2 and "::error title=cublas-tidy::cannot download" in out,
               "a release that is not there did not fail the step", out)
        print("version: the release's package downloaded, unpacked and run; "
              "a missing one fails the step")

    code, out, _, _ = run_action(script, checkout, tidy, {},
                                 github={"GITHUB_BASE_REF": "no-such-branch"})
    expect(code == 2 and "::error title=cublas-tidy::the base revision" in out,
           "a missing base revision did not fail the step", out)
    code, out, _, _ = run_action(script, checkout, tidy, {"build-dir": "nowhere"})
    expect(code == 2 and "::error title=cublas-tidy::no compile_commands.json" in out,
           "a missing compile database did not fail the step", out)
    print("no base revision, no compile database: the step fails with an error")

    try:
        import yaml
    except ImportError:
        print("python3-yaml missing: action.yml not read")
        return
    action = yaml.safe_load((source / "action.yml").read_text())
    step = action["runs"]["steps"][0]
    expect(action["runs"]["using"] == "composite" and
           "scripts/ci-action" in step["run"], "action.yml runs: %s" % step)
    for name in action["inputs"]:
        var = "INPUT_" + name.upper().replace("-", "_")
        expect(step["env"].get(var) == "${{ inputs.%s }}" % name,
               "action.yml does not pass input %s as %s" % (name, var))
        expect(var in script.read_text(), "scripts/ci-action ignores " + var)
    print("action.yml: every input reaches the script")
    # The description names every way the action gets cublas-tidy: it need
    # not be installed when `version` names a release.
    description = " ".join(action["description"].split())
    expect("`version`" in description and "installed" not in description,
           "action.yml's description does not say that `version` brings "
           "cublas-tidy", description)
    print("action.yml: the description says how cublas-tidy is obtained")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cublas-tidy", required=True)
    parser.add_argument("--source", required=True)
    parser.add_argument("--cuda-include", required=True)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    if not shutil.which("git"):
        print("git is not installed: skipped")
        return SKIP
    return in_scratch("cublas-ci-action-test-",
                      lambda work: run_tests(args, work), keep=args.keep)


if __name__ == "__main__":
    sys.exit(main())
