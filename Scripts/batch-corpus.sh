#!/usr/bin/env bash
# The batch mode's end-to-end check on a generated corpus: N fresh chains, mixed good, expired, wrong host
# and untrusted, go through `certkit evaluate --batch` with 2 workers and with 1; the two outputs must be identical,
# every line must get the verdict it was made for, and sampled lines (every K-th; --sample 1: all) must equal a
# one-by-one `certkit evaluate --json` of the same chain.
#   Scripts/batch-corpus.sh [--count N (100000)] [--sample K (100)] [--dir DIR (.build/batch-corpus)] [--debug]
# Uses the release build unless --debug; python3 (standard library only) for the comparison.
set -euo pipefail
cd "$(dirname "$0")/.."
count=100000 sample=100 dir=.build/batch-corpus config=release
while [ $# -gt 0 ]; do
    case "$1" in
        --count) count=$2; shift 2 ;;
        --sample) sample=$2; shift 2 ;;
        --dir) dir=$2; shift 2 ;;
        --debug) config=debug; shift ;;
        *) echo "usage: $0 [--count N] [--sample K] [--dir DIR] [--debug]" >&2; exit 2 ;;
    esac
done
swift build -c "$config" --product certkit-benchmarks >/dev/null
swift build -c "$config" --product certkit >/dev/null
bin=$(swift build -c "$config" --show-bin-path)
"$bin/certkit-benchmarks" --write-corpus "$dir" --count "$count"
run() {
    local jobs=$1 start end status=0
    start=$(date +%s.%N)
    "$bin/certkit" evaluate --anchors "$dir/anchors.pem" --at 2030-06-01 --batch "$dir/corpus.ndjson" --jobs "$jobs" \
        >"$dir/out-jobs$jobs.ndjson" || status=$?
    end=$(date +%s.%N)
    echo "batch --jobs $jobs: exit $status, $(wc -l <"$dir/out-jobs$jobs.ndjson") lines, $(python3 -c "print(f'{$count / ($end - $start):.0f}')") chains/s" >&2
    [ "$status" = 10 ] || { echo "batch-corpus: expected exit 10 (some untrusted), got $status" >&2; exit 1; }
}
run 2
run 1
cmp "$dir/out-jobs2.ndjson" "$dir/out-jobs1.ndjson" || { echo "batch-corpus: --jobs 2 and --jobs 1 differ" >&2; exit 1; }
echo "batch --jobs 2 and --jobs 1: identical output" >&2
exec python3 Scripts/batch/check_corpus.py --certkit "$bin/certkit" --dir "$dir" --sample "$sample"
