#!/usr/bin/env bash
# The name-constraint matrix: generates BetterTLS-style chains root → intermediate (nameConstraints) →
# leaf with Scripts/ncmatrix/generate.py, runs every one through `certkit evaluate --batch` with --backend openssl
# and --backend gnutls, and compares the verdicts with each other and with the generator's rule model
# (Scripts/ncmatrix/model.py). Exit 1 on any backend disagreement (or a batch error line); model disagreements
# fail too with --gate backend,model. Docs: Tests/Fixtures/README.md, "Name-constraint matrix".
#
# usage: Scripts/ncmatrix.sh [--certkit PATH] [--mode default|audit|both] [--ci] [--gate backend[,model]|none]
#                            [--out DIR] [--jobs N] [--pyca]
#   --certkit PATH  the certkit binary (default .build/release/certkit, built with `swift build -c release` when missing)
#   --mode          default (certkit's rules alone), audit (--audit: the libraries' verifiers too) or both (default)
#   --ci            the subset of generate.py --ci (two subject forms instead of seven)
#   --out DIR       generated chains, verdicts and reports (default .build/ncmatrix)
#   --gate KINDS    what fails the run: backend (default), backend,model, or none (report only)
#   --jobs N        batch worker threads (default 2)
#   --pyca          also check the model against pyca/cryptography (Scripts/ncmatrix/pyca_crosscheck.py, with the
#                   differential tester's venv .build/differential-venv, made by Scripts/differential.sh): exit 1 on
#                   a difference that no documented rule explains
set -euo pipefail
cd "$(dirname "$0")/.."
certkit=.build/release/certkit mode=both ci="" gate=backend out=.build/ncmatrix jobs=2 pyca=""
while [ $# -gt 0 ]; do
    case "$1" in
        --certkit) certkit="$2"; shift 2 ;;
        --mode) mode="$2"; shift 2 ;;
        --ci) ci=--ci; shift ;;
        --gate) gate="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --jobs) jobs="$2"; shift 2 ;;
        --pyca) pyca=1; shift ;;
        *) echo "usage: $0 [--certkit PATH] [--mode default|audit|both] [--ci] [--gate backend[,model]|none] [--out DIR] [--jobs N] [--pyca]" >&2; exit 2 ;;
    esac
done
case "$mode" in default) modes=default ;; audit) modes=audit ;; both) modes="default audit" ;;
    *) echo "$0: --mode is default, audit or both" >&2; exit 2 ;; esac
if [ "$certkit" = .build/release/certkit ]; then
    if [ ! -x "$certkit" ] || [ -n "$(find Sources Package.swift -newer "$certkit" -print -quit 2>/dev/null)" ]; then
        echo "ncmatrix: building certkit (release)" >&2
        swift build -c release --product certkit >&2
    fi
elif [ ! -x "$certkit" ]; then
    echo "$0: $certkit: not an executable" >&2; exit 2
fi
python3 Scripts/ncmatrix/generate.py --out "$out" $ci
status=0
if [ -n "$pyca" ]; then
    [ -x .build/differential-venv/bin/python ] || { echo "$0: --pyca needs .build/differential-venv (Scripts/differential.sh makes it)" >&2; exit 2; }
    .build/differential-venv/bin/python Scripts/ncmatrix/pyca_crosscheck.py --matrix "$out" || status=1
fi
for m in $modes; do
    audit=(); [ "$m" = audit ] && audit=(--audit)
    for backend in openssl gnutls; do
        start=$(date +%s.%N)
        # Exit 10 (some chain not trusted) is the expected outcome; 1 (an error line) is caught by compare.py.
        rc=0
        "$certkit" evaluate --anchors "$out/root.pem" --at 2030-06-01T00:00:00Z --backend "$backend" ${audit[@]+"${audit[@]}"} \
            --jobs "$jobs" --batch "$out/cases.ndjson" > "$out/$m-$backend.ndjson" || rc=$?
        if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ] && [ "$rc" -lt 10 ]; then
            echo "$0: certkit evaluate --batch ($m, $backend) exited $rc" >&2; exit 1
        fi
        printf '  %s, %s: %.1f s\n' "$m" "$backend" "$(echo "$(date +%s.%N) - $start" | bc)"
    done
    python3 Scripts/ncmatrix/compare.py "$out/expected.ndjson" "$out/$m-openssl.ndjson" "$out/$m-gnutls.ndjson" \
        --mode "$m" --gate "$gate" --report "$out/$m-report.txt" || status=1
done
exit $status
