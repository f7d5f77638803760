#!/usr/bin/env python3
"""man-help.py TOOL DOCS_URI: TOOL's --help on stdout as help2man reads it
(cmake/Packaging.cmake makes the manual pages with it).

LLVM's --help and help2man disagree on three things, each fixed here:

- LLVM writes "OPTIONS:", help2man wants "Options:" for an OPTIONS section;
- LLVM separates an option from its description with " - "; help2man ends
  the option at two spaces not followed by "-", so the whole first line of
  each entry became the option and its description began mid-sentence on
  the second line: the " - " goes, two spaces stay;
- a line that begins with the tool's name and a colon (cublas-clangd's
  banner, which names the version) is the page's NAME and DESCRIPTION, said
  by docs/TOOL.h2m: it goes.

The tool's default page address, the build tree's, becomes DOCS_URI, the
pages' address once installed (clangd's --cublas-docs).
"""

import os
import re
import subprocess
import sys


def main():
    tool, docs = sys.argv[1], sys.argv[2]
    env = {k: v for k, v in os.environ.items() if k != "CUBLAS_TIDY_DOCS_URL"}
    text = subprocess.run([tool, "--help"], stdout=subprocess.PIPE, text=True,
                          env=env, check=True).stdout
    name = os.path.basename(tool)
    out = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if line.startswith(name + ": "):
            while i < len(lines) and lines[i].strip():
                i += 1
            while i < len(lines) and not lines[i].strip():
                i += 1
            continue
        if line == "OPTIONS:":
            line = "Options:"
        line = re.sub(r"^( {1,10}[-=]\S.*?) +- +(?=\S)", r"\1  ", line)
        line = re.sub(r"file://\S*?/checks/<check>\.(?:md|html)",
                      docs + "/<check>.html", line)
        out.append(line)
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
