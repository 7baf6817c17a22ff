#!/usr/bin/env python3
"""pyca/cryptography on the benchmarks' own inputs, for ratios in the same run (started by certkit-benchmarks).

Reads one JSON document on stdin:
  {"repetitions": N, "min_ms": M, "cpu_time": false (true: time.thread_time_ns instead of perf_counter_ns),
   "chains": [{"name": ..., "chain": [base64 DER, leaf first], "anchors": [base64 DER], "host": ..., "time": epoch}],
   "bundle": {"pem": base64 PEM text, "count": N}}          (optional)
and writes one JSON object per measurement on stdout:
  {"name": ..., "case": "parse + verify" | "pre-parsed verify" | "bundle decode", "us_per_op": median, "mode": ...}

parse + verify: load_der_x509_certificate of every certificate of the chain, then the path verifier
(cryptography.x509.verification, a server verifier for the host at the time, anchors in a Store built once).
When that verifier refuses the chain (it is stricter than the fixtures were made for), the mode is "links":
verify_directly_issued_by along the path the verifier would have had to build, which is a lower bound of its cost.
"""
import base64
import datetime
import json
import statistics
import sys
import time

from cryptography import x509
from cryptography.x509 import verification


CLOCK = time.perf_counter_ns


def timed(body, repetitions, minimum_ns):
    body()
    iterations = 1
    while True:
        start = CLOCK()
        for _ in range(iterations):
            body()
        elapsed = CLOCK() - start
        if elapsed >= minimum_ns or iterations >= 1 << 20:
            break
        iterations = max(iterations * 2, int(iterations * 1.2 * minimum_ns / max(elapsed, 1)))
    samples = []
    for _ in range(repetitions):
        start = CLOCK()
        for _ in range(iterations):
            body()
        samples.append((CLOCK() - start) / iterations)
    return statistics.median(samples)


def issuer_path(leaf, pool, anchors):
    """The path leaf → ... → anchor by issuer name and signature (what a verifier builds)."""
    path = [leaf]
    candidates = pool + anchors
    while path[-1] not in anchors and len(path) < 10:
        current = path[-1]
        for issuer in candidates:
            if issuer.subject != current.issuer or issuer in path:
                continue
            try:
                current.verify_directly_issued_by(issuer)
            except Exception:
                continue
            path.append(issuer)
            break
        else:
            return None
    return path


def chain_cases(request, repetitions, minimum_ns):
    ders = [base64.b64decode(item) for item in request["chain"]]
    anchors = [x509.load_der_x509_certificate(base64.b64decode(item)) for item in request["anchors"]]
    when = datetime.datetime.fromtimestamp(request["time"], tz=datetime.timezone.utc)
    store = verification.Store(anchors)
    verifier = (verification.PolicyBuilder().store(store).time(when)
                .build_server_verifier(x509.DNSName(request["host"])))
    parsed = [x509.load_der_x509_certificate(der) for der in ders]
    mode = "verifier"
    try:
        verifier.verify(parsed[0], parsed[1:])
    except Exception as error:  # noqa: BLE001 - any refusal switches to the per-link lower bound
        mode = f"links ({type(error).__name__}: {error})"
    if mode == "verifier":
        def parse_verify():
            certificates = [x509.load_der_x509_certificate(der) for der in ders]
            verifier.verify(certificates[0], certificates[1:])

        def prepared():
            verifier.verify(parsed[0], parsed[1:])
    else:
        path = issuer_path(parsed[0], parsed[1:], anchors)
        if path is None:
            return [{"name": request["name"], "case": "error", "mode": "no path by issuer name and signature"}]
        indices = [parsed.index(certificate) for certificate in path if certificate in parsed]
        links = list(zip(path, path[1:]))

        def parse_verify():
            certificates = [x509.load_der_x509_certificate(der) for der in ders]
            chain = [certificates[index] for index in indices] + path[len(indices):]
            for subject, issuer in zip(chain, chain[1:]):
                subject.verify_directly_issued_by(issuer)

        def prepared():
            for subject, issuer in links:
                subject.verify_directly_issued_by(issuer)
    return [
        {"name": request["name"], "case": "parse + verify", "mode": mode,
         "us_per_op": timed(parse_verify, repetitions, minimum_ns) / 1000},
        {"name": request["name"], "case": "pre-parsed verify", "mode": mode,
         "us_per_op": timed(prepared, repetitions, minimum_ns) / 1000},
    ]


def main():
    request = json.load(sys.stdin)
    repetitions = max(1, int(request.get("repetitions", 15)))
    minimum_ns = int(request.get("min_ms", 50)) * 1_000_000
    global CLOCK
    if request.get("cpu_time"):
        CLOCK = time.thread_time_ns
    for chain in request.get("chains", []):
        for row in chain_cases(chain, repetitions, minimum_ns):
            print(json.dumps(row), flush=True)
    bundle = request.get("bundle")
    if bundle:
        pem = base64.b64decode(bundle["pem"])
        count = int(bundle["count"])
        us = timed(lambda: x509.load_pem_x509_certificates(pem), repetitions, minimum_ns) / 1000 / count
        print(json.dumps({"name": "bundle", "case": "bundle decode", "mode": "load_pem_x509_certificates",
                          "us_per_op": us}), flush=True)


if __name__ == "__main__":
    main()
