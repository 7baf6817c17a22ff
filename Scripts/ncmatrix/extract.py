#!/usr/bin/env python3
"""Writes one case of the generated matrix as PEM files, to reproduce it with certkit and the reference tools.

Usage:  extract.py CASE_ID [--matrix DIR] [--out DIR]
  Reads DIR/cases.ndjson (default .build/ncmatrix, made by generate.py) and writes leaf.pem, intermediate.pem and
  root.pem to --out (default .build/ncmatrix/case), then prints the commands that evaluate it (certtool has no
  verification date: faketime sets it).
"""

import argparse
import base64
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures"))
from certkit_fixtures.der import pem  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("case_id")
    parser.add_argument("--matrix", default=os.path.join(REPO, ".build", "ncmatrix"))
    parser.add_argument("--out", default=os.path.join(REPO, ".build", "ncmatrix", "case"))
    args = parser.parse_args()
    with open(os.path.join(args.matrix, "cases.ndjson")) as f:
        case = next((c for c in map(json.loads, f) if c["id"] == args.case_id), None)
    if case is None:
        sys.exit(f"extract.py: no case {args.case_id!r} in {args.matrix}/cases.ndjson")
    os.makedirs(args.out, exist_ok=True)
    for name, b64 in zip(("leaf.pem", "intermediate.pem"), case["chain"]):
        with open(os.path.join(args.out, name), "w") as f:
            f.write(pem(base64.b64decode(b64), "CERTIFICATE"))
    shutil.copy(os.path.join(args.matrix, "root.pem"), os.path.join(args.out, "root.pem"))
    kind = next((k for k in ("host", "ip", "email") if k in case), None)
    o = args.out
    peer = f"--{kind} {case[kind]} " if kind else ""
    print(f"certkit evaluate --anchors {o}/root.pem --intermediates {o}/intermediate.pem {peer}"
          f"--at 2030-06-01T00:00:00Z [--audit] --backend openssl|gnutls {o}/leaf.pem")
    flag = {"host": "-verify_hostname ", "ip": "-verify_ip ", "email": "-verify_email ", None: ""}[kind]
    print(f"openssl verify -attime 1906502400 -CAfile {o}/root.pem -untrusted {o}/intermediate.pem "
          f"{flag}{case.get(kind, '')} {o}/leaf.pem".replace("  ", " "))
    check = {"host": "--verify-hostname ", "ip": "--verify-hostname ", "email": "--verify-email ", None: ""}[kind]
    print(f"cat {o}/leaf.pem {o}/intermediate.pem > {o}/chain.pem; faketime '2030-06-01 00:00:00' certtool --verify "
          f"--load-ca-certificate {o}/root.pem --infile {o}/chain.pem {check}{case.get(kind, '')}".rstrip())

if __name__ == "__main__":
    main()
