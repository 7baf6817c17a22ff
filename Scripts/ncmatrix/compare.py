#!/usr/bin/env python3
"""Compares certkit's verdicts on the name-constraint matrix with each other (OpenSSL vs GnuTLS backend) and with
the rule model's expected answers (generate.py writes expected.ndjson).

Usage:  compare.py EXPECTED OPENSSL_OUT GNUTLS_OUT --mode default|audit [--report FILE] [--gate backend,model]

A backend disagreement is a case where the two backends give a different verdict (result type); a difference in
the checks alone is counted too and gated with it. A model disagreement is a case where a backend's verdict
(trusted or not) or its set of failed checks (every certificate's, LibraryVerdict set apart) is not the model's.
In the audit mode a LibraryVerdict failure is counted on its own row, with the library's words.
Exit status: 1 when a gated kind of difference occurred (default gate: backend), or a line was an error line.
"""

import argparse
import collections
import json
import sys


def read(path):
    out = {}
    with open(path) as f:
        for line in f:
            if line.strip():
                doc = json.loads(line)
                out[doc.get("id")] = doc
    return out


def checks(doc):
    found = set()
    for entry in doc.get("chain", []):
        found.update(entry.get("failedChecks", []))
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("expected")
    parser.add_argument("openssl")
    parser.add_argument("gnutls")
    parser.add_argument("--mode", required=True)
    parser.add_argument("--report")
    parser.add_argument("--gate", default="backend")
    args = parser.parse_args()
    gates = set(filter(None, args.gate.split(","))) - {"none"}
    expected = read(args.expected)
    outputs = {"openssl": read(args.openssl), "gnutls": read(args.gnutls)}
    counts = collections.Counter()
    lines = []
    model_groups = collections.Counter()
    library_groups = collections.Counter()
    examples = {}
    for case_id, want in expected.items():
        counts["cases"] += 1
        docs = {name: out.get(case_id) for name, out in outputs.items()}
        if any(d is None or "error" in d and "result" not in d for d in docs.values()):
            counts["error lines"] += 1
            lines.append(f"ERROR {case_id}: " + json.dumps({k: (v or {}).get("error") for k, v in docs.items()}))
            continue
        verdicts = {n: d["result"] for n, d in docs.items()}
        found = {n: checks(d) for n, d in docs.items()}
        if verdicts["openssl"] != verdicts["gnutls"]:
            counts["backend disagreements (verdict)"] += 1
            lines.append(f"BACKEND {case_id}: openssl {verdicts['openssl']} {sorted(found['openssl'])}, "
                         f"gnutls {verdicts['gnutls']} {sorted(found['gnutls'])}")
        elif found["openssl"] != found["gnutls"]:
            counts["backend disagreements (checks only)"] += 1
            lines.append(f"BACKEND-CHECKS {case_id}: openssl {sorted(found['openssl'])}, gnutls {sorted(found['gnutls'])}")
        cat = want["categories"]
        nc, san, subject = cat["constraints"], cat["san"], cat["subject"]
        for name, doc in docs.items():
            core = found[name] - {"LibraryVerdict"}
            if "LibraryVerdict" in found[name]:
                counts[f"LibraryVerdict failures ({name})"] += 1
                words = "; ".join(sorted({f.get("words", str(f)) if isinstance(f, dict) else str(f)
                                          for f in doc.get("libraryVerdict", [])}))
                key = (name, nc, san, subject, "core " + ("+".join(sorted(core)) or "trusted"), words)
                library_groups[key] += 1
                examples.setdefault(key, case_id)
                lines.append(f"LIBRARY {name} {case_id}: core {sorted(core)}; library: {words}")
            if core != set(want["checks"]) or (not core and not doc["trusted"] and "LibraryVerdict" not in found[name]):
                counts[f"model disagreements ({name})"] += 1
                key = (name, nc, san, subject, f"model {want['checks']} certkit {sorted(core)}")
                model_groups[key] += 1
                examples.setdefault(key, case_id)
                lines.append(f"MODEL {name} {case_id}: expected {want['checks']} (violations {want['violations']}), "
                             f"certkit {doc['result']} {sorted(found[name])}")
    print(f"== ncmatrix, {args.mode} mode: {counts['cases']} cases")
    for key in sorted(counts):
        if key != "cases":
            print(f"  {key}: {counts[key]}")
    if len(counts) == 1:
        print("  no disagreement: both backends and the model agree on every case")
    for title, groups in (("model disagreements by (backend, constraints, SAN, subject category, answer): e.g.",
                           model_groups),
                          ("LibraryVerdict failures by (backend, constraints, SAN, subject category, core, library): e.g.",
                           library_groups)):
        if groups:
            print(f"  {title}:")
            for key, n in sorted(groups.items(), key=lambda kv: (-kv[1], kv[0]))[:40]:
                print(f"    {n:5d}  " + " | ".join(key) + f"\n           e.g. {examples[key]}")
            if len(groups) > 40:
                print(f"    ... {len(groups) - 40} more groups (see the report)")
    if args.report:
        with open(args.report, "w") as f:
            f.write("\n".join(lines) + ("\n" if lines else ""))
        print(f"  every difference: {args.report}")
    failed = counts["error lines"] > 0
    if "backend" in gates:
        failed |= counts["backend disagreements (verdict)"] + counts["backend disagreements (checks only)"] > 0
    if "model" in gates:
        failed |= any(k.startswith("model") for k in counts)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
