#!/usr/bin/env python3
"""The Debian package, built and used as installed.

Builds the packages with CPack from the build directory into a temporary
directory (cublas-tidy, and cublas-clangd where it is built), unpacks both
(dpkg-deb -x) into one temporary root, and checks:

- they depend on runtime libraries, not on development packages (clang's
  builtin headers, libclang-common-NN-dev, excepted: every clang tool needs
  them, Debian's clang-tidy-NN included);
- cublas-tidy's dependencies name none of gRPC, protobuf, abseil and OpenSSL
  (cublas-clangd's clangd alone needs them); cublas-clangd holds
  cublas-clangd, depends on cublas-tidy of its version, and shares no file
  with it (dpkg installs both);
- the installed cublas-tidy reports the finding of examples/sgemm_unchecked.cpp;
- each installed plugin (one per LLVM major built) does, loaded into its
  clang-tidy-NN (when installed);
- the manual pages, made from --help, are there gzipped (when help2man is
  installed); rendered (groff), each is titled TOOL(1), names no path of
  the build machine, has no version in its DESCRIPTION, and each option
  entry is the option alone with its whole --help description under it
  (the installed tool's --help);
- the installed cublas-clangd starts (--version) and, driven over LSP as an
  editor drives it, reports the example's finding linked to the installed
  HTML page;
- the pages (an index and one per check), the pre-commit hook and the CI
  script are there;
- the tarball (cpack -G TGZ) holds the files of both packages under one
  folder, and its cublas-tidy works from wherever it is unpacked.

Exit code 77 (skipped) without cpack or dpkg-deb.
"""

import argparse
import glob
import gzip
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


# A source that reads libtorch's CUDA macros (and so the stand-in header
# Debian's libtorch-dev lacks) and hands a host array to cuBLAS.
TORCH_SOURCE = """#include <c10/cuda/CUDAMacros.h>
#include <cublas_v2.h>
void scale(cublasHandle_t handle) {
  float host[4] = {1, 2, 3, 4};
  const float two = 2.0f;
  cublasSscal(handle, 4, &two, host, 1);
}
"""


def run(argv, **kw):
    done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=600, **kw)
    return done.returncode, done.stdout


def expect(condition, what, output=""):
    """testlib's expect with the output's end only: cpack and dpkg say much."""
    if not condition:
        raise Failure(what + ("; the output was:\n" + output[-4000:] if output else ""))


def help_entries(text):
    """The option entries of an LLVM --help: (option, description) with the
    description's continuation lines joined; an enumeration's values
    ("=value - what") count as entries."""
    entries = []
    last = None
    for line in text.splitlines():
        m = re.match(r"^ {1,10}([-=]\S.*?)(?: +- +|  +)(\S.*)$", line)
        if m:
            last = [m.group(1), m.group(2)]
            entries.append(last)
            continue
        m = re.match(r"^ {20,}(\S.*)$", line)
        if m and last:
            last[1] += " " + m.group(1)
        else:
            last = None
    return [(o, " ".join(d.split())) for o, d in entries]


def page_entries(rendered):
    """The tagged paragraphs of a rendered manual page whose tag begins with
    "-" or "=": (tag, description). The tag is the text at the page's
    indentation (7) alone on its line, or followed by the description at the
    paragraph's (14) when it is short enough to share the line. A line at 7
    with nothing at 14 is a paragraph of its own, not an entry."""
    entries = []
    last = None
    for line in rendered.splitlines():
        if re.match(r"^ {7}[-=]", line):
            tag = line[7:].rstrip()
            body = ""
            if re.match(r"^ {7}\S{1,6} +\S", line) and line[13:14] == " " \
                    and line[14:15] != " ":
                tag, body = line[7:13].strip(), line[14:]
            last = [tag, body]
            entries.append(last)
        elif last and re.match(r"^ {14}\S", line):
            last[1] += " " + line.strip()
        else:
            last = None
    return [(t, " ".join(d.split())) for t, d in entries if d.strip()]


def check_manual_page(page, tool, root, args, version):
    """The gzipped manual page `page` of the installed `tool` (unpacked under
    `root`), rendered as man renders it but without line breaks or
    hyphenation, so that each paragraph is one line."""
    name = tool.name
    expect(page.name == name + ".1.gz" and page.is_file(),
           "no gzipped manual page %s" % page)
    with gzip.open(page, "rt") as f:
        source = f.read()
    expect(source.startswith(".\\\"") and ".TH %s " % name.upper() in source,
           "%s: not made by help2man, or not titled %s" % (page, name.upper()))
    for path in {args.source, args.build_dir, os.path.realpath(args.source),
                 os.path.realpath(args.build_dir)}:
        expect(path.replace("-", "\\-") not in source and path not in source,
               "%s names the build machine's %s" % (page.name, path))
    done = subprocess.run(["groff", "-man", "-Tascii", "-rLL=400n", "-rHY=0",
                           "-P-c", "-P-b", "-P-o", "-P-u"], input=source,
                          stdout=subprocess.PIPE, text=True, timeout=60)
    rendered = done.stdout
    lines = rendered.splitlines()
    head = next(line for line in lines if line.strip()).split()
    expect(head[0] == head[-1] == "%s(1)" % name.upper(),
           "%s is titled %s" % (page.name, head), rendered[:400])
    description = rendered.split("\nDESCRIPTION\n", 1)[-1]
    description = re.split(r"\n[A-Z]", description, 1)[0]
    expect(version not in description,
           "%s: the version in DESCRIPTION" % page.name, description)
    for section in ("NAME", "DESCRIPTION", "OPTIONS"):
        expect(section in lines, "%s has no %s section" % (page.name, section))

    # What the page says of each option is what --help says: the option as
    # the tag, its whole description under it. The installed tool's pages
    # are under the scratch root; the package's, under /usr.
    real_root = os.path.realpath(root)
    _, helped = run([str(tool), "--help"],
                    env={k: v for k, v in os.environ.items()
                         if k != "CUBLAS_TIDY_DOCS_URL"})
    helped = helped.replace("file://" + real_root + "/", "file:///")
    expected = dict(help_entries(helped))
    shown = page_entries(rendered)
    wrong = ["%r: %r" % (t, d) for t, d in shown if t not in expected]
    expect(not wrong, "%s: %d of %d option entries are not an option with "
           "its description under it (the description begins on the "
           "option's line):\n  %s" % (page.name, len(wrong), len(shown),
                                      "\n  ".join(wrong[:5])))
    differ = ["%s:\n    page: %s\n    help: %s" % (t, d, expected[t])
              for t, d in shown if d != expected[t]]
    expect(not differ, "%s: %d option descriptions differ from --help:\n  %s"
           % (page.name, len(differ), "\n  ".join(differ[:5])))
    missing = sorted(set(expected) - {t for t, _ in shown})
    expect(not missing, "%s: options of --help not on the page: %s"
           % (page.name, missing))
    print("manual page: %s, %d option entries as --help says them"
          % (page.relative_to(root), len(shown)))


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
    try:
        found = lsp.diagnostics_when_opened(
            clangd, project, source, "cublas-unchecked-status",
            "the cublas-* diagnostics of example.cpp")
    except lsp.Failure as failure:
        raise Failure("the installed cublas-clangd: %s" % failure)
    page = html / "checks" / "cublas-unchecked-status.html"
    expect(all(d.get("codeDescription", {}).get("href") == page.as_uri()
               for d in found),
           "the installed cublas-clangd links elsewhere: %s" % found)
    print("installed cublas-clangd: reports the example's finding in an "
          "editor session, linked to the installed page")


def check_package(args, work):
    """Everything this test says, in the scratch folder `work`."""
    code, out = run(["cpack", "-G", "DEB", "-B", str(work / "out"),
                     "--config", os.path.join(args.build_dir, "CPackConfig.cmake")])
    expect(code == 0, "cpack failed", out)
    with_clangd = (Path(args.build_dir) / "bin" / "cublas-clangd").exists()
    names = ["cublas-tidy"] + (["cublas-clangd"] if with_clangd else [])
    debs = {}
    for name in names:
        found = glob.glob(str(work / "out" / (name + "_*.deb")))
        expect(len(found) == 1, "cpack made %s for %s" % (found, name), out)
        debs[name] = found[0]
    made = sorted(os.path.basename(d) for d in glob.glob(str(work / "out" / "*.deb")))
    expect(made == sorted(os.path.basename(d) for d in debs.values()),
           "cpack made %s, not the packages %s" % (made, names), out)
    print("packages:", ", ".join(made))
    _, version = run(["dpkg-deb", "-f", debs["cublas-tidy"], "Version"])
    version = version.strip()

    files = {}
    for name, deb in debs.items():
        _, depends = run(["dpkg-deb", "-f", deb, "Depends"])
        deps = [re.split(r"[ (]", d.strip())[0] for d in depends.split(",")]
        dev = [n for n in deps if n.endswith("-dev")]
        expect(dev == ["libclang-common-%s-dev" % args.llvm_major],
               "%s: development packages among the dependencies: %s"
               % (name, dev), depends)
        expect("libclang-cpp%s" % args.llvm_major in deps and
               "libllvm%s" % args.llvm_major in deps,
               "%s: no libclang-cpp/libllvm runtime dependency" % name, depends)
        print("%s depends on: %s" % (name, ", ".join(deps)))
        _, listing = run(["dpkg-deb", "-c", deb])
        files[name] = {line.split()[-1] for line in listing.splitlines()
                       if line.startswith("-")}
        if name == "cublas-tidy":
            # What a CI job installs: the remote index's libraries are
            # cublas-clangd's alone.
            remote = [n for n in deps if any(
                lib in n for lib in ("grpc", "protobuf", "absl", "ssl"))]
            expect(not remote, "cublas-tidy depends on %s: cublas-clangd's "
                   "gRPC, protobuf, abseil or OpenSSL" % remote, depends)
            expect("./usr/bin/cublas-tidy" in files[name] and
                   "./usr/bin/cublas-clangd" not in files[name],
                   "cublas-tidy holds %s" % sorted(files[name]))
        else:
            expect(re.search(r"(^|, )cublas-tidy \(= %s\)" % re.escape(version),
                             depends.strip()) is not None,
                   "cublas-clangd does not depend on cublas-tidy (= %s)"
                   % version, depends)
            expect("./usr/bin/cublas-clangd" in files[name],
                   "cublas-clangd holds %s" % sorted(files[name]))
    if with_clangd:
        shared = files["cublas-tidy"] & files["cublas-clangd"]
        expect(not shared, "both packages hold %s: dpkg installs one only"
               % sorted(shared))

    root = work / "root"
    for deb in debs.values():
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
    # c10's CUDA macros are what include the stand-in (the front ends'
    # tests parse whole extensions; a parse of torch/extension.h takes
    # 15 s, this one under a second).
    expect((usr / "share" / "cublas-tidy" / "torch-include" / "c10" / "cuda"
            / "impl" / "cuda_cmake_macros.h").is_file(),
           "the libtorch stand-in header is not installed")
    if Path("/usr/include/c10/cuda/CUDAMacros.h").is_file():
        ext = work / "ext.cu"
        ext.write_text(TORCH_SOURCE)
        code, out = run([str(tidy), "--torch=/usr/include",
                         "-checks=-*,cublas-host-pointer", str(ext), "--",
                         "-std=c++17", "-isystem", args.cuda_include])
        expect(code == 0 and "error" not in out and
               "[cublas-host-pointer]" in out,
               "--torch=/usr/include with the installed cublas-tidy", out)
        print("installed cublas-tidy: --torch=/usr/include finds its "
              "stand-in header")

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

    man1 = usr / "share" / "man" / "man1"
    if shutil.which("help2man"):
        pages = sorted(p.name for p in man1.iterdir()) if man1.is_dir() else []
        expect(pages == sorted(n + ".1.gz" for n in names),
               "the manual pages are %s, not one gzipped page per tool" % pages)
        if shutil.which("groff"):
            for name in names:
                check_manual_page(man1 / (name + ".1.gz"), usr / "bin" / name,
                                  root, args, version)
        else:
            print("no groff: the manual pages are not read")
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
    expect(deb_files == tgz_files, "the tarball and the packages differ: %s"
           % sorted(set(deb_files) ^ set(tgz_files)))
    code, out = run([str(unpacked / "bin" / "cublas-tidy"), "-checks=-*,cublas-*",
                     example, "--", "-std=c++17", "-isystem", args.cuda_include])
    expect(finding in out, "the unpacked cublas-tidy found nothing", out)
    print("tarball: %s, the packages' files; its cublas-tidy reports the "
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
