#!/usr/bin/env bash
# BulkScan's test: a local Dask cluster of two worker processes on this machine runs the sharded batch over a
# generated corpus (fresh chains: good, expired, wrong host, untrusted); every input line must come back exactly
# once, with the same verdict as one `certkit evaluate --batch` run over the whole corpus (the outputs are compared
# line by line and must be identical).
#   Samples/BulkScan/test.sh [LINES (4000)]
# Installs `distributed` from PyPI into .build/bulkscan-venv when it is missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
lines=${1:-4000}
venv=.build/bulkscan-venv
if ! "$venv/bin/python" -c 'import dask.distributed' >/dev/null 2>&1; then
    echo "bulkscan: creating $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check 'distributed>=2024.1'
fi
swift build --product certkit >/dev/null
swift build --product certkit-benchmarks >/dev/null
bin=$(swift build --show-bin-path)
dir=.build/bulkscan-test
rm -rf "$dir"
"$bin/certkit-benchmarks" --write-corpus "$dir" --count "$lines" >/dev/null
options=(--anchors "$dir/anchors.pem" --at 2030-06-01)

status=0
"$bin/certkit" evaluate "${options[@]}" --batch "$dir/corpus.ndjson" >"$dir/single.ndjson" || status=$?
[ "$status" = 10 ] || { echo "bulkscan test: the single run exited $status, expected 10" >&2; exit 1; }

status=0
"$venv/bin/python" Samples/BulkScan/bulkscan.py --local 2 --input "$dir/corpus.ndjson" --output "$dir/cluster.ndjson" \
    --certkit "$bin/certkit" --shard-mb 0.5 --jobs 1 -- "${options[@]}" || status=$?
[ "$status" = 10 ] || { echo "bulkscan test: the cluster run exited $status, expected 10" >&2; exit 1; }

"$venv/bin/python" - "$dir/corpus.ndjson" "$dir/single.ndjson" "$dir/cluster.ndjson" <<'PY'
import collections, json, sys
corpus, single, cluster = ([json.loads(line) for line in open(path)] for path in sys.argv[1:4])
ids = [request["id"] for request in corpus]
seen = collections.Counter(result.get("id") for result in cluster)
missing = [i for i in ids if seen[i] == 0]
repeated = [i for i, n in seen.items() if n > 1]
extra = [i for i in seen if i not in set(ids)]
verdict = lambda r: (r.get("id"), r.get("result"), (r.get("error") or {}).get("check"))
by_id = {r["id"]: r for r in single}
differ = [r["id"] for r in cluster if r.get("id") in by_id and r != by_id[r["id"]]]
print(f"bulkscan test: {len(corpus)} lines in, {len(cluster)} out; missing {len(missing)}, repeated {len(repeated)}, "
      f"unknown {len(extra)}, verdicts differing from the single run {len(differ)}; "
      f"{collections.Counter(r['result'] for r in cluster)}", file=sys.stderr)
ok = not missing and not repeated and not extra and not differ and [verdict(r) for r in cluster] == [verdict(r) for r in single]
sys.exit(0 if ok else 1)
PY
cmp "$dir/single.ndjson" "$dir/cluster.ndjson"
echo "bulkscan test: passed (identical to the single --batch run)" >&2
