#!/usr/bin/env python3
"""expect-exit.py CODE COMMAND...: runs COMMAND, passing its output through,
and succeeds only when it exits with CODE (lit's shell has no $?)."""
import subprocess
import sys

rc = subprocess.run(sys.argv[2:]).returncode
if rc != int(sys.argv[1]):
    sys.stderr.write("expect-exit.py: exit %d, expected %s\n" % (rc, sys.argv[1]))
    sys.exit(1)
