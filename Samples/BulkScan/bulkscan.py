#!/usr/bin/env python3
"""BulkScan: `certkit evaluate --batch` sharded over a Dask distributed cluster.

The NDJSON corpus is cut into shards at line boundaries (byte ranges, nothing is read by the client). Each shard is
one task: the worker reads its byte range, pipes it through `certkit evaluate --batch -` with the options given
after `--`, and writes the output lines to OUT.parts/part-NNNNN.ndjson. The client then concatenates the parts in
shard order into OUT, so OUT is in input order, one line per input line, exactly as one `--batch` run would write
it. The exit code follows the batch rule (Docs/CLI.md): 1 if any line was an error, else 3, else the worst verdict.

The corpus, the anchors and OUT must be at the same paths on every worker (a shared file system), and `certkit`
must be installed on every worker (--certkit names it).

    python3 bulkscan.py --scheduler tcp://scheduler:8786 --input corpus.ndjson --output verdicts.ndjson \\
        --shard-mb 64 -- --anchors roots.pem --at 2030-06-01
    python3 bulkscan.py --local 2 ...   # a local cluster of 2 worker processes (no scheduler needed)
"""
import argparse
import os
import shutil
import subprocess
import sys

# The order of per-shard exit codes, as certkit ranks per-line codes: input error, disagreement, worst verdict.
RANK = {0: 0, 10: 1, 11: 2, 12: 3, 13: 4, 3: 5, 1: 6}


def shards(path, size):
    """Byte ranges of `path` of about `size` bytes, each ending after a newline (or at the end of the file)."""
    total = os.path.getsize(path)
    ranges = []
    with open(path, "rb") as handle:
        start = 0
        while start < total:
            end = min(total, start + size)
            if end < total:
                handle.seek(end)
                handle.readline()  # to the end of the line the cut falls in
                end = handle.tell()
            ranges.append((start, end))
            start = end
    return ranges


def run_shard(certkit, options, path, start, end, part, jobs):
    """One task: certkit --batch over bytes [start, end) of `path`; output to `part`. Returns (lines, exit code,
    stderr)."""
    arguments = [certkit, "evaluate", *options, "--batch", "-"]
    if jobs:
        arguments += ["--jobs", str(jobs)]
    temporary = part + ".tmp"
    with open(path, "rb") as source, open(temporary, "wb") as sink:
        process = subprocess.Popen(arguments, stdin=subprocess.PIPE, stdout=sink, stderr=subprocess.PIPE)
        source.seek(start)
        remaining = end - start
        try:
            while remaining > 0:
                chunk = source.read(min(remaining, 1 << 20))
                if not chunk:
                    break
                process.stdin.write(chunk)
                remaining -= len(chunk)
            process.stdin.close()
        except BrokenPipeError:
            pass
        error = process.stderr.read().decode(errors="replace")
        code = process.wait()
    os.replace(temporary, part)
    with open(part, "rb") as handle:
        lines = sum(1 for _ in handle)
    return lines, code, error


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--scheduler", help="address of a running Dask scheduler (tcp://host:8786)")
    where.add_argument("--local", type=int, metavar="N", help="start a local cluster of N worker processes")
    parser.add_argument("--input", required=True, help="the NDJSON corpus (a path every worker can read)")
    parser.add_argument("--output", required=True, help="where the results go (OUT.parts/ is written beside it)")
    parser.add_argument("--certkit", default="certkit", help="the certkit binary on the workers")
    parser.add_argument("--shard-mb", type=float, default=64, help="shard size in MiB (default 64)")
    parser.add_argument("--jobs", type=int, default=0, help="--jobs for each certkit (default: its cores)")
    parser.add_argument("options", nargs=argparse.REMAINDER, help="-- then the evaluate options (anchors, --at, ...)")
    arguments = parser.parse_args()
    options = arguments.options[1:] if arguments.options[:1] == ["--"] else arguments.options

    from dask.distributed import Client, LocalCluster

    cluster = None
    if arguments.local:
        cluster = LocalCluster(n_workers=arguments.local, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    else:
        client = Client(arguments.scheduler)
    try:
        source = os.path.abspath(arguments.input)
        output = os.path.abspath(arguments.output)
        parts = output + ".parts"
        shutil.rmtree(parts, ignore_errors=True)
        os.makedirs(parts)
        ranges = shards(source, max(1, int(arguments.shard_mb * (1 << 20))))
        futures = [
            client.submit(run_shard, arguments.certkit, options, source, start, end,
                          os.path.join(parts, f"part-{index:05d}.ndjson"), arguments.jobs, pure=False)
            for index, (start, end) in enumerate(ranges)
        ]
        results = client.gather(futures)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()

    code, total = 0, 0
    with open(output + ".tmp", "wb") as sink:
        for index, (lines, shard_code, error) in enumerate(results):
            if error.strip():
                print(f"bulkscan: shard {index}: {error.strip()}", file=sys.stderr)
            if RANK.get(shard_code, 7) > RANK.get(code, 7):
                code = shard_code
            total += lines
            with open(os.path.join(parts, f"part-{index:05d}.ndjson"), "rb") as part:
                shutil.copyfileobj(part, sink)
    os.replace(output + ".tmp", output)
    shutil.rmtree(parts, ignore_errors=True)
    print(f"bulkscan: {total} lines in {len(ranges)} shards -> {arguments.output} (exit {code})", file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
