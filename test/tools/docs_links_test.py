#!/usr/bin/env python3
"""Every link between the HTML pages scripts/render-docs makes (the pages
the package installs and cublas-clangd links findings to) reaches a page
that exists, and each #anchor a heading of that page.

    docs_links_test.py --source REPO [--html DIR]

Renders REPO's docs into a temporary folder (or reads DIR, the build's
pages) and exits 1 with every broken link listed. Links to other sites are
not followed.
"""
import argparse
import html
import os
import re
import subprocess
import sys
import tempfile
from urllib.parse import unquote, urlparse


def broken_links(root):
    anchors = {}

    def ids_of(path):
        if path not in anchors:
            with open(path) as f:
                anchors[path] = set(re.findall(r'\sid="([^"]+)"', f.read()))
        return anchors[path]

    broken, seen = [], 0
    for folder, _, files in os.walk(root):
        for name in sorted(files):
            if not name.endswith(".html"):
                continue
            page = os.path.join(folder, name)
            with open(page) as f:
                text = f.read()
            for href in re.findall(r'href="([^"]*)"', text):
                link = urlparse(html.unescape(href))
                if link.scheme:
                    continue  # another site, a file:// of the user's
                seen += 1
                target = (os.path.normpath(os.path.join(folder, unquote(link.path)))
                          if link.path else page)
                where = os.path.relpath(page, root)
                if not os.path.isfile(target):
                    broken.append("%s: %s: no page %s"
                                  % (where, href, os.path.relpath(target, root)))
                elif link.fragment and link.fragment not in ids_of(target):
                    broken.append("%s: %s: no heading '%s' there"
                                  % (where, href, link.fragment))
    return broken, seen


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--source", required=True)
    parser.add_argument("--html", default="")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = args.html
        if not root:
            root = os.path.join(tmp, "html")
            subprocess.run([sys.executable,
                            os.path.join(args.source, "scripts", "render-docs"),
                            args.source, root], check=True,
                           stdout=subprocess.DEVNULL)
        broken, seen = broken_links(root)
    for b in broken:
        print(b)
    print("%d links, %d broken" % (seen, len(broken)))
    if not seen:
        print("FAIL: no links found: the pages were not rendered")
        return 1
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
