#!/usr/bin/env bash
# Builds and runs the benchmarks in release mode: raw C baselines and certkit in one run, medians over
# repetitions, ratios against the baselines.
#   Scripts/bench.sh [--json FILE] [--reps N] [--min-ms MS] [--only WORD] [--batch-chains N] [--batch-memory N]
# `--only batch`: --batch throughput on fresh chains (1 and 2 workers) against a raw C loop, and resident memory
# while --batch-memory lines (default 200,000) stream through the release binary.
# `certkit-benchmarks --write-corpus DIR [--count N]` writes a generated mixed corpus (Scripts/batch-corpus.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product certkit-benchmarks
swift build -c release --product certkit   # the batch benchmark's memory run streams through the binary
exec "$(swift build -c release --show-bin-path)/certkit-benchmarks" --fixtures Tests/Fixtures/scenarios "$@"
