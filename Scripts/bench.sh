#!/usr/bin/env bash
# Builds and runs the benchmarks in release mode: raw C baselines and certkit in one run, medians over
# repetitions, ratios against the baselines.
#   Scripts/bench.sh [--json FILE] [--reps N] [--min-ms MS] [--only WORD] [--batch-chains N] [--batch-memory N]
#   Scripts/bench.sh --results [OTHER OPTIONS]   also regenerates Benchmarks/RESULTS.md from this run (its rows and
#                                               summaries, dated, with the machine and the libraries); the only
#                                               place measured numbers are written down
# `--only batch`: --batch throughput on fresh chains (1 and 2 workers) against a raw C loop, and resident memory
# while --batch-memory lines (default 200,000) stream through the release binary.
# `certkit-benchmarks --write-corpus DIR [--count N]` writes a generated mixed corpus (Scripts/batch-corpus.sh).
# `--only connection`: per-connection cost (fresh, warm, 2 threads; RSA, ECDSA, wide pool; both backends) against
# the signature floor, raw C and pyca/cryptography; `--only bundle`: bundle decode against pyca, 5 runs.
# For a profiler: `certkit-benchmarks --profile WORKLOAD BACKEND fresh|warm core|audit COUNT` runs one connection case
# in a loop, `--profile-bundle COUNT` the bundle decode, `--profile-batch library|cli COUNT [ROUNDS]` the batch
# benchmark's fresh chains through the library or `--batch --jobs 1` (e.g. under `valgrind --tool=callgrind`, which
# needs the release binary's debug info stripped: `objcopy --strip-debug`). `--workload NAME` (valid-chain-rsa,
# valid-chain-ec, wide-pool) limits the per-workload groups to one workload, e.g. `--only connection --workload
# valid-chain-rsa`.
# pyca/cryptography: when the system python3 cannot `import cryptography.x509.verification`, a venv is created in
# .build/bench-venv (pip from PyPI); without either, the pyca columns are left out.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! python3 -c 'import cryptography.x509.verification' 2>/dev/null && [ ! -x .build/bench-venv/bin/python3 ]; then
    (python3 -m venv .build/bench-venv && .build/bench-venv/bin/pip install --quiet 'cryptography>=43') >&2 \
        || { echo "bench.sh: no pyca/cryptography venv (the pyca columns are left out)" >&2; rm -rf .build/bench-venv; }
fi
swift build -c release --product certkit-benchmarks
swift build -c release --product certkit   # the batch benchmark's memory run streams through the binary
bench="$(swift build -c release --show-bin-path)/certkit-benchmarks"
if [ "${1:-}" = "--results" ]; then
  shift
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  "$bench" --fixtures Tests/Fixtures/scenarios --json "$work/rows.json" "$@" | tee "$work/output.txt"
  python3 Scripts/bench_results.py "$work/rows.json" "$work/output.txt" "Scripts/bench.sh --results${*:+ $*}" \
    > "$work/RESULTS.md"
  mv "$work/RESULTS.md" Benchmarks/RESULTS.md
  echo "bench.sh: wrote Benchmarks/RESULTS.md" >&2
  exit 0
fi
exec "$bench" --fixtures Tests/Fixtures/scenarios "$@"
