#!/usr/bin/env python3
"""Generates the name-constraint matrix: BetterTLS-style chains root → intermediate (nameConstraints)
→ leaf, each with the peer name to check and the answer of the rule model (model.py), as `certkit evaluate
--batch` input. Deterministic: the same script writes the same bytes.

Usage:  python3 Scripts/ncmatrix/generate.py [--out DIR] [--ci] [--manifest]
  --out DIR     where to write (default .build/ncmatrix; not committed):
                  root.pem          the one anchor
                  cases.ndjson      one `evaluate --batch` line per case: {"id", "chain": [leaf, intermediate], host|ip|email}
                  expected.ndjson   one line per case: {"id", "categories", "trusted", "checks", "violations"}
                  stats.json        the number of cases per category of each dimension
  --ci          a quicker subset (about 2/7): every constraint set and SAN form, the subject forms no-cn and
                cn-dns-out only
  --manifest    also rewrite Scripts/ncmatrix/manifest.json (counts and the SHA-256 of the full matrix's files),
                committed so a change to the matrix shows in review

Dimensions (matrix.py): constraint sets (DNS / IP v4, v6, IPv4-mapped / email mailbox, host, .domain; permitted,
excluded, both, mixed forms) × leaf SAN forms (none, dNSName exact/subdomain/sibling/wildcard/case/trailing dot,
iPAddress in/out/mapped, rfc822Name, mixed) × subject forms (CN none, DNS-like in/out, IP-like, email-like, an
emailAddress attribute) × the peer names each SAN form is checked with (--host, --ip or --email), and, for the
subject forms no-cn and cn-dns-out-email-attr, no peer name at all (policy basic, profile rfc5280: case id suffix
`basic`).
"""

import argparse
import base64
import collections
import hashlib
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import certs  # noqa: E402
import matrix  # noqa: E402
import model  # noqa: E402
from certkit_fixtures.der import pem  # noqa: E402  (path set by certs)

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
CI_SUBJECTS = {"no-cn", "cn-dns-out"}
BASIC_SUBJECTS = {"no-cn", "cn-dns-out-email-attr"}  # without a peer name the CN never matters (model.py)


def build(ci):
    pki = certs.PKI()
    subjects = [s for s in matrix.subject_forms() if not ci or s[0] in CI_SUBJECTS]
    leaves = {}
    for san_id, _, sans, _ in matrix.san_forms():
        for subject_id, _, common_name, email_attr in subjects:
            leaves[(san_id, subject_id)] = base64.b64encode(
                pki.leaf(f"{san_id}/{subject_id}", sans, common_name, email_attr)).decode()
    cases, expectations = [], []
    stats = collections.defaultdict(collections.Counter)
    for nc_id, nc_category, permitted, excluded in matrix.constraint_sets():
        intermediate = base64.b64encode(pki.intermediate(nc_id, permitted, excluded)).decode()
        for san_id, san_category, sans, peers in matrix.san_forms():
            for subject_id, subject_category, _, email_attr in subjects:
                for peer in peers + ([None] if subject_id in BASIC_SUBJECTS else []):
                    case_id = f"{nc_id}/{san_id}/{subject_id}/" + (f"{peer[0]}={peer[1]}" if peer else "basic")
                    line = {"id": case_id, "chain": [leaves[(san_id, subject_id)], intermediate]}
                    if peer:
                        line[peer[0]] = peer[1]
                    answer = model.expected(permitted, excluded, sans, [email_attr] if email_attr else [], peer)
                    cases.append(json.dumps(line, sort_keys=True))
                    categories = {"constraints": nc_category, "san": san_category, "subject": subject_category}
                    expectations.append(json.dumps(dict(answer, id=case_id, categories=categories), sort_keys=True))
                    stats["constraints"][nc_category] += 1
                    stats["san"][san_category] += 1
                    stats["subject"][subject_category] += 1
                    stats["peer"][peer[0] if peer else "none (policy basic, profile rfc5280)"] += 1
                    stats["expected"]["trusted" if answer["trusted"] else "+".join(answer["checks"])] += 1
    chains = len(matrix.constraint_sets()) * len(matrix.san_forms()) * len(subjects)
    summary = {"cases": len(cases), "chains": chains, "intermediates": len(matrix.constraint_sets()),
               "leaves": len(leaves), "byCategory": {k: dict(sorted(v.items())) for k, v in sorted(stats.items())}}
    return pem(pki.root, "CERTIFICATE"), cases, expectations, summary


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return hashlib.sha256(text.encode()).hexdigest()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=os.path.join(REPO, ".build", "ncmatrix"))
    parser.add_argument("--ci", action="store_true")
    parser.add_argument("--manifest", action="store_true")
    args = parser.parse_args()
    if args.manifest and args.ci:
        parser.error("--manifest describes the full matrix; leave out --ci")
    os.makedirs(args.out, exist_ok=True)
    root, cases, expectations, summary = build(args.ci)
    digests = {"root.pem": write(os.path.join(args.out, "root.pem"), root),
               "cases.ndjson": write(os.path.join(args.out, "cases.ndjson"), "\n".join(cases) + "\n"),
               "expected.ndjson": write(os.path.join(args.out, "expected.ndjson"), "\n".join(expectations) + "\n")}
    write(os.path.join(args.out, "stats.json"), json.dumps(summary, indent=2, sort_keys=True) + "\n")
    if args.manifest:
        write(os.path.join(HERE, "manifest.json"), json.dumps(dict(summary, sha256=digests), indent=2, sort_keys=True) + "\n")
    print(f"ncmatrix: {summary['cases']} cases, {summary['chains']} chains ({summary['intermediates']} intermediates "
          f"x {summary['leaves']} leaves) in {args.out}")


if __name__ == "__main__":
    main()
