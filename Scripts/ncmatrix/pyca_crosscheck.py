#!/usr/bin/env python3
"""Checks the rule model (model.py) against an independent implementation, pyca/cryptography's X.509 verifier,
on the matrix cases it can judge: the subject forms without a CN, with --host/--ip (its server verifier) and with
no peer name (its client verifier, which applies the constraints to every SAN). Every difference must be one of
the documented places where certkit's rules (which the model follows) and pyca's Web PKI policy differ; any other
is printed as unexplained and makes the exit status 1.

Usage:  .build/differential-venv/bin/python Scripts/ncmatrix/pyca_crosscheck.py [--matrix DIR]
        (needs cryptography >= 43; DIR defaults to .build/ncmatrix, made by generate.py)
"""

import argparse
import base64
import collections
import datetime
import ipaddress
import json
import os
import sys

from cryptography import x509
from cryptography.x509 import DNSName, IPAddress
from cryptography.x509.verification import PolicyBuilder, Store

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import matrix  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def explain(nc_id, san_id, peer, model_trusted, pyca_trusted, words):
    """The documented reason for a difference, or None."""
    permitted, excluded = next((p, e) for n, _, p, e in matrix.constraint_sets() if n == nc_id)
    sans = next(s for n, _, s, _ in matrix.san_forms() if n == san_id) or []
    if not sans and not pyca_trusted:
        return "pyca's Web PKI policy requires a subjectAltName"
    leading_period = any(f == "dns" and v.startswith(".") for f, v in permitted + excluded)
    if leading_period and ("malformed DNS name constraint" in words or (peer == "basic" and not model_trusted)):
        return "leading-period dNSName subtree: pyca refuses it; apple accepts it, rfc5280 refuses it (R1)"
    if "malformed SAN" in words or words == "invalid domain name":
        return "trailing-dot dNSName or host: pyca refuses it (P1, N2, R2)"
    if model_trusted and not pyca_trusted:
        return None
    ips = [ipaddress.ip_address(v) for f, v in sans if f == "ip"]
    mapped = any(a.version == 6 and a.ipv4_mapped for a in ips)
    if any(f == "ip" for f, _ in permitted + excluded) and (mapped or any(a.version == 4 for a in ips)):
        return "IPv4 / IPv4-mapped spellings: an excluded subtree covers both, a permitted one only its family (N5)"
    if any(f == "email" and "@" in v for f, v in excluded) and any(f == "email" and v != v.lower() for f, v in sans):
        return "excluded mailbox compared case-insensitively, the safe side (N4)"
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--matrix", default=os.path.join(REPO, ".build", "ncmatrix"))
    args = parser.parse_args()
    root = x509.load_pem_x509_certificates(open(os.path.join(args.matrix, "root.pem"), "rb").read())
    builder = PolicyBuilder().store(Store(root)).time(datetime.datetime(2030, 6, 1))
    client = builder.build_client_verifier()
    expected = {e["id"]: e for e in map(json.loads, open(os.path.join(args.matrix, "expected.ndjson")))}
    counts, unexplained = collections.Counter(), []
    for case in map(json.loads, open(os.path.join(args.matrix, "cases.ndjson"))):
        nc_id, san_id, subject_id, peer = case["id"].split("/", 3)
        if subject_id != "no-cn" or "email" in case:
            continue
        leaf, intermediate = (x509.load_der_x509_certificate(base64.b64decode(c)) for c in case["chain"])
        try:
            if "host" in case or "ip" in case:
                name = IPAddress(ipaddress.ip_address(case["ip"])) if "ip" in case else DNSName(case["host"])
                builder.build_server_verifier(name).verify(leaf, [intermediate])
            else:
                client.verify(leaf, [intermediate])
            trusted, words = True, ""
        except Exception as error:  # pyca's refusal, whatever its type
            trusted, words = False, str(error)
        counts["cases"] += 1
        model_trusted = expected[case["id"]]["trusted"]
        if trusted == model_trusted:
            continue
        reason = explain(nc_id, san_id, peer, model_trusted, trusted, words)
        counts[reason or "UNEXPLAINED"] += 1
        if reason is None:
            unexplained.append(f"{case['id']}: model {'trusts' if model_trusted else 'refuses'}, pyca "
                               f"{'trusts' if trusted else 'refuses: ' + words[:120]}")
    print(f"pyca cross-check: {counts.pop('cases')} cases")
    for reason, n in sorted(counts.items(), key=lambda kv: -kv[1]):
        print(f"  {n:5d}  {reason}")
    for line in unexplained[:50]:
        print("  " + line)
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
