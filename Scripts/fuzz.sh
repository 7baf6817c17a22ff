#!/usr/bin/env bash
# Fuzzes certkit's decoders (PEM, format detection, X.509 and CRL parsing) with libFuzzer + AddressSanitizer.
#
#   Scripts/fuzz.sh [SECONDS]        default 600
#
# Builds the CertKitFuzz product in release mode with -DFUZZING into .build/fuzz, seeds a corpus from Samples/
# (if present) and the system CA bundle (split into single PEM and DER files), then runs for SECONDS.
# Everything it writes stays under .build/fuzz (ignored by git): corpus/, artifacts/ (crash-*, leak-*, timeout-*)
# and fuzz.log. Exits non-zero when libFuzzer found a crash.
set -euo pipefail

seconds="${1:-600}"
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
work="$root/.build/fuzz"
corpus="$work/corpus"
seeds="$work/seeds"
artifacts="$work/artifacts"
mkdir -p "$corpus" "$seeds" "$artifacts"

# -sanitize=fuzzer instruments for coverage and links libFuzzer; the @main entry calls LLVMFuzzerRunDriver.
# (The file always contains @main, so SwiftPM already parses it as a library; no -parse-as-library needed.)
swift build -c release --scratch-path "$work" --product CertKitFuzz \
    -Xswiftc -DFUZZING -Xswiftc -sanitize=fuzzer,address
binary="$work/release/CertKitFuzz"

# Seeds: every certificate of the system bundle as PEM and DER, plus Samples/ files and their DER forms.
if [ -r /etc/ssl/certs/ca-certificates.crt ]; then
    awk -v dir="$seeds" '/-----BEGIN/ { n++; file = sprintf("%s/system-%03d.pem", dir, n) } file { print > file } /-----END/ { close(file); file = "" }' \
        /etc/ssl/certs/ca-certificates.crt
fi
if [ -d Samples ]; then
    find Samples -maxdepth 2 -type f \( -name '*.pem' -o -name '*.crt' -o -name '*.der' -o -name '*.p7b' -o -name '*.crl' \) \
        -exec cp {} "$seeds/" \;
fi
for pem in "$seeds"/*.pem; do
    [ -e "$pem" ] || continue
    openssl x509 -in "$pem" -outform DER -out "${pem%.pem}.der" 2>/dev/null || true
done

echo "fuzz: $(ls "$seeds" | wc -l) seed files; running for ${seconds}s; artifacts in $artifacts"
set +e
nice "$binary" "$corpus" "$seeds" \
    -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$artifacts/" -print_final_stats=1 2>&1 | tee "$work/fuzz.log" | grep -E "^#[0-9]+.*(pulse|DONE)|ERROR|SUMMARY|stat::"
status=${PIPESTATUS[0]}
set -e
crashes=$(find "$artifacts" -name 'crash-*' -o -name 'leak-*' -o -name 'oom-*' -o -name 'timeout-*' | wc -l)
echo "fuzz: exit $status, $crashes artifact(s) in $artifacts"
exit "$status"
