#!/usr/bin/env python3
"""sarif-results.py LOG: one line per result of a SARIF log (rule, file,
line, message, related locations), sorted, so that two logs can be compared
whatever the order of their results and rules."""
import json
import sys

log = json.load(open(sys.argv[1]))
lines = []
for run in log["runs"]:
    for r in run.get("results", []):
        loc = r.get("locations", [{}])[0].get("physicalLocation", {})
        uri = loc.get("artifactLocation", {}).get("uri", "")
        line = loc.get("region", {}).get("startLine", 0)
        related = sorted(
            "%s:%s %s" % (l["physicalLocation"]["artifactLocation"]["uri"],
                          l["physicalLocation"].get("region", {}).get("startLine", 0),
                          l.get("message", {}).get("text", ""))
            for l in r.get("relatedLocations", []))
        lines.append("%s %s:%s %s | %s" % (r["ruleId"], uri, line,
                                           r["message"]["text"], "; ".join(related)))
for l in sorted(lines):
    print(l)
