#!/usr/bin/env python3
"""The Debian package, built and used as installed.

Builds the package with CPack from the build directory into a temporary
directory, unpacks it (dpkg-deb -x) into a temporary root, and checks:

- it depends on runtime libraries, not on development packages (clang's
  builtin headers, libclang-common-NN-dev, excepted: every clang tool needs
  them, Debian's clang-tidy-NN included);
- the installed cublas-tidy reports the finding of examples/sgemm_unchecked.cpp;
- each installed plugin (one per LLVM major built) does, loaded into its
  clang-tidy-NN (when installed);
- the manual page, made from --help, is there (when help2man is installed);
- the installed cublas-clangd starts (--version) and, driven over LSP as an
  editor drives it, reports the example's finding linked to the installed
  HTML page;
- the pages (an index and one per check), the pre-commit hook and the CI
  script are there;
- the tarball (cpack -G TGZ) holds the same files under one folder, and its
  cublas-tidy works from wherever it is unpacked.

Exit code 77 (skipped) without cpack or dpkg-deb.
"""

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

SKIP = 77

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testlib import Failure, in_scratch  # noqa: E402


def run(argv, **kw):
    done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=600, **kw)
    return done.returncode, done.stdout


def expect(condition, what, output=""):
    """testlib's expect with the output's end only: cpack and dpkg say much."""
    if not condition:
        raise Failure(what + ("; the output was:\n" + output[-4000:] if output else ""))


def edit_with_installed_clangd(clangd, work, example, cuda_include, html):
    """The unpacked cublas-clangd as an editor runs it (tools/clangd_lsp_test.py
    drives it over LSP): a project's .clangd enables the cublas-* checks, the
    example's finding arrives, and it links to the installed page."""
    import clangd_lsp_test as lsp
    project = work / "editor"
    project.mkdir()
    (project / ".clangd").write_text(
        "Diagnostics:\n  ClangTidy:\n    Add: [cublas-*]\n"
        "    FastCheckFilter: Loose\n")
    source = project / "example.cpp"
    source.write_text(Path(example).read_text())
    (project / "compile_commands.json").write_text(json.dumps([{
        "directory": str(project), "file": str(source),
        "arguments": ["clang++", "-std=c++17", "-isystem", cuda_include, "-c",
                      str(source), "-o", "example.o"]}]))
    session = lsp.Session(argparse.Namespace(clangd=str(clangd)))
    try:
        session.start(project)
        uri = lsp.open_file(session.server, source, source.read_text(), "cpp")
        # clangd may publish the compiler's diagnostics first, then all.
        message = session.server.wait_for(
            "the cublas-* diagnostics of example.cpp",
            lambda m: m.get("method") == "textDocument/publishDiagnostics" and
            m["params"].get("uri") == uri and
            any(d.get("code") == "cublas-unchecked-status"
                for d in m["params"]["diagnostics"]), lsp.FIRST_WAIT_S)
        every = message["params"]["diagnostics"]
        found = [d for d in every if d.get("code") == "cublas-unchecked-status"]
        page = html / "checks" / "cublas-unchecked-status.html"
        expect(all(d.get("codeDescription", {}).get("href") == page.as_uri()
                   for d in found),
               "the installed cublas-clangd links elsewhere: %s" % found)
        session.stop()
    except lsp.Failure as failure:
        raise Failure("the installed cublas-clangd: %s" % failure)
    finally:
        if session.server:
            session.server.kill()
    print("installed cublas-clangd: reports the example's finding in an "
          "editor session, linked to the installed page")


def check_package(args, work):
    """Everything this test says, in the scratch folder `work`."""
    code, out = run(["cpack", "-G", "DEB", "-B", str(work / "out"),
                     "--config", os.path.join(args.build_dir, "CPackConfig.cmake")])
    expect(code == 0, "cpack failed", out)
    debs = glob.glob(str(work / "out" / "cublas-tidy_*.deb"))
    expect(len(debs) == 1, "cpack made %s" % debs, out)
    deb = debs[0]
    print("package:", os.path.basename(deb))

    _, depends = run(["dpkg-deb", "-f", deb, "Depends"])
    names = [re.split(r"[ (]", d.strip())[0] for d in depends.split(",")]
    dev = [n for n in names if n.endswith("-dev")]
    expect(dev == ["libclang-common-%s-dev" % args.llvm_major],
           "development packages among the dependencies: %s" % dev, depends)
    expect("libclang-cpp%s" % args.llvm_major in names and
           "libllvm%s" % args.llvm_major in names,
           "no libclang-cpp/libllvm runtime dependency", depends)
    print("depends on runtime libraries:", ", ".join(names))

    root = work / "root"
    code, out = run(["dpkg-deb", "-x", deb, str(root)])
    expect(code == 0, "dpkg-deb -x failed", out)
    usr = root / "usr"
    example = os.path.join(args.source, "examples", "sgemm_unchecked.cpp")
    finding = "[cublas-unchecked-status]"

    tidy = usr / "bin" / "cublas-tidy"
    code, out = run([str(tidy), "--version"])
    expect(code == 0 and "cublas-tidy" in out, "cublas-tidy --version", out)
    code, out = run([str(tidy), "-checks=-*,cublas-*", example, "--",
                     "-std=c++17", "-isystem", args.cuda_include])
    expect(finding in out, "the installed cublas-tidy found nothing", out)
    print("installed cublas-tidy: reports the example's finding")

    # A PyTorch extension against Debian's libtorch-dev, from the
    # package alone: the stand-in header it needs is installed with it.
    expect((usr / "share" / "cublas-tidy" / "torch-include" / "c10" / "cuda"
            / "impl" / "cuda_cmake_macros.h").is_file(),
           "the libtorch stand-in header is not installed")
    if Path("/usr/include/torch/extension.h").is_file():
        ext = os.path.join(args.source, "integration", "torch", "ext.cu")
        code, out = run([str(tidy), "--torch=/usr/include",
                         "-checks=-*,cublas-host-pointer", ext, "--",
                         "-std=c++17", "-isystem", args.cuda_include])
        expect(code == 0 and "error" not in out and
               "[cublas-host-pointer]" in out,
               "--torch=/usr/include with the installed cublas-tidy", out)
        print("installed cublas-tidy: --torch=/usr/include analyses an extension")

    plugin_dir = usr / "lib" / "cublas-tidy"
    expect((plugin_dir / args.llvm_major / "libCublasTidy.so").is_file(),
           "no plugin at %s" % (plugin_dir / args.llvm_major))
    # Every plugin in the package (LLVM 22's, and those built for older
    # clang-tidy releases) loads into its clang-tidy and finds the bug.
    for plugin in sorted(plugin_dir.glob("*/libCublasTidy.so")):
        major = plugin.parent.name
        clang_tidy = shutil.which("clang-tidy-" + major)
        if not clang_tidy:
            print("no clang-tidy-%s: its plugin is not loaded" % major)
            continue
        code, out = run([clang_tidy, "--load=" + str(plugin),
                         "-checks=-*,cublas-*", example, "--",
                         "-std=c++17", "-isystem", args.cuda_include])
        expect(finding in out, "the installed plugin for %s found nothing" % major, out)
        print("installed plugin in %s: reports the example's finding"
              % os.path.basename(clang_tidy))

    man = usr / "share" / "man" / "man1" / "cublas-tidy.1"
    if shutil.which("help2man"):
        text = man.read_text() if man.is_file() else ""
        expect(text.startswith(".\\\"") and ".TH CUBLAS-TIDY" in text
               and "diff\\-base" in text and ".SH EXAMPLES" in text,
               "no manual page at %s, or not made from --help" % man)
        for section in ("DESCRIPTION", "OPTIONS", "EXIT STATUS",
                        "EXAMPLES", "FILES"):
            expect('.SH "%s"' % section in text or ".SH %s" % section in text,
                   "the manual page has no %s section" % section)
        print("manual page: %s" % man.relative_to(root))
        clangd_man = man.parent / "cublas-clangd.1"
        if (usr / "bin" / "cublas-clangd").exists():
            text = clangd_man.read_text() if clangd_man.is_file() else ""
            expect(".TH CUBLAS-CLANGD" in text and "cublas\\-docs" in text,
                   "no manual page for cublas-clangd naming --cublas-docs")
            print("manual page: %s" % clangd_man.relative_to(root))
    else:
        print("no help2man: the package has no manual page")

    doc = usr / "share" / "doc" / "cublas-tidy"
    copyright = doc / "copyright"
    expect(copyright.is_file() and "License: Apache-2.0 WITH LLVM-exception"
           in copyright.read_text() and (doc / "LICENSE").is_file(),
           "no copyright file naming the license, or no LICENSE")
    html = doc / "html"
    expect((html / "index.html").is_file() and
           (html / "checks" / "cublas-unchecked-status.html").is_file(),
           "the HTML pages are missing")
    index = (html / "index.html").read_text()
    for page in sorted((Path(args.source) / "docs" / "checks").glob("*.md")):
        expect((html / "checks" / (page.stem + ".html")).is_file() and
               'href="checks/%s.html"' % page.stem in index,
               "no page or index entry for " + page.stem)
    clangd = usr / "bin" / "cublas-clangd"
    if clangd.exists():
        code, out = run([str(clangd), "--version"])
        expect(code == 0 and "clangd" in out, "cublas-clangd --version", out)
        edit_with_installed_clangd(clangd, work, example, args.cuda_include,
                                   html)
    for script in ("pre-commit-hook", "ci-action"):
        path = usr / "share" / "cublas-tidy" / script
        expect(os.access(path, os.X_OK), "%s is not installed executable" % path)
    print("pages, cublas-clangd, pre-commit hook and CI script: installed")

    # The tarball, for other distributions: the same files under one
    # folder (bin/, lib/, share/), working from wherever it is unpacked.
    code, out = run(["cpack", "-G", "TGZ", "-B", str(work / "tgz"),
                     "--config", os.path.join(args.build_dir, "CPackConfig.cmake")])
    expect(code == 0, "cpack -G TGZ failed", out)
    tarballs = glob.glob(str(work / "tgz" / "cublas-tidy-*-linux-*.tar.gz"))
    expect(len(tarballs) == 1, "cpack -G TGZ made %s" % tarballs, out)
    with tarfile.open(tarballs[0]) as tar:
        names = tar.getnames()
        tar.extractall(work / "unpacked")
    top = os.path.basename(tarballs[0])[:-len(".tar.gz")]
    expect(all(n == top or n.startswith(top + "/") for n in names),
           "the tarball's files are not all under %s/" % top)
    unpacked = work / "unpacked" / top
    deb_files = sorted(str(p.relative_to(usr)) for p in usr.rglob("*")
                       if p.is_file())
    tgz_files = sorted(str(p.relative_to(unpacked)) for p in unpacked.rglob("*")
                       if p.is_file())
    expect(deb_files == tgz_files, "the tarball and the package differ: %s"
           % sorted(set(deb_files) ^ set(tgz_files)))
    code, out = run([str(unpacked / "bin" / "cublas-tidy"), "-checks=-*,cublas-*",
                     example, "--", "-std=c++17", "-isystem", args.cuda_include])
    expect(finding in out, "the unpacked cublas-tidy found nothing", out)
    print("tarball: %s, the package's files; its cublas-tidy reports the "
          "example's finding" % os.path.basename(tarballs[0]))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--source", required=True)
    parser.add_argument("--cuda-include", required=True)
    parser.add_argument("--llvm-major", required=True)
    args = parser.parse_args()
    for tool in ("cpack", "dpkg-deb"):
        if not shutil.which(tool):
            print("%s is not installed: skipped" % tool)
            return SKIP
    return in_scratch("cublas-package-test-",
                      lambda work: check_package(args, work))

if __name__ == "__main__":
    sys.exit(main())
