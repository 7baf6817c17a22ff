#!/usr/bin/env bash
# Fuzzes everything in certkit that takes bytes from outside, one libFuzzer target at a time, with
# AddressSanitizer: the decoders (pem, bundle, x509, crl, ocsp, pkcs7) and the evaluation of fuzzed chains on each
# backend (chain-openssl, chain-gnutls). Targets are described in Tests/Fuzz/FuzzTarget.swift.
#
#   Scripts/fuzz.sh [TARGET ...] [--seconds N]   fuzz each TARGET (default: all) for N seconds (default 600)
#   Scripts/fuzz.sh SECONDS                      every target, SECONDS each
#   Scripts/fuzz.sh --ci                         every target for 45 s on its committed corpus (~6 min + build)
#   Scripts/fuzz.sh --merge TARGET ...           add inputs from the working corpus that raise coverage (<= 4 KB
#                                                each) to the committed corpus Tests/Fuzz/Corpus/TARGET
#   Scripts/fuzz.sh --list                       the targets
#   --no-build                                   use the fuzzer already built (long runs while the sources change)
#
# Inputs up to 1 MB (-max_len=1048576); an input taking more than 1 s is a failure (-timeout=1), slow units are
# reported (-report_slow_units=1). A timeout or slow unit is run again alone: if it then finishes in time it was a
# scheduling stall of a busy shared machine (moved to .build/fuzz/artifacts/TARGET/stalls/) and fuzzing resumes for
# the rest of the time; if it is slow again it is a finding. The committed corpus Tests/Fuzz/Corpus/TARGET seeds
# every run (regenerate its seeds with Scripts/fixtures.sh --set fuzz-corpus); what libFuzzer finds goes to
# .build/fuzz/corpus/TARGET, crashes, leaks, timeouts and OOMs to .build/fuzz/artifacts/TARGET/, logs to
# .build/fuzz/TARGET.log (all ignored by git). Reproduce an artifact with `.build/fuzz/release/CertKitFuzz ARTIFACT` and
# CERTKIT_FUZZ_TARGET=TARGET, or without sanitizers with `swift run CertKitFuzz TARGET ARTIFACT`.
# Exits non-zero when any target found a failure.
set -euo pipefail

all_targets=(pem bundle x509 crl ocsp pkcs7 chain-openssl chain-gnutls)
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
work="$root/.build/fuzz"

seconds=600
mode=fuzz
build=yes
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --ci) mode=ci; seconds=45 ;;
        --merge) mode=merge ;;
        --list) printf '%s\n' "${all_targets[@]}"; exit 0 ;;
        --no-build) build=no ;;
        --seconds) seconds="$2"; shift ;;
        -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        [0-9]*) seconds="$1" ;;
        *)
            if [[ " ${all_targets[*]} " != *" $1 "* ]]; then
                echo "fuzz: unknown target '$1' (targets: ${all_targets[*]})" >&2
                exit 2
            fi
            targets+=("$1") ;;
    esac
    shift
done
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")

# -sanitize=fuzzer instruments the Swift code for coverage and links libFuzzer; the @main entry calls
# LLVMFuzzerRunDriver.
if [ "$build" = yes ]; then
    swift build -c release --scratch-path "$work" --product CertKitFuzz -Xswiftc -DFUZZING -Xswiftc -sanitize=fuzzer,address
fi
binary="$work/release/CertKitFuzz"

failed=0
for target in "${targets[@]}"; do
    committed="$root/Tests/Fuzz/Corpus/$target"
    corpus="$work/corpus/$target"
    artifacts="$work/artifacts/$target"
    mkdir -p "$committed" "$corpus" "$artifacts"
    if [ "$mode" = merge ]; then
        # Only inputs that add coverage to what is committed, and only small ones.
        CERTKIT_FUZZ_TARGET="$target" "$binary" -merge=1 -max_len=4096 "$committed" "$corpus" >"$work/$target.merge.log" 2>&1
        echo "fuzz: $target: $(ls "$committed" | wc -l) committed inputs, $(du -sh "$committed" | cut -f1)"
        continue
    fi
    dirs=("$corpus" "$committed")  # new inputs go to the working corpus; the committed one only seeds
    deadline=$((SECONDS + seconds))
    runs=0
    restarts=0
    : >"$work/$target.log"
    while [ $((deadline - SECONDS)) -gt 0 ]; do
        set +e
        CERTKIT_FUZZ_TARGET="$target" nice "$binary" "${dirs[@]}" \
            -max_total_time=$((deadline - SECONDS)) -max_len=1048576 -timeout=1 -report_slow_units=1 \
            -rss_limit_mb=2048 -artifact_prefix="$artifacts/" -print_final_stats=1 >>"$work/$target.log" 2>&1
        status=$?
        set -e
        last=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/$target.log" | tail -1 | grep -o '[0-9]*$' || true)
        runs=$((runs + ${last:-0}))
        # A timeout or slow unit that is not slow again alone was a stall; anything else is a finding.
        for unit in "$artifacts"/timeout-* "$artifacts"/slow-unit-*; do
            [ -e "$unit" ] || continue
            if CERTKIT_FUZZ_TARGET="$target" "$binary" -timeout=1 "$unit" >/dev/null 2>&1; then
                mkdir -p "$artifacts/stalls"
                mv "$unit" "$artifacts/stalls/"
            fi
        done
        [ "$status" -eq 0 ] && break
        restarts=$((restarts + 1))
        if [ -n "$(find "$artifacts" -maxdepth 1 -type f)" ] || [ "$restarts" -gt 50 ]; then break; fi
    done
    found=$(find "$artifacts" -maxdepth 1 -type f | wc -l)
    stalls=0
    [ -d "$artifacts/stalls" ] && stalls=$(find "$artifacts/stalls" -type f | wc -l)
    echo "fuzz: $target: $runs executions in ${seconds}s, $found finding(s) in $artifacts" \
        "($restarts restart(s); $stalls stall(s) that did not reproduce)"
    if [ "$found" -ne 0 ] || [ "$restarts" -gt 50 ]; then
        failed=1
        grep -E "ERROR|SUMMARY|Fatal error|Precondition failed" "$work/$target.log" | head -5 || true
    fi
done
exit "$failed"
