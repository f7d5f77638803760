#!/usr/bin/env python3
"""Checks a SARIF log against the required structure of the SARIF 2.1.0
schema (the properties the schema marks required, their types and value
ranges) and against what GitHub code scanning needs to accept a result
(a ruleId, a location with a region).

    check_sarif.py LOG.json [--expect-results N]

Exits 1 with every problem listed.
"""
import json
import sys

problems = []


def need(cond, where, what):
    if not cond:
        problems.append("%s: %s" % (where, what))
    return cond


def check_message(m, where):
    if need(isinstance(m, dict), where, "message must be an object"):
        need(isinstance(m.get("text"), str) or isinstance(m.get("id"), str),
             where, "message needs text or id")


def check_physical(p, where):
    if not need(isinstance(p, dict), where, "physicalLocation must be an object"):
        return
    a = p.get("artifactLocation")
    if need(isinstance(a, dict), where, "artifactLocation required"):
        need(isinstance(a.get("uri"), str) and a["uri"], where,
             "artifactLocation.uri must be a non-empty string")
        if "uriBaseId" in a:
            need(isinstance(a["uriBaseId"], str), where, "uriBaseId must be a string")
    r = p.get("region")
    if need(isinstance(r, dict), where, "region required for code scanning"):
        need(isinstance(r.get("startLine"), int) and r["startLine"] >= 1,
             where, "region.startLine must be an integer >= 1")
        if "startColumn" in r:
            need(isinstance(r["startColumn"], int) and r["startColumn"] >= 1,
                 where, "region.startColumn must be an integer >= 1")


def main():
    args = sys.argv[1:]
    expect = None
    if "--expect-results" in args:
        i = args.index("--expect-results")
        expect = int(args[i + 1])
        del args[i:i + 2]
    with open(args[0], encoding="utf-8") as f:
        log = json.load(f)
    need(log.get("version") == "2.1.0", "log", "version must be 2.1.0")
    need(isinstance(log.get("$schema", ""), str), "log", "$schema must be a string")
    runs = log.get("runs")
    if not need(isinstance(runs, list) and runs, "log", "runs must be a non-empty array"):
        return report()
    total = 0
    for ri, run in enumerate(runs):
        w = "runs[%d]" % ri
        tool = run.get("tool")
        if not need(isinstance(tool, dict), w, "tool required"):
            continue
        driver = tool.get("driver")
        if not need(isinstance(driver, dict), w, "tool.driver required"):
            continue
        need(isinstance(driver.get("name"), str) and driver["name"], w,
             "tool.driver.name required")
        rules = driver.get("rules", [])
        need(isinstance(rules, list), w, "rules must be an array")
        ids = []
        for k, rule in enumerate(rules):
            rw = "%s.rules[%d]" % (w, k)
            need(isinstance(rule.get("id"), str) and rule["id"], rw, "id required")
            ids.append(rule.get("id"))
            for field in ("shortDescription", "fullDescription", "help"):
                if field in rule:
                    check_message(rule[field], rw + "." + field)
        need(len(ids) == len(set(ids)), w, "rule ids must be unique")
        results = run.get("results", [])
        need(isinstance(results, list), w, "results must be an array")
        for k, res in enumerate(results):
            total += 1
            rw = "%s.results[%d]" % (w, k)
            check_message(res.get("message"), rw + ".message")
            need(isinstance(res.get("ruleId"), str), rw, "ruleId required for code scanning")
            need(res.get("level", "warning") in ("none", "note", "warning", "error"),
                 rw, "level must be none, note, warning or error")
            if "ruleIndex" in res:
                idx = res["ruleIndex"]
                if need(isinstance(idx, int) and 0 <= idx < len(rules), rw,
                        "ruleIndex out of range"):
                    need(rules[idx].get("id") == res.get("ruleId"), rw,
                         "ruleIndex names another rule")
            locs = res.get("locations")
            if need(isinstance(locs, list) and locs, rw, "locations required"):
                for li, loc in enumerate(locs):
                    check_physical(loc.get("physicalLocation"), "%s.locations[%d]" % (rw, li))
            seen = set()
            for li, rel in enumerate(res.get("relatedLocations", [])):
                lw = "%s.relatedLocations[%d]" % (rw, li)
                if "id" in rel:
                    need(isinstance(rel["id"], int) and rel["id"] >= 0 and rel["id"] not in seen,
                         lw, "id must be a unique integer >= 0")
                    seen.add(rel.get("id"))
                check_physical(rel.get("physicalLocation"), lw)
                if "message" in rel:
                    check_message(rel["message"], lw + ".message")
    if expect is not None:
        need(total == expect, "log", "expected %d results, found %d" % (expect, total))
    return report()


def report():
    if problems:
        for p in problems:
            print("check_sarif: " + p)
        sys.exit(1)
    print("check_sarif: ok")


if __name__ == "__main__":
    main()
