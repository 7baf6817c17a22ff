"""Flattens a module's symbol graph (swift symbolgraph-extract) into sorted lines: one per public declaration
(`kind path: declaration`) and one per conformance of a public type. Used by Scripts/api.sh."""

import glob
import json
import os
import sys


def load(directory):
    symbols, relationships = {}, []
    for path in sorted(glob.glob(os.path.join(directory, "*.symbols.json"))):
        graph = json.load(open(path))
        for s in graph["symbols"]:
            symbols[s["identifier"]["precise"]] = s
        relationships += graph.get("relationships", [])
    return symbols, relationships


def declaration(s):
    return "".join(f["spelling"] for f in s.get("declarationFragments", [])).replace("\n", " ")


def lines(symbols, relationships):
    out = set()
    for s in symbols.values():
        out.add("%s %s: %s" % (s["kind"]["identifier"].replace("swift.", ""), ".".join(s["pathComponents"]),
                               declaration(s)))
    for r in relationships:
        if r["kind"] == "conformsTo" and r["source"] in symbols:
            target = r.get("targetFallback") or r["target"]
            if target in ("Swift.SendableMetatype", "Swift.Copyable", "Swift.Escapable"):
                continue
            out.add("conformance %s: %s" % (".".join(symbols[r["source"]]["pathComponents"]), target))
    return sorted(out)


def main():
    if sys.argv[1] == "--count":
        symbols, _ = load(sys.argv[2])
        types = [s for s in symbols.values() if s["kind"]["identifier"] in
                 ("swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.typealias", "swift.actor")]
        cases = [s for s in symbols.values() if s["kind"]["identifier"] == "swift.enum.case"]
        print("api: %s: %d types, %d declarations (plus %d enum cases)" % (
            os.path.basename(sys.argv[2].rstrip("/")), len(types), len(symbols) - len(cases), len(cases)))
        return
    symbols, relationships = load(sys.argv[1])
    for line in lines(symbols, relationships):
        print(line)


if __name__ == "__main__":
    main()
