#!/usr/bin/env bash
# Builds and runs the benchmarks in release mode: raw C baselines and certkit in one run, medians over
# repetitions, ratios against the baselines.
#   Scripts/bench.sh [--json FILE] [--reps N] [--min-ms MS] [--only WORD]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product certkit-benchmarks
exec "$(swift build -c release --show-bin-path)/certkit-benchmarks" --fixtures Tests/Fixtures/scenarios "$@"
