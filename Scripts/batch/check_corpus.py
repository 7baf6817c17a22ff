#!/usr/bin/env python3
"""Checks a batch run over a generated corpus (Scripts/batch-corpus.sh): every output line has the id, result and
failed check its input line was made for (expected.tsv), in input order; and every K-th line equals a one-by-one
`certkit evaluate --json` of the same chain, host and date (the document without "id")."""
import argparse
import base64
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
import textwrap


def pem_of(element):
    """A chain element (PEM text or base64 DER) as PEM text."""
    if "-----BEGIN" in element:
        return element if element.endswith("\n") else element + "\n"
    der = base64.b64decode(element, validate=False)
    body = "\n".join(textwrap.wrap(base64.b64encode(der).decode(), 64))
    return f"-----BEGIN CERTIFICATE-----\n{body}\n-----END CERTIFICATE-----\n"


def lone(certkit, anchors, request, directory):
    """The one-by-one evaluation of one request: its parsed --json document and exit code."""
    path = os.path.join(directory, f"chain-{request['id']}.pem")
    with open(path, "w") as handle:
        handle.write("".join(pem_of(element) for element in request["chain"]))
    arguments = [certkit, "evaluate", "--json", "--anchors", anchors, "--at", request.get("at", "2030-06-01")]
    if "host" in request:
        arguments += ["--host", request["host"]]
    done = subprocess.run(arguments + [path], capture_output=True, text=True, check=False)
    os.unlink(path)
    return json.loads(done.stdout), done.returncode


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--certkit", required=True)
    parser.add_argument("--dir", required=True)
    parser.add_argument("--sample", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    options = parser.parse_args()
    corpus = os.path.join(options.dir, "corpus.ndjson")
    output = os.path.join(options.dir, "out-jobs2.ndjson")
    anchors = os.path.join(options.dir, "anchors.pem")
    expected = {}
    with open(os.path.join(options.dir, "expected.tsv")) as handle:
        next(handle)
        for line in handle:
            identifier, category, result, check = line.rstrip("\n").split("\t")
            expected[int(identifier)] = (category, result, None if check == "-" else check)

    failures = 0
    counts = {}
    sampled = []
    with open(corpus) as requests, open(output) as results:
        for number, (request_line, result_line) in enumerate(zip(requests, results)):
            request = json.loads(request_line)
            result = json.loads(result_line)
            category, want_result, want_check = expected[request["id"]]
            check = (result.get("error") or {}).get("check")
            counts[category] = counts.get(category, 0) + 1
            if result.get("id") != request["id"] or result.get("result") != want_result or check != want_check:
                failures += 1
                if failures <= 5:
                    print(f"line {number + 1}: id {request['id']} ({category}): got {result.get('id')} "
                          f"{result.get('result')} {check}, want {want_result} {want_check}", file=sys.stderr)
            if options.sample > 0 and number % options.sample == 0:
                sampled.append((request, result))
        if requests.readline() or results.readline():
            failures += 1
            print("the output and the input have different numbers of lines", file=sys.stderr)
    total = sum(counts.values())
    print(f"verdicts: {total} lines checked against the corpus ({', '.join(f'{k} {v}' for k, v in sorted(counts.items()))}); "
          f"{failures} wrong", file=sys.stderr)

    mismatches = 0
    with tempfile.TemporaryDirectory() as directory, \
            concurrent.futures.ThreadPoolExecutor(max_workers=options.jobs) as pool:
        futures = [(request, result, pool.submit(lone, options.certkit, anchors, request, directory))
                   for request, result in sampled]
        for request, result, future in futures:
            document, code = future.result()
            batch = dict(result)
            del batch["id"]
            # Without --at a lone run is judged now, a batch line at the batch's start: the corpus always sets --at.
            if document != batch:
                mismatches += 1
                if mismatches <= 5:
                    print(f"id {request['id']}: batch and one-by-one differ", file=sys.stderr)
            want_code = 0 if document.get("trusted") else 10
            if code != want_code:
                mismatches += 1
    print(f"one-by-one: {len(sampled)} lines (every {options.sample}th) compared with a lone certkit evaluate --json; "
          f"{mismatches} differ", file=sys.stderr)
    return 1 if failures or mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
